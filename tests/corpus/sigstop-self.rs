// expect: TLE
// why: prints 42 then sends itself SIGSTOP; a stopped process never finishes, so only the wall-clock cap ends it.
use std::io::Write;
use std::os::raw::c_int;

extern "C" {
    fn raise(sig: c_int) -> c_int;
}

const SIGSTOP: c_int = 19;

fn main() {
    println!("42");
    std::io::stdout().flush().unwrap();
    unsafe {
        raise(SIGSTOP);
    }
}
