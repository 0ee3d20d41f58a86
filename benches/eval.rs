//! What `judge eval` costs against the least a harness could do: 1,000 samples (half Python,
//! half C++, a third of them wrong) over 20 problems of 50 tests each, all made here, judged
//! with the sandbox on; and the same work done by a plain harness in the same run (each sample
//! compiled once, each test a process, tokens compared; no limits, no sandbox), the floor.
//!
//! Run with `cargo bench --profile release --bench eval` (`-- --quick`: 100 samples, a smoke
//! run; `--check`: see `targets`). It prints samples/s and tests/s of the judge with `--jobs 1`
//! and `--jobs 2` and of the floor, and holds the judge to its targets: within 1.25 x the
//! floor; `--jobs 2` within 0.6 x `--jobs 1`; the C++ half within 1.1 x the floor's compile
//! time plus its tests' run time (compile-once: no sample built twice, no test costing a build).
//! Each judge run has a build cache of its own, so every sample is built in every run.

mod targets;

use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

const PROBLEMS: usize = 20;
const TESTS: usize = 50;
/// Numbers in a test's input.
const NUMBERS: usize = 50;

/// Within 1.25 x the plain harness's time.
const TARGET_FLOOR: f64 = 1.25;
/// `--jobs 2` within 0.6 x `--jobs 1`'s time.
const TARGET_JOBS: f64 = 0.6;
/// The C++ half within 1.1 x its compile time plus its tests' run time.
const TARGET_CPP: f64 = 1.1;

/// A sample: its problem, language, whether it is right, and its code.
struct Sample {
    problem: usize,
    cpp: bool,
    right: bool,
    code: String,
}

/// A test's input and answer of problem `p`: `n`, then `n` numbers; the answer is their sum
/// plus `p`.
fn test(p: usize, t: usize, seed: &mut u64) -> (String, String) {
    let mut sum: i64 = 0;
    let mut numbers = Vec::with_capacity(NUMBERS);
    for _ in 0..NUMBERS {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let v = (*seed % 1_000_000) as i64 + t as i64;
        sum += v;
        numbers.push(v.to_string());
    }
    (
        format!("{NUMBERS}\n{}\n", numbers.join(" ")),
        format!("{}\n", sum + p as i64),
    )
}

/// The data set, in code_contests' fields, and every test by problem.
fn dataset(path: &Path) -> Vec<Vec<(String, String)>> {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut all = Vec::new();
    let mut lines = String::new();
    for p in 0..PROBLEMS {
        let tests: Vec<(String, String)> = (0..TESTS).map(|t| test(p, t, &mut seed)).collect();
        let (inputs, outputs): (Vec<&String>, Vec<&String>) =
            tests.iter().map(|(i, o)| (i, o)).unzip();
        let record = json!({
            "name": format!("p{p:02}"),
            "public_tests": {"input": [], "output": []},
            "private_tests": {"input": inputs, "output": outputs},
            "time_limit": {"seconds": 2, "nanos": 0},
            "memory_limit_bytes": 268435456u64,
        });
        lines.push_str(&format!("{record}\n"));
        all.push(tests);
    }
    std::fs::write(path, lines).unwrap();
    all
}

/// The `i`th sample: problems in turn, languages in turn, every third wrong (off by one when
/// the sum is odd, so that it fails at some test, not always the first). Each source is its
/// own (a comment numbers it): no two share a build.
fn sample(i: usize) -> Sample {
    let (problem, cpp, right) = (i % PROBLEMS, i % 2 == 1, i % 3 != 2);
    let wrong = if right { "0" } else { "(s % 2)" };
    let code = if cpp {
        format!("// sample {i}\n#include <cstdio>\nint main() {{\n    int n; long long s = 0, x;\n    if (scanf(\"%d\", &n) != 1) return 1;\n    for (int k = 0; k < n; k++) {{ if (scanf(\"%lld\", &x) != 1) return 1; s += x; }}\n    printf(\"%lld\\n\", s + {problem} + {wrong});\n}}\n")
    } else {
        format!("# sample {i}\nn = int(input())\ns = sum(map(int, input().split()))\nprint(s + {problem} + {wrong})\n")
    };
    Sample {
        problem,
        cpp,
        right,
        code,
    }
}

fn samples_file(path: &Path, samples: &[&Sample]) {
    let lines: Vec<String> = samples
        .iter()
        .map(|s| {
            json!({
                "problem": format!("p{:02}", s.problem),
                "language": if s.cpp { "cpp" } else { "python" },
                "code": s.code,
            })
            .to_string()
        })
        .collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// A judge run's time and the tests it ran (from its results file); every sample judged as
/// it is (right or wrong) required.
fn judge(dir: &Path, name: &str, samples: &[&Sample], jobs: usize) -> (Duration, usize) {
    let file = dir.join(format!("{name}.jsonl"));
    samples_file(&file, samples);
    let out = dir.join(format!("{name}-results.jsonl"));
    let started = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["eval", "set.jsonl", "--samples"])
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .args(["--jobs", &jobs.to_string()])
        .current_dir(dir)
        // A cache of its own: every sample is built in this run.
        .env("JUDGE_CACHE_DIR", dir.join(format!("cache-{name}")))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let took = started.elapsed();
    assert!(status.success(), "judge eval ({name}) ended with {status}");
    let text = std::fs::read_to_string(&out).unwrap();
    let mut tests = 0;
    let mut right = 0;
    for line in text.lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        tests += r["tests"].as_array().map_or(0, Vec::len);
        right += usize::from(r["verdict"] == "AC");
    }
    let expected = samples.iter().filter(|s| s.right).count();
    assert_eq!(right, expected, "{name}: right samples judged AC");
    (took, tests)
}

