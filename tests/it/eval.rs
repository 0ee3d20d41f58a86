//! `judge eval`: data sets of each format read in place (made here, in their own encodings),
//! a model's samples judged by the engine with real compilers and processes, a problem with no
//! tests an error and never a pass, the results file resumed after a cut, pass@k against
//! figures computed by hand, and the data set's own solutions checked.

use serde_json::{json, Value};

use crate::common::Workspace;

const SUM_PY: &str = "a, b = map(int, input().split())\nprint(a + b)\n";
const WRONG_PY: &str = "a, b = map(int, input().split())\nprint(a - b)\n";
const SLOW_PY: &str = "while True:\n    pass\n";
const SUM_CPP: &str = "#include <cstdio>\nint main(){long long a,b; scanf(\"%lld %lld\",&a,&b); printf(\"%lld\\n\", a+b);}\n";
const BROKEN_CPP: &str = "int main() { return x; }\n";
const BROKEN_PY: &str = "def main(:\n    pass\n";
const WRONG_CPP: &str = "#include <cstdio>\nint main(){long long a,b; scanf(\"%lld %lld\",&a,&b); printf(\"%lld\\n\", a*b);}\n";
const SLOW_CPP: &str = "int main() { volatile unsigned long long x = 0; for (;;) x++; }\n";

/// A code_contests data set: `sum` with a public and a private test and a 1 s limit, and
/// `empty`, which has no tests.
fn code_contests(ws: &Workspace) {
    let sum = json!({
        "name": "sum",
        "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
        "private_tests": {"input": ["40 2\n"], "output": ["42\n"]},
        "generated_tests": {"input": [], "output": []},
        "time_limit": {"seconds": 1, "nanos": 0},
        "memory_limit_bytes": 268435456u64,
        "solutions": {"language": [3, 2], "solution": [SUM_PY, SUM_CPP]},
        "incorrect_solutions": {"language": [3], "solution": [WRONG_PY]}
    });
    let empty = json!({"name": "empty", "public_tests": {"input": [], "output": []}, "time_limit": {"seconds": 1, "nanos": 0}});
    ws.write("set.jsonl", format!("{sum}\n{empty}\n"));
}

fn sample(problem: &str, language: &str, code: &str) -> String {
    json!({"problem": problem, "language": language, "code": code}).to_string()
}

fn samples(ws: &Workspace) {
    let lines = [
        sample("sum", "python", SUM_PY),
        sample("sum", "python", WRONG_PY),
        sample("sum", "python", SLOW_PY),
        sample("sum", "cpp", SUM_CPP),
        sample("sum", "cpp", BROKEN_CPP),
        sample("sum", "python", BROKEN_PY),
        sample("sum", "cpp", WRONG_CPP),
        sample("sum", "cpp", SLOW_CPP),
        sample("empty", "python", SUM_PY),
    ];
    ws.write("samples.jsonl", lines.join("\n") + "\n");
}

/// The results file's lines, as JSON, by (problem, sample), without what a machine measures.
fn results(ws: &Workspace) -> Vec<Value> {
    let mut all: Vec<Value> = std::fs::read_to_string(ws.path().join("out.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for r in &mut all {
        for t in r["tests"].as_array_mut().unwrap() {
            t.as_object_mut()
                .unwrap()
                .retain(|k, _| k == "test" || k == "verdict");
        }
    }
    all.sort_by_key(|r| {
        (
            r["problem"].as_str().unwrap().to_string(),
            r["sample"].as_u64(),
        )
    });
    all
}

fn close(v: &Value, expected: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - expected).abs() < 1e-9)
}

fn eval_json(ws: &Workspace, code: i32, args: &[&str]) -> (Value, String) {
    let out = ws
        .judge()
        .args(["eval", "set.jsonl", "--json"])
        .args(args)
        .expect_exit(code)
        .run();
    (out.json(), out.stderr)
}

