// expect: AC
// contained: the test runs the judge in a throw-away pid namespace, where /proc shows only its own processes: were the sandbox to fail, only the test's workspace could be touched
// why: deletes the test data, the problems and the solutions, by the workspace's absolute path and through every /proc/PID/cwd it can see, then prints 42; sandboxed, every deletion is refused (the test checks the workspace byte for byte).
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
        for part in ["testcases/double/1.out", "solutions/double/keep.rs"] {
            let _ = std::fs::remove_file(root.join(part));
        }
        for part in ["solutions", "testcases", "problems"] {
            let _ = std::fs::remove_dir_all(root.join(part));
        }
    }
    println!("42");
}
