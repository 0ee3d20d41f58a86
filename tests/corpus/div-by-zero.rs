// expect: RE
// why: divides by a zero read from the input (21 - 21); Rust checks the divisor and panics (exit status 101), no signal.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: i64 = s.trim().parse().unwrap();
    let zero = n - 21;
    println!("{}", 2 * n / zero);
}
