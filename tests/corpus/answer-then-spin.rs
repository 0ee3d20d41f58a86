// expect: TLE
// why: prints and flushes the right answer, then busy-loops; a correct answer does not excuse exceeding the CPU limit.
use std::io::Write;

fn main() {
    println!("42");
    std::io::stdout().flush().unwrap();
    let mut x: u64 = 0;
    loop {
        x = std::hint::black_box(x.wrapping_add(1));
    }
}
