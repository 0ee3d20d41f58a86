// expect: AC
// expect-exact: WA
// why: prints "42   \n\n\n": the same tokens, but not byte-identical to the answer "42\n".
fn main() {
    print!("42   \n\n\n");
}
