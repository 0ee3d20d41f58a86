//! How true the judge's figures are: CPU time and peak memory as `judge run` reports them, against
//! `/usr/bin/time` on the same binary and input, alternating, several rounds, medians.
//!
//! Run with `cargo bench --profile release --bench accuracy` (optionally `-- ROUNDS`, default 7, and `--check`: see
//! `targets`). Prints a table and whether each figure is within the targets: CPU within 5% or 5 ms,
//! memory within 5% or 1 MiB.

#[path = "../tests/it/common/cached.rs"]
mod cached;
mod targets;
#[path = "../tests/it/common/time.rs"]
mod time;

use std::path::PathBuf;
use std::process::{Command, ExitCode};

const WORKLOAD: &str = include_str!("../tests/fixtures/workload.rs");

/// (MiB touched, ms of arithmetic)
const CASES: &[(u64, u64)] = &[
    (0, 5),
    (0, 100),
    (0, 500),
    (0, 1000),
    (16, 5),
    (64, 5),
    (256, 5),
    (512, 5),
    (256, 300),
];

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() -> ExitCode {
    targets::require_release("accuracy");
    let (rounds, mut targets) = targets::Targets::from_args(std::env::args().skip(1), 7);
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    std::fs::create_dir_all(root.join("problems/work")).unwrap();
    std::fs::create_dir_all(root.join("testcases/work")).unwrap();
    std::fs::write(
        root.join("problems/work/problem.toml"),
        "title = \"Work\"\ntime_limit = \"10s\"\nmemory_limit = \"1GiB\"\n",
    )
    .unwrap();
    let inputs: Vec<PathBuf> = CASES
        .iter()
        .enumerate()
        .map(|(i, (mib, ms))| {
            let p = root.join(format!("testcases/work/{:02}.in", i + 1));
            std::fs::write(&p, format!("{mib} {ms}\n")).unwrap();
            std::fs::write(root.join(format!("testcases/work/{:02}.out", i + 1)), "").unwrap();
            p
        })
        .collect();
    let src = root.join("load.rs");
    std::fs::write(&src, WORKLOAD).unwrap();
    let cache = root.join("cache");
    let judge = env!("CARGO_BIN_EXE_judge");

    let n = CASES.len();
    let (mut jc, mut jm, mut tc, mut tm) = (
        vec![vec![]; n],
        vec![vec![]; n],
        vec![vec![]; n],
        vec![vec![]; n],
    );
    // One program at a time, alternating judge and /usr/bin/time case by case: what ran just
    // before (a big allocation freed, say) changes the page-fault cost of the next program.
    let judge_case = |name: &str| -> serde_json::Value {
        let out = Command::new(judge)
            .current_dir(root)
            .env("JUDGE_CACHE_DIR", &cache)
            .args([
                "run",
                src.to_str().unwrap(),
                "--problem",
                "work",
                "--no-history",
                "--json",
                "--case",
                name,
            ])
            .output()
            .unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["cases"][0].clone()
    };
    judge_case("01");
    let binary = cached::binary(&cache);
    for round in 0..rounds {
        eprint!("\rround {}/{rounds}", round + 1);
        for i in 0..n {
            let c = judge_case(&format!("{:02}", i + 1));
            jc[i].push(c["time_ms"].as_f64().unwrap());
            jm[i].push(c["memory_kb"].as_f64().unwrap());
            let (cpu, kb) = time::usr_bin_time(&binary, &inputs[i]);
            tc[i].push(cpu);
            tm[i].push(kb as f64);
        }
    }
    eprintln!();
    println!("CPU time and peak memory: judge against /usr/bin/time, one program at a time, alternating, medians of {rounds} rounds");
    println!(
        "{:>6} {:>6} | {:>9} {:>9} {:>7} | {:>10} {:>10} {:>8}",
        "MiB", "ms", "judge ms", "time ms", "cpu ok", "judge KiB", "time KiB", "mem ok"
    );
    let mut all_ok = true;
    for (i, (mib, ms)) in CASES.iter().enumerate() {
        let (a, b) = (median(&mut jc[i]), median(&mut tc[i]));
        let (c, d) = (median(&mut jm[i]), median(&mut tm[i]));
        // /usr/bin/time prints user and sys in hundredths of a second, each cut rather than
        // rounded: the true time is from what it prints to 20 ms more.
        let tolerance = (0.05 * b).max(5.0);
        let cpu_ok = a >= b - tolerance && a <= b + 20.0 + tolerance;
        let mem_ok = (c - d).abs() <= (0.05 * d).max(1024.0);
        all_ok &= cpu_ok && mem_ok;
        println!(
            "{mib:>6} {ms:>6} | {a:>9.0} {b:>9.0} {:>7} | {c:>10.0} {d:>10.0} {:>8}",
            if cpu_ok { "yes" } else { "NO" },
            if mem_ok { "yes" } else { "NO" }
        );
    }
    println!(
        "targets (CPU within 5% or 5 ms of /usr/bin/time's figure, which it cuts to 10 ms for user and sys each; memory within 5% or 1 MiB): {}",
        targets.verdict("CPU and memory within tolerance", all_ok)
    );
    targets.finish()
}
