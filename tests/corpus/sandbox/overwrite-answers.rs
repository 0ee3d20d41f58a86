// expect: WA
// contained: the test runs the judge in a throw-away pid namespace, where /proc shows only its own processes: were the sandbox to fail, only the test's workspace could be touched
// why: prints 43 and rewrites the answer to 43, by the workspace's absolute path and through every /proc/PID/cwd it can see; sandboxed, no write reaches the workspace, so 43 stays wrong (and the test checks the workspace is unchanged).
use std::path::PathBuf;

fn main() {
    let mut roots = vec![PathBuf::from("@WORKSPACE@")];
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let mut dir = entry.path().join("cwd");
        for _ in 0..6 {
            roots.push(dir.clone());
            dir = dir.join("..");
        }
    }
    for root in roots {
        let _ = std::fs::write(root.join("testcases/double/1.out"), "43\n");
        let _ = std::fs::write(root.join("testcases/double/1.in"), "21.5\n");
    }
    println!("43");
}
