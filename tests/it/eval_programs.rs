//! `judge eval` on problems judged by their own programs: open-r1's generated Python checker
//! (two different right outputs accepted, a wrong one rejected), its file-I/O problems, an
//! interactive problem with its testlib interactor, one without and one whose interactor does
//! not compile (errors, never a pass);
//! CodeContests+ with its testlib checker and its own submissions verified, a checker that
//! does not compile (the problem's error, counted, and the exit status says so); and a folder
//! of config.yaml problems. The testlib programs are built with the judge's own
//! testlib-compatible header (`tests/fixtures/polygon/testlib.h`).

use serde_json::{json, Value};

use crate::common::{repo, Workspace};

/// `n` split into two non-negative numbers that add up to it: many right answers.
const SPLIT_CHECKER_PY: &str = r#"import sys


def main():
    n = int(open(sys.argv[1]).read().split()[0])
    words = open(sys.argv[3]).read().split()
    if len(words) != 2:
        print(0)
        return
    a, b = int(words[0]), int(words[1])
    print(1 if a >= 0 and b >= 0 and a + b == n else 0)


main()
"#;

/// The same rule as a testlib checker.
const SPLIT_CHECKER_CPP: &str = r#"#include "testlib.h"
int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    long long n = inf.readLong();
    long long a = ouf.readLong(), b = ouf.readLong();
    if (a < 0 || b < 0 || a + b != n) quitf(_wa, "%lld + %lld is not %lld", a, b, n);
    quitf(_ok, "%lld + %lld", a, b);
}
"#;

/// Sends the number of the input, accepts its successor back.
const NEXT_INTERACTOR: &str = r#"#include "testlib.h"
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    int a = inf.readInt();
    std::printf("%d\n", a);
    std::fflush(stdout);
    int b = ouf.readInt();
    if (b != a + 1) quitf(_wa, "expected %d, read %d", a + 1, b);
    std::fprintf(tout, "%d\n", b);
    quitf(_ok, "%d", b);
}
"#;

const BROKEN_CPP: &str = "#include \"testlib.h\"\nint main() { return x; }\n";

const SPLIT_ONE_PY: &str = "n = int(input())\nprint(1, n - 1)\n";
const SPLIT_ZERO_CPP: &str =
    "#include <cstdio>\nint main(){long long n; scanf(\"%lld\",&n); printf(\"0 %lld\\n\", n);}\n";
const SPLIT_WRONG_PY: &str = "n = int(input())\nprint(n, 1)\n";
const FILE_SUM_PY: &str = "a, b = map(int, open('input.txt').read().split())\nopen('output.txt', 'w').write(str(a + b) + '\\n')\n";
const STDOUT_SUM_PY: &str = "a, b = map(int, open('input.txt').read().split())\nprint(a + b)\n";
const NEXT_PY: &str = "a = int(input())\nprint(a + 1, flush=True)\n";
const NEXT_WRONG_PY: &str = "a = int(input())\nprint(a + 2, flush=True)\n";

fn sample(problem: &str, language: &str, code: &str) -> String {
    json!({"problem": problem, "language": language, "code": code}).to_string()
}

fn lines(items: &[Value]) -> String {
    items.iter().map(|v| format!("{v}\n")).collect()
}

fn testlib() -> String {
    repo()
        .join("tests/fixtures/polygon/testlib.h")
        .display()
        .to_string()
}

/// The summary's problem `id`.
fn problem<'a>(summary: &'a Value, id: &str) -> &'a Value {
    summary["problems"]
        .as_array()
        .and_then(|all| all.iter().find(|p| p["id"] == id))
        .unwrap_or_else(|| panic!("no problem {id} in the summary"))
}

/// `(n, c)` of a problem of the summary.
fn counts(summary: &Value, id: &str) -> (Option<u64>, Option<u64>) {
    let p = problem(summary, id);
    (p["n"].as_u64(), p["c"].as_u64())
}

