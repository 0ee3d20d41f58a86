//! Faults around a run, each with a clear message, the right exit code and nothing lost: the
//! scratch file system full while a program writes, a workspace or a history on a read-only
//! file system, a compiler killed or hung, SIGTERM to the judge in the middle of a run.
//!
//! The file systems are made in a throw-away mount namespace (`unshare --mount`, with a user
//! namespace when not root): a small tmpfs, a read-only bind mount. Nothing outside it is
//! touched.

use std::path::Path;
use std::time::{Duration, Instant};

use super::intact;
use crate::common::{self, cached, procs, Test, Workspace, READ_N};

/// `test` run in a mount namespace of its own, after `setup` (a shell line given the folder
/// `dir` as `$0`) has run there.
fn in_namespace(test: Test, setup: &str, dir: &Path) -> Test {
    let mut wrapper = vec!["unshare".to_string(), "--mount".into()];
    if !common::is_root() {
        wrapper.push("--map-root-user".into());
    }
    wrapper.extend([
        "sh".into(),
        "-c".into(),
        format!("{setup} && exec \"$@\""),
        dir.display().to_string(),
    ]);
    test.wrapped_in(wrapper)
}

/// The doubling problem with a 64 MiB output limit, and `ok`.
fn workspace() -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"2s\"\nmemory_limit = \"256MiB\"\noutput_limit = \"64MiB\"\n",
        &[("1", "21\n", "42\n"), ("2", "5\n", "10\n")],
    );
    ws.write(
        "solutions/double/ok.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
    );
    ws
}

#[test]
fn a_full_scratch_disk_is_the_judges_error_never_the_programs() {
    let ws = workspace();
    // 4 MiB of blank lines around the answer: accepted wherever there is room for them.
    ws.write(
        "solutions/double/loud.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); print!(\"{{}}\", \"\\n\".repeat(4 << 20)); }}\n"),
    );
    // The same, ignoring write errors as C's printf does: the answer comes last, and is lost.
    ws.write(
        "solutions/double/quiet.rs",
        format!("{READ_N}use std::io::Write;\nfn main() {{ let n = n(); let mut out = std::io::stdout(); let _ = out.write_all(\"\\n\".repeat(4 << 20).as_bytes()); let _ = writeln!(out, \"{{}}\", n * 2); }}\n"),
    );
    for name in ["loud", "quiet"] {
        // Built, and accepted, where there is room.
        ws.judge()
            .args(["run", name, "--no-history"])
            .expect_exit(0)
            .run();
    }
    let scratch = tempfile::tempdir().unwrap();
    let small = "mount -t tmpfs -o size=1m tmpfs \"$0\"";
    for name in ["loud", "quiet"] {
        let out = in_namespace(ws.judge(), small, scratch.path())
            .env("TMPDIR", scratch.path())
            .args(["run", name])
            .expect_exit(2)
            .stdout_has("IE")
            .stdout_has("no space left")
            .stdout_has("TMPDIR")
            .stdout_lacks("RE ")
            .stdout_lacks("WA ")
            .run();
        assert!(out.stdout.contains("submission #"), "{}", out.stdout);
    }
    let doc = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc[0]["verdict"], "IE", "{doc:#}");
    assert_eq!(doc[1]["verdict"], "IE", "{doc:#}");
}

#[test]
fn a_read_only_workspace_still_judges_and_says_nothing_was_recorded() {
    let ws = workspace();
    // Its build cache inside it, as a workspace has it.
    let cache = ws.path().join(".judge/cache");
    ws.judge()
        .cache(&cache)
        .args(["run", "ok"])
        .expect_exit(0)
        .run();
    let db = ws.path().join(".judge/history.db");
    assert_eq!(intact(&db), 1);
    let read_only = "mount --bind \"$0\" \"$0\" && mount -o remount,bind,ro \"$0\"";
    let judge = || in_namespace(ws.judge().cache(&cache), read_only, ws.path());
    judge()
        .args(["run", "ok"])
        .expect_exit(0)
        .stdout_has("AC  accepted")
        .stderr_has("nothing was recorded in the history")
        .stderr_has("read-only")
        .stderr_has("fix: ")
        .run();
    // A wrong answer keeps its exit code too.
    ws.write(
        "solutions/double/off.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2 + 1); }}\n"),
    );
    judge()
        .args(["run", "off"])
        .expect_exit(1)
        .stdout_has("WA")
        .stderr_has("nothing was recorded")
        .run();
    // What is recorded can still be read there.
    judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .stdout_has("\"verdict\": \"AC\"")
        .run();
    assert_eq!(intact(&db), 1);
    // A history on a read-only file system, the workspace writable.
    let elsewhere = tempfile::tempdir().unwrap();
    let history = elsewhere.path().join("history.db");
    ws.judge()
        .args(["--history", history.to_str().unwrap(), "run", "ok"])
        .expect_exit(0)
        .run();
    in_namespace(ws.judge(), read_only, elsewhere.path())
        .args(["--history", history.to_str().unwrap(), "run", "ok"])
        .expect_exit(0)
        .stderr_has("read-only")
        .run();
    assert_eq!(intact(&history), 1);
}

