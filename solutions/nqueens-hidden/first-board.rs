// Hidden Queens: names the first placement in lexicographic order without asking.
// Expected verdict: Wrong Answer (the interactor has not fixed a board, so from n = 4 on
// more than one fits, and it rejects a guess).

use std::io::{BufRead, Write};

fn first(n: usize, cols: &mut Vec<usize>) -> bool {
    if cols.len() == n {
        return true;
    }
    for c in 1..=n {
        let row = cols.len();
        if cols.iter().enumerate().all(|(r, &q)| q != c && row - r != q.abs_diff(c)) {
            cols.push(c);
            if first(n, cols) {
                return true;
            }
            cols.pop();
        }
    }
    false
}

fn main() {
    let n: usize = std::io::stdin().lock().lines().next().unwrap().unwrap().trim().parse().unwrap();
    let mut cols = Vec::new();
    first(n, &mut cols);
    let named: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
    let mut out = std::io::stdout().lock();
    writeln!(out, "! {}", named.join(" ")).unwrap();
    out.flush().unwrap();
}
