// N-Queens, boards distinct under symmetry, the tempting shortcut: count every
// board (as nqueens-ii/bitmask.rs does) and divide by 8, the number of
// symmetries of the square, rounding up. It forgets that a board symmetric
// under a half or a quarter turn has only 4 or 2 distinct images: right for
// n <= 6 by luck, wrong from n = 7 on (40 boards, 6 classes, not 5).
// Expected verdict: Wrong Answer.

use std::io::Read;

fn solve(full: u32, cols: u32, left: u32, right: u32) -> u64 {
    if cols == full {
        return 1;
    }
    let mut total = 0;
    let mut free = full & !(cols | left | right);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        total += solve(
            full,
            cols | bit,
            ((left | bit) << 1) & full,
            (right | bit) >> 1,
        );
    }
    total
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let n: u32 = input.trim().parse().unwrap();

    let total = solve((1u32 << n) - 1, 0, 0, 0);
    println!("{}", total.div_ceil(8));
}
