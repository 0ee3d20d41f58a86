// expect: AC
// why: reads n and prints 2n, the reference behaviour.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: i64 = s.trim().parse().unwrap();
    println!("{}", 2 * n);
}
