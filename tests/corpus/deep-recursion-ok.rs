// expect: AC
// memory-limit: 256MiB
// why: recurses 2,000,000 levels with 48-byte frames (about 92 MiB of stack), which fits in a stack allowed to grow to the 256 MiB memory limit but not in 64 MiB, then prints 42.
use std::hint::black_box;
use std::io::Read;

#[inline(never)]
fn depth(n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    // A few words of locals the optimizer cannot drop keep each frame at 48 bytes.
    let pad = [n; 4];
    black_box(&pad);
    let below = depth(black_box(n - 1));
    black_box(below) + 1
}

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: u64 = s.trim().parse().unwrap();
    let d = depth(black_box(2_000_000));
    if d == 2_000_000 {
        println!("{}", 2 * n);
    } else {
        println!("wrong depth {}", d);
    }
}
