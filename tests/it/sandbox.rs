//! The sandbox: every attack of tests/corpus/sandbox/ is judged as a user would judge it and gets
//! the verdict in its header; afterwards the workspace is byte for byte unchanged, nothing was
//! written outside, the test's listeners received nothing, and the judge reported. Those that
//! only read are judged again with `--no-sandbox`, where they must succeed: the attack is real.
//! Also: as an ordinary user, without user namespaces, and with `--no-sandbox`.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::net::{TcpListener, UdpSocket};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};

use crate::common::{self, header, Output, Test, Workspace};

/// Panics, saying what is missing, unless the runner can sandbox programs here.
fn needs_sandbox() {
    // The probe starts `unshare` outside the harness.
    let _guard = Test::guard();
    common::sandbox::probe().unwrap_or_else(|why| {
        panic!("needs the sandbox: Landlock and user namespaces (Linux 5.13 or later, user namespaces allowed): {why}")
    });
}

/// A correct solution of the doubling problem.
fn double() -> String {
    format!(
        "{}fn main() {{ println!(\"{{}}\", 2 * n()); }}\n",
        common::READ_N
    )
}

struct Attack {
    name: String,
    source: String,
    expect: String,
    /// The verdict with `--no-sandbox`, for an attack that changes nothing.
    unsandboxed: Option<String>,
    /// Run the judge in a throw-away pid namespace: a regression must not reach the machine.
    contained: bool,
    needs: Option<String>,
}

