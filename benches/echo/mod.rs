//! What the benchmarks of the judge's own cost share: the echo solution, the number of its
//! cases, and the median the figures are given as.

/// The trivial solution: echo its input.
pub(crate) const ECHO: &str = r#"
use std::io::{Read, Write};
fn main() {
    let mut s = Vec::new();
    std::io::stdin().read_to_end(&mut s).unwrap();
    std::io::stdout().write_all(&s).unwrap();
}
"#;

/// Tiny cases, so that what is measured is the judge around them.
pub(crate) const CASES: usize = 1000;

pub(crate) fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}
