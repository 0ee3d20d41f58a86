// expect: AC
// why: resolves a name through the system's resolver, and asks the test's own resolver on 127.0.0.1 (UDP port @UDP_PORT@) with a DNS query, then prints 42; sandboxed, no query leaves it (the test checks nothing arrived).
use std::net::{ToSocketAddrs, UdpSocket};

fn main() {
    let _ = ("judge-sandbox-test.example.com", 80).to_socket_addrs();
    // A DNS query for example.com, type A, as a resolver sends it.
    let query: &[u8] = b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x07example\x03com\x00\x00\x01\x00\x01";
    if let Ok(s) = UdpSocket::bind("0.0.0.0:0") {
        let _ = s.send_to(query, "127.0.0.1:@UDP_PORT@");
    }
    println!("42");
}
