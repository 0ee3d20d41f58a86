//! The cost of an interactive run: a 100,000-round ping-pong between an interactor and a
//! solution, judged with the transcript (the runner relays and records every line) and without
//! (`--no-transcript`: the two joined pipe to pipe), against the floor: the same two binaries
//! started by this process and joined directly by two pipes.
//!
//! Run with `cargo bench --profile release --bench interactive` (optionally `-- ROUNDS`, default 5, and `--check`:
//! see `targets`). The three are measured in turn in each round; the medians are printed with the
//! targets: with the transcript at most 2 x the floor, without at most 1.1 x. The judge's figure is
//! the case's wall time (the solution's, from its start to its end, the whole conversation), the
//! floor's the same span measured here.

mod targets;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

const ROUNDS_PLAYED: u64 = 100_000;

/// Kattis protocol: says 1..=N, each to be answered with the next number, then 0.
const INTERACTOR: &str = r#"use std::io::{BufRead, Write};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = std::fs::read_to_string(&args[1]).unwrap().trim().parse().unwrap();
    let mut out = std::io::stdout().lock();
    let mut lines = std::io::stdin().lock().lines();
    for i in 1..=n {
        writeln!(out, "{i}").unwrap();
        out.flush().unwrap();
        let reply = lines.next().unwrap().unwrap();
        if reply.trim() != (i + 1).to_string() {
            std::process::exit(43);
        }
    }
    writeln!(out, "0").unwrap();
    std::process::exit(42)
}
"#;

const SOLUTION: &str = r#"use std::io::{BufRead, Write};
fn main() {
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let x: u64 = line.unwrap().trim().parse().unwrap();
        if x == 0 { return; }
        writeln!(out, "{}", x + 1).unwrap();
        out.flush().unwrap();
    }
}
"#;

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

/// `judge [FLAGS] run pingpong.rs --problem pingpong --json`: the case's wall time, in ms.
fn judge(root: &Path, cache: &Path, flags: &[&str]) -> f64 {
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .current_dir(root)
        .env("JUDGE_CACHE_DIR", cache)
        .env("NO_COLOR", "1")
        .args(flags)
        .args(["run", "pong.rs", "--problem", "pingpong", "--json"])
        .stderr(Stdio::null())
        .output()
        .expect("the judge runs");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["verdict"], "AC", "{flags:?}: {doc:#}");
    doc["cases"][0]["wall_ms"].as_f64().unwrap()
}

/// The binary the judge built from the source named `source` in `cache`.
fn built(cache: &Path, source: &str) -> PathBuf {
    std::fs::read_dir(cache.join("build"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|dir| dir.join(source).is_file())
        .unwrap_or_else(|| panic!("no build of {source}"))
        .join("solution")
}

/// The floor: both programs started here, joined by two pipes, nothing in between; the time
/// from the solution's start to the end of both.
fn floor(interactor: &Path, solution: &Path, root: &Path) -> f64 {
    let (to_solution_r, to_solution_w) = std::io::pipe().unwrap();
    let (to_interactor_r, to_interactor_w) = std::io::pipe().unwrap();
    let input = root.join("testcases/pingpong/1.in");
    let feedback = root.join("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    let mut judge = Command::new(interactor)
        .arg(&input)
        .arg(&input)
        .arg(format!("{}/", feedback.display()))
        .stdin(to_interactor_r)
        .stdout(to_solution_w)
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut program = Command::new(solution)
        .env_clear()
        .stdin(to_solution_r)
        .stdout(to_interactor_w)
        .spawn()
        .unwrap();
    assert!(program.wait().unwrap().success());
    let took = started.elapsed();
    assert_eq!(judge.wait().unwrap().code(), Some(42));
    took.as_secs_f64() * 1000.0
}

fn main() -> ExitCode {
    targets::require_release("interactive");
    let (rounds, mut targets) = targets::Targets::from_args(std::env::args().skip(1), 5);
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    let cache = root.join("cache");
    let write = |rel: &str, text: String| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "problems/pingpong/problem.toml",
        "title = \"Ping-pong\"\ntime_limit = \"30s\"\nmemory_limit = \"64MiB\"\ninteractor = \"interactor.rs\"\ninteractor_protocol = \"kattis\"\n".into(),
    );
    write("problems/pingpong/interactor.rs", INTERACTOR.into());
    write("testcases/pingpong/1.in", format!("{ROUNDS_PLAYED}\n"));
    write("testcases/pingpong/1.out", format!("{ROUNDS_PLAYED}\n"));
    write("pong.rs", SOLUTION.into());

    // Compile both once, warm every cache.
    judge(root, &cache, &[]);
    let (interactor, solution) = (built(&cache, "interactor.rs"), built(&cache, "pong.rs"));
    floor(&interactor, &solution, root);

    let (mut with, mut without, mut direct) = (vec![], vec![], vec![]);
    for round in 0..rounds {
        eprint!("\rround {}/{rounds}", round + 1);
        with.push(judge(root, &cache, &[]));
        without.push(judge(root, &cache, &["--no-transcript"]));
        direct.push(floor(&interactor, &solution, root));
    }
    eprintln!();
    let (a, b, f) = (median(&with), median(&without), median(&direct));
    println!("interactive: {ROUNDS_PLAYED} rounds of ping-pong, {rounds} rounds (wall time of the conversation), median and fastest");
    println!(
        "  judge, with the transcript     {a:>8.0} ms   {:>8.0} ms",
        min(&with)
    );
    println!(
        "  judge, --no-transcript         {b:>8.0} ms   {:>8.0} ms",
        min(&without)
    );
    println!(
        "  floor: two pipes, no judge     {f:>8.0} ms   {:>8.0} ms",
        min(&direct)
    );
    println!(
        "  with / floor                   {:>8.2}      target <= 2: {}",
        a / f,
        targets.verdict("with / floor <= 2", a / f <= 2.0)
    );
    println!(
        "  without / floor                {:>8.2}      target <= 1.1: {}",
        b / f,
        targets.verdict("without / floor <= 1.1", b / f <= 1.1)
    );
    println!(
        "  fastest: with / floor {:.2}, without / floor {:.2}",
        min(&with) / min(&direct),
        min(&without) / min(&direct)
    );
    targets.finish()
}
