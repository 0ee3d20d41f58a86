// expect: RE or MLE
// why: recurses without end; the stack either hits its limit (Rust reports the overflow and aborts: RE) or its pages push resident memory over the limit first (MLE).
use std::hint::black_box;

#[inline(never)]
fn down(n: u64) -> u64 {
    if n == u64::MAX {
        return 0;
    }
    let below = down(black_box(n + 1));
    black_box(below) + 1
}

fn main() {
    println!("{}", down(black_box(0)));
}
