// expect: WA
// why: prints 2n + 1 (43) instead of 2n, a plain wrong answer that exits cleanly.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: i64 = s.trim().parse().unwrap();
    println!("{}", 2 * n + 1);
}