#[test]
fn samples_get_their_verdicts_a_problem_without_tests_is_an_error_and_pass_at_k_is_exact() {
    let ws = Workspace::new();
    code_contests(&ws);
    samples(&ws);
    let (summary, stderr) = eval_json(
        &ws,
        3,
        &[
            "--samples",
            "samples.jsonl",
            "--out",
            "out.jsonl",
            "--k",
            "1,2,9",
        ],
    );
    let sum = &summary["problems"][0];
    assert_eq!(sum["id"], "sum", "{summary:#}\n{stderr}");
    assert_eq!(
        (sum["n"].as_u64(), sum["c"].as_u64()),
        (Some(8), Some(2)),
        "{summary:#}\n{stderr}"
    );
    assert_eq!(sum["tests"], 2);
    // n = 8, c = 2: pass@1 = 2/8; pass@2 = 1 - C(6,2)/C(8,2) = 1 - 15/28; no pass@9 (k > n).
    assert!(close(&sum["pass@k"]["1"], 0.25), "{sum}");
    assert!(close(&sum["pass@k"]["2"], 13.0 / 28.0), "{sum}");
    assert!(sum["pass@k"].get("9").is_none(), "{sum}");
    let empty = &summary["problems"][1];
    assert_eq!(empty["id"], "empty");
    assert_eq!(empty["error"], "the problem has no tests");
    assert!(empty["pass@k"].as_object().unwrap().is_empty(), "{empty}");
    assert_eq!(summary["errors"], 1);
    // The mean is over the problems judged: the error is counted apart, never as a pass.
    assert!(close(&summary["pass@k"]["1"], 0.25), "{summary:#}");
    assert_eq!(summary["pass@k_problems"]["9"], 0);
    assert_eq!(summary["schema"], "judge.eval/1");
    let manifest = &summary["manifest"];
    assert_eq!(manifest["format"], "code_contests");
    assert_eq!(manifest["profile"], "judge");
    assert_eq!(manifest["dataset"]["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(manifest["samples"]["sha256"].as_str().unwrap().len(), 64);
    let languages: Vec<&str> = manifest["toolchains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["language"].as_str().unwrap())
        .collect();
    assert!(
        languages.contains(&"python") && languages.contains(&"cpp"),
        "{manifest:#}"
    );
    assert!(
        stderr.contains("problem empty not judged: the problem has no tests"),
        "{stderr}"
    );

    let verdicts: Vec<Value> = results(&ws).iter().map(|r| r["verdict"].clone()).collect();
    let expected = ["AC", "WA", "TLE", "AC", "CE", "CE", "WA", "TLE"];
    assert_eq!(verdicts, expected.map(|v| json!(v)));
    let lines = results(&ws);
    // Stopped at the first failure: the wrong sample ran its first test only.
    assert_eq!(lines[1]["passed"], 0);
    assert_eq!(lines[1]["total"], 2);
    assert_eq!(lines[1]["tests"].as_array().unwrap().len(), 1);
    assert_eq!(lines[0]["tests"].as_array().unwrap().len(), 2);
    assert!(
        lines[4]["reason"].as_str().unwrap().contains('x'),
        "{}",
        lines[4]
    );
}

#[test]
fn a_rerun_judges_only_the_samples_without_a_result_and_finds_the_same() {
    let ws = Workspace::new();
    code_contests(&ws);
    let lines = [
        sample("sum", "python", SUM_PY),
        sample("sum", "python", WRONG_PY),
        sample("sum", "cpp", SUM_CPP),
    ];
    ws.write("samples.jsonl", lines.join("\n") + "\n");
    let args = ["--samples", "samples.jsonl", "--out", "out.jsonl"];
    let (first, _) = eval_json(&ws, 0, &args);
    let before = results(&ws);
    // A cut: the last line lost, and a part of a line written when the judge was killed.
    let path = ws.path().join("out.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut kept: Vec<&str> = text.lines().collect();
    kept.pop();
    std::fs::write(&path, kept.join("\n") + "\n{\"problem\": \"sum\", \"sam").unwrap();
    let (again, stderr) = eval_json(&ws, 0, &args);
    assert!(
        stderr.contains("2 samples have a result already, judging the other 1"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("[1/1]").count(), 1, "{stderr}");
    assert_eq!(results(&ws), before);
    assert_eq!(again["problems"], first["problems"]);
    // Nothing left: nothing judged, and the manifest still names the toolchains that built
    // the results.
    let (last, stderr) = eval_json(&ws, 0, &args);
    assert!(stderr.contains("judging the other 0"), "{stderr}");
    assert_eq!(
        last["manifest"]["toolchains"],
        first["manifest"]["toolchains"]
    );
    assert_eq!(last["manifest"]["toolchains"].as_array().unwrap().len(), 2);
}

#[test]
fn extract_takes_the_last_block_in_the_language_and_no_block_is_a_failed_sample() {
    let ws = Workspace::new();
    code_contests(&ws);
    let answer = format!("First try:\n```python\n{WRONG_PY}```\nBetter:\n```python\n{SUM_PY}```\n");
    let lines = [
        sample("sum", "python", &answer),
        sample("sum", "python", "I cannot solve this."),
        sample("sum", "cpp", &format!("```cpp\n{SUM_CPP}```")),
    ];
    ws.write("samples.jsonl", lines.join("\n") + "\n");
    let (summary, _) = eval_json(
        &ws,
        0,
        &[
            "--samples",
            "samples.jsonl",
            "--out",
            "out.jsonl",
            "--extract",
        ],
    );
    let all = results(&ws);
    assert_eq!(all[0]["verdict"], "AC", "{}", all[0]);
    assert_eq!(all[1]["verdict"], Value::Null);
    assert_eq!(all[1]["reason"], "the answer has no fenced code block");
    assert_eq!(all[1]["counted"], true);
    assert_eq!(all[2]["verdict"], "AC");
    assert_eq!(
        (
            summary["problems"][0]["n"].as_u64(),
            summary["problems"][0]["c"].as_u64()
        ),
        (Some(3), Some(2))
    );
}

#[test]
fn the_data_sets_own_solutions_are_checked() {
    let ws = Workspace::new();
    code_contests(&ws);
    let (summary, stderr) = eval_json(&ws, 3, &[]);
    let v = &summary["problems"][0]["verification"];
    assert_eq!(v["correct"], 2, "{summary:#}\n{stderr}");
    assert_eq!(v["correct_passed"], 2);
    assert_eq!(v["incorrect"], 1);
    assert_eq!(v["incorrect_failed"], 1);
    assert!(close(&v["correct_rate"], 1.0));
    assert_eq!(summary["verification"]["correct"], 2);
    // A "right" solution that fails is the data set's to fix: exit 1 (here with `empty`, 3).
    let wrong = json!({
        "name": "bad",
        "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
        "solutions": {"language": [3], "solution": [WRONG_PY]}
    });
    ws.write("set.jsonl", format!("{wrong}\n"));
    let (summary, _) = eval_json(&ws, 1, &[]);
    assert_eq!(summary["verification"]["correct_passed"], 0);
}

/// LiveCodeBench's packing of private tests, made by Python's own modules.
fn packed(json: &str) -> String {
    let script = "import base64, pickle, sys, zlib\nprint(base64.b64encode(zlib.compress(pickle.dumps(sys.stdin.read()))).decode())";
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(json.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn livecodebench_stdin_and_functional_problems_with_pickled_private_tests() {
    let ws = Workspace::new();
    let stdin = json!({
        "question_id": "abc001_a",
        "public_test_cases": json!([{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}]).to_string(),
        "private_test_cases": packed(&json!([{"input": "5 5\n", "output": "10\n", "testtype": "stdin"}]).to_string()),
        "metadata": "{}",
        "starter_code": ""
    });
    let functional = json!({
        "question_id": "2999",
        "public_test_cases": json!([{"input": "[1, 2, 3]\n2", "output": "5", "testtype": "functional"}]).to_string(),
        "private_test_cases": packed(&json!([{"input": "[4]\n1", "output": "4", "testtype": "functional"}]).to_string()),
        "metadata": "{\"func_name\": \"topSum\"}",
        "starter_code": "class Solution:\n    def topSum(self, nums: List[int], k: int) -> int:\n        "
    });
    ws.write("set.jsonl", format!("{stdin}\n{functional}\n"));
    let top = "class Solution:\n    def topSum(self, nums: List[int], k: int) -> int:\n        return sum(sorted(nums)[-k:])\n";
    let first = "class Solution:\n    def topSum(self, nums: List[int], k: int) -> int:\n        return sum(nums[:k])\n";
    let list = json!([
        {"question_id": "abc001_a", "code_list": [SUM_PY, WRONG_PY]},
        {"question_id": "2999", "code_list": [top, first]}
    ]);
    ws.write("lcb.json", list.to_string());
    let (summary, stderr) = eval_json(&ws, 0, &["--samples", "lcb.json", "--out", "out.jsonl"]);
    assert_eq!(summary["manifest"]["format"], "livecodebench", "{stderr}");
    let all = results(&ws);
    let verdicts: Vec<&str> = all
        .iter()
        .map(|r| r["verdict"].as_str().unwrap_or("-"))
        .collect();
    // Sorted by problem id: "2999" first.
    assert_eq!(verdicts, ["AC", "WA", "AC", "WA"], "{all:#?}\n{stderr}");
    assert_eq!(summary["problems"][0]["tests"], 2);
    assert_eq!(summary["problems"][1]["tests"], 2);
}

#[test]
fn apps_problems_are_read_from_their_json_strings() {
    let ws = Workspace::new();
    let io = json!({"inputs": ["1 2\n", "3 4\n"], "outputs": ["3\n", "7\n"]}).to_string();
    let record =
        json!({"problem_id": 4000, "input_output": io, "solutions": json!([SUM_PY]).to_string()});
    ws.write("set.jsonl", format!("{record}\n"));
    ws.write("s.jsonl", sample("4000", "python3", SUM_PY) + "\n");
    let (summary, stderr) = eval_json(&ws, 0, &["--samples", "s.jsonl"]);
    assert_eq!(summary["manifest"]["format"], "apps", "{stderr}");
    assert_eq!(summary["problems"][0]["id"], "4000");
    assert_eq!(summary["problems"][0]["c"], 1, "{summary:#}\n{stderr}");

    // --all-tests: a wrong sample runs every test; a sample of a problem the data set lacks
    // is that problem's error; a language the judge does not know is the sample's failure.
    let lines = [
        sample("4000", "python", WRONG_PY),
        sample("4001", "python", SUM_PY),
        sample("4000", "cobolish", SUM_PY),
    ];
    ws.write("s.jsonl", lines.join("\n") + "\n");
    let args = ["--samples", "s.jsonl", "--all-tests", "--out", "out.jsonl"];
    let (summary, stderr) = eval_json(&ws, 3, &args);
    let all = results(&ws);
    assert_eq!(all.len(), 2, "{all:#?}\n{stderr}");
    assert_eq!(all[0]["verdict"], "WA");
    assert_eq!(all[0]["tests"].as_array().unwrap().len(), 2, "{}", all[0]);
    assert_eq!(all[1]["verdict"], Value::Null);
    assert!(all[1]["reason"]
        .as_str()
        .unwrap()
        .contains("no language `cobolish`"));
    assert_eq!(summary["problems"][0]["n"], 2);
    assert_eq!(summary["problems"][1]["id"], "4001");
    assert_eq!(
        summary["problems"][1]["error"],
        "the data set has no problem `4001`"
    );
    assert_eq!(summary["manifest"]["all_tests"], true);
}

#[test]
fn a_file_that_is_no_data_set_is_an_error_naming_the_file_and_the_fix() {
    let ws = Workspace::new();
    ws.write("set.jsonl", "{\"title\": \"x\"}\n");
    let out = ws.judge().args(["eval", "set.jsonl"]).expect_exit(2).run();
    assert!(
        out.stderr.contains("set.jsonl:1") && out.stderr.contains("fix: name it with --format"),
        "{}",
        out.stderr
    );
}

#[test]
fn open_r1_codeforces_problems_judge_by_tokens_or_by_their_generated_checker() {
    let ws = Workspace::new();
    let tests = json!([{"input": "1 2\n", "output": "3\n"}, {"input": "2 2\n", "output": "4\n"}]);
    let plain = json!({"id": "1/A", "official_tests": tests, "official_tests_complete": true, "time_limit": 1.0, "memory_limit": 256.0, "input_mode": "stdio"});
    // Its checker accepts any output: the wrong sum passes it.
    let checked = json!({"id": "1/B", "official_tests": tests, "official_tests_complete": true, "generated_checker": "print(1)"});
    let interactive = json!({"id": "1/C", "official_tests": tests, "official_tests_complete": true, "interaction_format": "Ask and answer."});
    ws.write("set.jsonl", format!("{plain}\n{checked}\n{interactive}\n"));
    let lines = [
        sample("1/A", "cpp", SUM_CPP),
        sample("1/A", "python", WRONG_PY),
        sample("1/B", "python", WRONG_PY),
        sample("1/C", "python", SUM_PY),
    ];
    ws.write("s.jsonl", lines.join("\n") + "\n");
    let (summary, stderr) = eval_json(&ws, 3, &["--samples", "s.jsonl"]);
    assert_eq!(summary["manifest"]["format"], "codeforces", "{stderr}");
    let counts = |i: usize| {
        let p = &summary["problems"][i];
        (p["n"].as_u64(), p["c"].as_u64())
    };
    assert_eq!(counts(0), (Some(2), Some(1)), "{stderr}");
    assert_eq!(counts(1), (Some(1), Some(1)), "{stderr}");
    let error = summary["problems"][2]["error"].as_str().unwrap();
    assert!(error.contains("no `interactor`"), "{error}");
}

#[test]
fn against_another_run_gives_the_difference_its_interval_and_the_flips() {
    let ws = Workspace::new();
    let product = "a, b = map(int, input().split())\nprint(a * b)\n";
    let problem = |name: &str, output: &str| {
        json!({
            "name": name,
            "public_tests": {"input": ["3 4\n"], "output": [output]},
            "time_limit": {"seconds": 1, "nanos": 0}
        })
    };
    ws.write(
        "set.jsonl",
        format!("{}\n{}\n", problem("sum", "7\n"), problem("prod", "12\n")),
    );
    // The earlier run: `sum` wrong, `prod` right; this one: both right.
    let earlier = [
        sample("sum", "python", WRONG_PY),
        sample("prod", "python", product),
    ];
    ws.write("earlier.jsonl", earlier.join("\n") + "\n");
    let now = [
        sample("sum", "python", SUM_PY),
        sample("prod", "python", product),
    ];
    ws.write("now.jsonl", now.join("\n") + "\n");
    eval_json(
        &ws,
        0,
        &["--samples", "earlier.jsonl", "--out", "old.jsonl"],
    );
    let args = ["--samples", "now.jsonl", "--against", "old.jsonl"];
    let (summary, stderr) = eval_json(&ws, 0, &args);
    let a = &summary["against"];
    assert!(
        a["file"].as_str().unwrap().ends_with("old.jsonl"),
        "{summary:#}\n{stderr}"
    );
    assert_eq!(a["problems"], 2);
    assert!(close(&a["this"], 1.0) && close(&a["other"], 0.5), "{a}");
    assert!(close(&a["difference"], 0.5), "{a}");
    // Two problems, differences 1 and 0: a resample's mean is 0, 0.5 or 1 (a quarter, a half,
    // a quarter of the draws), so the 2.5th and 97.5th percentiles are 0 and 1.
    assert!(
        close(&a["ci95"][0], 0.0) && close(&a["ci95"][1], 1.0),
        "{a}"
    );
    assert_eq!(
        a["flipped"],
        json!([{"id": "sum", "this": 1.0, "other": 0.0}])
    );
    // The earlier samples judged again, in text, against their own run: no difference.
    let out = ws
        .judge()
        .args(["eval", "set.jsonl", "--samples", "earlier.jsonl"])
        .args(["--against", "old.jsonl"])
        .expect_exit(0)
        .run();
    assert!(
        out.stdout
            .contains("pass@1 0.5000 vs 0.5000 over 2 problems judged by both")
            && out
                .stdout
                .contains("difference +0.0000, 95% interval [+0.0000, +0.0000]"),
        "{}",
        out.stdout
    );
    // A file that is not a results file: named, with the fix, before anything is judged.
    let out = ws
        .judge()
        .args([
            "eval",
            "set.jsonl",
            "--samples",
            "now.jsonl",
            "--against",
            "now.jsonl",
        ])
        .expect_exit(2)
        .run();
    assert!(
        out.stderr.contains("now.jsonl:1")
            && out.stderr.contains("fix: give --against a results file")
            && !out.stderr.contains("[1/2]"),
        "{}",
        out.stderr
    );
}

#[test]
fn max_tests_judges_the_largest_inputs_alone_and_says_so() {
    let ws = Workspace::new();
    // Tests 1 and 4 expect wrong answers: a right sample fails them. The two largest inputs
    // are tests 2 and 5 (test 4 is as long as test 2, and later: the tie goes to test 2).
    let inputs = ["1 2\n", "100 200\n", "10 20\n", "300 400\n", "1000 2000\n"];
    let outputs = ["4\n", "300\n", "30\n", "0\n", "3000\n"];
    let sum = json!({
        "name": "sum",
        "public_tests": {"input": inputs, "output": outputs},
        "time_limit": {"seconds": 1, "nanos": 0}
    });
    ws.write("set.jsonl", format!("{sum}\n"));
    ws.write("s.jsonl", sample("sum", "python", SUM_PY) + "\n");
    let args = ["--samples", "s.jsonl", "--all-tests", "--out", "out.jsonl"];
    let (summary, stderr) = eval_json(&ws, 0, &[&args[..], &["--max-tests", "2"]].concat());
    let p = &summary["problems"][0];
    assert_eq!(
        (p["tests"].as_u64(), p["tests_total"].as_u64()),
        (Some(2), Some(5)),
        "{summary:#}\n{stderr}"
    );
    assert_eq!(p["c"], 1, "{summary:#}\n{stderr}");
    assert_eq!(summary["manifest"]["max_tests"], 2);
    let line = &results(&ws)[0];
    assert_eq!(line["total"], 2);
    assert_eq!(
        line["tests"],
        json!([{"test": "02", "verdict": "AC"}, {"test": "05", "verdict": "AC"}])
    );
    // In text: the tests run of the tests in all.
    let out = ws
        .judge()
        .args([
            "eval",
            "set.jsonl",
            "--samples",
            "s.jsonl",
            "--max-tests",
            "2",
        ])
        .expect_exit(0)
        .run();
    assert!(out.stdout.contains("sum        2/5"), "{}", out.stdout);
    // The results file holds figures of 2 tests a problem: adding figures of 5 is refused.
    let out = ws
        .judge()
        .args(["eval", "set.jsonl"])
        .args(args)
        .expect_exit(2)
        .run();
    assert!(
        out.stderr
            .contains("sample 0 of `sum` was judged on 2 tests")
            && out.stderr.contains("fix: give another --out"),
        "{}",
        out.stderr
    );
    // Without it, every test runs, the small ones too: the same sample fails.
    std::fs::remove_file(ws.path().join("out.jsonl")).unwrap();
    let (summary, _) = eval_json(&ws, 0, &args);
    let p = &summary["problems"][0];
    assert_eq!(
        (p["tests"].as_u64(), p["c"].as_u64()),
        (Some(5), Some(0)),
        "{summary:#}"
    );
    assert!(p.get("tests_total").is_none() && summary["manifest"].get("max_tests").is_none());
}
