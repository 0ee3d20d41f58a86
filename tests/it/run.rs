//! `judge run` as a user runs it: the shipped problem, small wrong programs, exit codes, JSON, the cache.

use std::time::Duration;

use crate::common::{self, shipped, Test, Workspace, READ_N};

fn verdicts(doc: &serde_json::Value) -> Vec<String> {
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_accepted_reference_solutions_are_accepted() {
    for name in ["bitmask", "symmetry-halved", "eightfold", "flags"] {
        let doc = Test::at(shipped())
            .args(["run", name, "--json"])
            .expect_exit(0)
            .run()
            .json();
        assert_eq!(doc["verdict"], "AC", "{name}: {doc:#}");
        assert_eq!(doc["cases"].as_array().unwrap().len(), 14);
        assert_eq!(doc["problem"], "nqueens-ii");
        assert_eq!(doc["solution"], name);
    }
}

#[test]
fn the_odometer_is_too_slow() {
    let doc = Test::at(shipped())
        .args(["run", "odometer", "--time-limit", "150ms", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "TLE", "{doc:#}");
    let v = verdicts(&doc);
    // Small boards are quick even this way; from n = 9 on it never finishes.
    assert!(v[..6].iter().all(|v| v == "AC"), "{v:?}");
    assert!(v[8..].iter().all(|v| v == "TLE"), "{v:?}");
    for case in &doc["cases"].as_array().unwrap()[8..] {
        // Killed soon after the limit, not at the wall cap.
        assert!(case["wall_ms"].as_u64().unwrap() < 1500, "{case}");
        // On a badly overloaded machine the wall cap may come first; it must say so.
        let detail = case["detail"].as_str().unwrap();
        assert!(
            detail == "CPU time over the limit" || detail.contains("too busy"),
            "{detail}"
        );
    }
}

#[test]
fn stop_on_fail_ends_at_the_first_failure() {
    let doc = Test::at(shipped())
        .args([
            "run",
            "nqueens-ii/odometer",
            "--time-limit",
            "100ms",
            "--stop-on-fail",
            "--json",
        ])
        .expect_exit(1)
        .run()
        .json();
    let v = verdicts(&doc);
    assert_eq!(v.last().unwrap(), "TLE");
    assert!(v.len() <= 9, "{v:?}");
    assert_eq!(doc["passed"].as_u64().unwrap() as usize, v.len() - 1);
}

/// The doubling problem (500 ms) and `judge run attempt.rs --json` there, `source` in attempt.rs.
fn fixture(source: &str) -> (Workspace, Test) {
    let ws = Workspace::doubling("500ms");
    let path = ws.write("attempt.rs", source);
    let judge = ws.judge().args(["run", path.to_str().unwrap(), "--json"]);
    (ws, judge)
}

#[test]
fn fixtures_get_their_verdicts() {
    let cases: &[(&str, &str, &str)] = &[
        ("fn main() { println!(\"{}\", n() * 2); }", "AC", ""),
        (
            "fn main() { println!(\"{}\", n() * 2 + 1); }",
            "WA",
            "expected `42`, received `43`",
        ),
        (
            "fn main() { let v: Vec<u64> = vec![]; println!(\"{}\", v[n() as usize]); }",
            "RE",
            "exit code 101",
        ),
        (
            "fn main() { println!(\"{}\", n() * 2); std::process::exit(3); }",
            "RE",
            "exit code 3",
        ),
        (
            "fn main() { let mut x = n(); loop { x = std::hint::black_box(x.wrapping_mul(3)); } }",
            "TLE",
            "CPU time",
        ),
        (
            "fn main() { let _ = n(); std::thread::sleep(std::time::Duration::from_secs(30)); }",
            "TLE",
            "idle",
        ),
    ];
    for (body, verdict, detail) in cases {
        let (_ws, judge) = fixture(&format!("{READ_N}{body}\n"));
        let doc = judge
            .expect_exit(if *verdict == "AC" { 0 } else { 1 })
            .run()
            .json();
        assert_eq!(doc["verdict"], *verdict, "{body}: {doc:#}");
        let got = doc["cases"][0]["detail"].as_str().unwrap_or("");
        let busy = *detail == "CPU time" && got.contains("too busy");
        assert!(got.contains(detail) || busy, "{body}: {got}");
    }
}

#[test]
fn a_sleeping_program_is_stopped_at_the_wall_cap() {
    let started = std::time::Instant::now();
    let (_ws, judge) = fixture(&format!(
        "{READ_N}fn main() {{ let _ = n(); std::thread::sleep(std::time::Duration::from_secs(60)); }}\n"
    ));
    let doc = judge.expect_exit(1).run().json();
    assert_eq!(doc["verdict"], "TLE");
    // Wall cap for a 500 ms limit: 2 x 500 ms + 1 s.
    let wall = doc["cases"][0]["wall_ms"].as_u64().unwrap();
    assert!((1900..5000).contains(&wall), "{wall}");
    assert!(started.elapsed().as_secs() < 30);
}

#[test]
fn a_compile_error_is_ce_with_the_diagnostics() {
    let (_ws, judge) = fixture("fn main() { let x: u32 = \"no\"; }\n");
    let doc = judge.expect_exit(1).run().json();
    assert_eq!(doc["verdict"], "CE");
    let d = doc["compile"]["diagnostics"].as_str().unwrap();
    assert!(d.contains("mismatched types"), "{d}");
    assert!(d.contains("attempt.rs:1"), "diagnostics name the file: {d}");
    assert!(!d.contains('\u{1b}'), "JSON diagnostics are plain text");
    assert!(doc["cases"].as_array().unwrap().is_empty());
}

#[test]
fn the_table_is_what_a_contestant_reads() {
    let ws = Workspace::doubling("1s");
    ws.write("testcases/double/2.in", "5\n");
    ws.write("testcases/double/2.out", "10\n");
    let path = ws.write("wrong.rs", format!("{READ_N}fn main() {{ let n = n(); println!(\"{{}}\", if n == 5 {{ 11 }} else {{ 2 * n }}); }}\n"));
    ws.judge()
        .args(["run", path.to_str().unwrap()])
        .expect_exit(1)
        .stdout_has("double / wrong")
        .stdout_has("case")
        .stdout_matches(r"\n  1 +AC ")
        .stdout_matches(r"\n  2 +WA ")
        .stdout_has("expected `10`, received `11`")
        .stdout_has("-     1 │ 10")
        .stdout_has("+     1 │ 11")
        .stdout_has("WA  wrong answer · 1/2 passed")
        .stdout_lacks("\u{1b}")
        .run();
}

#[test]
fn an_unchanged_source_is_never_recompiled() {
    let ws = Workspace::doubling("1s");
    let cache = ws.path().join("own-cache");
    let src = ws.write(
        "a.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
    );
    let run = || {
        ws.judge()
            .cache(&cache)
            .args(["run", src.to_str().unwrap(), "--json"])
            .expect_exit(0)
            .run()
            .json()
    };
    assert_eq!(run()["compile"]["cached"], false);
    assert_eq!(run()["compile"]["cached"], true);
    std::fs::write(
        &src,
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2 + 0); }}\n"),
    )
    .unwrap();
    let doc = run();
    assert_eq!(
        doc["compile"]["cached"], false,
        "an edited source is rebuilt"
    );
    assert_eq!(doc["verdict"], "AC");
    // Nothing half-written is ever left in the cache.
    let tmp: Vec<_> = std::fs::read_dir(cache.join("tmp")).unwrap().collect();
    assert!(tmp.is_empty(), "{tmp:?}");
}

