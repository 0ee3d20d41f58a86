// LeetCode 52 as its Java editor gives it: the method of class Solution, judged through the
// harness. Bitmask backtracking: the free columns of each row are the bits no queen attacks.
class Solution {
    public int totalNQueens(int n) {
        return place((1 << n) - 1, 0, 0, 0);
    }

    // cols, left, right: the columns attacked in this row vertically and along each diagonal.
    private int place(int full, int cols, int left, int right) {
        if (cols == full) return 1;
        int count = 0;
        for (int free = full & ~(cols | left | right); free != 0; free &= free - 1) {
            int bit = free & -free;
            count += place(full, cols | bit, (left | bit) << 1, (right | bit) >> 1);
        }
        return count;
    }
}
