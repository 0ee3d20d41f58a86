# N-Queens II in Python: the bitmask search, halved by mirror symmetry. A board and its mirror
# image put their first queen in mirrored columns, so only the left half of the first row is
# searched and the count doubled; an odd n adds its middle column once. Half the calls of
# `py-bitmask.py`: about 3.4 s at n = 14, close to the 4 s limit, so its verdict depends on the
# machine (expected "AC or TLE"): the one Python search that fits, just.
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

    total = 0
    for col in range(n // 2):
        bit = 1 << col
        total += place(bit, bit << 1 & full, bit >> 1)
    total *= 2
    if n % 2 == 1:
        bit = 1 << (n // 2)
        total += place(bit, bit << 1 & full, bit >> 1)
    return total


def main():
    n = int(sys.stdin.buffer.read().split()[0])
    print(count(n))


main()