#[test]
fn concurrent_judges_share_the_cache_safely() {
    let ws = Workspace::doubling("1s");
    let cache = ws.path().join("own-cache");
    let src = ws.write(
        "a.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
    );
    let judges: Vec<_> = (0..4)
        .map(|_| {
            ws.judge()
                .cache(&cache)
                .args(["run", src.to_str().unwrap(), "--json"])
                .expect_exit(0)
                .spawn()
        })
        .collect();
    for judge in judges {
        let doc = judge.wait(Duration::from_secs(300)).json();
        assert_eq!(doc["verdict"], "AC");
    }
}

#[test]
fn exit_codes_and_messages_for_bad_input() {
    let ws = Workspace::doubling("1s");
    ws.write(
        "solutions/double/ok.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
    );
    ws.judge().args(["run", "ok"]).expect_exit(0).run();
    ws.judge()
        .args(["run", "nope"])
        .expect_exit(2)
        .stderr_has("unknown solution `nope`")
        .stderr_has("double/ok")
        .run();
    ws.judge()
        .args(["run", "ok", "--time-limit", "0"])
        .expect_exit(2)
        .run();
    // An input without an answer: refused before anything runs.
    ws.write("testcases/double/2.in", "1\n");
    ws.judge()
        .args(["run", "ok"])
        .expect_exit(2)
        .stderr_has("testcases/double/2.in: input without an answer")
        .stderr_has("add 2.out (or 2.ans)")
        .run();
    ws.write("testcases/double/2.ans", "2\n");
    ws.judge().args(["run", "ok"]).expect_exit(0).run();
    // A broken problem.toml names the file and the line.
    ws.write(
        "problems/double/problem.toml",
        "title = \"Double\"\ntime_limit = \"1s\"\nmemory_limt = \"64MiB\"\n",
    );
    ws.judge()
        .args(["run", "ok"])
        .expect_exit(2)
        .stderr_has("problems/double/problem.toml:3")
        .stderr_has("unknown field `memory_limt`")
        .run();
    // A path that is a folder.
    ws.judge()
        .args(["run", "solutions/double/", "--problem", "double"])
        .expect_exit(2)
        .run();
}

