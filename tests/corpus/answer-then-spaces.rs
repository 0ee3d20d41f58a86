// expect: OLE
// why: prints 42 then 100 MB of spaces; the tokens would still match, but stdout passes the 1 MiB output limit.
use std::io::Write;

fn main() -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(b"42")?;
    let block = vec![b' '; 1 << 20];
    for _ in 0..100 {
        out.write_all(&block)?;
    }
    out.write_all(b"\n")?;
    Ok(())
}
