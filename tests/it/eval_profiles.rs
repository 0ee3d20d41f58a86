//! `judge eval --profile`, its progress line, Ctrl-C, and APPS' call-based problems: a
//! profile's flags, interpreter and limits seen from inside real samples' processes and named
//! in every result; the progress line's figures; a real SIGINT that keeps every finished sample
//! and a second run that judges only the rest; APPS functions judged right and wrong.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::Workspace;

/// Prints whether `ONLINE_JUDGE` was defined when it was compiled.
const ONLINE_JUDGE_CPP: &str = "#include <cstdio>\nint main(){\n#ifdef ONLINE_JUDGE\nputs(\"yes\");\n#else\nputs(\"no\");\n#endif\n}\n";
/// A million frames of at least 64 bytes each: far past a usual 8 MiB stack.
const DEEP_CPP: &str = "#include <cstdio>\nint depth(int n){ volatile char pad[64]; pad[0] = n & 1; if (n == 0) return 0; return depth(n - 1) + pad[0]; }\nint main(){ printf(\"%d\\n\", depth(1000000)); }\n";
/// Which Python runs it.
const WHICH_PY: &str = "import platform\nprint(platform.python_implementation())\n";
/// `gcd` without an import, 20,000 calls deep: right only after LiveCodeBench's prelude.
const LCB_PY: &str =
    "def down(n):\n    return 0 if n == 0 else 1 + down(n - 1)\nprint(gcd(12, 18), down(20000))\n";
const SUM_PY: &str = "a, b = map(int, input().split())\nprint(a + b)\n";
const WRONG_PY: &str = "a, b = map(int, input().split())\nprint(a - b)\n";
const SLOW_PY: &str = "while True:\n    pass\n";

/// A code_contests problem `id` of one test and a time limit of `seconds`.
fn problem(id: &str, input: &str, output: &str, seconds: u64) -> Value {
    json!({
        "name": id,
        "public_tests": {"input": [input], "output": [output]},
        "time_limit": {"seconds": seconds, "nanos": 0},
        "memory_limit_bytes": 268435456u64,
    })
}

fn sample(problem: &str, language: &str, code: &str) -> String {
    json!({"problem": problem, "language": language, "code": code}).to_string()
}

fn jsonl(lines: &[String]) -> String {
    lines.join("\n") + "\n"
}

