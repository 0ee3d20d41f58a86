// expect: OLE
// why: writes 512 KiB files in its folder until a write fails, then prints 42; its files together count against the output limit (1 MiB), so it is stopped long before the disk fills.
fn main() {
    let chunk = vec![b'x'; 512 << 10];
    let mut n = 0u64;
    while std::fs::write(format!("fill-{n}"), &chunk).is_ok() {
        n += 1;
    }
    println!("42");
}
