// expect: TLE
// why: ignores SIGTERM then sleeps 1000 s; the judge must stop it with SIGKILL at the wall-clock cap.
use std::os::raw::c_int;

extern "C" {
    fn signal(signum: c_int, handler: usize) -> usize;
}

const SIGTERM: c_int = 15;
const SIG_IGN: usize = 1;

fn main() {
    unsafe {
        signal(SIGTERM, SIG_IGN);
    }
    std::thread::sleep(std::time::Duration::from_secs(1000));
    println!("42");
}
