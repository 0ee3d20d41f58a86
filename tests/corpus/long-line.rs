// expect: WA
// why: prints 42 and then, on the same line, a 200,000-character token (about 200 KB, under the output limit): an extra token.
fn main() {
    println!("42 {}", "x".repeat(200_000));
}
