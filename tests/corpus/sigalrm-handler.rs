// expect: AC
// why: installs a SIGALRM handler, raises SIGALRM itself once, and prints 42 only if the handler ran; a caught signal is not a crash.
use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, Ordering};

extern "C" {
    fn signal(signum: c_int, handler: usize) -> usize;
    fn raise(sig: c_int) -> c_int;
}

const SIGALRM: c_int = 14;
static FIRED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_alarm(_sig: c_int) {
    FIRED.store(true, Ordering::SeqCst);
}

fn main() {
    unsafe {
        signal(SIGALRM, on_alarm as extern "C" fn(c_int) as usize);
        raise(SIGALRM);
    }
    if FIRED.load(Ordering::SeqCst) {
        println!("42");
    } else {
        println!("handler did not run");
    }
}