/// A language whose compiler is the script `cc.sh` of the workspace, identified as `cc 1`.
fn with_compiler(ws: &Workspace, script: &str) {
    let compiler = ws.write(
        "cc.sh",
        format!("#!/bin/sh\nif [ \"$1\" = --version ]; then echo cc 1; exit 0; fi\n{script}\n"),
    );
    let mut perms = std::fs::metadata(&compiler).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&compiler, perms).unwrap();
    ws.write(
        "judge.toml",
        "[language.shell]\nextensions = [\"sh\"]\ncompile = \"./cc.sh {source} {dir}/prog.sh\"\nrun = \"bash {dir}/prog.sh\"\n",
    );
}

#[test]
fn a_compiler_or_its_linker_killed_or_hung_is_said_and_never_remembered_as_the_sources_fault() {
    let ws = workspace();
    ws.write("solutions/double/twice.sh", "read n; echo $((2 * n))\n");
    let cache = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        ws.judge()
            .cache(cache.path())
            .args(["run", "twice", "--no-history"])
            .args(extra)
    };
    // Killed outright (as the out-of-memory killer does): the judge's error, not a CE.
    with_compiler(&ws, "kill -9 $$");
    run(&[])
        .expect_exit(2)
        .stderr_has("killed by SIGKILL")
        .stderr_has("fix: ")
        .stdout_lacks("CE")
        .run();
    // Hung past its limit: stopped, and said.
    with_compiler(&ws, "sleep 600");
    let started = Instant::now();
    run(&["--compile-time-limit", "2s"])
        .expect_exit(1)
        .stdout_has("CE")
        .stdout_has("compilation stopped")
        .run();
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(
        procs::using(ws.path()).is_empty(),
        "the compiler still runs"
    );
    // One of its tools killed (the linker, by a full disk): a failure its driver reports, a
    // CE of this build only.
    with_compiler(
        &ws,
        "echo 'collect2: fatal error: ld terminated with signal 7 [Bus error]' >&2; exit 1",
    );
    run(&[])
        .expect_exit(1)
        .stdout_has("CE")
        .stdout_has("terminated with signal 7")
        .run();
    // None is remembered: the compiler mended, the same source builds.
    with_compiler(&ws, "cp \"$1\" \"$2\"");
    run(&[]).expect_exit(0).stdout_has("AC").run();
}

#[test]
fn sigterm_in_the_middle_of_a_run_stops_its_programs_and_records_nothing_half() {
    let ws = workspace();
    ws.write(
        "solutions/double/slow.rs",
        format!("{READ_N}fn main() {{ let n = n(); let t = std::time::Instant::now(); while t.elapsed().as_millis() < 1500 {{ std::hint::spin_loop(); }} println!(\"{{}}\", n * 2); }}\n"),
    );
    let cache = tempfile::tempdir().unwrap();
    ws.judge()
        .cache(cache.path())
        .args(["run", "ok"])
        .expect_exit(0)
        .run();
    let db = ws.path().join(".judge/history.db");
    let before = intact(&db);
    let scratch = tempfile::tempdir().unwrap();
    let running = ws
        .judge()
        .cache(cache.path())
        .env("TMPDIR", scratch.path())
        .args(["run", "slow"])
        .expect_exit(130)
        .spawn();
    // Until the program runs.
    let deadline = Instant::now() + Duration::from_secs(120);
    while procs::running_from(&cached::builds(cache.path()))
        .iter()
        .all(|p| !p.cmdline.contains("solution"))
    {
        assert!(Instant::now() < deadline, "the program never ran");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = rustix::process::Pid::from_raw(running.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    let out = running.wait(Duration::from_secs(20));
    assert_eq!(out.code, Some(130), "{out:?}");
    assert!(out.stderr.contains("interrupted"), "{out:?}");
    assert!(
        procs::running_from(&cached::builds(cache.path())).is_empty(),
        "its programs still run"
    );
    let left: Vec<_> = std::fs::read_dir(scratch.path())
        .unwrap()
        .flatten()
        .collect();
    assert!(left.is_empty(), "its scratch folder is left: {left:?}");
    assert_eq!(intact(&db), before, "nothing recorded of the stopped run");
}
