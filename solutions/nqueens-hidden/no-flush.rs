// Hidden Queens: the binary search, but its questions wait in a buffer that is never flushed.
// Expected verdict: Time Limit Exceeded (each side waits for the other until the wall-clock
// cap; the judge says so: "idle: both sides waiting").

use std::io::{BufRead, BufWriter, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let n: usize = input.next().unwrap().unwrap().trim().parse().unwrap();
    let mut cols = Vec::new();
    for r in 1..=n {
        let (mut lo, mut hi) = (1, n);
        loop {
            let mid = (lo + hi) / 2;
            writeln!(out, "? {r} {mid}").unwrap();
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
}
