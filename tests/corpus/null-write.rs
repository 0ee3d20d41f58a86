// expect: RE
// why: prints the right answer, then writes through a null pointer (killed by SIGSEGV).
fn main() {
    println!("42");
    let p: *mut u8 = std::hint::black_box(std::ptr::null_mut());
    unsafe { p.write_volatile(1) };
}
