// expect: TLE
// why: four spawned threads and the main thread busy-loop forever; CPU time is summed over threads, so it passes the limit even sooner in wall time.
fn main() {
    for _ in 0..4 {
        std::thread::spawn(|| {
            let mut x: u64 = 0;
            loop {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        });
    }
    let mut x: u64 = 0;
    loop {
        x = std::hint::black_box(x.wrapping_add(1));
    }
}
