// expect: AC
// why: connects to the test's TCP listener on 127.0.0.1 (port @TCP_PORT@) and on ::1, sends a datagram to its UDP socket (port @UDP_PORT@), then prints 42; sandboxed, there is no network at all (the test checks nothing arrived).
use std::io::Write;
use std::net::{TcpStream, UdpSocket};
use std::time::Duration;

fn main() {
    for addr in ["127.0.0.1:@TCP_PORT@", "[::1]:@TCP_PORT@"] {
        if let Ok(addr) = addr.parse() {
            if let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_millis(300)) {
                let _ = s.write_all(b"escaped\n");
            }
        }
    }
    if let Ok(s) = UdpSocket::bind("0.0.0.0:0") {
        let _ = s.send_to(b"escaped\n", "127.0.0.1:@UDP_PORT@");
    }
    println!("42");
}
