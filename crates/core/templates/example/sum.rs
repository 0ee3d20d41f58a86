// A + B: the example problem's reference solution.
use std::io::{self, BufWriter, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let mut next = || -> i64 { tokens.next().expect("two integers").parse().unwrap() };
    let (a, b) = (next(), next());
    let out = &mut BufWriter::new(io::stdout().lock());
    writeln!(out, "{}", a + b).unwrap();
}
