//! `judge run --watch`: a save judges again; Ctrl-C ends it with 130.

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