#[test]
fn the_workspace_is_found_from_a_subfolder_or_given() {
    let ws = Workspace::doubling("1s");
    ws.write(
        "solutions/double/ok.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
    );
    let deep = ws.path().join("testcases/double");
    Test::at(&deep).args(["run", "ok"]).expect_exit(0).run();
    let elsewhere = tempfile::tempdir().unwrap();
    Test::at(elsewhere.path())
        .args(["run", "ok"])
        .expect_exit(2)
        .stderr_has("not inside a judge workspace")
        .run();
    // Outside a workspace, a mistyped path is named as such, not taken for a missing workspace.
    Test::at(elsewhere.path())
        .args(["run", "typo/ok.cc"])
        .expect_exit(2)
        .stderr_has("cannot judge `typo/ok.cc`: there is no such file")
        .stderr_lacks("not inside")
        .run();
    Test::at(elsewhere.path())
        .args(["--root", ws.path().to_str().unwrap(), "run", "ok"])
        .expect_exit(0)
        .run();
}

#[test]
fn list_shows_problems_limits_and_expectations() {
    Test::at(shipped())
        .arg("list")
        .expect_exit(0)
        .stdout_has("nqueens-ii  N-Queens II")
        .stdout_has("time 4 s · memory 256 MiB · output 64 MiB · 14 test cases (2 samples)")
        .stdout_matches(r"odometer +Rust +TLE")
        .stdout_matches(r"py-mirror +Python 3 +AC or TLE")
        .run();
}

