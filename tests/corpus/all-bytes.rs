// expect: WA
// why: prints "42\n" then every byte value 0..=255 (invalid UTF-8 included); the non-whitespace bytes form extra tokens.
use std::io::Write;

fn main() {
    let mut out = b"42\n".to_vec();
    out.extend(0..=255u8);
    std::io::stdout().write_all(&out).unwrap();
}
