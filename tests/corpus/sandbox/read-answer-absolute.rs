// expect: WA
// unsandboxed: AC
// why: reads the answer by the workspace's absolute path (@WORKSPACE@ is put in before judging) and prints it; sandboxed, the workspace is out of its reach and it has no answer to print.
fn main() {
    match std::fs::read_to_string("@WORKSPACE@/testcases/double/1.out") {
        Ok(answer) => print!("{answer}"),
        Err(e) => println!("no answer: {e}"),
    }
}
