// expect: AC
// why: connects to the test's unix socket by its path (@UNIX_SOCKET@), as it could to Docker's or a terminal multiplexer's, sends to it, then prints 42; sandboxed, no unix socket can be made (the test checks nothing arrived).
use std::io::Write;
use std::os::unix::net::UnixStream;

fn main() {
    if let Ok(mut s) = UnixStream::connect("@UNIX_SOCKET@") {
        let _ = s.write_all(b"escaped\n");
    }
    println!("42");
}
