//! Interactive problems: a solution and an interactor talking through their stdin and stdout,
//! both protocols, the verdict order, the transcript, a failing interactor, and no survivors.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::{self, procs, shipped, Test, Workspace};

/// Kattis protocol: says the numbers 1..=N, each to be answered with the next one, then 0.
const PING: &str = r#"use std::io::{BufRead, Write};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = std::fs::read_to_string(&args[1]).unwrap().trim().parse().unwrap();
    let feedback = std::path::Path::new(&args[3]);
    let reject = |why: String| -> ! {
        std::fs::write(feedback.join("judgemessage.txt"), why).unwrap();
        std::process::exit(43)
    };
    let mut out = std::io::stdout().lock();
    let mut lines = std::io::stdin().lock().lines();
    for i in 1..=n {
        if writeln!(out, "{i}").and_then(|_| out.flush()).is_err() {
            reject(format!("the solution left before {i}"));
        }
        match lines.next() {
            Some(Ok(l)) if l.trim() == (i + 1).to_string() => {}
            Some(Ok(l)) => reject(format!("said {} to {i}", l.trim())),
            _ => reject(format!("no answer to {i}")),
        }
    }
    let _ = writeln!(out, "0");
    std::process::exit(42)
}
"#;

/// The testlib twin of [`PING`]: exit 0 or 1, and writes the rounds played to OUTPUT for the
/// checker.
const PING_TESTLIB: &str = r#"use std::io::{BufRead, Write};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = std::fs::read_to_string(&args[1]).unwrap().trim().parse().unwrap();
    let mut out = std::io::stdout().lock();
    let mut lines = std::io::stdin().lock().lines();
    for i in 1..=n {
        let _ = writeln!(out, "{i}").and_then(|_| out.flush());
        match lines.next() {
            Some(Ok(l)) if l.trim() == (i + 1).to_string() => {}
            _ => { eprintln!("wrong answer to {i}"); std::process::exit(1) }
        }
    }
    let _ = writeln!(out, "0");
    std::fs::write(&args[2], format!("{n}\n")).unwrap();
}
"#;

/// A testlib checker: the rounds the interactor wrote must be the answer file's.
const CHECKER: &str = r#"fn main() {
    let a: Vec<String> = std::env::args().collect();
    let out = std::fs::read_to_string(&a[2]).unwrap();
    let ans = std::fs::read_to_string(&a[3]).unwrap();
    if out.trim() == ans.trim() { std::process::exit(0) }
    eprintln!("played {} rounds, expected {}", out.trim(), ans.trim());
    std::process::exit(1)
}
"#;

const PONG_LOOP: &str = "use std::io::{BufRead, Write};\nfn main() {\n    let mut out = std::io::stdout().lock();\n    for line in std::io::stdin().lock().lines() {\n        let x: u64 = line.unwrap().trim().parse().unwrap();\n        if x == 0 { return; }\n        STEP\n    }\n}\n";

fn pong(step: &str) -> String {
    PONG_LOOP.replace("STEP", step)
}

/// The solutions of the fixture, by name.
fn solutions() -> Vec<(&'static str, String)> {
    vec![
        ("pong", pong("writeln!(out, \"{}\", x + 1).unwrap(); out.flush().unwrap();")),
        // Wrong, then spins: the interactor has rejected it first.
        ("wrong-then-spin", pong("writeln!(out, \"{}\", x + 2).unwrap(); out.flush().unwrap(); let mut y = 0u64; loop { y = std::hint::black_box(y + 1); }")),
        ("crash", pong("let _ = x; panic!(\"no\");")),
        ("spin", pong("let mut y = x; loop { y = std::hint::black_box(y + 1); }")),
        // Says the answer into a buffer it never flushes, then waits for the next number.
        ("no-flush", "use std::io::{BufRead, Write};\nfn main() {\n    let mut out = std::io::BufWriter::new(std::io::stdout().lock());\n    for line in std::io::stdin().lock().lines() {\n        let x: u64 = line.unwrap().trim().parse().unwrap();\n        if x == 0 { return; }\n        writeln!(out, \"{}\", x + 1).unwrap();\n    }\n}\n".into()),
    ]
}

const TOML: &str = "title = \"Ping\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n";

