// N-Queens II: brute force over all n^n column lists (one queen per row),
// each checked pair by pair with no pruning at all.
// Expected verdict: Time Limit Exceeded (n^n * n(n-1)/2 pair checks: about
// 0.5 s at n = 8, 12 s at n = 9, minutes beyond). Correct for small n.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let n: usize = input.trim().parse().unwrap();

    // cols[row] is the column of the queen in that row: a number with n digits
    // in base n, counted up like an odometer from 00..0 to (n-1)(n-1)..(n-1).
    let mut cols = vec![0usize; n];
    let mut count: u64 = 0;

    'lists: loop {
        // Deliberately no early exit: every pair of every list is examined,
        // so that this solution does the full n^n * n(n-1)/2 amount of work.
        let mut ok = true;
        for i in 0..n {
            for j in i + 1..n {
                let same_column = cols[i] == cols[j];
                let same_diagonal = cols[i].abs_diff(cols[j]) == j - i;
                ok &= !same_column & !same_diagonal;
            }
        }
        count += ok as u64;

        // Advance the odometer; a carry out of the last digit means every
        // list has been seen.
        let mut digit = 0;
        loop {
            if digit == n {
                break 'lists;
            }
            cols[digit] += 1;
            if cols[digit] < n {
                break;
            }
            cols[digit] = 0;
            digit += 1;
        }
    }

    println!("{}", count);
}
