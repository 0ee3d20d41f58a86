// {{problem}}: {{title}}
// Judge it with `judge run {{name}}`; `judge show {{problem}}` shows the statement.
use std::io::{self, BufWriter, Read, Write};

fn main() {
    // Read all of stdin at once and walk its whitespace-separated tokens.
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let mut next = || tokens.next().expect("the input ended early");

    // Everything printed goes through one buffer, written out once at the end.
    let out = &mut BufWriter::new(io::stdout().lock());

    let n: i64 = next().parse().unwrap();
    let answer = n;
    writeln!(out, "{answer}").unwrap();

    // Debug output that the judge's build leaves out (it compiles with --cfg online_judge):
    #[cfg(not(online_judge))]
    eprintln!("n = {n}");
}
