// LeetCode 52 as its Rust editor gives it: an associated function of Solution, judged through
// the harness. Bitmask backtracking: the free columns of each row are the bits no queen attacks.
impl Solution {
    pub fn total_n_queens(n: i32) -> i32 {
        place((1u32 << n) - 1, 0, 0, 0)
    }
}

/// `cols`, `left`, `right`: the columns attacked in this row vertically and along each diagonal.
fn place(full: u32, cols: u32, left: u32, right: u32) -> i32 {
    if cols == full {
        return 1;
    }
    let mut count = 0;
    let mut free = full & !(cols | left | right);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free &= free - 1;
        count += place(full, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
    }
    count
}
