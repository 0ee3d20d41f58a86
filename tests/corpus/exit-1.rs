// expect: RE
// why: prints the right answer, then exits with status 1; a non-zero exit is a runtime error whatever the output.
fn main() {
    println!("42");
    std::process::exit(1);
}
