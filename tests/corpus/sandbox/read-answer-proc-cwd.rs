// expect: WA
// contained: the test runs the judge in a throw-away pid namespace, where /proc shows only its own processes: were the sandbox to fail, only the test's workspace could be touched
// unsandboxed: AC
// why: walks its ancestors and every process it can see through /proc/PID/cwd, up to the judge's folder, and prints the answer it finds there; sandboxed, no such path leads anywhere it may read.
use std::path::PathBuf;

/// Every folder a process's working folder leads to: itself and the folders above it.
fn candidates() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().parse::<u32>().is_err() {
            continue;
        }
        let mut dir = entry.path().join("cwd");
        for _ in 0..6 {
            out.push(dir.clone());
            dir = dir.join("..");
        }
    }
    out
}

fn main() {
    for dir in candidates() {
        if let Ok(answer) = std::fs::read_to_string(dir.join("testcases/double/1.out")) {
            print!("{answer}");
            return;
        }
    }
    println!("no answer");
}