/// A workspace with the ping problems: `ping` (Kattis protocol), `ping-testlib` (testlib, with
/// a checker) and the fixture's solutions.
pub(crate) fn workspace(rounds: u64) -> Workspace {
    let ws = Workspace::new();
    let case = [("1", format!("{rounds}\n"), format!("{rounds}\n"))];
    let cases: Vec<(&str, &str, &str)> = case
        .iter()
        .map(|(a, b, c)| (*a, b.as_str(), c.as_str()))
        .collect();
    ws.problem(
        "ping",
        &format!("{TOML}interactor = \"interactor.rs\"\ninteractor_protocol = \"kattis\"\n"),
        &cases,
    );
    ws.write("problems/ping/interactor.rs", PING);
    ws.problem(
        "ping-testlib",
        &format!("{TOML}interactor = \"interactor.rs\"\nchecker = \"custom\"\nchecker_program = \"checker.rs\"\n"),
        &cases,
    );
    ws.write("problems/ping-testlib/interactor.rs", PING_TESTLIB);
    ws.write("problems/ping-testlib/checker.rs", CHECKER);
    for (name, source) in solutions() {
        for problem in ["ping", "ping-testlib"] {
            ws.write(&format!("solutions/{problem}/{name}.rs"), &source);
        }
    }
    ws
}

/// `judge run SOLUTION --json` with the compile cache `cache`.
pub(crate) fn judge(ws: &Workspace, cache: &Path, solution: &str) -> Test {
    ws.judge().cache(cache).args(["run", solution, "--json"])
}

fn no_survivors(cache: &Path) {
    let survivors = procs::using(cache);
    assert!(
        survivors.is_empty(),
        "processes survived the judge: {survivors:?}"
    );
}

#[test]
fn the_verdict_order_of_problemtools_in_both_protocols() {
    let ws = workspace(3);
    let cache = tempfile::tempdir().unwrap();
    for problem in ["ping", "ping-testlib"] {
        for (name, verdict, detail) in [
            ("pong", "AC", ""),
            ("wrong-then-spin", "WA", ""),
            ("crash", "RE", "exit code 101"),
            ("spin", "TLE", "CPU time"),
            (
                "no-flush",
                "TLE",
                "idle: both sides waiting; did the solution flush?",
            ),
        ] {
            let started = Instant::now();
            let doc = judge(&ws, cache.path(), &format!("{problem}/{name}"))
                .expect_exit(if verdict == "AC" { 0 } else { 1 })
                .run()
                .json();
            let case = &doc["cases"][0];
            assert_eq!(doc["verdict"], verdict, "{problem}/{name}: {doc:#}");
            let said = case["detail"].as_str().unwrap_or("");
            assert!(said.contains(detail), "{problem}/{name}: {said}");
            if name == "wrong-then-spin" {
                // Rejected first: the solution is stopped at once, not at its limit.
                assert!(case["time_ms"].as_u64().unwrap() < 900, "{case}");
                let message = if problem == "ping" {
                    "said 3 to 1"
                } else {
                    "wrong answer to 1"
                };
                assert!(said.contains(message), "{problem}: {said}");
                // The transcript shows the conversation, up to where it failed.
                let transcript = case["interaction"]["transcript"].as_str().unwrap();
                let lines: Vec<&str> = transcript.lines().collect();
                assert!(lines[0].ends_with(" <1"), "{transcript}");
                assert!(lines[1].ends_with(" >3"), "{transcript}");
            }
            if name == "crash" {
                // Both programs' stderr: the solution's panic.
                assert!(case["stderr"].as_str().unwrap().contains("no"), "{case}");
            }
            // No case waits past its wall cap (3 s) by much.
            assert!(started.elapsed() < Duration::from_secs(30), "{name}");
        }
    }
    no_survivors(cache.path());
}

