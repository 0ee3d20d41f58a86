// expect: OLE
// why: writes "42\n" then an endless stream of "42 " to stdout, so it passes the 1 MiB output limit (SIGXFSZ or EFBIG).
use std::io::Write;

fn main() -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(b"42\n")?;
    let block = b"42 ".repeat(4096);
    loop {
        out.write_all(&block)?;
    }
}
