//! The judge's own cost: `judge run` over 1,000 tiny cases against the physical floor (a minimal loop
//! in this process that spawns the same binary with the same stdin files, reads stdout, waits and
//! compares), and the warm start of `judge run` on one case of an unchanged solution.
//!
//! Run with `cargo bench --profile release --bench overhead` (optionally `-- ROUNDS`, default 5, and `--check`: see
//! `targets`). Everything is measured in one run, alternating, and the medians are printed with the
//! targets. The machine drifts between rounds, so the two ratios are medians of each round's own:
//! (a)/(b) at most 1.3, (a) against the mean of the floor measured just before and just after the
//! two judge runs of its round; the sandbox at most 5%: (a) against `judge run --no-sandbox`,
//! measured back to back (in turn first). Warm start under 30 ms plus the case itself; `--jobs 2`
//! at most 0.6 x `--jobs 1`. When online-judge-tools (`oj`) is on PATH, `oj t` over the same cases
//! is an extra column; it is skipped with a note otherwise. With `JUDGE_BASELINE=PATH` (the `judge`
//! binary of an earlier build), each round also runs that build back to back with (a), in turn
//! first, and the median of each round's (a)/(baseline) is printed: a change is measured against
//! the build before it in the same run.

mod echo;

#[path = "../tests/it/common/cached.rs"]
mod cached;
mod targets;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use echo::{median, CASES, ECHO};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Runs `judge` with `args` in `root`, output discarded; returns the wall time from start to exit.
fn judge(root: &Path, cache: &Path, args: &[&str]) -> Duration {
    judge_at(Path::new(env!("CARGO_BIN_EXE_judge")), root, cache, args)
}

/// Runs the judge binary at `exe` with `args` in `root`, as [`judge`] does.
fn judge_at(exe: &Path, root: &Path, cache: &Path, args: &[&str]) -> Duration {
    let started = Instant::now();
    let status = Command::new(exe)
        .current_dir(root)
        .env("JUDGE_CACHE_DIR", cache)
        .env("NO_COLOR", "1")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the judge runs");
    let took = started.elapsed();
    assert!(status.success(), "judge {args:?} failed: {status}");
    took
}

/// The floor: the essential work of judging, with nothing around it. Spawn with stdin from the
/// input file, read stdout through a pipe, wait, read the answer, compare tokens.
fn floor(binary: &Path, cases: &[(PathBuf, PathBuf)]) -> Duration {
    let started = Instant::now();
    for (input, answer) in cases {
        let mut child = Command::new(binary)
            .env_clear()
            .stdin(std::fs::File::open(input).unwrap())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut out = Vec::new();
        child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
        assert!(child.wait().unwrap().success());
        let expected = std::fs::read(answer).unwrap();
        let same = out
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
            .eq(expected
                .split(|b| b.is_ascii_whitespace())
                .filter(|t| !t.is_empty()));
        assert!(same, "the echo solution must echo");
    }
    started.elapsed()
}

/// `oj t` over the same cases, when online-judge-tools is installed.
fn oj(binary: &Path, dir: &Path) -> Option<Duration> {
    let started = Instant::now();
    let status = Command::new("oj")
        .args(["t", "-c"])
        .arg(binary)
        .arg("-d")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    status.success().then(|| started.elapsed())
}