fn lines(ws: &Workspace, file: &str) -> Vec<Value> {
    std::fs::read_to_string(ws.path().join(file))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn verdicts(results: &[Value]) -> Vec<(String, String)> {
    let mut all: Vec<(String, u64, String)> = results
        .iter()
        .map(|r| {
            (
                r["problem"].as_str().unwrap().to_string(),
                r["sample"].as_u64().unwrap(),
                r["verdict"].as_str().unwrap_or("none").to_string(),
            )
        })
        .collect();
    all.sort();
    all.into_iter().map(|(p, _, v)| (p, v)).collect()
}

fn eval(ws: &Workspace, code: i32, args: &[&str]) -> (Value, String) {
    let out = ws
        .judge()
        .args(["eval", "set.jsonl", "--samples", "samples.jsonl", "--json"])
        .args(args)
        .expect_exit(code)
        .run();
    (out.json(), out.stderr)
}

#[test]
fn the_codeforces_profile_defines_online_judge_gives_a_big_stack_runs_pypy_and_is_named() {
    let ws = Workspace::new();
    // The workspace's own C++ defines nothing: what the default profile keeps.
    ws.write(
        "judge.toml",
        "[language.cpp]\ncompile = \"g++ -O2 -o {binary} {sources}\"\n",
    );
    let set = [
        problem("flag", "", "yes\n", 2),
        problem("deep", "", "500000\n", 5),
        problem("which", "", "PyPy\n", 5),
    ];
    ws.write("set.jsonl", jsonl(&set.map(|p| p.to_string())));
    ws.write(
        "samples.jsonl",
        jsonl(&[
            sample("flag", "cpp", ONLINE_JUDGE_CPP),
            sample("deep", "cpp", DEEP_CPP),
            sample("which", "python", WHICH_PY),
        ]),
    );
    let (summary, stderr) = eval(&ws, 0, &["--out", "judge.jsonl"]);
    let got = verdicts(&lines(&ws, "judge.jsonl"));
    assert_eq!(got[1], ("flag".into(), "WA".into()), "{got:?}\n{stderr}");
    assert_eq!(got[2], ("which".into(), "WA".into()), "{got:?}");
    assert_eq!(summary["manifest"]["profile"], "judge");

    let (summary, stderr) = eval(&ws, 0, &["--profile", "codeforces", "--out", "cf.jsonl"]);
    let results = lines(&ws, "cf.jsonl");
    let got = verdicts(&results);
    let all_ac = got.iter().all(|(_, v)| v == "AC");
    assert!(all_ac, "{got:?}\n{}", &stderr[..stderr.len().min(600)]);
    assert!(results.iter().all(|r| r["profile"] == "codeforces"));
    let manifest = &summary["manifest"];
    assert_eq!(manifest["profile"], "codeforces");
    let toolchain = |language: &str| {
        manifest["toolchains"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["language"] == language)
            .cloned()
            .unwrap_or_default()
    };
    let cpp = toolchain("cpp");
    assert!(
        cpp["build"]
            .as_str()
            .unwrap_or("")
            .contains("-DONLINE_JUDGE"),
        "{cpp}"
    );
    let python = toolchain("python");
    assert!(
        python["run"].as_str().unwrap_or("").starts_with("pypy3"),
        "{python}"
    );
    assert!(
        python["version"].as_str().unwrap_or("").contains("PyPy"),
        "{python}"
    );

    // A results file judged under one profile is not added to under another.
    let refused = ws
        .judge()
        .args(["eval", "set.jsonl", "--samples", "samples.jsonl"])
        .args(["--out", "cf.jsonl"])
        .expect_exit(2)
        .run();
    assert!(
        refused.stderr.contains("under the profile `codeforces`"),
        "{}",
        refused.stderr
    );
    let unknown = ws
        .judge()
        .args(["eval", "set.jsonl", "--profile", "icpc"])
        .expect_exit(2)
        .run();
    assert!(
        unknown.stderr.contains("judge, codeforces, lcb"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn the_lcb_profile_puts_livecodebench_s_imports_and_recursion_limit_before_python() {
    let ws = Workspace::new();
    ws.write(
        "set.jsonl",
        problem("lcb", "", "6 20000\n", 5).to_string() + "\n",
    );
    ws.write("samples.jsonl", jsonl(&[sample("lcb", "python", LCB_PY)]));
    let (_, stderr) = eval(&ws, 0, &["--out", "judge.jsonl"]);
    let got = verdicts(&lines(&ws, "judge.jsonl"));
    assert_eq!(got, vec![("lcb".into(), "RE".into())], "{stderr}");
    let (summary, stderr) = eval(&ws, 0, &["--profile", "lcb", "--out", "lcb.jsonl"]);
    let results = lines(&ws, "lcb.jsonl");
    assert_eq!(
        verdicts(&results),
        vec![("lcb".into(), "AC".into())],
        "{stderr}"
    );
    assert_eq!(results[0]["profile"], "lcb");
    let limits = summary["manifest"]["limits"].as_str().unwrap();
    assert!(limits.contains("6 s"), "{limits}");
}

#[test]
fn the_progress_line_gives_the_count_the_running_pass_at_1_and_the_rate() {
    let ws = Workspace::new();
    ws.write(
        "set.jsonl",
        problem("sum", "1 2\n", "3\n", 2).to_string() + "\n",
    );
    ws.write(
        "samples.jsonl",
        jsonl(&[
            sample("sum", "python", SUM_PY),
            sample("sum", "python", WRONG_PY),
            sample("sum", "python", &format!("{SUM_PY}# again\n")),
        ]),
    );
    let (_, stderr) = eval(&ws, 0, &[]);
    // Not a terminal: plain lines, the last one when the last sample is judged.
    let line = stderr
        .lines()
        .rfind(|l| l.starts_with("progress: "))
        .unwrap_or_default();
    assert!(
        line.starts_with("progress: 3/3 done · pass@1 0.667 · "),
        "{stderr}"
    );
    assert!(line.ends_with(" samples/s"), "{line}");
    assert!(!stderr.contains('\x1b'), "{stderr}");
}

#[test]
fn ctrl_c_keeps_every_finished_sample_and_the_next_run_judges_only_the_rest() {
    let ws = Workspace::new();
    ws.write(
        "set.jsonl",
        problem("sum", "1 2\n", "3\n", 3).to_string() + "\n",
    );
    ws.write(
        "samples.jsonl",
        jsonl(&[
            sample("sum", "python", SUM_PY),
            sample("sum", "python", WRONG_PY),
            sample("sum", "python", SLOW_PY),
        ]),
    );
    let running = ws
        .judge()
        .args(["eval", "set.jsonl", "--samples", "samples.jsonl"])
        .args(["--out", "out.jsonl"])
        .expect_exit(130)
        .spawn();
    // Two samples judged: the third runs for its 3 s.
    let deadline = Instant::now() + Duration::from_secs(60);
    while lines(&ws, "out.jsonl").len() < 2 {
        assert!(
            Instant::now() < deadline,
            "no two results: {}",
            running.stderr_so_far()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let stopped = running.ctrl_c(Duration::from_secs(20));
    assert!(
        stopped
            .stderr
            .contains("interrupted: 2 of 3 samples have their result in out.jsonl; run the same command again to judge the other 1"),
        "{}",
        stopped.stderr
    );
    let kept = lines(&ws, "out.jsonl");
    assert_eq!(
        verdicts(&kept),
        vec![("sum".into(), "AC".into()), ("sum".into(), "WA".into())]
    );

    let again = ws
        .judge()
        .args(["eval", "set.jsonl", "--samples", "samples.jsonl"])
        .args(["--out", "out.jsonl", "--json"])
        .expect_exit(0)
        .run();
    assert!(
        again
            .stderr
            .contains("2 samples have a result already, judging the other 1"),
        "{}",
        again.stderr
    );
    let all = lines(&ws, "out.jsonl");
    assert_eq!(all.len(), 3);
    assert_eq!(all[2]["sample"], 2);
    assert_eq!(all[2]["verdict"], "TLE");
    assert_eq!(again.json()["problems"][0]["n"], 3);
}

/// An APPS record: a call-based problem `add(a, b)` and `total(xs)` over a list.
fn apps(ws: &Workspace) {
    let add = json!({
        "problem_id": 10,
        "question": "Add two numbers.",
        "starter_code": "def add(a, b):\n    ",
        "input_output": json!({
            "fn_name": "add",
            "inputs": [[1, 2], [40, 2], [-5, 5]],
            "outputs": [[3], [42], [0]],
        }).to_string(),
        "solutions": json!(["def add(a, b):\n    return a + b\n"]).to_string(),
    });
    let total = json!({
        "problem_id": 11,
        "question": "Sum a list.",
        "starter_code": "",
        "input_output": json!({
            "fn_name": "total",
            "inputs": [[[1, 2, 3]], [[]], [[2.5, 1]]],
            "outputs": [[6], [0], [3.5]],
        }).to_string(),
        "solutions": "[]",
    });
    ws.write("set.jsonl", format!("{add}\n{total}\n"));
}

#[test]
fn apps_call_based_problems_are_judged_through_the_function_harness() {
    let ws = Workspace::new();
    apps(&ws);
    ws.write(
        "samples.jsonl",
        jsonl(&[
            sample("10", "python", "def add(a, b):\n    return a + b\n"),
            sample("10", "python", "def add(a, b):\n    return a - b\n"),
            sample(
                "10",
                "python",
                "class Solution:\n    def add(self, a, b):\n        return b + a\n",
            ),
            sample("11", "python", "def total(xs):\n    return sum(xs)\n"),
            sample("11", "python", "def total(xs):\n    return len(xs)\n"),
        ]),
    );
    let (summary, stderr) = eval(&ws, 0, &["--out", "out.jsonl"]);
    let got = verdicts(&lines(&ws, "out.jsonl"));
    let want: Vec<(String, String)> = [
        ("10", "AC"),
        ("10", "WA"),
        ("10", "AC"),
        ("11", "AC"),
        ("11", "WA"),
    ]
    .iter()
    .map(|(p, v)| (p.to_string(), v.to_string()))
    .collect();
    assert_eq!(got, want, "{}", &stderr[..stderr.len().min(600)]);
    assert_eq!(summary["errors"], 0, "{summary}");

    // The data set's own solution, a function alone, is right.
    let own = ws
        .judge()
        .args(["eval", "set.jsonl", "--json"])
        .expect_exit(0)
        .run();
    let verification = &own.json()["verification"];
    assert_eq!(verification["correct_passed"], 1, "{verification}");
}
