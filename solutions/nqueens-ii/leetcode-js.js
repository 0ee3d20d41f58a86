// LeetCode 52 as its JavaScript editor gives it, judged through the harness. Bitmask
// backtracking: the free columns of each row are the bits no queen attacks.
/**
 * @param {number} n
 * @return {number}
 */
var totalNQueens = function(n) {
    const full = (1 << n) - 1;
    // cols, left, right: the columns attacked in this row vertically and along each diagonal.
    const place = (cols, left, right) => {
        if (cols === full) return 1;
        let count = 0;
        for (let free = full & ~(cols | left | right); free !== 0; free &= free - 1) {
            const bit = free & -free;
            count += place(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
        }
        return count;
    };
    return place(0, 0, 0);
};
