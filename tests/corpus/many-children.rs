// expect: AC
// why: forks 300 children that each sleep 1000 s (fork failures from a process limit are ignored), then prints 42 and exits 0; the judge must kill them all.
use std::os::raw::{c_int, c_uint};

extern "C" {
    fn fork() -> c_int;
    fn sleep(seconds: c_uint) -> c_uint;
    fn _exit(status: c_int) -> !;
}

fn main() {
    for _ in 0..300 {
        if unsafe { fork() } == 0 {
            unsafe {
                sleep(1000);
                _exit(0);
            }
        }
    }
    println!("42");
}
