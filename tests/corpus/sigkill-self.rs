// expect: RE
// why: prints and flushes the right answer, then sends itself SIGKILL; death by signal is a runtime error.
use std::io::Write;
use std::os::raw::c_int;

extern "C" {
    fn raise(sig: c_int) -> c_int;
}

const SIGKILL: c_int = 9;

fn main() {
    println!("42");
    std::io::stdout().flush().unwrap();
    unsafe {
        raise(SIGKILL);
    }
}
