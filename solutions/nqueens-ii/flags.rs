// N-Queens II: row-by-row backtracking with boolean arrays marking the
// occupied columns and diagonals.
// Expected verdict: Accepted with a time limit of 2 s or more (about 1.5 s
// CPU at n = 14, roughly 7x slower than bitmask.rs); too slow for a 1 s limit.

use std::io::Read;

struct Board {
    n: usize,
    // Occupancy flags make each safety test O(1) instead of rescanning the
    // queens already placed.
    column: Vec<bool>,
    // "/" diagonals: row + col is constant along them.
    rising: Vec<bool>,
    // "\" diagonals: row - col is constant; shifted by n - 1 to be >= 0.
    falling: Vec<bool>,
}

impl Board {
    fn new(n: usize) -> Self {
        Board {
            n,
            column: vec![false; n],
            rising: vec![false; 2 * n - 1],
            falling: vec![false; 2 * n - 1],
        }
    }

    /// Number of ways to complete the board, given queens in rows 0..row.
    fn count_from(&mut self, row: usize) -> u64 {
        if row == self.n {
            return 1;
        }
        let mut total = 0;
        for c in 0..self.n {
            let r = row + c;
            let f = row + self.n - 1 - c;
            if self.column[c] || self.rising[r] || self.falling[f] {
                continue;
            }
            self.column[c] = true;
            self.rising[r] = true;
            self.falling[f] = true;
            total += self.count_from(row + 1);
            // Undo so that the next candidate column starts from the same state.
            self.column[c] = false;
            self.rising[r] = false;
            self.falling[f] = false;
        }
        total
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let n: usize = input.trim().parse().unwrap();

    println!("{}", Board::new(n).count_from(0));
}