/// The verdicts of the results file's lines of `id`, by sample.
fn verdicts(ws: &Workspace, id: &str) -> Vec<String> {
    let mut found: Vec<(u64, String)> = std::fs::read_to_string(ws.path().join("out.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["problem"] == id)
        .map(|r| {
            let verdict = r["verdict"].as_str().unwrap_or("none").to_string();
            (r["sample"].as_u64().unwrap(), verdict)
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, v)| v).collect()
}

/// A CodeContests+ problem of one test, its testlib checker and one right submission.
fn split_alone() -> Value {
    json!({
        "id": "cf1", "time_limit": 2000, "memory_limit": 256,
        "test_cases": [{"input": "3\n", "output": "1 2\n"}],
        "checker": SPLIT_CHECKER_CPP,
        "correct_submissions": [{"code": SPLIT_ONE_PY, "language": "python3"}],
    })
}

fn short(text: &str) -> &str {
    &text[text.len().saturating_sub(600)..]
}

#[test]
fn open_r1s_checker_named_files_and_interactor_judge_and_a_missing_interactor_is_an_error() {
    let ws = Workspace::new();
    let base = |id: &str| {
        json!({
            "id": id, "time_limit": 2.0, "memory_limit": 256.0,
            "official_tests_complete": true, "input_mode": "stdio",
        })
    };
    let mut split = base("1/A");
    split["official_tests"] = json!([{"input": "5\n", "output": "2 3\n"}]);
    split["generated_checker"] = json!(SPLIT_CHECKER_PY);
    let mut files = base("1/B");
    files["official_tests"] = json!([{"input": "40 2\n", "output": "42\n"}]);
    files["input_mode"] = json!("file");
    let mut talk = base("1/C");
    talk["official_tests"] = json!([{"input": "7\n", "output": "8\n"}]);
    talk["interaction_format"] = json!("Read a number, answer the next one.");
    talk["interactor"] = json!(NEXT_INTERACTOR);
    let mut mute = talk.clone();
    mute["id"] = json!("1/D");
    mute.as_object_mut().unwrap().remove("interactor");
    // A checker that says neither 1 nor 0 failed: an internal error, the sample not counted.
    let mut unsure = base("1/F");
    unsure["official_tests"] = json!([{"input": "5\n", "output": "2 3\n"}]);
    unsure["generated_checker"] = json!("print('maybe')\n");
    let mut broken = talk.clone();
    broken["id"] = json!("1/E");
    broken["interactor"] = json!(BROKEN_CPP);
    ws.write(
        "set.jsonl",
        lines(&[split, files, talk, mute, broken, unsure]),
    );
    let samples = [
        sample("1/A", "python", SPLIT_ONE_PY),
        sample("1/A", "cpp", SPLIT_ZERO_CPP),
        sample("1/A", "python", SPLIT_WRONG_PY),
        sample("1/B", "python", FILE_SUM_PY),
        sample("1/B", "python", STDOUT_SUM_PY),
        sample("1/C", "python", NEXT_PY),
        sample("1/C", "python", NEXT_WRONG_PY),
        sample("1/D", "python", NEXT_PY),
        sample("1/E", "python", NEXT_PY),
        sample("1/F", "python", SPLIT_ONE_PY),
    ];
    ws.write("samples.jsonl", samples.join("\n") + "\n");
    let out = ws
        .judge()
        .args(["eval", "set.jsonl", "--samples", "samples.jsonl"])
        .args(["--out", "out.jsonl", "--json", "--testlib", &testlib()])
        .expect_exit(3)
        .run();
    let summary = out.json();
    let stderr = short(&out.stderr);
    assert_eq!(counts(&summary, "1/A"), (Some(3), Some(2)), "{stderr}");
    assert_eq!(verdicts(&ws, "1/A"), ["AC", "AC", "WA"], "{stderr}");
    assert_eq!(counts(&summary, "1/B"), (Some(2), Some(1)), "{stderr}");
    assert_eq!(verdicts(&ws, "1/B"), ["AC", "WA"], "{stderr}");
    assert_eq!(counts(&summary, "1/C"), (Some(2), Some(1)), "{stderr}");
    assert_eq!(verdicts(&ws, "1/C"), ["AC", "WA"], "{stderr}");
    let mute = problem(&summary, "1/D");
    assert!(
        mute["error"]
            .as_str()
            .is_some_and(|e| e.contains("no `interactor`")),
        "{mute}"
    );
    assert!(verdicts(&ws, "1/D").is_empty());
    let broken = problem(&summary, "1/E");
    assert!(
        broken["error"]
            .as_str()
            .is_some_and(|e| e.contains("interactor") && e.contains("does not compile")),
        "{broken}"
    );
    assert!(verdicts(&ws, "1/E").is_empty());
    assert_eq!(verdicts(&ws, "1/F"), ["IE"], "{stderr}");
    assert_eq!(counts(&summary, "1/F"), (Some(0), Some(0)), "{stderr}");
    assert_eq!(summary["errors"], 2, "{stderr}");
}

#[test]
fn code_contests_plus_checks_with_its_checker_verifies_its_submissions_and_a_broken_checker_is_an_error(
) {
    let ws = Workspace::new();
    let split = json!({
        "id": "cf1", "title": "Split", "time_limit": 2000, "memory_limit": 256,
        "test_cases": [{"input": "3\n", "output": "1 2\n"}, {"input": "10\n", "output": "5 5\n"}],
        "checker": SPLIT_CHECKER_CPP,
        "correct_submissions": [
            {"code": SPLIT_ONE_PY, "language": "python3"},
            {"code": SPLIT_ZERO_CPP, "language": "cpp"},
        ],
        "incorrect_submissions": [{"code": SPLIT_WRONG_PY, "language": "python3"}],
    });
    let broken = json!({
        "id": "cf2", "time_limit": 1000, "memory_limit": 256,
        "test_cases": [{"input": "3\n", "output": "1 2\n"}],
        "checker": BROKEN_CPP,
        "correct_submissions": [{"code": SPLIT_ONE_PY, "language": "python3"}],
    });
    ws.write("plus.jsonl", lines(&[split, broken]));
    let out = ws
        .judge()
        .args(["eval", "plus.jsonl", "--json", "--testlib", &testlib()])
        .expect_exit(3)
        .run();
    let summary = out.json();
    let stderr = short(&out.stderr);
    assert_eq!(
        summary["manifest"]["format"], "code_contests_plus",
        "{stderr}"
    );
    let v = &problem(&summary, "cf1")["verification"];
    assert_eq!(
        (v["correct"].as_u64(), v["correct_passed"].as_u64()),
        (Some(2), Some(2)),
        "{v}\n{stderr}"
    );
    assert_eq!(
        (v["incorrect"].as_u64(), v["incorrect_failed"].as_u64()),
        (Some(1), Some(1)),
        "{v}"
    );
    let broken = problem(&summary, "cf2");
    assert!(
        broken["error"]
            .as_str()
            .is_some_and(|e| e.contains("checker does not compile")),
        "{broken}"
    );
    assert_eq!(summary["errors"], 1);
    assert!(out.stderr.contains("problem cf2 not judged"), "{stderr}");
}

#[test]
fn a_checker_is_built_with_the_testlib_of_each_run_not_the_one_an_earlier_run_laid_out() {
    let ws = Workspace::new();
    ws.write("plus.jsonl", lines(&[split_alone()]));
    let broken = ws.write("broken/testlib.h", "#error this header is not testlib\n");
    let out = ws
        .judge()
        .args(["eval", "plus.jsonl", "--json", "--testlib"])
        .arg(&broken)
        .expect_exit(3)
        .run();
    let summary = out.json();
    assert!(
        problem(&summary, "cf1")["error"]
            .as_str()
            .is_some_and(|e| e.contains("checker does not compile")),
        "{}",
        short(&out.stderr)
    );
    // The same data set again with a header that is testlib's: judged with it.
    let out = ws
        .judge()
        .args(["eval", "plus.jsonl", "--json", "--testlib", &testlib()])
        .expect_exit(0)
        .run();
    let summary = out.json();
    let v = &problem(&summary, "cf1")["verification"];
    assert_eq!(
        (v["correct"].as_u64(), v["correct_passed"].as_u64()),
        (Some(1), Some(1)),
        "{v}\n{}",
        short(&out.stderr)
    );
}

#[test]
fn a_testlib_checker_without_a_header_is_the_problems_error_naming_the_fix() {
    let ws = Workspace::new();
    ws.write("plus.jsonl", lines(&[split_alone()]));
    let system = ["/usr/local/include/testlib.h", "/usr/include/testlib.h"];
    if system.iter().any(|p| std::path::Path::new(p).is_file()) {
        // This machine has one where a system keeps headers: the problem is judged with it.
        ws.judge()
            .args(["eval", "plus.jsonl", "--json"])
            .expect_exit(0)
            .run();
        return;
    }
    let out = ws
        .judge()
        .args(["eval", "plus.jsonl", "--json"])
        .expect_exit(3)
        .run();
    let summary = out.json();
    let error = problem(&summary, "cf1")["error"].as_str().unwrap_or("");
    assert!(error.contains("--testlib PATH"), "{error}");
}

#[test]
fn a_folder_of_config_yaml_problems_is_judged_by_its_checkers_interactors_and_lines() {
    let ws = Workspace::new();
    ws.write(
        "pro/1/config.yaml",
        "type: default\ntime: 1s\nmemory: 256m\nchecker: chk.cc\nsubtasks:\n  - score: 100\n    n_cases: 2\n",
    );
    ws.write("pro/1/chk.cc", SPLIT_CHECKER_CPP);
    ws.write("pro/1/testdata/1.in", "3\n");
    ws.write("pro/1/testdata/1.ans", "1 2\n");
    ws.write("pro/1/testdata/2.in", "8\n");
    ws.write("pro/1/testdata/2.ans", "4 4\n");
    ws.write(
        "pro/2/config.yaml",
        "time: 1s\nsubtasks:\n  - memory: 128m\n    cases:\n      - input: a.in\n        output: a.out\n",
    );
    ws.write("pro/2/a.in", "40 2\n");
    ws.write("pro/2/a.out", "42\n");
    ws.write(
        "pro/3/config.yaml",
        "type: interactive\ntime: 1s\nmemory: 256m\ninteractor: interactor.cc\n",
    );
    ws.write("pro/3/interactor.cc", NEXT_INTERACTOR);
    ws.write("pro/3/testdata/1.in", "5\n");
    ws.write("pro/3/testdata/1.ans", "6\n");
    let header = std::fs::read_to_string(testlib()).unwrap();
    ws.write("pro/testlib.h", header);
    let samples = [
        sample("1", "python", SPLIT_ONE_PY),
        sample("1", "cpp", SPLIT_ZERO_CPP),
        sample("1", "python", SPLIT_WRONG_PY),
        sample(
            "2",
            "python",
            "a, b = map(int, input().split())\nprint(a + b, '  ')\n",
        ),
        sample("2", "python", "print(42 * 10)\n"),
        sample("3", "python", NEXT_PY),
        sample("3", "python", NEXT_WRONG_PY),
    ];
    ws.write("samples.jsonl", samples.join("\n") + "\n");
    let out = ws
        .judge()
        .args(["eval", "pro", "--samples", "samples.jsonl", "--json"])
        .args(["--out", "out.jsonl"])
        .expect_exit(0)
        .run();
    let summary = out.json();
    let stderr = short(&out.stderr);
    assert_eq!(summary["manifest"]["format"], "config_yaml", "{stderr}");
    assert_eq!(counts(&summary, "1"), (Some(3), Some(2)), "{stderr}");
    assert_eq!(verdicts(&ws, "1"), ["AC", "AC", "WA"]);
    assert_eq!(problem(&summary, "1")["tests"], 2);
    assert_eq!(counts(&summary, "2"), (Some(2), Some(1)), "{stderr}");
    assert_eq!(verdicts(&ws, "2"), ["AC", "WA"]);
    assert_eq!(counts(&summary, "3"), (Some(2), Some(1)), "{stderr}");
    assert_eq!(verdicts(&ws, "3"), ["AC", "WA"]);
}
