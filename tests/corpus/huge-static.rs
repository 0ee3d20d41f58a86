// expect: MLE
// why: a 1 GiB `static mut` array lives in .bss (costs nothing until touched); writing one byte per page makes it resident.
use std::mem::MaybeUninit;

// MaybeUninit keeps it in .bss just like `[0; 1 << 30]` would, but spares rustc
// from building a 1 GiB constant (about 9 s and 2.3 GB of compiler memory).
static mut BIG: MaybeUninit<[u8; 1 << 30]> = MaybeUninit::uninit();

fn main() {
    let base = std::ptr::addr_of_mut!(BIG) as *mut u8;
    for i in (0..1usize << 30).step_by(4096) {
        unsafe { base.add(i).write_volatile(1) };
    }
    println!("42");
}