/// The floor's time for each half: building, and running the tests.
#[derive(Default)]
struct Floor {
    compile: Duration,
    run: Duration,
    tests: usize,
}

/// The plain harness: each sample built once (g++ as the judge builds C++, Python's syntax
/// check), each test a process fed its input, the output's tokens compared, stopping at the
/// first failure as the judge does.
fn floor(dir: &Path, samples: &[&Sample], tests: &[Vec<(String, String)>]) -> Floor {
    let mut f = Floor::default();
    let work = dir.join("floor");
    std::fs::create_dir_all(&work).unwrap();
    for (i, s) in samples.iter().enumerate() {
        let started = Instant::now();
        let program: Vec<String> = if s.cpp {
            let source = work.join(format!("s{i}.cpp"));
            std::fs::write(&source, &s.code).unwrap();
            let binary = work.join(format!("s{i}"));
            let ok = Command::new("g++")
                .args(["-std=gnu++20", "-O2", "-DONLINE_JUDGE", "-o"])
                .arg(&binary)
                .arg(&source)
                .status()
                .unwrap()
                .success();
            assert!(ok, "the floor's g++ failed");
            vec![binary.display().to_string()]
        } else {
            let source = work.join(format!("s{i}.py"));
            std::fs::write(&source, &s.code).unwrap();
            let ok = Command::new("python3")
                .args(["-m", "py_compile"])
                .arg(&source)
                .status()
                .unwrap()
                .success();
            assert!(ok, "the floor's syntax check failed");
            vec!["python3".into(), source.display().to_string()]
        };
        f.compile += started.elapsed();
        let started = Instant::now();
        for (input, answer) in &tests[s.problem] {
            f.tests += 1;
            if !passes(&program, input, answer) {
                break;
            }
        }
        f.run += started.elapsed();
    }
    f
}

fn passes(program: &[String], input: &str, answer: &str) -> bool {
    use std::io::Write;
    let mut child = Command::new(&program[0])
        .args(&program[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let got = String::from_utf8_lossy(&out.stdout);
    got.split_whitespace().eq(answer.split_whitespace())
}

fn rate(n: usize, d: Duration) -> f64 {
    n as f64 / d.as_secs_f64().max(1e-9)
}

fn main() -> ExitCode {
    targets::require_release("eval");
    let quick = std::env::args().any(|a| a == "--quick");
    let (_, mut targets) =
        targets::Targets::from_args(std::env::args().skip(1).filter(|a| a != "--quick"), 1);
    let count = if quick { 100 } else { 1000 };
    let dir = tempfile::tempdir().unwrap();
    let tests = dataset(&dir.path().join("set.jsonl"));
    let all: Vec<Sample> = (0..count).map(sample).collect();
    let cpp: Vec<&Sample> = all.iter().filter(|s| s.cpp).collect();
    let python: Vec<&Sample> = all.iter().filter(|s| !s.cpp).collect();
    println!(
        "{count} samples ({} C++, {} Python, {} wrong) over {PROBLEMS} problems of {TESTS} tests, sandbox on",
        cpp.len(),
        python.len(),
        all.iter().filter(|s| !s.right).count()
    );

    eprintln!("judge --jobs 1 ...");
    let (cpp_time, cpp_tests) = judge(dir.path(), "cpp-j1", &cpp, 1);
    let (py_time, py_tests) = judge(dir.path(), "py-j1", &python, 1);
    let (one, one_tests) = (cpp_time + py_time, cpp_tests + py_tests);
    eprintln!("judge --jobs 2 ...");
    let refs: Vec<&Sample> = all.iter().collect();
    let (two, two_tests) = judge(dir.path(), "all-j2", &refs, 2);
    eprintln!("the floor ...");
    let started = Instant::now();
    let floor_cpp = floor(dir.path(), &cpp, &tests);
    let floor_py = floor(dir.path(), &python, &tests);
    let floor_time = started.elapsed();
    let floor_tests = floor_cpp.tests + floor_py.tests;

    let row = |name: &str, d: Duration, tests: usize| {
        println!(
            "{name:<16} {:>8.2} s  {:>8.1} samples/s  {:>9.1} tests/s  ({tests} tests run)",
            d.as_secs_f64(),
            rate(count, d),
            rate(tests, d)
        );
    };
    row("judge --jobs 1", one, one_tests);
    row("judge --jobs 2", two, two_tests);
    row("floor", floor_time, floor_tests);
    let of_floor = one.as_secs_f64() / floor_time.as_secs_f64();
    println!(
        "judge --jobs 1 / floor: {of_floor:.3} x (target at most {TARGET_FLOOR}): {}",
        targets.verdict("judge within 1.25 x the floor", of_floor <= TARGET_FLOOR)
    );
    let of_one = two.as_secs_f64() / one.as_secs_f64();
    println!(
        "judge --jobs 2 / --jobs 1: {of_one:.3} x (target at most {TARGET_JOBS}): {}",
        targets.verdict("--jobs 2 within 0.6 x --jobs 1", of_one <= TARGET_JOBS)
    );
    let cpp_floor = floor_cpp.compile + floor_cpp.run;
    let of_cpp = cpp_time.as_secs_f64() / cpp_floor.as_secs_f64();
    println!(
        "C++ half: judge {:.2} s, its compile time {:.2} s + its tests' run time {:.2} s: {of_cpp:.3} x (target at most {TARGET_CPP}): {}",
        cpp_time.as_secs_f64(),
        floor_cpp.compile.as_secs_f64(),
        floor_cpp.run.as_secs_f64(),
        targets.verdict("C++ half within 1.1 x compile + run", of_cpp <= TARGET_CPP)
    );
    targets.finish()
}
