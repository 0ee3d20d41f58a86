// expect: AC
// why: prints 42, forks 3 children that sleep 1000 s, and the parent exits 0 at once; the answer stands and the judge must kill the leftovers.
use std::io::Write;
use std::os::raw::{c_int, c_uint};

extern "C" {
    fn fork() -> c_int;
    fn sleep(seconds: c_uint) -> c_uint;
    fn _exit(status: c_int) -> !;
}

fn main() {
    println!("42");
    std::io::stdout().flush().unwrap();
    for _ in 0..3 {
        if unsafe { fork() } == 0 {
            unsafe {
                sleep(1000);
                _exit(0);
            }
        }
    }
}
