//! `judge run --watch`: a save judges again; Ctrl-C ends it with 130.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use crate::common::{self, Workspace, READ_N};

#[test]
fn a_save_judges_again_and_ctrl_c_ends_it() {
    let _no_bomb = common::no_fork_bomb();
    let ws = Workspace::doubling("1s");
    let src = ws.write(
        "solutions/double/mine.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 3); }}\n"),
    );
    let mut child = common::judge_process(ws.path())
        .args(["run", "mine", "--watch"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    // Bounded: compiling on a busy machine can be slow, but never this slow.
    let mut seen = Vec::new();
    let mut wait_for = |what: &str| loop {
        match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(line) => {
                seen.push(line.clone());
                if line.contains(what) {
                    return;
                }
            }
            Err(e) => {
                let _ = child.kill();
                panic!("no `{what}` ({e}); output so far:\n{}", seen.join("\n"));
            }
        }
    };
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
    let again: Vec<String> = rx
        .try_iter()
        .filter(|l| l.contains("previous verdict"))
        .collect();
    assert!(
        again.is_empty(),
        "judged again with nothing changed: {again:?}"
    );

    // SAFETY: a plain syscall on the child we spawned.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
}