#[test]
fn a_long_conversation_with_and_without_the_transcript() {
    let ws = workspace(5_000);
    let cache = tempfile::tempdir().unwrap();
    let runs = [
        &[][..],
        &["--no-transcript"],
        &["--jobs", "2"],
        &["--repeat", "2"],
    ];
    for args in runs {
        let pong = if args.first() == Some(&"--no-transcript") {
            ws.judge()
                .cache(cache.path())
                .args(["--no-transcript", "run", "ping/pong", "--json"])
        } else {
            judge(&ws, cache.path(), "ping/pong").args(args)
        };
        let doc = pong.expect_exit(0).run().json();
        assert_eq!(doc["verdict"], "AC", "{args:?}: {doc:#}");
    }
    // A failure in a long conversation: the transcript's end, and the lines before it counted.
    let doc = judge(&ws, cache.path(), "ping/wrong-then-spin")
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA");
    let doc = judge(&ws, cache.path(), "ping/no-flush")
        .arg("--no-transcript")
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "TLE", "{doc:#}");
    no_survivors(cache.path());
}

#[test]
fn the_transcript_is_kept_with_the_outputs_and_can_be_turned_off() {
    let ws = workspace(5);
    let cache = tempfile::tempdir().unwrap();
    let doc = judge(&ws, cache.path(), "ping/wrong-then-spin")
        .expect_exit(1)
        .run()
        .json();
    let kept = doc["cases"][0]["saved_output"].as_str().unwrap();
    let text = std::fs::read_to_string(kept).unwrap();
    assert!(text.lines().any(|l| l.ends_with(" <1")), "{text}");
    assert!(text.lines().any(|l| l.ends_with(" >3")), "{text}");
    let doc = ws
        .judge()
        .cache(cache.path())
        .args(["--no-transcript", "run", "ping/wrong-then-spin", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA");
    assert!(
        doc["cases"][0]["interaction"]["transcript"].is_null(),
        "{doc:#}"
    );
    no_survivors(cache.path());
}

#[test]
fn a_failing_interactor_is_an_internal_error_never_the_solutions() {
    let ws = workspace(3);
    let cache = tempfile::tempdir().unwrap();
    let pong = &solutions()[0].1;
    let problems = [
        (
            "crashing",
            "fn main() { eprintln!(\"the interactor's own bug\"); std::process::exit(7) }\n",
            "exit code 7",
        ),
        (
            "broken",
            "fn main() { this is not rust }\n",
            "interactor.rs does not compile",
        ),
        // Plays, then never exits after the solution has: its own wall cap.
        (
            "lingering",
            &PING.replace(
                "std::process::exit(42)",
                "loop { std::thread::sleep(std::time::Duration::from_secs(1)); }",
            ),
            "took longer than",
        ),
    ];
    for (id, source, said) in problems {
        ws.problem(
            id,
            &format!("{TOML}interactor = \"interactor.rs\"\ninteractor_protocol = \"kattis\"\ninteractor_time_limit = \"1s\"\n"),
            &[("1", "3\n", "3\n")],
        );
        ws.write(&format!("problems/{id}/interactor.rs"), source);
        ws.write(&format!("solutions/{id}/pong.rs"), pong);
        let doc = judge(&ws, cache.path(), &format!("{id}/pong"))
            .expect_exit(2)
            .run()
            .json();
        assert_eq!(doc["verdict"], "IE", "{id}: {doc:#}");
        let detail = doc["cases"][0]["detail"].as_str().unwrap();
        assert!(detail.contains("interactor"), "{id}: {detail}");
        assert!(detail.contains(said), "{id}: {detail}");
        if id == "crashing" {
            assert!(detail.contains("the interactor's own bug"), "{detail}");
        }
    }
    no_survivors(cache.path());
}

#[test]
fn an_interactor_with_a_comparing_checker_is_a_configuration_error() {
    let ws = Workspace::new();
    ws.problem(
        "both",
        &format!("{TOML}interactor = \"interactor.rs\"\nchecker = \"exact\"\n"),
        &[("1", "3\n", "3\n")],
    );
    ws.write("problems/both/interactor.rs", PING);
    ws.write("solutions/both/pong.rs", pong("let _ = x;"));
    let err = ws
        .judge()
        .args(["run", "both/pong"])
        .expect_exit(2)
        .run()
        .stderr;
    assert!(err.contains("problem.toml:5"), "{err}");
    assert!(
        err.contains("checker = \"exact\"") && err.contains("interactor"),
        "{err}"
    );
    assert!(err.contains("fix: remove `checker`"), "{err}");
}

#[test]
fn hidden_queens_as_shipped_gets_its_expected_verdicts() {
    let cache = tempfile::tempdir().unwrap();
    let text = Test::at(shipped())
        .cache(cache.path())
        .args(["verify", "nqueens-hidden", "--json"])
        .expect_exit(0)
        .run()
        .stdout;
    for name in ["binary-search", "first-board", "no-flush", "off-by-one"] {
        assert!(text.contains(name), "{name} was not judged: {text}");
    }
    no_survivors(cache.path());
}

#[test]
#[cfg_attr(
    not(judge_has_pypi),
    ignore = "needs python3 with pip and the network (pypi.org) to download problemtools"
)]
#[cfg_attr(not(judge_has_gxx), ignore = "needs g++ (Debian: apt-get install g++)")]
fn problemtools_guess_every_submission_gets_its_folders_verdict() {
    let guess = common::problemtools::examples().join("guess");
    let cache = tempfile::tempdir().unwrap();
    let out = Test::at(shipped())
        .cache(cache.path())
        .args(["verify", guess.to_str().unwrap(), "--json"])
        .expect_exit(0)
        .run();
    let doc = out.json();
    let solutions = doc[0]["solutions"].as_array().unwrap();
    let verdict = |name: &str| {
        let s = solutions
            .iter()
            .find(|s| s["solution"] == name)
            .unwrap_or_else(|| panic!("{name} was not judged: {doc:#}"));
        s["verdict"].as_str().unwrap().to_string()
    };
    // The ones whose verdict depends on the order of decision.
    for (name, expected) in [
        ("time_limit_exceeded/guess_no_flush.cc", "TLE"),
        ("wrong_answer/guess_tle.cc", "WA"),
        ("run_time_error/guess_rte_after_correct.cc", "RE"),
        ("accepted/guess.cc", "AC"),
    ] {
        assert_eq!(verdict(name), expected, "{name}: {doc:#}");
    }
    #[cfg(judge_has_java)]
    assert_eq!(verdict("wrong_answer/GuessCrash.java"), "WA");
    // Every submission in an installed language got its folder's verdict.
    for s in solutions {
        assert_eq!(s["matches_expected"], true, "{s}");
    }
    assert!(solutions.len() >= 8, "{doc:#}");
    assert_eq!(out.code, Some(0), "{doc:#}");
    no_survivors(cache.path());
}

