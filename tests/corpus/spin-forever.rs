// expect: TLE
// why: busy-loops forever without output, so it burns CPU past the time limit.
fn main() {
    let mut x: u64 = 0;
    loop {
        x = std::hint::black_box(x.wrapping_add(1));
    }
}
