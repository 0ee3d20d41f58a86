//! What the harness of a function problem costs: the same work judged as LeetCode's function
//! (the judge's harness reads the JSON arguments, calls, prints) and as a whole program with a
//! hand-written fast reader, on a problem whose time is mostly reading (the sum of a million
//! ints per case), so that the harness's reading is what is measured.
//!
//! Run with `cargo bench --bench functions` (optionally `-- ROUNDS`, default 7, and `--check`:
//! see `targets`). Each round judges both solutions, alternating which goes first, and takes the
//! ratio of their total CPU time over the cases; the median ratio is held to the target.

mod targets;

use std::path::Path;
use std::process::{Command, ExitCode};

/// The target for the median ratio function / program: the harness's reading and printing
/// cost no more than a tenth over a program written for speed.
const TARGET: f64 = 1.1;

/// Cases, and ints per case: about 11 MB of input each, tens of milliseconds to read.
const CASES: usize = 4;
const INTS: usize = 1_000_000;

const PROBLEM: &str = r#"title = "Sum"
time_limit = "10s"
memory_limit = "512MiB"

[function]
name = "sumAll"
params = ["nums: int[]"]
returns = "long"
"#;

const FUNCTION: &str = r#"class Solution {
public:
    long long sumAll(vector<int>& nums) {
        long long total = 0;
        for (int x : nums) total += x;
        return total;
    }
};
"#;

/// The same sum as a whole program: one read of stdin, the digits parsed by hand.
const PROGRAM: &str = r#"#include <cstdio>
#include <vector>
int main() {
    std::vector<char> in;
    char buffer[1 << 16];
    for (size_t n; (n = fread(buffer, 1, sizeof buffer, stdin)) > 0;) in.insert(in.end(), buffer, buffer + n);
    std::vector<int> nums;
    for (size_t i = 0; i < in.size();) {
        char c = in[i];
        if (c == '-' || (c >= '0' && c <= '9')) {
            bool negative = c == '-';
            if (negative) i++;
            long long v = 0;
            while (i < in.size() && in[i] >= '0' && in[i] <= '9') v = v * 10 + (in[i++] - '0');
            nums.push_back((int)(negative ? -v : v));
        } else {
            i++;
        }
    }
    long long total = 0;
    for (int x : nums) total += x;
    printf("%lld\n", total);
}
"#;

/// A workspace with the problem, its cases and both solutions.
fn workspace(root: &Path) {
    let write = |path: &str, text: &str| {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("problems/sum/problem.toml", PROBLEM);
    write("solutions/sum/function.cpp", FUNCTION);
    write("solutions/sum/program.cpp", PROGRAM);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for case in 0..CASES {
        let mut total: i64 = 0;
        let mut nums = Vec::with_capacity(INTS);
        for _ in 0..INTS {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let v = (seed % 2_000_000_001) as i64 - 1_000_000_000;
            total += v;
            nums.push(v.to_string());
        }
        write(
            &format!("testcases/sum/{case:02}.in"),
            &format!("[{}]\n", nums.join(",")),
        );
        write(
            &format!("testcases/sum/{case:02}.out"),
            &format!("{total}\n"),
        );
    }
}

/// One judging of `solution`: its total CPU time over the cases, in ms; AC required.
fn judged(root: &Path, cache: &Path, solution: &str) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["run", solution, "--json", "--no-history"])
        .current_dir(root)
        .env("JUDGE_CACHE_DIR", cache)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{solution}: {e}\n{}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(report["verdict"], "AC", "{solution}: {report}");
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["time_ms"].as_u64().unwrap())
        .sum()
}

fn main() -> ExitCode {
    let (rounds, mut targets) = targets::Targets::from_args(std::env::args().skip(1), 7);
    let dir = tempfile::tempdir().unwrap();
    let (root, cache) = (dir.path().join("ws"), dir.path().join("cache"));
    workspace(&root);
    // Built once, outside the rounds.
    judged(&root, &cache, "function");
    judged(&root, &cache, "program");
    let mut ratios = Vec::new();
    for i in 0..rounds {
        eprint!("\rround {}/{rounds}", i + 1);
        let (f, p) = match i % 2 {
            0 => {
                let f = judged(&root, &cache, "function");
                (f, judged(&root, &cache, "program"))
            }
            _ => {
                let p = judged(&root, &cache, "program");
                (judged(&root, &cache, "function"), p)
            }
        };
        ratios.push((f as f64 / p.max(1) as f64, f, p));
    }
    eprintln!();
    if ratios.is_empty() {
        println!("nothing measured (0 rounds)");
        targets.verdict("something measured", false);
        return targets.finish();
    }
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (median, f, p) = ratios[ratios.len() / 2];
    println!(
        "a function problem's harness against a whole program, {CASES} cases of {INTS} ints: median ratio {median:.3} x (that round: function {f} ms, program {p} ms CPU) of {rounds} rounds"
    );
    println!(
        "target (median ratio at most {TARGET}): {}",
        targets.verdict("harness within the target", median <= TARGET)
    );
    targets.finish()
}
