// expect: AC
// why: reserves 4 GiB of address space but never touches it, so resident memory stays tiny; the limit is on resident memory, not address space.
fn main() {
    let v: Vec<u8> = Vec::with_capacity(4 << 30);
    std::hint::black_box(&v);
    println!("42");
}
