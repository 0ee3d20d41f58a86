//! An interactive verdict that scheduling does not decide: a solution that closes its output
//! and keeps running, judged again and again, with and without the transcript, gets one
//! verdict every time.

use std::collections::BTreeMap;

use crate::interactive::{judge, workspace};

/// Reads the interactor's first number, closes its output, keeps running until its input ends
/// or 0.3 s pass, then fails. The interactor, seeing no answer, rejects: only which program
/// ended first tells RE from WA.
const CLOSES_THEN_FAILS: &str = "import os, select\nos.read(0, 64)\nos.close(1)\nselect.select([0], [], [], 0.3)\nos._exit(1)\n";

#[test]
fn a_solution_that_closes_its_output_and_keeps_running_gets_one_verdict() {
    let ws = workspace(3);
    ws.write("solutions/ping/closes.py", CLOSES_THEN_FAILS);
    let cache = tempfile::tempdir().unwrap();
    for transcript in [true, false] {
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for _ in 0..12 {
            let mut run = judge(&ws, cache.path(), "ping/closes").expect_exit(1);
            if !transcript {
                run = run.arg("--no-transcript");
            }
            let doc = run.run().json();
            let case = &doc["cases"][0];
            let said = format!(
                "{} ({})",
                doc["verdict"].as_str().unwrap_or("?"),
                case["detail"].as_str().unwrap_or("")
            );
            *seen.entry(said).or_default() += 1;
        }
        // Waited for: its own end (exit code 1) came before the interactor read the end of
        // its output, so its run decides.
        assert_eq!(seen.len(), 1, "transcript {transcript}: {seen:#?}");
        let (said, _) = seen.iter().next().unwrap();
        assert!(
            said.starts_with("RE (") && said.contains("exit code 1"),
            "transcript {transcript}: {said}"
        );
    }
}
