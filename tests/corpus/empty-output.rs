// expect: WA
// why: reads the input and prints nothing, exiting 0; an empty output misses the expected token.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
}
