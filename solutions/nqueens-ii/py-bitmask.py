# N-Queens II in Python: the bitmask search of `bitmask.rs`, recursive, one function call per
# partial board. The same 27 million calls that take Rust 0.2 s at n = 14 take CPython about
# 7 s: over the limit (expected TLE), the plain bitmask that times out on the online judges.
import sys


def count(n):
    full = (1 << n) - 1

    def place(cols, d1, d2):
        if cols == full:
            return 1
        total = 0
        free = full & ~(cols | d1 | d2)
        while free:
            bit = free & -free
            free ^= bit
            total += place(cols | bit, (d1 | bit) << 1 & full, (d2 | bit) >> 1)
        return total

    return place(0, 0, 0)


def main():
    n = int(sys.stdin.buffer.read().split()[0])
    print(count(n))


main()
