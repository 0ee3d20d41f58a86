// N-Queens, boards distinct under symmetry: the search of
// nqueens-ii/eightfold.rs, which visits one board per class of solutions under
// the 8 symmetries of the square (the corner / non-corner split known as the
// "takaken" method) and sorts each class by its number of distinct boards.
// Here the classes are only counted: C2 + C4 + C8 (N-Queens II weights them,
// 2 C2 + 4 C4 + 8 C8, to count every board).
// Expected verdict: Accepted (the fast solution).
//
// Method. For n > 1 no solution is its own mirror image under any reflection,
// so a class holds 2 boards (symmetric under a quarter turn), 4 (symmetric
// under a half turn only) or 8 (no symmetry): Total = 2*C2 + 4*C4 + 8*C8.
//
// * Corner boards. Two corners always share a row, column or diagonal, so at
//   most one corner holds a queen; rotate it to the top-left. The only other
//   image keeping it there is the transpose, which swaps "column of the queen
//   in row 1" with "row of the queen in column 1". These never coincide, so
//   the search keeps the board where the row-1 queen's column is the smaller.
//   A corner queen rules out rotational symmetry: all such classes are C8.
// * Other boards. Let d be the least distance, along the edge, from a queen on
//   the border to its nearest corner. Put such a queen in the top row, in the
//   left half (column d < n-1-d), and forbid border queens closer than d to a
//   corner: nothing in the outer columns above row d or below row n-1-d, and
//   nothing within d of a corner in the last row. The boards of one class that
//   obey these rules are all rotations of each other (a reflected one would
//   need two queens on one line), so the search keeps the lexicographically
//   smallest and compares it only with those of its rotations that obey the
//   rules too; being equal to its quarter or half turn gives its class size.

use std::io::Read;

const MAX_N: usize = 32;

struct Search {
    n: usize,
    /// One bit per column of the board.
    full: u32,
    /// board[row] is the bit of that row's queen.
    board: [u32; MAX_N],
    /// The distance d above, and the row n-1-d.
    bound1: usize,
    bound2: usize,
    /// The two outer columns.
    side_mask: u32,
    /// Last-row columns closer than d to a corner.
    last_mask: u32,
    c2: u64,
    c4: u64,
    c8: u64,
}

impl Search {
    fn new(n: usize) -> Self {
        let top = 1u32 << (n - 1);
        Search {
            n,
            full: (1u32 << n) - 1,
            board: [0; MAX_N],
            bound1: 0,
            bound2: 0,
            side_mask: top | 1,
            last_mask: top | 1,
            c2: 0,
            c4: 0,
            c8: 0,
        }
    }

    /// Completes boards with the queen of row 0 in column 0 and the queen of
    /// row 1 in column `bound1`.
    fn corner(&mut self, y: usize, left: u32, down: u32, right: u32) {
        let mut free = self.full & !(left | down | right);
        if y == self.n - 1 {
            if free != 0 {
                self.c8 += 1;
            }
            return;
        }
        // Of a board and its transpose, keep the one whose column-1 queen is
        // farther from the corner than its row-1 queen (which is in column
        // bound1): no queen in column 1 above row bound1.
        if y < self.bound1 {
            free &= !2;
        }
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.corner(
                y + 1,
                ((left | bit) << 1) & self.full,
                down | bit,
                (right | bit) >> 1,
            );
        }
    }

    /// Completes boards whose top-row queen is in column `bound1`, keeping
    /// every other border queen at least that far from the corners.
    fn edge(&mut self, y: usize, left: u32, down: u32, right: u32) {
        let mut free = self.full & !(left | down | right);
        if y == self.n - 1 {
            if free != 0 && free & self.last_mask == 0 {
                self.board[y] = free;
                self.classify();
            }
            return;
        }
        if y < self.bound1 {
            free &= !self.side_mask;
        } else if y == self.bound2 {
            // Both outer columns must be taken by this row at the latest.
            let sides = down & self.side_mask;
            if sides == 0 {
                return;
            }
            if sides != self.side_mask {
                free &= self.side_mask;
            }
        }
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.board[y] = bit;
            self.edge(
                y + 1,
                ((left | bit) << 1) & self.full,
                down | bit,
                (right | bit) >> 1,
            );
        }
    }

    /// Counts the finished non-corner board if it is the smallest of the
    /// searchable images of its class.
    fn classify(&mut self) {
        let n = self.n;
        let d = self.bound1;
        let mut pos = [0usize; MAX_N];
        for (p, &b) in pos.iter_mut().zip(&self.board[..n]) {
            *p = b.trailing_zeros() as usize;
        }
        let pos = &pos[..n];

        // Each rotated image is generated only if its top-row queen is in
        // column d, the test for it being one of the boards the search visits.
        // Quarter turn: (r, c) -> (c, n-1-r).
        if pos[self.bound2] == 0 {
            let mut quarter = [0usize; MAX_N];
            for (r, &c) in pos.iter().enumerate() {
                quarter[c] = n - 1 - r;
            }
            match pos.cmp(&quarter[..n]) {
                std::cmp::Ordering::Greater => return,
                std::cmp::Ordering::Equal => {
                    self.c2 += 1;
                    return;
                }
                std::cmp::Ordering::Less => {}
            }
        }
        // Half turn: (r, c) -> (n-1-r, n-1-c).
        if pos[n - 1] == n - 1 - d {
            let mut half = [0usize; MAX_N];
            for (r, &c) in pos.iter().enumerate() {
                half[n - 1 - r] = n - 1 - c;
            }
            match pos.cmp(&half[..n]) {
                std::cmp::Ordering::Greater => return,
                std::cmp::Ordering::Equal => {
                    self.c4 += 1;
                    return;
                }
                std::cmp::Ordering::Less => {}
            }
        }
        // Three-quarter turn: (r, c) -> (n-1-c, r). It cannot equal the board
        // here, since that would make the board equal to its quarter turn too.
        if pos[d] == n - 1 {
            let mut three = [0usize; MAX_N];
            for (r, &c) in pos.iter().enumerate() {
                three[n - 1 - c] = r;
            }
            if pos > &three[..n] {
                return;
            }
        }
        self.c8 += 1;
    }

    fn run(&mut self) {
        let n = self.n;
        // Corner boards: the row-1 queen cannot be in columns 0 or 1 (attacked)
        // nor in column n-1 (the column-1 queen would have to lie below it).
        self.board[0] = 1;
        for b1 in 2..n.saturating_sub(1) {
            self.bound1 = b1;
            let bit = 1u32 << b1;
            self.board[1] = bit;
            self.corner(2, ((2 | bit) << 1) & self.full, 1 | bit, bit >> 1);
        }

        // Other boards, by the distance d of the top-row queen from the corner.
        let mut d = 1;
        while d < n - 1 - d {
            self.bound1 = d;
            self.bound2 = n - 1 - d;
            let bit = 1u32 << d;
            self.board[0] = bit;
            self.edge(1, (bit << 1) & self.full, bit, bit >> 1);
            self.last_mask |= ((self.last_mask << 1) | (self.last_mask >> 1)) & self.full;
            d += 1;
        }
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let n: usize = input.trim().parse().unwrap();

    // A lone queen is the one board that is its own image under every symmetry.
    if n == 1 {
        println!("1");
        return;
    }
    let mut search = Search::new(n);
    search.run();
    println!("{}", search.c2 + search.c4 + search.c8);
}