#[test]
fn stress_and_compare_run_both_solutions_through_the_interactor() {
    let cache = tempfile::tempdir().unwrap();
    let in_repo = || Test::at(shipped()).cache(cache.path());
    // The reference is accepted by the interactor on each seed; the attempt is not from n = 4.
    let doc = in_repo()
        .args([
            "stress",
            "first-board",
            "--against",
            "binary-search",
            "-p",
            "nqueens-hidden",
            "--count",
            "30",
            "--json",
        ])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    let seen = doc["disagreement"]["attempt_output"].as_str().unwrap();
    assert!(
        seen.contains(">! "),
        "the attempt's side of the conversation: {seen}"
    );
    // Each as expected: compare succeeds.
    let doc = in_repo()
        .args([
            "compare",
            "nqueens-hidden",
            "binary-search",
            "off-by-one",
            "--json",
        ])
        .expect_exit(0)
        .run()
        .json();
    let text = doc.to_string();
    assert!(
        text.contains("\"RE\"") && text.contains("\"AC\""),
        "{doc:#}"
    );
    no_survivors(cache.path());
}

#[test]
fn ctrl_c_stops_both_programs() {
    let ws = workspace(3);
    let cache = ws.path().join("cache");
    let tmp = ws.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    // The solution that never flushes: both sides wait, until Ctrl-C.
    let judge = ws
        .judge()
        .cache(&cache)
        .env("TMPDIR", &tmp)
        .args(["run", "ping/no-flush", "--time-limit", "20s"])
        .expect_exit(130)
        .spawn();
    let started = Instant::now();
    let build = cache.join("build");
    // Both built programs running (not a compiler working there).
    let running = || {
        build.is_dir()
            && procs::running_from(&build)
                .iter()
                .filter(|p| p.exe.ends_with("solution"))
                .count()
                >= 2
    };
    while !running() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the two never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    judge.ctrl_c(Duration::from_secs(60));
    no_survivors(&cache);
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "temp dirs left behind: {left:?}");
}