fn attacks() -> Vec<Attack> {
    let dir = common::repo().join("tests/corpus/sandbox");
    let mut out: Vec<Attack> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|path| {
            let source = std::fs::read_to_string(&path).unwrap();
            // The fork bomb is judged alone (fork_bomb.rs).
            if header(&source, "alone").is_some() {
                return None;
            }
            let expect = header(&source, "expect")
                .unwrap_or_else(|| panic!("{} has no `// expect:` line", path.display()));
            // An attack that changes files through /proc/PID/cwd would reach every process's
            // folder on the machine were the sandbox to fail: it must run contained.
            let changes = ["remove_", "fs::write", "OpenOptions", "unlink"]
                .iter()
                .any(|w| source.contains(w));
            assert!(
                !(changes && source.contains("/proc")) || header(&source, "contained").is_some(),
                "{} changes files through /proc: give it a `// contained:` line",
                path.display()
            );
            Some(Attack {
                name: path.file_name().unwrap().to_string_lossy().into_owned(),
                expect,
                unsandboxed: header(&source, "unsandboxed"),
                contained: header(&source, "contained").is_some(),
                needs: header(&source, "needs"),
                source,
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(out.len() >= 12, "the sandbox corpus is incomplete");
    out
}

/// Every file and folder below `dir` but the judge's own state (.judge/): content and mode.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, u32)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".judge")
        .map(|e| e.unwrap())
        .map(|e| {
            let content = if e.file_type().is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                Vec::new()
            };
            let mode = e.metadata().unwrap().permissions().mode();
            (e.path().to_path_buf(), (content, mode))
        })
        .collect()
}

/// Where an attack writes outside its folder, named with `mark`.
fn escapes(mark: &str) -> Vec<PathBuf> {
    ["/etc", "/tmp", "/var/tmp", "/dev/shm", "/root", "/home"]
        .iter()
        .map(|d| Path::new(d).join(format!("judge-escape-{mark}")))
        .collect()
}

/// `judge run SOURCE --problem double --json --no-history` in `ws`, in a throw-away pid namespace
/// when `contained`.
fn judge(ws: &Path, cache: &Path, source: &Path, contained: bool) -> Test {
    let judge = Test::at(ws).cache(cache).arg("run").arg(source).args([
        "--problem",
        "double",
        "--json",
        "--no-history",
    ]);
    if !contained {
        return judge;
    }
    let user: &[&str] = if common::is_root() {
        &[]
    } else {
        &["--user", "--map-root-user"]
    };
    let pid = ["--pid", "--fork", "--mount-proc"];
    judge.wrapped_in(["unshare"].iter().chain(user).chain(&pid))
}

/// The verdict, or why there is none; the document.
fn verdict(out: &Output) -> (String, serde_json::Value) {
    match serde_json::from_str::<serde_json::Value>(&out.stdout) {
        Ok(doc) => (doc["verdict"].as_str().unwrap_or("?").to_string(), doc),
        Err(_) => (
            format!(
                "no report (exit code {:?}): {}",
                out.code,
                out.stderr.trim()
            ),
            serde_json::Value::Null,
        ),
    }
}

#[test]
#[cfg_attr(
    not(judge_has_sandbox),
    ignore = "needs the sandbox: Landlock and user namespaces (Linux 5.13 or later, user namespaces allowed)"
)]
fn every_attack_is_contained_and_changes_nothing() {
    needs_sandbox();
    let ws = Workspace::doubling("1s");
    ws.write(
        "solutions/double/keep.rs",
        "fn main() { println!(\"42\"); }\n",
    );
    ws.write(
        "problems/double/statement.md",
        "# Double\n\nPrint twice n.\n",
    );
    let root = ws.path().canonicalize().unwrap();
    let tcp = TcpListener::bind("127.0.0.1:0").unwrap();
    tcp.set_nonblocking(true).unwrap();
    let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_nonblocking(true).unwrap();
    let sockets = tempfile::tempdir().unwrap();
    let unix_path = sockets.path().join("service.sock");
    let unix = UnixListener::bind(&unix_path).unwrap();
    unix.set_nonblocking(true).unwrap();
    let mark = format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    let sources = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let before = snapshot(&root);
    let mut failures = Vec::new();
    let mut judged = 0;
    for attack in attacks() {
        if attack.needs.as_deref() == Some("g++") && !cfg!(judge_has_gxx) {
            eprintln!("{}: skipped, g++ is not installed", attack.name);
            continue;
        }
        let source = attack
            .source
            .replace("@WORKSPACE@", &root.display().to_string())
            .replace("@TCP_PORT@", &tcp.local_addr().unwrap().port().to_string())
            .replace("@UDP_PORT@", &udp.local_addr().unwrap().port().to_string())
            .replace("@UNIX_SOCKET@", &unix_path.display().to_string())
            .replace("@MARK@", &mark);
        let path = sources.path().join(&attack.name);
        std::fs::write(&path, source).unwrap();
        let code = if attack.expect == "AC" { 0 } else { 1 };
        let (got, doc) = verdict(
            &judge(&root, cache.path(), &path, attack.contained)
                .expect_exit(code)
                .run(),
        );
        judged += 1;
        let name = &attack.name;
        if got != attack.expect {
            failures.push(format!(
                "{name}: expected {}, got {got}: {}",
                attack.expect, doc["cases"]
            ));
        }
        if doc != serde_json::Value::Null
            && doc["sandbox"]["isolated"].as_array().map(Vec::len) != Some(3)
        {
            failures.push(format!("{name}: not fully sandboxed: {}", doc["sandbox"]));
        }
        if snapshot(&root) != before {
            failures.push(format!("{name}: the workspace changed"));
            break;
        }
        for escape in escapes(&mark) {
            if escape.exists() {
                let _ = std::fs::remove_file(&escape);
                failures.push(format!("{name}: wrote {}", escape.display()));
            }
        }
        match tcp.accept() {
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            other => failures.push(format!("{name}: the TCP listener heard {other:?}")),
        }
        match unix.accept() {
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            other => failures.push(format!("{name}: the unix socket heard {other:?}")),
        }
        let mut buf = [0u8; 512];
        match udp.recv_from(&mut buf) {
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            other => failures.push(format!("{name}: the UDP socket heard {other:?}")),
        }
        // Unsandboxed, the same attack succeeds: it is a real one.
        if let Some(expect) = &attack.unsandboxed {
            let (got, doc) = verdict(
                &judge(&root, cache.path(), &path, attack.contained)
                    .arg("--no-sandbox")
                    .expect_exit(if expect == "AC" { 0 } else { 1 })
                    .run(),
            );
            if &got != expect {
                failures.push(format!(
                    "{name} with --no-sandbox: expected {expect}, got {got}: {}",
                    doc["cases"]
                ));
            }
        }
    }
    assert!(judged >= 12, "only {judged} attacks were judged");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A C program that reads the answer by its absolute path and through /proc, and tries to
/// write into the workspace: prints 42 only if every attempt failed.
const C_ATTACK: &str = r#"#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
int main(void) {
    int escaped = 0;
    FILE *f = fopen("@WORKSPACE@/testcases/double/1.out", "r");
    if (f) { escaped = 1; fclose(f); }
    f = fopen("@WORKSPACE@/testcases/double/1.out", "w");
    if (f) { escaped = 1; fclose(f); }
    DIR *d = opendir("/proc");
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d))) {
        snprintf(path, sizeof path, "/proc/%s/cwd/testcases/double/1.out", e->d_name);
        f = fopen(path, "r");
        if (f) { escaped = 1; fclose(f); }
    }
    printf("%s\n", escaped ? "escaped" : "42");
    return 0;
}
"#;

#[test]
#[cfg_attr(
    not(judge_has_sandbox),
    ignore = "needs the sandbox: Landlock and user namespaces (Linux 5.13 or later, user namespaces allowed)"
)]
#[cfg_attr(not(judge_has_gcc), ignore = "needs gcc (Debian: apt-get install gcc)")]
fn an_ordinary_user_is_sandboxed_too() {
    needs_sandbox();
    // As root, the judge is run as nobody; otherwise it already runs as an ordinary user.
    let ws = Workspace::doubling("1s");
    let root = ws.path().canonicalize().unwrap();
    let judge = common::judge_copy(&root);
    std::fs::write(
        root.join("attack.c"),
        C_ATTACK.replace("@WORKSPACE@", &root.display().to_string()),
    )
    .unwrap();
    let judge = common::as_ordinary_user(&root, &judge);
    let before = snapshot(&root.join("testcases"));
    let out = judge
        .cache(root.join("cache"))
        .args([
            "run",
            "attack.c",
            "--problem",
            "double",
            "--no-history",
            "--json",
        ])
        .expect_exit(0)
        .run();
    let doc = out.json();
    assert_eq!(
        doc["sandbox"]["isolated"],
        serde_json::json!(["files", "network", "processes"]),
        "{doc:#}\n{}",
        out.stderr
    );
    assert_eq!(doc["verdict"], "AC", "{doc:#}");
    assert_eq!(snapshot(&root.join("testcases")), before);
}