#[test]
fn clean_removes_binaries_and_kept_outputs_and_the_history_only_when_asked() {
    let ws = Workspace::doubling("1s");
    let cache = ws.path().join(".judge/cache");
    let src = ws.write("w.rs", "fn main() { println!(\"41\"); }\n");
    let run = || {
        ws.judge()
            .cache(&cache)
            .args(["run", src.to_str().unwrap(), "--json"])
            .expect_exit(1)
            .run()
            .json()
    };
    assert_eq!(run()["compile"]["cached"], false);
    assert!(ws.path().join(".judge/last/double/w/1.out").is_file());
    assert!(ws.path().join(".judge/history.db").is_file());
    ws.judge()
        .cache(&cache)
        .arg("clean")
        .expect_exit(0)
        .stdout_has("removed .judge/cache/build")
        .stdout_has("the submission history is kept")
        .run();
    assert!(!cache.join("build").exists() && !ws.path().join(".judge/last").exists());
    assert!(ws.path().join(".judge/history.db").is_file());
    assert_eq!(run()["compile"]["cached"], false, "rebuilt after clean");
    // Its own cache: the shared one is in use by the other tests.
    ws.judge()
        .cache(&cache)
        .args(["clean", "--all"])
        .expect_exit(0)
        .run();
    assert!(!ws.path().join(".judge/history.db").exists());
}

/// The runner as the judge drives it (`judge __runner`, one JSON line each way), with and without
/// the sandbox: a program found on PATH runs, and one that cannot start says why, naming the
/// step, and the runner goes on starting programs after it.
#[test]
fn the_runner_starts_programs_and_says_why_one_cannot_start() {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;

    use judge_runner::{Access, Limits, Outcome, Request, Response};

    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().join("box");
    std::fs::create_dir(&cwd).unwrap();
    let not_executable = dir.path().join("data.txt");
    std::fs::write(&not_executable, "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(&not_executable, std::fs::Permissions::from_mode(0o644)).unwrap();
    let request = |program: &str, args: &[&str], env: Option<Vec<(String, String)>>| Request {
        program: program.into(),
        args: args.iter().map(|a| a.to_string()).collect(),
        env,
        cwd: cwd.clone(),
        clean_cwd: true,
        stdin: None,
        stdout: dir.path().join("stdout"),
        stderr: dir.path().join("stderr"),
        limits: Limits {
            cpu_ms: Some(5000),
            wall_ms: 10_000,
            stderr_keep_bytes: 4096,
            ..Limits::default()
        },
        input_file: None,
        files: None,
        keep_file: None,
        access: Access {
            read: vec![dir.path().to_path_buf()],
            write: vec![cwd.clone()],
        },
        partner: None,
    };
    let none = Some(Vec::new());
    // (request, the outcome wanted: an exit code, or words of the reason it did not start)
    let cases: Vec<(Request, Result<i32, &str>)> = vec![
        // Found on the runner's PATH (no environment given: the runner's own).
        (request("sh", &["-c", "exit 3"], None), Ok(3)),
        // An empty environment has no PATH: searched where execvp would, /bin and /usr/bin.
        (request("true", &[], none.clone()), Ok(0)),
        (
            request("no-such-program-anywhere", &[], None),
            Err("starting no-such-program-anywhere: No such file or directory"),
        ),
        (
            request("/no/such/program", &[], none.clone()),
            Err("starting /no/such/program: No such file or directory"),
        ),
        (
            request(not_executable.to_str().unwrap(), &[], none.clone()),
            Err("Permission denied"),
        ),
        (
            Request {
                cwd: dir.path().join("gone"),
                clean_cwd: false,
                ..request("/bin/true", &[], none.clone())
            },
            Err("entering "),
        ),
        // And the runner still starts programs after those.
        (request("/bin/sh", &["-c", "echo hi; exit 0"], none), Ok(0)),
    ];
    // Each answer comes well within the requests' wall cap.
    let within = Duration::from_secs(60);
    for sandbox in [true, false] {
        let mut runner = Test::new()
            .arg("__runner")
            .args((!sandbox).then_some("--no-sandbox"))
            .stdin_piped()
            .expect_exit(0)
            .spawn();
        let line = runner.line(within);
        assert!(line.contains("sandbox"), "the greeting: {line}");
        for (req, wanted) in &cases {
            writeln!(runner.stdin(), "{}", serde_json::to_string(req).unwrap()).unwrap();
            let line = runner.line(within);
            let got: Response = serde_json::from_str(&line).unwrap();
            match (wanted, &got.outcome) {
                (Ok(code), Outcome::Exited(c)) => assert_eq!(c, code, "{req:?}"),
                (Err(words), Outcome::SpawnFailed(why)) => {
                    assert!(why.contains(words), "sandbox {sandbox}: {why}")
                }
                _ => panic!("sandbox {sandbox}, {req:?}: wanted {wanted:?}, got {got:?}"),
            }
        }
        runner.close_stdin();
        runner.wait(within);
    }
}

/// A judge killed outright (SIGKILL) cannot remove its scratch folder; the next judge removes
/// it, and never the folder of a judge that still runs.
#[test]
fn a_killed_judges_scratch_folder_is_removed_by_the_next_judge() {
    use std::time::Instant;

    let ws = Workspace::doubling("20s");
    let tmp = tempfile::tempdir().unwrap();
    let spin = ws.write(
        "spin.rs",
        "fn main() { loop { std::hint::spin_loop(); } }\n",
    );
    let double = ws.write(
        "double.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", 2 * n()); }}\n"),
    );
    let folders = || scratch_folders(tmp.path());
    // A judge spinning on its case, once its scratch folder is there (compiling first).
    let start = |known: usize| {
        let judge = ws
            .judge()
            .env("TMPDIR", tmp.path())
            .args([
                "run",
                spin.to_str().unwrap(),
                "--problem",
                "double",
                "--no-history",
            ])
            .spawn();
        let waited = Instant::now();
        while folders().len() <= known {
            assert!(
                waited.elapsed() < Duration::from_secs(60),
                "no scratch folder"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        judge
    };
    let killed = start(0);
    let killed_folder = folders()[0].clone();
    let alive = start(1);
    let alive_folder = folders().into_iter().find(|f| *f != killed_folder).unwrap();
    killed.kill();
    assert!(
        killed_folder.is_dir(),
        "a killed judge cannot remove its folder"
    );

    ws.judge()
        .env("TMPDIR", tmp.path())
        .args([
            "run",
            double.to_str().unwrap(),
            "--problem",
            "double",
            "--no-history",
        ])
        .expect_exit(0)
        .run();
    assert_eq!(
        folders(),
        vec![alive_folder.clone()],
        "only the live judge's is left"
    );

    alive.kill();
}

/// The judges' scratch folders in `tmp`, sorted.
fn scratch_folders(tmp: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("judge-")
        })
        .collect();
    found.sort();
    found
}

