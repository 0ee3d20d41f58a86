//! The submission history: recorded by `judge run`, shown by `judge history`, never in the way of judging.

use crate::common::{Workspace, READ_N};

/// The doubling problem with a right (`ok`) and a wrong (`off`) solution.
pub(crate) fn workspace() -> Workspace {
    let ws = Workspace::doubling("1s");
    ws.write(
        "solutions/double/ok.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
    );
    ws.write(
        "solutions/double/off.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2 + 1); }}\n"),
    );
    ws
}

#[test]
fn runs_are_recorded_and_listed_newest_first() {
    let ws = workspace();
    ws.judge()
        .args(["run", "off"])
        .expect_exit(1)
        .stdout_has("submission #1\n")
        .run();
    ws.judge()
        .args(["run", "ok"])
        .expect_exit(0)
        .stdout_has("submission #2 · first AC of ok")
        .run();
    ws.judge()
        .args(["run", "ok", "--json"])
        .expect_exit(0)
        .run();
    ws.judge()
        .args(["run", "ok", "--no-history"])
        .expect_exit(0)
        .run();
    assert!(ws.path().join(".judge/history.db").is_file());

    let text = ws.judge().args(["history"]).expect_exit(0).run().stdout;
    insta::with_settings!({filters => vec![
        (r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "[date]"),
        (r" +\d+ ms", " [time]"),
        (r" +\d+(\.\d+)? (MiB|KiB)", " [memory]"),
    ]}, {
        insta::assert_snapshot!("status_page", text);
    });

    let doc = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let subs = doc.as_array().unwrap();
    assert_eq!(subs.len(), 3, "--no-history is not recorded");
    assert_eq!(subs[0]["id"], 3);
    assert_eq!(subs[2]["verdict"], "WA");
    assert_eq!(subs[2]["passed"], 0);
    let ok = &subs[0];
    assert_eq!(ok["problem"], "double");
    assert_eq!(ok["solution"], "ok");
    assert!(ok["path"]
        .as_str()
        .unwrap()
        .ends_with("solutions/double/ok.rs"));
    assert_eq!(ok["source_hash"].as_str().unwrap().len(), 64);
    let source = std::fs::read(ws.path().join("solutions/double/ok.rs")).unwrap();
    assert_eq!(ok["code_length"], source.len());
    assert!(ok["compiler"].as_str().unwrap().starts_with("rustc "));
    assert_eq!(ok["cases"][0]["name"], "1");
    assert_eq!(ok["cases"][0]["verdict"], "AC");

    let doc = ws
        .judge()
        .args(["history", "--best", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let best = doc.as_array().unwrap();
    assert_eq!(best.len(), 1, "only accepted runs: {doc:#}");
    assert_eq!(best[0]["solution"], "ok");

    let doc = ws
        .judge()
        .args(["history", "--solution", "off", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc.as_array().unwrap().len(), 1);
    let doc = ws
        .judge()
        .args(["history", "-n", "2", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc.as_array().unwrap().len(), 2);
}

#[test]
fn the_database_can_be_placed_elsewhere() {
    let ws = workspace();
    let elsewhere = ws.path().join("db/mine.db");
    ws.judge()
        .args(["--history", elsewhere.to_str().unwrap(), "run", "ok"])
        .expect_exit(0)
        .run();
    assert!(elsewhere.is_file());
    assert!(!ws.path().join(".judge/history.db").exists());
    let by_env = ws.path().join("env.db");
    ws.judge()
        .env("JUDGE_HISTORY", &by_env)
        .args(["run", "ok"])
        .expect_exit(0)
        .run();
    assert!(by_env.is_file());
    ws.judge()
        .env("JUDGE_HISTORY", &by_env)
        .args(["history"])
        .stdout_has("#1 ")
        .expect_exit(0)
        .run();
    ws.judge()
        .args(["history"])
        .expect_exit(0)
        .stdout_has("no submissions yet")
        .run();
}

#[test]
fn a_broken_database_never_stops_judging() {
    let ws = workspace();
    // Corrupt: a warning, the verdict and exit code are those of the run.
    ws.write(".judge/history.db", vec![b'x'; 8192]);
    ws.judge()
        .args(["run", "ok"])
        .expect_exit(0)
        .stdout_has("AC  accepted")
        .stderr_has("nothing was recorded in the history")
        .run();
    ws.judge()
        .args(["run", "off", "--json"])
        .expect_exit(1)
        .stderr_has("warning")
        .run();
    // `judge history` itself says what is wrong.
    ws.judge()
        .args(["history"])
        .expect_exit(2)
        .stderr_has("history.db")
        .run();
    // A folder where the file should be cannot be opened either.
    let dir_db = ws.path().join("a-folder.db");
    std::fs::create_dir_all(&dir_db).unwrap();
    ws.judge()
        .args(["--history", dir_db.to_str().unwrap(), "run", "ok"])
        .expect_exit(0)
        .stderr_has("warning")
        .run();
}

#[test]
fn a_locked_database_is_waited_for_and_nothing_is_dropped() {
    let ws = workspace();
    let db = ws.path().join(".judge/history.db");
    ws.judge().args(["run", "ok"]).expect_exit(0).run();
    // Another process holds the write lock for three seconds (as a backup, or `sqlite3` in a
    // terminal, may): the judge waits for it, and records.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let holder = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(3));
        conn.execute_batch("ROLLBACK").unwrap();
    });
    let started = std::time::Instant::now();
    ws.judge()
        .args(["run", "ok"])
        .expect_exit(0)
        .stdout_has("submission #2")
        .stderr_lacks("warning")
        .stderr_lacks("locked")
        .run();
    assert!(started.elapsed().as_secs_f64() > 2.0, "it did not wait");
    holder.join().unwrap();
}

#[test]
#[ignore = "waits the minute a judge gives a history another process holds"]
fn a_database_locked_for_over_a_minute_gives_a_warning_not_a_hang() {
    let ws = workspace();
    let db = ws.path().join(".judge/history.db");
    ws.judge().args(["run", "ok"]).expect_exit(0).run();
    // Another process holds the write lock for longer than the judge waits.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let started = std::time::Instant::now();
    ws.judge()
        .args(["run", "ok"])
        .expect_exit(0)
        .stderr_has("nothing was recorded")
        .stderr_has("locked by another process")
        .stderr_has("fix: ")
        .run();
    assert!(started.elapsed().as_secs() < 180);
    conn.execute_batch("ROLLBACK").unwrap();
    ws.judge()
        .args(["run", "ok"])
        .expect_exit(0)
        .stdout_has("submission #2")
        .run();
}

/// The doubling problem with three cases, the first a sample, and the `ok` and `off` solutions.
fn with_samples() -> Workspace {
    let ws = workspace();
    ws.write(
        "problems/double/problem.toml",
        "title = \"Double\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\nsamples = [\"1\"]\n",
    );
    for (name, input, answer) in [("2", "5\n", "10\n"), ("3", "7\n", "14\n")] {
        ws.write(&format!("testcases/double/{name}.in"), input);
        ws.write(&format!("testcases/double/{name}.out"), answer);
    }
    ws
}

#[test]
fn a_run_of_part_of_the_cases_is_recorded_as_partial_and_never_as_the_solutions_verdict() {
    let ws = with_samples();
    ws.judge()
        .args(["run", "ok", "--samples"])
        .expect_exit(0)
        .stdout_has("1/1 passed · partial run: the samples only, 1 of 3 cases")
        .stdout_has("submission #1 · partial run: not the solution's verdict\n")
        .run();
    let doc = ws
        .judge()
        .args(["run", "ok", "--case", "2", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(
        doc["partial"],
        serde_json::json!({"samples": false, "cases": ["2"], "stopped_early": false, "judged": 1, "of": 3})
    );
    // `--stop-on-fail` cut short; stopping at the last case judges them all.
    let doc = ws
        .judge()
        .args(["run", "off", "--stop-on-fail", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["partial"]["stopped_early"], true, "{doc:#}");
    assert_eq!(doc["partial"]["judged"], 1, "{doc:#}");
    // Every case: the first AC, and the best.
    ws.judge()
        .args(["run", "ok"])
        .expect_exit(0)
        .stdout_has("submission #4 · first AC of ok\n")
        .run();
    let doc = ws
        .judge()
        .args(["run", "ok", "--samples", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert!(doc["partial"].is_object(), "{doc:#}");
    let doc = ws
        .judge()
        .args(["run", "ok", "--samples", "--case", "*", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert!(
        doc.get("partial").is_none(),
        "every case is no part: {doc:#}"
    );

    let best = ws
        .judge()
        .args(["history", "--best", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let best: Vec<_> = best
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_i64().unwrap())
        .collect();
    // Submissions #4 and #6 both judged every case: the faster is the best, and which
    // one that is depends on the machine; the partial runs never are.
    assert!(
        best == [4] || best == [6],
        "only a run of every case counts: {best:?}"
    );
    let all = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let partial: Vec<_> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_i64().unwrap(), s.get("partial").is_some()))
        .collect();
    assert_eq!(
        partial,
        [
            (6, false),
            (5, true),
            (4, false),
            (3, true),
            (2, true),
            (1, true)
        ]
    );
    let table = ws.judge().args(["history"]).expect_exit(0).run().stdout;
    assert!(
        table.contains("1/1 · partial: the samples only, 1 of 3 cases"),
        "{table}"
    );
    let server = crate::common::serve::Serving::start(ws.path());
    let status = server.get("/status").body;
    assert!(
        status.contains("Accepted (partial run: the samples only, 1 of 3 cases)"),
        "{status}"
    );
    let page = server.get("/submissions/1").body;
    assert!(page.contains("partial run: the samples only"), "{page}");
}

#[test]
#[cfg_attr(
    not(judge_has_python3),
    ignore = "needs python3 (Debian: apt-get install python3)"
)]
fn an_internal_error_is_recorded_listed_and_shown_on_the_status_page() {
    let ws = Workspace::new();
    // A Kattis package whose output validator fails: it exits 3, neither 42 nor 43.
    ws.write(
        "pkg/problem.yaml",
        "name: Double\nvalidation: custom\nlimits:\n  time_limit: 2\n",
    );
    ws.write("pkg/data/secret/1.in", "1\n");
    ws.write("pkg/data/secret/1.ans", "2\n");
    ws.write(
        "pkg/output_validators/check/check.py",
        "import sys\nsys.stderr.write('cannot read the answer')\nsys.exit(3)\n",
    );
    let attempt = ws.write(
        "pkg/submissions/accepted/ok.py",
        "print(2 * int(input()))\n",
    );
    ws.judge()
        .args(["run", attempt.to_str().unwrap()])
        .expect_exit(2)
        .stdout_has(" IE ")
        .stdout_has("submission #1")
        .run();
    let doc = ws
        .judge()
        .args(["history", "--json", "--limit", "100000"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc[0]["verdict"], "IE", "{doc:#}");
    assert_eq!(doc[0]["cases"][0]["verdict"], "IE", "{doc:#}");
    ws.judge()
        .args(["history"])
        .expect_exit(0)
        .stdout_has(" IE ")
        .run();
    let server = crate::common::serve::Serving::start(ws.path());
    let status = server.get("/status");
    assert_eq!(status.status, 200, "{}", status.body);
    assert!(status.body.contains("Internal error"), "{}", status.body);
    let page = server.get("/submissions/1");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Internal error"), "{}", page.body);
}

/// The history records the bytes that were compiled: a file saved again while its cases run is
/// not what was judged, so its hash is not the one recorded.
#[test]
fn the_source_recorded_is_the_one_compiled_not_one_saved_during_the_run() {
    let ws = Workspace::new();
    ws.problem(
        "slow",
        "title = \"Slow\"\ntime_limit = \"10s\"\nmemory_limit = \"64MiB\"\noutput_limit = \"1MiB\"\n",
        &[("a", "1\n", "2\n"), ("b", "2\n", "4\n")],
    );
    // The second case takes a while: time to save the file again while it runs.
    let compiled = "import time\nn = int(input())\nif n == 2:\n    time.sleep(3)\nprint(2 * n)\n";
    let path = ws.path().join("solutions/slow/twice.py");
    ws.write("solutions/slow/twice.py", compiled);
    let mut run = ws
        .judge()
        .args(["run", "twice", "--jobs", "1"])
        .expect_exit(0)
        .spawn();
    // A case's line means the build is done: what is on disk from now on was not compiled.
    loop {
        let line = run.line(std::time::Duration::from_secs(60));
        if line.contains("AC") {
            break;
        }
    }
    let saved = "print(0)  # saved while the run went on\n";
    std::fs::write(&path, saved).unwrap();
    let out = run.wait(std::time::Duration::from_secs(60));
    assert_eq!(out.code, Some(0), "{}", out.stderr);

    // Judged again from the bytes first compiled: the hash both runs must be recorded under.
    std::fs::write(&path, compiled).unwrap();
    ws.judge().args(["run", "twice"]).expect_exit(0).run();

    let doc = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let subs = doc.as_array().unwrap();
    let (again, during) = (&subs[0], &subs[1]);
    assert_eq!(during["source_hash"], again["source_hash"], "{doc:#}");
    assert_eq!(during["code_length"], compiled.len());
}
