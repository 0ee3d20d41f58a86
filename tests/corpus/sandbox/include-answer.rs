// expect: CE
// unsandboxed: AC
// why: include_str! of the answer file by its absolute path: sandboxed, the compiler sees only the source and its toolchain, so it does not compile.
const ANSWER: &str = include_str!("@WORKSPACE@/testcases/double/1.out");

fn main() {
    print!("{ANSWER}");
}
