// expect: AC
// why: tries to attach with ptrace to its parent and to pid 1 (the runner), printing "escaped" if it could and 42 if it could not; sandboxed, the runner is out of its reach.
extern "C" {
    fn ptrace(request: i64, pid: i32, addr: usize, data: usize) -> i64;
    fn getppid() -> i32;
}

const PTRACE_DETACH: i64 = 17;
const PTRACE_SEIZE: i64 = 0x4206;

fn main() {
    let mut escaped = false;
    for pid in [unsafe { getppid() }, 1] {
        if unsafe { ptrace(PTRACE_SEIZE, pid, 0, 0) } == 0 {
            escaped = true;
            unsafe { ptrace(PTRACE_DETACH, pid, 0, 0) };
        }
    }
    println!("{}", if escaped { "escaped" } else { "42" });
}
