// expect: AC
// why: writes 16 MiB to stderr (more than any pipe buffer) and then prints 42; a judge that does not drain stderr would deadlock it.
use std::io::Write;

fn main() {
    let mut err = std::io::stderr().lock();
    let block = vec![b'e'; 1 << 20];
    for _ in 0..16 {
        let _ = err.write_all(&block);
    }
    drop(err);
    println!("42");
}