#[test]
fn show_lists_the_sample_interactions() {
    let text = Test::at(shipped())
        .args(["show", "nqueens-hidden"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        text.contains(
            "interactive: interactor problems/nqueens-hidden/interactor.rs (testlib protocol)"
        ),
        "{text}"
    );
    assert!(!text.contains("checker tokens"), "{text}");
    let shown = text.split("Sample interactions").nth(1).expect("a section");
    assert!(shown.contains("sample 04"), "{text}");
    assert!(shown.contains("    <4\n    >? 1 2\n"), "{text}");
    assert!(shown.contains(">! 3 1 4 2"), "{text}");
    let text = Test::at(shipped()).arg("list").expect_exit(0).run().stdout;
    assert!(
        text.contains("checker none: an interactor decides (interactor.rs, testlib protocol)"),
        "{text}"
    );
}

#[test]
fn show_gives_an_interactive_samples_input_as_the_interactors_and_not_its_secret() {
    let text = Test::at(shipped())
        .args(["show", "nqueens-hidden"])
        .expect_exit(0)
        .run()
        .stdout;
    let samples = text
        .split("\nSamples\n")
        .nth(1)
        .and_then(|s| s.split("Sample interactions").next())
        .expect("a Samples section");
    assert!(
        samples.contains("sample 04\n  input, read by the interactor:\n    4\n"),
        "{text}"
    );
    // 04.out holds 2, the count of boards the interactor checks itself against: not what a
    // solution prints.
    assert!(!samples.contains("answer"), "{text}");
}

#[test]
fn a_solution_stopped_at_the_wall_cap_is_said_to_have_been_stopped() {
    // It never flushes: both sides wait until the judge stops it.
    let text = Test::at(shipped())
        .args(["run", "no-flush", "--case", "01", "--no-history"])
        .expect_exit(1)
        .stdout_has("idle: both sides waiting; did the solution flush?")
        .stdout_has("interactor's stderr (end), written after the judge stopped the solution (at the wall-clock cap):")
        .stdout_lacks("the solution ended without naming a board")
        .run()
        .stdout;
    assert!(
        text.contains(
            "the solution's output closed (it exited, or was stopped) before it named a board"
        ),
        "{text}"
    );
}

/// The conversation of `ping` over 3 rounds, as a sample interaction.
const PING_SAMPLE: &str = "<1\n>2\n<2\n>3\n<3\n>4\n<0\n";

#[test]
fn sample_interactions_replay_against_the_solution() {
    let ws = workspace(3);
    let cache = tempfile::tempdir().unwrap();
    for problem in ["ping", "ping-testlib"] {
        ws.write(&format!("testcases/{problem}/1.interaction"), PING_SAMPLE);
        for (name, verdict, detail) in [
            ("pong", "AC", ""),
            (
                "wrong-then-spin",
                "WA",
                "line 2: the solution said `3`, the sample `>2`",
            ),
            ("crash", "RE", "exit code 101"),
            ("spin", "TLE", "CPU time"),
            (
                "no-flush",
                "TLE",
                "idle: both sides waiting; did the solution flush?",
            ),
        ] {
            let doc = judge(&ws, cache.path(), &format!("{problem}/{name}"))
                .arg("--replay")
                .expect_exit(if verdict == "AC" { 0 } else { 1 })
                .run()
                .json();
            assert_eq!(doc["verdict"], verdict, "{problem}/{name}: {doc:#}");
            assert_eq!(doc["replay"], true, "{doc:#}");
            // Only the sample interaction ran, not the test.
            assert_eq!(doc["total"], 1, "{doc:#}");
            let case = &doc["cases"][0];
            assert_eq!(case["name"], "1", "{case}");
            let said = case["detail"].as_str().unwrap_or("");
            assert!(said.contains(detail), "{problem}/{name}: {said}");
            if name == "wrong-then-spin" {
                // Rejected first: stopped at once, and what was said before is in the transcript.
                assert!(case["time_ms"].as_u64().unwrap() < 900, "{case}");
                let transcript = case["interaction"]["transcript"].as_str().unwrap();
                let lines: Vec<&str> = transcript.lines().collect();
                assert!(lines[0].ends_with(" <1"), "{transcript}");
                assert!(lines[1].ends_with(" >3"), "{transcript}");
            }
        }
    }
    // A solution that says more than the sample, and one that says less.
    ws.write(
        "testcases/ping/2.interaction",
        "<1\n>2\n<2\n>3\n<3\n>4\n<0\n>done\n",
    );
    ws.write("testcases/ping/3.interaction", "<1\n>2\n<2\n");
    let doc = judge(&ws, cache.path(), "ping/pong")
        .arg("--replay")
        .expect_exit(1)
        .run()
        .json();
    let detail = |i: usize| doc["cases"][i]["detail"].as_str().unwrap_or("").to_string();
    assert_eq!(doc["total"], 3, "{doc:#}");
    assert!(
        detail(1).contains("said nothing more where line 8 of the sample has `>done`"),
        "{doc:#}"
    );
    assert!(
        detail(2).contains("said more after the sample's last line: `3`"),
        "{doc:#}"
    );
    // Without the transcript the replay judges the same; a replay is never history.
    let doc = judge(&ws, cache.path(), "ping/pong")
        .args(["--replay", "--case", "1", "--no-transcript"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["verdict"], "AC", "{doc:#}");
    let history = ws
        .judge()
        .cache(cache.path())
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(history.as_array().map(Vec::len), Some(0));
    no_survivors(cache.path());
}

#[test]
fn a_bad_or_missing_sample_interaction_is_named_with_the_fix() {
    let ws = workspace(3);
    let err = ws
        .judge()
        .args(["run", "ping/pong", "--replay"])
        .expect_exit(2)
        .run()
        .stderr;
    assert!(err.contains("testcases/ping"), "{err}");
    assert!(err.contains("no sample interaction to replay"), "{err}");
    assert!(err.contains("NAME.interaction"), "{err}");
    ws.write("testcases/ping/1.interaction", "<1\n>2\n2\n");
    let err = ws
        .judge()
        .args(["run", "ping/pong", "--replay"])
        .expect_exit(2)
        .run()
        .stderr;
    assert!(err.contains("testcases/ping/1.interaction"), "{err}");
    assert!(
        err.contains("line 3: `2` starts with neither `<` nor `>`"),
        "{err}"
    );
    assert!(err.contains("start every line with `<`"), "{err}");
}

#[test]
#[cfg_attr(
    not(judge_has_pypi),
    ignore = "needs python3 with pip and the network (pypi.org) to download problemtools"
)]
#[cfg_attr(not(judge_has_gxx), ignore = "needs g++ (Debian: apt-get install g++)")]
fn problemtools_guess_samples_replay_word_for_word() {
    let guess = common::problemtools::examples().join("guess");
    let cache = tempfile::tempdir().unwrap();
    let attempt = tempfile::tempdir().unwrap();
    // Guesses as the first sample does, whatever it is told.
    let scripted = attempt.path().join("scripted.cc");
    std::fs::write(
        &scripted,
        "#include <cstdio>\nint main() { char r[64]; int gs[] = {792, 999, 990, 995}; \
         for (int g : gs) { printf(\"%d\\n\", g); fflush(stdout); \
         if (scanf(\"%63s\", r) != 1) return 0; } }\n",
    )
    .unwrap();
    let replay = |solution: &Path, case: &str| {
        Test::at(shipped())
            .cache(cache.path())
            .args(["run", solution.to_str().unwrap(), "--problem"])
            .arg(&guess)
            .args(["--replay", "--case", case, "--json"])
    };
    let doc = replay(&scripted, "1").expect_exit(0).run().json();
    assert_eq!(doc["verdict"], "AC", "{doc:#}");
    // Sample 2 guesses 42 at once: another conversation.
    let doc = replay(&scripted, "2").expect_exit(1).run().json();
    let detail = doc["cases"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("line 1: the solution said `792`, the sample `>42`"),
        "{detail}"
    );
    // The package's accepted binary search is right, yet not the sample's conversation.
    let doc = replay(&guess.join("submissions/accepted/guess.cc"), "1")
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    assert_eq!(doc["expected"], serde_json::Value::Null, "{doc:#}");
    let detail = doc["cases"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("the solution said `500`, the sample `>792`"),
        "{detail}"
    );
    no_survivors(cache.path());
}
