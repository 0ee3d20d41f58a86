// expect: TLE
// why: sleeps 1000 s using no CPU, so only the wall-clock cap can stop it.
fn main() {
    std::thread::sleep(std::time::Duration::from_secs(1000));
    println!("42");
}
