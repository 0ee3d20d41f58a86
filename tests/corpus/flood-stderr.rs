// expect: TLE
// why: writes 42 to stdout, then writes to stderr forever (ignoring errors); it never ends, and stderr never decides a verdict.
use std::io::Write;

fn main() {
    println!("42");
    std::io::stdout().flush().unwrap();
    let mut err = std::io::stderr().lock();
    let block = b"noise ".repeat(1024);
    loop {
        let _ = err.write_all(&block);
    }
}
