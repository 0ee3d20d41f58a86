// expect: AC
// contained: the test runs the judge in a throw-away pid namespace
// why: kill(-1, SIGKILL), every process it may signal, then prints 42; sandboxed, that is only its own pid namespace, where the runner is init and cannot be killed, so the judge reports.
extern "C" {
    fn kill(pid: i32, sig: i32) -> i32;
}

fn main() {
    unsafe { kill(-1, 9) };
    println!("42");
}
