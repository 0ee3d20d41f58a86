// expect: RE
// why: prints the right answer, then calls std::process::abort (killed by SIGABRT).
fn main() {
    println!("42");
    std::process::abort();
}
