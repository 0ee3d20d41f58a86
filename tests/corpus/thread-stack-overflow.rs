// expect: RE
// why: a thread with a 64 KiB stack recurses without end; Rust reports the overflow and aborts (SIGABRT) long before memory matters.
use std::hint::black_box;

#[inline(never)]
fn deeper(n: u64) -> u64 {
    let frame = black_box([n; 8]);
    deeper(frame[0] + 1) + frame[7]
}

fn main() {
    let t = std::thread::Builder::new()
        .stack_size(64 << 10)
        .spawn(|| deeper(black_box(0)))
        .unwrap();
    println!("{}", t.join().unwrap());
}