/// Makes a folder it cannot write in its working folder, holding one it cannot write either,
/// with a file in it; then spins.
const LOCKER_C: &str = r#"
#include <stdio.h>
#include <sys/stat.h>
int main(void) {
    mkdir("locked", 0700);
    mkdir("locked/inner", 0700);
    FILE *f = fopen("locked/inner/file", "w");
    if (f) fclose(f);
    chmod("locked/inner", 0500);
    chmod("locked", 0500);
    for (;;) {}
}
"#;

#[test]
#[cfg_attr(not(judge_has_gcc), ignore = "needs gcc (Debian: apt-get install gcc)")]
fn a_killed_judges_programs_end_and_its_folder_goes_even_with_a_folder_a_program_locked() {
    use std::time::Instant;

    // Permissions do not bind root: as root, the judges run as nobody.
    let ws = Workspace::doubling("20s");
    let root = ws.path().canonicalize().unwrap();
    let judge = common::judge_copy(&root);
    let tmp = root.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(root.join("locker.c"), LOCKER_C).unwrap();
    std::fs::write(
        root.join("double.c"),
        "#include <stdio.h>\nint main(void) { long n; scanf(\"%ld\", &n); printf(\"%ld\\n\", 2 * n); }\n",
    )
    .unwrap();
    let run = |source: &str| {
        common::as_ordinary_user(&root, &judge)
            .env("TMPDIR", &tmp)
            .cache(root.join("cache"))
            .args(["run", source, "--problem", "double", "--no-history"])
    };
    let scratch = || scratch_folders(&tmp);
    let killed = run("locker.c").spawn();
    let waited = Instant::now();
    let locked = loop {
        if let Some(locked) = scratch()
            .into_iter()
            .map(|s| s.join("box/locked/inner/file"))
            .find(|f| f.exists())
        {
            break locked;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "the program never made its folder"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // Until the folders are locked: the program does that right after the file.
    std::thread::sleep(Duration::from_millis(200));
    killed.kill();
    // Its runner, launcher and spinning program end with it, long before the 41-s wall cap.
    let running_from_workspace = || {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|p| std::fs::read(p.path().join("cmdline")).ok())
            .filter(|cmdline| cmdline.starts_with(root.as_os_str().as_encoded_bytes()))
            .map(|cmdline| String::from_utf8_lossy(&cmdline).replace('\0', " "))
            .collect::<Vec<_>>()
    };
    let waited = Instant::now();
    while !running_from_workspace().is_empty() {
        assert!(
            waited.elapsed() < Duration::from_secs(10),
            "still running after the judge was killed: {:?}",
            running_from_workspace()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let folder = scratch();
    assert_eq!(folder.len(), 1, "a killed judge cannot remove its folder");
    assert!(locked.exists());

    run("double.c").expect_exit(0).run();
    assert_eq!(
        scratch(),
        Vec::<std::path::PathBuf>::new(),
        "the killed judge's folder is removed, locked folders and all"
    );
}

#[test]
#[cfg_attr(
    not(judge_has_python3),
    ignore = "needs python3 (Debian: apt-get install python3)"
)]
fn a_name_found_in_two_problems_is_never_judged_against_one_of_them_silently() {
    let ws = Workspace::new();
    // What `judge listen --new` makes: a `main` in every problem; and a `brute` in both.
    for (id, answer) in [("a-plus-b", "3\n"), ("sum-list", "6\n")] {
        ws.problem(
            id,
            "title = \"Sum\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\ngenerator = \"gen.py\"\n",
            &[("1", "1 2 3\n", answer)],
        );
        ws.write(
            &format!("problems/{id}/gen.py"),
            "import sys\nprint(int(sys.argv[1]) % 5, 1, 1)\n",
        );
        ws.write(&format!("solutions/{id}/main.py"), "print(0)\n");
    }
    ws.write(
        "solutions/a-plus-b/brute.py",
        "a, b, _ = map(int, input().split())\nprint(a + b)\n",
    );
    ws.write(
        "solutions/sum-list/brute.py",
        "print(sum(map(int, input().split())))\n",
    );
    ws.write(
        "solutions/sum-list/fast.py",
        "print(sum(map(int, input().split())))\n",
    );

    ws.judge()
        .args(["run", "main"])
        .expect_exit(2)
        .stderr_has("`main` names several solutions: a-plus-b/main, sum-list/main")
        .stderr_has("fix: write PROBLEM/NAME")
        .run();
    ws.judge()
        .args(["run", "sum-list/main", "--no-history"])
        .expect_exit(1)
        .stdout_has("sum-list / main")
        .run();
    ws.judge()
        .args(["run", "main", "--problem", "a-plus-b", "--no-history"])
        .expect_exit(1)
        .stdout_has("a-plus-b / main")
        .run();
    // Beside `fast`, `brute` is the one of fast's problem, whichever is named first.
    for args in [
        ["stress", "fast", "--against", "brute"],
        ["stress", "brute", "--against", "fast"],
    ] {
        ws.judge()
            .args(args)
            .args(["--count", "5"])
            .expect_exit(0)
            .stdout_has("no disagreement")
            .run();
    }
    ws.judge()
        .args(["stress", "main", "--against", "brute", "--count", "1"])
        .expect_exit(2)
        .stderr_has("names several solutions")
        .run();
}
