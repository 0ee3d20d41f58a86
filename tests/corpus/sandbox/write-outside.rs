// expect: AC
// why: writes files in /etc, /tmp, /var/tmp and /dev/shm (named with @MARK@, put in before judging), then prints 42; sandboxed, it may write only in its own folder (the test checks that none of them exists).
fn main() {
    for dir in ["/etc", "/tmp", "/var/tmp", "/dev/shm", "/root", "/home"] {
        let _ = std::fs::write(format!("{dir}/judge-escape-@MARK@"), "escaped\n");
    }
    println!("42");
}
