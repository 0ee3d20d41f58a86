// N-Queens: the bitmask search of bitmask-boards.rs with a bug: after the last board
// it prints the last board once more (as a loop that runs one step too far
// would). The count on the first line is right; the checker must notice the
// repeated board.
// Expected verdict: Wrong Answer (from n = 1 on: board 2 repeats board 1).

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

    if let Some(last) = boards.last().cloned() {
        boards.push(last);
    }
    let mut out = format!("{}\n", boards.len() - usize::from(!boards.is_empty())).into_bytes();
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