fn oj_available() -> bool {
    Command::new("oj")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn main() -> ExitCode {
    targets::require_release("overhead");
    let (rounds, mut targets) = targets::Targets::from_args(std::env::args().skip(1), 5);
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    let cache = root.join("cache");
    for (id, n) in [("echo", CASES), ("one", 1)] {
        std::fs::create_dir_all(root.join(format!("problems/{id}"))).unwrap();
        std::fs::create_dir_all(root.join(format!("testcases/{id}"))).unwrap();
        std::fs::write(
            root.join(format!("problems/{id}/problem.toml")),
            "title = \"Echo\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\n",
        )
        .unwrap();
        for i in 1..=n {
            let text = format!("{i}\n");
            std::fs::write(root.join(format!("testcases/{id}/{i}.in")), &text).unwrap();
            std::fs::write(root.join(format!("testcases/{id}/{i}.out")), &text).unwrap();
        }
    }
    let src = root.join("echo.rs");
    std::fs::write(&src, ECHO).unwrap();
    let src = src.to_str().unwrap();
    let cases: Vec<(PathBuf, PathBuf)> = (1..=CASES)
        .map(|i| {
            let dir = root.join("testcases/echo");
            (dir.join(format!("{i}.in")), dir.join(format!("{i}.out")))
        })
        .collect();

    // Compile once and warm every cache (the page cache, the judge's binary cache).
    judge(root, &cache, &["run", src, "--problem", "echo"]);
    let binary = cached::binary(&cache);
    floor(&binary, &cases);
    let with_oj = oj_available();

    // The open build, for --no-sandbox (the cache keeps it apart from the sandboxed one).
    let open = ["run", src, "--problem", "echo", "--no-sandbox"];
    judge(root, &cache, &open);
    let (mut a, mut b, mut c, mut j2, mut o) = (vec![], vec![], vec![], vec![], vec![]);
    let (mut unsandboxed, mut sandbox_cost, mut over_floor) = (vec![], vec![], vec![]);
    let baseline = std::env::var_os("JUDGE_BASELINE").map(PathBuf::from);
    let sandboxed_run = ["run", src, "--problem", "echo"];
    if let Some(exe) = &baseline {
        judge_at(exe, root, &cache, &sandboxed_run);
    }
    let mut against_baseline = vec![];
    for round in 0..rounds {
        eprint!("round {}/{rounds}", round + 1);
        // The floor before and after the two judge runs, which take turns going first: each
        // judge run is as far from the floor's mean as the other, whichever way the machine
        // drifts during the round.
        let before = ms(floor(&binary, &cases));
        let sandboxed = || ms(judge(root, &cache, &["run", src, "--problem", "echo"]));
        let (with, without) = if round % 2 == 0 {
            let with = sandboxed();
            (with, ms(judge(root, &cache, &open)))
        } else {
            let without = ms(judge(root, &cache, &open));
            (sandboxed(), without)
        };
        let after = ms(floor(&binary, &cases));
        if let Some(exe) = &baseline {
            let earlier = || ms(judge_at(exe, root, &cache, &sandboxed_run));
            let (now, then) = if round % 2 == 0 {
                let now = sandboxed();
                (now, earlier())
            } else {
                let then = earlier();
                (sandboxed(), then)
            };
            eprint!(" [this build {now:.0} ms, baseline {then:.0} ms]");
            against_baseline.push(now / then);
        }
        let floor_ms = (before + after) / 2.0;
        a.push(with);
        b.push(floor_ms);
        over_floor.push(with / floor_ms);
        unsandboxed.push(without);
        sandbox_cost.push(with / without);
        // Each round's own figures, to stderr: how much the machine moved shows there.
        eprintln!(
            ": (a) {with:.0} ms, (a') {without:.0} ms, (b) {before:.0} and {after:.0} ms; (a)/(b) {:.2}, (a)/(a') {:.3}",
            with / floor_ms,
            with / without
        );
        // The warm start: several in a row, as a user re-running an unchanged solution.
        for _ in 0..5 {
            c.push(ms(judge(root, &cache, &["run", src, "--problem", "one"])));
        }
        j2.push(ms(judge(
            root,
            &cache,
            &["run", src, "--problem", "echo", "--jobs", "2"],
        )));
        if with_oj {
            if let Some(d) = oj(&binary, &root.join("testcases/echo")) {
                o.push(ms(d));
            }
        }
    }
    let (a, b, c) = (median(&a), median(&b), median(&c));
    let case = b / CASES as f64;
    println!(
        "judge overhead: {CASES} cases of an echo solution, medians of {rounds} alternating rounds"
    );
    println!(
        "  (a) judge run, 1000 cases   {a:>8.0} ms   {:>6.2} ms per case",
        a / CASES as f64
    );
    println!("  (b) floor loop, 1000 cases  {b:>8.0} ms   {case:>6.2} ms per case");
    let ratio = median(&over_floor);
    println!(
        "  (a)/(b) per round           {ratio:>8.2}      target <= 1.3: {}",
        targets.verdict("(a)/(b) <= 1.3", ratio <= 1.3)
    );
    println!(
        "  (c) warm start, one case    {c:>8.1} ms   {:.1} ms beyond the case itself; target < 30 ms: {}",
        c - case,
        targets.verdict("warm start < 30 ms", c - case < 30.0)
    );
    let (unsandboxed, cost) = (median(&unsandboxed), median(&sandbox_cost));
    println!(
        "  (a') --no-sandbox, 1000 cases {unsandboxed:>7.0} ms   (a)/(a') per round {cost:.3}; target <= 1.05: {}",
        targets.verdict("(a)/(a') <= 1.05", cost <= 1.05)
    );
    let j2 = median(&j2);
    let r = j2 / a;
    println!(
        "  --jobs 2, 1000 cases        {j2:>8.0} ms   {r:>6.2} x --jobs 1; target <= 0.6: {}",
        targets.verdict("--jobs 2 <= 0.6 x --jobs 1", r <= 0.6)
    );
    if !against_baseline.is_empty() {
        println!(
            "  against JUDGE_BASELINE      {:>8.3} x   (median of each round's this build / baseline)",
            median(&against_baseline)
        );
    }
    if !o.is_empty() {
        let o = median(&o);
        println!(
            "  oj t, 1000 cases            {o:>8.0} ms   {:>6.2} x the floor, {:.2} x judge run",
            o / b,
            o / a
        );
    } else if with_oj {
        println!("  oj t: failed to run; skipped");
    } else {
        println!(
            "  oj t: online-judge-tools is not installed (pip install online-judge-tools); skipped"
        );
    }
    targets.finish()
}
