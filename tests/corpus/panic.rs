// expect: RE
// why: prints the right answer, then panics (exit status 101).
fn main() {
    println!("42");
    panic!("deliberate panic after printing the answer");
}
