// expect: WA
// why: prints "42\0\n"; NUL is not whitespace, so the token is "42\0", not "42".
use std::io::Write;

fn main() {
    std::io::stdout().write_all(b"42\0\n").unwrap();
}
