// N-Queens: the bitmask search of bitmask-boards.rs, printing the boards in the
// reverse of the order it finds them. The statement allows any order, so the
// checker must accept this as readily as the order the answers are in.
// Expected verdict: Accepted.

use std::io::{Read, Write};

/// Appends every completion of `rows` (the bit of each placed queen) to `boards`.
fn solve(
    full: u32,
    cols: u32,
    left: u32,
    right: u32,
    rows: &mut Vec<u32>,
    boards: &mut Vec<Vec<u32>>,
) {
    if cols == full {
        boards.push(rows.clone());
        return;
    }
    let mut free = full & !(cols | left | right);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        rows.push(bit);
        solve(
            full,
            cols | bit,
            ((left | bit) << 1) & full,
            (right | bit) >> 1,
            rows,
            boards,
        );
        rows.pop();
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let n: usize = input.trim().parse().unwrap();

    let full = (1u32 << n) - 1;
    let mut boards = Vec::new();
    solve(full, 0, 0, 0, &mut Vec::new(), &mut boards);

    boards.reverse();
    let mut out = format!("{}\n", boards.len()).into_bytes();
    for (i, board) in boards.iter().enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        for &bit in board {
            // Bit c is column c.
            out.extend((0..n).map(|c| if bit >> c & 1 == 1 { b'Q' } else { b'.' }));
            out.push(b'\n');
        }
    }
    std::io::stdout().write_all(&out).unwrap();
}
