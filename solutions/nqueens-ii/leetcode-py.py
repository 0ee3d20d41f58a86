# N-Queens II as LeetCode 52 states it: a method of `class Solution`, with no input or output
# of its own; the judge's harness reads n and prints the count. The mirror-halved bitmask
# search of `py-mirror.py`, as fast: close to the limit at n = 14 (expected "AC or TLE").
class Solution:
    def totalNQueens(self, n: int) -> int:
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
