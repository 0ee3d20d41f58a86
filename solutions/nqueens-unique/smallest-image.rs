// N-Queens, boards distinct under symmetry, the direct way: enumerate every
// board with the bitmask search (as nqueens-ii/bitmask.rs does) and count a
// board only if it is the smallest of its 8 images under the rotations and
// reflections of the square. Each class of boards has exactly one smallest
// member, so each class is counted once.
// Expected verdict: Accepted (about 8 images per board: some times slower than
// eightfold-classes.rs).

use std::io::Read;

const MAX_N: usize = 16;

struct Search {
    n: usize,
    full: u32,
    /// pos[row] is the column of that row's queen.
    pos: [usize; MAX_N],
    classes: u64,
}

impl Search {
    fn place(&mut self, row: usize, cols: u32, left: u32, right: u32) {
        if row == self.n {
            if self.is_smallest() {
                self.classes += 1;
            }
            return;
        }
        let mut free = self.full & !(cols | left | right);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.pos[row] = bit.trailing_zeros() as usize;
            self.place(
                row + 1,
                cols | bit,
                ((left | bit) << 1) & self.full,
                (right | bit) >> 1,
            );
        }
    }

    /// Whether no image of the board (row -> column) is lexicographically smaller.
    fn is_smallest(&self) -> bool {
        let n = self.n;
        let pos = &self.pos[..n];
        let last = n - 1;
        // The 7 other symmetries of the square, as maps of a queen (r, c) to (r', c').
        let maps: [fn(usize, usize, usize) -> (usize, usize); 7] = [
            |r, c, l| (c, l - r),     // quarter turn
            |r, c, l| (l - r, l - c), // half turn
            |r, c, l| (l - c, r),     // three-quarter turn
            |r, c, l| (r, l - c),     // mirror left-right
            |r, c, l| (l - r, c),     // mirror top-bottom
            |r, c, _| (c, r),         // transpose
            |r, c, l| (l - c, l - r), // anti-transpose
        ];
        let mut image = [0usize; MAX_N];
        for map in maps {
            for (r, &c) in pos.iter().enumerate() {
                let (r2, c2) = map(r, c, last);
                image[r2] = c2;
            }
            if image[..n] < *pos {
                return false;
            }
        }
        true
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let n: usize = input.trim().parse().unwrap();

    let mut search = Search {
        n,
        full: (1u32 << n) - 1,
        pos: [0; MAX_N],
        classes: 0,
    };
    search.place(0, 0, 0, 0);
    println!("{}", search.classes);
}
