// N-Queens II as LeetCode 52 states it: a member function of `class Solution`, with no
// input or output of its own; the judge's harness reads n and prints the count. The bitmask
// search of `cpp-bitmask.cpp`, a bit for each column and each diagonal in use.
class Solution {
public:
    int totalNQueens(int n) {
        full = (1 << n) - 1;
        return place(0, 0, 0);
    }

private:
    int full = 0;

    int place(int cols, int d1, int d2) {
        if (cols == full) return 1;
        int total = 0;
        for (int free = full & ~(cols | d1 | d2); free; free &= free - 1) {
            int bit = free & -free;
            total += place(cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1);
        }
        return total;
    }
};