#[test]
#[cfg_attr(
    not(judge_has_sandbox),
    ignore = "needs the sandbox: Landlock and user namespaces (Linux 5.13 or later, user namespaces allowed)"
)]
fn without_user_namespaces_the_judge_says_so_and_still_judges() {
    let ws = Workspace::doubling("1s");
    let src = ws.write("double.rs", double());
    // In a user namespace of its own where no further one may be made.
    let text = ws
        .judge()
        .wrapped_in([
            "unshare",
            "--user",
            "--map-root-user",
            "sh",
            "-c",
            "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$@\"",
            "sh",
        ])
        .args([
            "run",
            src.to_str().unwrap(),
            "--problem",
            "double",
            "--no-history",
        ])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        text.contains(
            "sandbox: files; no network, processes: user namespaces are turned off here (/proc/sys/user/max_user_namespaces is 0)"
        ),
        "{text}"
    );
}

/// `judge run SOURCE --problem double --no-history --no-sandbox`.
fn open_run(source: &str) -> [&str; 6] {
    [
        "run",
        source,
        "--problem",
        "double",
        "--no-history",
        "--no-sandbox",
    ]
}

#[test]
fn no_sandbox_turns_it_off_for_one_run_and_says_so() {
    let ws = Workspace::doubling("1s");
    let src = ws.write("double.rs", double());
    let args = open_run(src.to_str().unwrap());
    let text = ws.judge().args(args).expect_exit(0).run().stdout;
    assert!(
        text.contains("sandbox: off (turned off by --no-sandbox)"),
        "{text}"
    );
    let doc = ws
        .judge()
        .args(args)
        .arg("--json")
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["sandbox"]["isolated"], serde_json::json!([]));
    assert_eq!(
        doc["sandbox"]["missing"][0]["why"],
        "turned off by --no-sandbox"
    );
}

/// A program that kills or stops the launcher it was started by (the runner's other child,
/// `judge-launcher`): without the sandbox nothing prevents it. Every case is still judged and
/// true, a new launcher starts the next program, and none is left behind.
#[test]
fn a_launcher_killed_or_stopped_by_a_program_is_replaced() {
    let ws = Workspace::new();
    let cases: Vec<(String, String, String)> = (1..=4)
        .map(|i| (i.to_string(), format!("{i}\n"), format!("{}\n", 2 * i)))
        .collect();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\n",
        &cases,
    );
    for (name, signal) in [("kill", 9), ("stop", 19)] {
        let src = ws.write(
            &format!("{name}-launcher.rs"),
            format!(
                "{}{}",
                common::READ_N,
                r#"
extern "C" {
    fn kill(pid: i32, sig: i32) -> i32;
    fn getppid() -> i32;
}

fn main() {
    let parent = unsafe { getppid() };
    let mut signalled = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let Some((name, rest)) = stat.split_once(" (").and_then(|(_, r)| r.rsplit_once(')')) else {
            continue;
        };
        let ppid: i32 = rest.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
        if name == "judge-launcher" && ppid == parent {
            let pid: i32 = entry.file_name().to_string_lossy().parse().unwrap();
            if unsafe { kill(pid, SIGNAL) } == 0 {
                signalled += 1;
            }
        }
    }
    // A wrong answer unless it did signal its launcher.
    println!("{}", if signalled == 1 { 2 * n() } else { 0 });
}
"#
                .replace("SIGNAL", &signal.to_string())
            ),
        );
        let started = std::time::Instant::now();
        let doc = ws
            .judge()
            .args(open_run(src.to_str().unwrap()))
            .arg("--json")
            .expect_exit(0)
            .run()
            .json();
        assert_eq!(doc["verdict"], "AC", "{name}: {doc:#}");
        assert_eq!(doc["passed"], 4, "{name}: {doc:#}");
        for case in doc["cases"].as_array().unwrap() {
            assert_eq!(case["leftover_processes"], 0, "{name}: {case:#}");
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "{name}: took {:?}",
            started.elapsed()
        );
    }
    // No stopped launcher is left: it was killed when found, or with its runner.
    let stopped: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| stat.contains("(judge-launcher) T") || stat.contains("(judge-launcher) t"))
        .collect();
    assert!(stopped.is_empty(), "stopped launchers left: {stopped:?}");
}
