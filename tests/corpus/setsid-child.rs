// expect: AC
// why: forks a child that leaves the process group with setsid() and sleeps 1000 s; the parent prints 42 and exits 0, and the judge must still find and kill the child.
use std::os::raw::{c_int, c_uint};

extern "C" {
    fn fork() -> c_int;
    fn setsid() -> c_int;
    fn sleep(seconds: c_uint) -> c_uint;
    fn _exit(status: c_int) -> !;
}

fn main() {
    if unsafe { fork() } == 0 {
        unsafe {
            setsid();
            sleep(1000);
            _exit(0);
        }
    }
    println!("42");
}
