// expect: AC
// expect-exact: WA
// why: prints "42" without a newline: the same tokens, but not byte-identical to the answer "42\n".
fn main() {
    print!("42");
}
