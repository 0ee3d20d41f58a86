// Hidden Queens: a binary search on each row's column, flushing after each question.
// Expected verdict: Accepted (at most ceil(log2(n + 1)) questions per row).

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    let n: usize = input.next().unwrap().unwrap().trim().parse().unwrap();
    let mut cols = Vec::new();
    for r in 1..=n {
        let (mut lo, mut hi) = (1, n);
        loop {
            let mid = (lo + hi) / 2;
            writeln!(out, "? {r} {mid}").unwrap();
            out.flush().unwrap();
            match input.next().unwrap().unwrap().trim() {
                "=" => {
                    cols.push(mid);
                    break;
                }
                "<" => hi = mid - 1,
                _ => lo = mid + 1,
            }
        }
    }
    let named: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
    writeln!(out, "! {}", named.join(" ")).unwrap();
    out.flush().unwrap();
}
