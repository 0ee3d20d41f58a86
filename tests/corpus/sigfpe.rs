// expect: RE
// why: prints the right answer, then runs a raw x86_64 `idiv` by a zero read from the input, bypassing Rust's check (killed by SIGFPE).
use std::io::{Read, Write};

#[cfg(target_arch = "x86_64")]
fn hardware_div(a: i64, d: i64) -> i64 {
    let q: i64;
    unsafe {
        std::arch::asm!("cqo", "idiv {d}", d = in(reg) d, inout("rax") a => q, out("rdx") _);
    }
    q
}

#[cfg(not(target_arch = "x86_64"))]
fn hardware_div(_a: i64, _d: i64) -> i64 {
    // Other targets do not trap on division by zero: raise SIGFPE by hand.
    extern "C" {
        fn raise(sig: std::os::raw::c_int) -> std::os::raw::c_int;
    }
    unsafe { raise(8) };
    0
}

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: i64 = s.trim().parse().unwrap();
    println!("42");
    std::io::stdout().flush().unwrap();
    println!("{}", hardware_div(2 * n, n - 21));
}
