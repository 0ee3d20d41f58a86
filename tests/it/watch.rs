//! `judge run --watch`: a save judges again, a function problem's LeetCode-form solution as a
//! program; each run recorded in the history; Ctrl-C ends it with 130.

use std::time::Duration;

use crate::common::{Workspace, READ_N};

#[test]
fn a_save_judges_again_and_ctrl_c_ends_it() {
    let ws = Workspace::doubling("1s");
    let src = ws.write(
        "solutions/double/mine.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 3); }}\n"),
    );
    let mut watch = ws
        .judge()
        .args(["run", "mine", "--watch"])
        .expect_exit(130)
        .spawn();
    // Bounded: compiling on a busy machine can be slow, but never this slow.
    let mut wait_for = |what: &str| while !watch.line(Duration::from_secs(120)).contains(what) {};
    wait_for(" WA  wrong answer");
    wait_for("Ctrl-C to stop");
    std::fs::write(
        &src,
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
    )
    .unwrap();
    wait_for("previous verdict: WA");
    wait_for(" AC  accepted");
    wait_for("Ctrl-C to stop");
    // A new test case is a reason to judge again.
    ws.write("testcases/double/2.out", "10\n");
    ws.write("testcases/double/2.in", "5\n");
    wait_for("previous verdict: AC");
    wait_for("2/2 passed");
    wait_for("Ctrl-C to stop");
    // Judging reads the watched files: that alone must not start another run.
    std::thread::sleep(Duration::from_secs(2));
    let again: Vec<String> = watch
        .pending_lines()
        .into_iter()
        .filter(|l| l.contains("previous verdict"))
        .collect();
    assert!(
        again.is_empty(),
        "judged again with nothing changed: {again:?}"
    );
    // Between two runs no program runs: none was stopped, and none is said to be.
    let stopped = watch.ctrl_c(Duration::from_secs(60));
    assert!(stopped.stderr.contains("interrupted"), "{stopped:?}");
    assert!(
        !stopped
            .stderr
            .contains("every program of this run was stopped"),
        "{stopped:?}"
    );
}

/// A function problem (LeetCode's form) watched: a save of the Python solution builds it with
/// the harness again, and each run is recorded in the history with the source it judged.
#[test]
fn a_function_solution_is_judged_again_on_save_and_each_run_recorded() {
    let ws = Workspace::new();
    ws.problem(
        "add",
        "title = \"Add\"\ntime_limit = \"5s\"\nmemory_limit = \"256MiB\"\n\n[function]\nname = \"add\"\nparams = [\"a: int\", \"b: int\"]\nreturns = \"int\"\n",
        &[("1", "2\n3\n", "5\n"), ("2", "-4\n4\n", "0\n")],
    );
    let leetcode = |body: &str| {
        format!(
            "class Solution:\n    def add(self, a: int, b: int) -> int:\n        return {body}\n"
        )
    };
    let src = ws.write("solutions/add/mine.py", leetcode("a - b"));
    let mut watch = ws
        .judge()
        .args(["run", "mine", "--watch"])
        .expect_exit(130)
        .spawn();
    let mut wait_for = |what: &str| while !watch.line(Duration::from_secs(120)).contains(what) {};
    wait_for(" WA  wrong answer");
    wait_for("Ctrl-C to stop");
    std::fs::write(&src, leetcode("a + b")).unwrap();
    wait_for("previous verdict: WA");
    wait_for(" AC  accepted");
    wait_for("Ctrl-C to stop");
    let stopped = watch.ctrl_c(Duration::from_secs(60));
    assert!(stopped.stderr.contains("interrupted"), "{stopped:?}");

    let doc = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let runs = doc.as_array().unwrap();
    let verdicts: Vec<&str> = runs
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["AC", "WA"], "{doc:#}");
    // Each under the digest of the function as it was saved, not of the harness's program.
    let source = std::fs::read(&src).unwrap();
    assert_eq!(runs[0]["solution"], "mine");
    assert_eq!(runs[0]["code_length"], source.len());
    assert_ne!(runs[0]["source_hash"], runs[1]["source_hash"]);
}
