// expect: AC
// contained: the test runs the judge in a throw-away pid namespace
// why: sends SIGTERM then SIGKILL to each ancestor it can find (its parent, /proc's ppid chain, pid 1) and to every process named judge or judge-launcher, then prints 42; sandboxed, no signal reaches the runner, its launcher or the judge, which reports.
extern "C" {
    fn kill(pid: i32, sig: i32) -> i32;
    fn getppid() -> i32;
}

fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let mut targets = vec![1];
    let mut pid = unsafe { getppid() };
    while pid > 1 {
        targets.push(pid);
        pid = parent_of(pid).unwrap_or(0);
    }
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let comm = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
        if comm.trim() == "judge" || comm.trim() == "judge-launcher" {
            if let Ok(p) = entry.file_name().to_string_lossy().parse() {
                targets.push(p);
            }
        }
    }
    for sig in [15, 9] {
        for &t in &targets {
            unsafe { kill(t, sig) };
        }
    }
    println!("42");
}
