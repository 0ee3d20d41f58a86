//! What the harness of a function problem costs: the same work judged as LeetCode's function
//! (the judge's harness reads the JSON arguments, calls, prints) and as a whole program with a
//! fast reader of its own, on a problem whose time is mostly reading (the sum of a million ints
//! per case), so that the harness's reading is what is measured; one row per language: C++,
//! Python and Java (a row whose toolchain is missing is said, and misses its target).
//!
//! Run with `cargo bench --profile release --bench functions` (optionally `-- ROUNDS`, default 7, and `--check`:
//! see `targets`). Each round judges a row's two solutions, alternating which goes first, and
//! takes the ratio of their total CPU time over the cases; each row's median ratio is held to
//! the target.

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

const CPP_FUNCTION: &str = r#"class Solution {
public:
    long long sumAll(vector<int>& nums) {
        long long total = 0;
        for (int x : nums) total += x;
        return total;
    }
};
"#;

/// The same sum as a whole program: one read of stdin, the digits parsed by hand.
const CPP_PROGRAM: &str = r#"#include <cstdio>
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

const PY_FUNCTION: &str = r#"class Solution:
    def sumAll(self, nums: List[int]) -> int:
        return sum(nums)
"#;

/// The same sum as a whole program, read as Python reads fast: stdin's bytes at once, split
/// on the commas, `int` mapped over them.
const PY_PROGRAM: &str = r#"import sys


def main():
    data = sys.stdin.buffer.read()
    nums = list(map(int, data[data.index(b"[") + 1 : data.rindex(b"]")].split(b",")))
    print(sum(nums))


main()
"#;

const JAVA_FUNCTION: &str = r#"class Solution {
    public long sumAll(int[] nums) {
        long total = 0;
        for (int x : nums) total += x;
        return total;
    }
}
"#;

/// The same sum as a whole program: stdin's bytes at once, the digits parsed by hand.
const JAVA_PROGRAM: &str = r#"import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        byte[] in = System.in.readAllBytes();
        int[] nums = new int[16];
        int n = 0;
        for (int i = 0; i < in.length;) {
            byte c = in[i];
            if (c == '-' || (c >= '0' && c <= '9')) {
                boolean negative = c == '-';
                if (negative) i++;
                long v = 0;
                while (i < in.length && in[i] >= '0' && in[i] <= '9') v = v * 10 + (in[i++] - '0');
                if (n == nums.length) nums = Arrays.copyOf(nums, n * 2);
                nums[n++] = (int) (negative ? -v : v);
            } else {
                i++;
            }
        }
        long total = 0;
        for (int k = 0; k < n; k++) total += nums[k];
        System.out.println(total);
    }
}
"#;

/// One language's pair: the function and the whole program, under `NAME-function.EXT` and
/// `NAME-program.EXT`, and the tools that build and run them.
struct Row {
    name: &'static str,
    ext: &'static str,
    function: &'static str,
    program: &'static str,
    tools: &'static [&'static str],
}

const ROWS: [Row; 3] = [
    Row {
        name: "C++",
        ext: "cpp",
        function: CPP_FUNCTION,
        program: CPP_PROGRAM,
        tools: &["g++"],
    },
    Row {
        name: "Python",
        ext: "py",
        function: PY_FUNCTION,
        program: PY_PROGRAM,
        tools: &["python3"],
    },
    Row {
        name: "Java",
        ext: "java",
        function: JAVA_FUNCTION,
        program: JAVA_PROGRAM,
        tools: &["javac", "java"],
    },
];

impl Row {
    fn solution(&self, form: &str) -> String {
        format!("{}-{form}", self.ext)
    }

    /// The tools it needs that are not on PATH.
    fn missing(&self) -> Vec<&'static str> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        self.tools
            .iter()
            .copied()
            .filter(|t| !std::env::split_paths(&path).any(|d| d.join(t).is_file()))
            .collect()
    }
}

/// A workspace with the problem, its cases and both solutions.
fn workspace(root: &Path) {
    let write = |path: &str, text: &str| {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("problems/sum/problem.toml", PROBLEM);
    for row in &ROWS {
        let ext = row.ext;
        write(&format!("solutions/sum/{ext}-function.{ext}"), row.function);
        write(&format!("solutions/sum/{ext}-program.{ext}"), row.program);
    }
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

/// A row's rounds: the median (ratio, function ms, program ms), `None` for no rounds.
fn measured(row: &Row, root: &Path, cache: &Path, rounds: usize) -> Option<(f64, u64, u64)> {
    let (function, program) = (row.solution("function"), row.solution("program"));
    // Built once, outside the rounds.
    judged(root, cache, &function);
    judged(root, cache, &program);
    let mut ratios = Vec::new();
    for i in 0..rounds {
        eprint!("\r{} round {}/{rounds}", row.name, i + 1);
        let (f, p) = match i % 2 {
            0 => {
                let f = judged(root, cache, &function);
                (f, judged(root, cache, &program))
            }
            _ => {
                let p = judged(root, cache, &program);
                (judged(root, cache, &function), p)
            }
        };
        ratios.push((f as f64 / p.max(1) as f64, f, p));
    }
    eprintln!();
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    ratios.get(ratios.len() / 2).copied()
}

fn main() -> ExitCode {
    targets::require_release("functions");
    let (rounds, mut targets) = targets::Targets::from_args(std::env::args().skip(1), 7);
    let dir = tempfile::tempdir().unwrap();
    let (root, cache) = (dir.path().join("ws"), dir.path().join("cache"));
    workspace(&root);
    for row in &ROWS {
        let name = row.name;
        let missing = row.missing();
        if !missing.is_empty() {
            println!(
                "{name}: not measured, {} not installed",
                missing.join(" and ")
            );
            targets.verdict(&format!("{name} measured"), false);
            continue;
        }
        let Some((median, f, p)) = measured(row, &root, &cache, rounds) else {
            println!("{name}: nothing measured (0 rounds)");
            targets.verdict(&format!("{name} measured"), false);
            continue;
        };
        println!(
            "{name}: a function problem's harness against a whole program, {CASES} cases of {INTS} ints: median ratio {median:.3} x (that round: function {f} ms, program {p} ms CPU) of {rounds} rounds"
        );
        println!(
            "{name}: target (median ratio at most {TARGET}): {}",
            targets.verdict(
                &format!("{name} harness within the target"),
                median <= TARGET
            )
        );
    }
    targets.finish()
}
