// expect: WA
// why: closes its stdout (fd 1) and exits 0 without writing anything; the output is empty.
use std::os::raw::c_int;

extern "C" {
    fn close(fd: c_int) -> c_int;
}

fn main() {
    unsafe {
        close(1);
    }
}
