// expect: AC
// why: daemonizes a grandchild the classic way (fork, setsid, fork, middle child exits) that sleeps 1000 s reparented away from the judge; the parent prints 42 and exits 0.
use std::os::raw::{c_int, c_uint};

extern "C" {
    fn fork() -> c_int;
    fn setsid() -> c_int;
    fn sleep(seconds: c_uint) -> c_uint;
    fn waitpid(pid: c_int, status: *mut c_int, options: c_int) -> c_int;
    fn _exit(status: c_int) -> !;
}

fn main() {
    let middle = unsafe { fork() };
    if middle == 0 {
        unsafe {
            setsid();
            if fork() == 0 {
                sleep(1000);
            }
            _exit(0);
        }
    }
    if middle > 0 {
        unsafe { waitpid(middle, std::ptr::null_mut(), 0) };
    }
    println!("42");
}
