//! `judge eval` on Parquet: data sets written here as Parquet (one file, and a folder of
//! Hugging Face shards) judged with right and wrong samples, their results those of the same
//! rows as JSON Lines; open-r1's generated tests read from a `--tests` file and judged after the
//! official ones; every file read in the manifest with its SHA-256; a corrupt file, or one of
//! other columns, an error naming it.

use std::path::Path;

use serde_json::{json, Value};
use sha2::Digest;

use crate::common::{parquet, Workspace};

const SUM_PY: &str = "a, b = map(int, input().split())\nprint(a + b)\n";
const WRONG_PY: &str = "a, b = map(int, input().split())\nprint(a - b)\n";
const SUM_CPP: &str = "#include <cstdio>\nint main(){long long a,b; scanf(\"%lld %lld\",&a,&b); printf(\"%lld\\n\", a+b);}\n";
/// Right on small numbers only: what the official tests miss and the generated ones catch.
const SMALL_PY: &str = "a, b = map(int, input().split())\nprint(a + b if a + b < 100 else 0)\n";

/// At most a few hundred characters of `text`, for an assertion's message.
fn short(text: &str) -> String {
    text.chars().take(300).collect()
}

/// Two code_contests problems with nested columns: tests as `{input: [..], output: [..]}`,
/// `time_limit {seconds, nanos}`, solutions with their language codes.
fn code_contests_rows() -> Vec<Value> {
    let sum = json!({
        "name": "sum",
        "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
        "private_tests": {"input": ["40 2\n", "-5 5\n"], "output": ["42\n", "0\n"]},
        "generated_tests": {"input": [], "output": []},
        "time_limit": {"seconds": 1, "nanos": 500000000},
        "memory_limit_bytes": 268435456u64,
        "solutions": {"language": [3, 2], "solution": [SUM_PY, SUM_CPP]},
        "incorrect_solutions": {"language": [3], "solution": [WRONG_PY]}
    });
    let twice = json!({
        "name": "twice",
        "public_tests": {"input": ["4 4\n"], "output": ["8\n"]},
        "private_tests": null,
        "generated_tests": {"input": ["7 7\n"], "output": ["14\n"]},
        "time_limit": {"seconds": 2, "nanos": 0},
        "memory_limit_bytes": 0,
        "solutions": {"language": [3], "solution": [SUM_PY]},
        "incorrect_solutions": {"language": [], "solution": []}
    });
    vec![sum, twice]
}

fn jsonl(rows: &[Value]) -> String {
    rows.iter().map(|r| format!("{r}\n")).collect()
}

fn sample(problem: &str, language: &str, code: &str) -> String {
    json!({"problem": problem, "language": language, "code": code}).to_string()
}

fn sha256(path: &Path) -> String {
    let digest = sha2::Sha256::digest(std::fs::read(path).unwrap());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// `judge eval DATASET --json` with `args`, its exit status `code`: the summary and stderr.
fn eval(ws: &Workspace, dataset: &str, code: i32, args: &[&str]) -> (Value, String) {
    let out = ws
        .judge()
        .args(["eval", dataset, "--json"])
        .args(args)
        .expect_exit(code)
        .run();
    (out.json(), out.stderr)
}

/// What a run decided, without what a machine measures or where its files are: each result's
/// problem, sample, verdict, passed and total, and each problem's figures.
fn decided(ws: &Workspace, summary: &Value, out: &str) -> (Vec<Value>, Vec<Value>) {
    let mut results: Vec<Value> = std::fs::read_to_string(ws.path().join(out))
        .unwrap()
        .lines()
        .map(|l| {
            let r: Value = serde_json::from_str(l).unwrap();
            json!([
                r["problem"],
                r["sample"],
                r["verdict"],
                r["passed"],
                r["total"]
            ])
        })
        .collect();
    results.sort_by_key(|r| r.to_string());
    let problems = summary["problems"].as_array().unwrap().clone();
    (results, problems)
}

#[test]
fn code_contests_as_a_parquet_file_and_as_shards_judges_as_its_json_lines() {
    let ws = Workspace::new();
    let rows = code_contests_rows();
    ws.write("set.jsonl", jsonl(&rows));
    parquet::write(&ws.path().join("set.parquet"), &rows);
    std::fs::create_dir_all(ws.path().join("hub/data")).unwrap();
    let shards = [
        ws.path().join("hub/data/train-00000-of-00002.parquet"),
        ws.path().join("hub/data/train-00001-of-00002.parquet"),
    ];
    // Compressed otherwise than the file: the shards of other data sets are zstd or gzip.
    use ::parquet::basic::{Compression, GzipLevel, ZstdLevel};
    parquet::write_compressed(
        &shards[0],
        &rows[..1],
        Compression::ZSTD(ZstdLevel::default()),
    );
    parquet::write_compressed(
        &shards[1],
        &rows[1..],
        Compression::GZIP(GzipLevel::default()),
    );
    let lines = [
        sample("sum", "python", SUM_PY),
        sample("sum", "python", WRONG_PY),
        sample("sum", "cpp", SUM_CPP),
        sample("twice", "python", SUM_PY),
        sample("twice", "python", WRONG_PY),
    ];
    ws.write("samples.jsonl", lines.join("\n") + "\n");

    let mut runs = Vec::new();
    for (dataset, out) in [
        ("set.jsonl", "json.out"),
        ("set.parquet", "file.out"),
        ("hub", "shards.out"),
    ] {
        let (summary, stderr) = eval(
            &ws,
            dataset,
            0,
            &["--samples", "samples.jsonl", "--out", out, "--k", "1,2"],
        );
        assert_eq!(
            summary["manifest"]["format"],
            "code_contests",
            "{dataset}: {}",
            short(&stderr)
        );
        let results = decided(&ws, &summary, out).0;
        runs.push((summary, results));
    }
    // The JSON Lines run, checked by hand: `sum` has 3 tests, 2 of its 3 samples right.
    let (summary, results) = &runs[0];
    let sum = &summary["problems"][0];
    assert_eq!(
        (
            sum["id"].as_str(),
            sum["n"].as_u64(),
            sum["c"].as_u64(),
            sum["tests"].as_u64()
        ),
        (Some("sum"), Some(3), Some(2), Some(3)),
        "{}",
        short(&sum.to_string())
    );
    assert_eq!(results.len(), 5);
    assert_eq!(
        results[1],
        json!(["sum", 1, "WA", 0, 3]),
        "{}",
        short(&format!("{results:?}"))
    );
    for (summary, decided) in &runs[1..] {
        assert_eq!(decided, results);
        assert_eq!(summary["problems"], runs[0].0["problems"]);
        assert_eq!(summary["pass@k"], runs[0].0["pass@k"]);
    }
    // Each file in the manifest: the one file's hash; the shards', and a hash of them all.
    let file = &runs[1].0["manifest"];
    assert_eq!(
        file["dataset"]["sha256"],
        sha256(&ws.path().join("set.parquet"))
    );
    assert!(file.get("shards").is_none(), "{}", short(&file.to_string()));
    let folder = &runs[2].0["manifest"];
    let listed: Vec<(String, String)> = folder["shards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap().into(),
                s["sha256"].as_str().unwrap().into(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = shards
        .iter()
        .map(|s| (s.display().to_string(), sha256(s)))
        .collect();
    assert_eq!(listed, expected);
    let whole = folder["dataset"]["sha256"].as_str().unwrap();
    assert!(whole.len() == 64 && whole != expected[0].1 && whole != expected[1].1);
}

#[test]
fn the_data_sets_own_solutions_in_parquet_are_checked_as_in_json() {
    let ws = Workspace::new();
    parquet::write(&ws.path().join("set.parquet"), &code_contests_rows());
    let (summary, stderr) = eval(&ws, "set.parquet", 0, &[]);
    let verification = &summary["problems"][0]["verification"];
    assert_eq!(
        (
            verification["correct_passed"].as_u64(),
            verification["incorrect_failed"].as_u64()
        ),
        (Some(2), Some(1)),
        "{}",
        short(&stderr)
    );
}

/// open-r1's problems: `1/A`'s official tests incomplete, the rest of them generated; `1/B`
/// complete, with one generated test more.
fn codeforces_rows() -> Vec<Value> {
    let a = json!({
        "id": "1/A", "contest_id": "1", "index": "A", "title": "Sum",
        "time_limit": 1.0, "memory_limit": 256.0, "input_mode": "stdio",
        "interaction_format": null, "generated_checker": null,
        "official_tests": [{"input": "1 2\n", "output": "3\n"}],
        "official_tests_complete": false, "generated_tests": 2
    });
    let b = json!({
        "id": "1/B", "contest_id": "1", "index": "B", "title": "Sum again",
        "time_limit": 2.0, "memory_limit": 64.0, "input_mode": "stdio",
        "interaction_format": null, "generated_checker": null,
        "official_tests": [{"input": "2 2\n", "output": "4\n"}, {"input": "3 3\n", "output": "6\n"}],
        "official_tests_complete": true, "generated_tests": 1
    });
    vec![a, b]
}

/// The generated tests, out of `test_case_i`'s order, with a problem the data set lacks.
fn test_case_rows() -> Vec<Value> {
    vec![
        json!({"problem_id": "1/A", "test_case_i": 1, "input": "50 60\n", "output": "110\n"}),
        json!({"problem_id": "1/B", "test_case_i": 0, "input": "5 5\n", "output": "10\n"}),
        json!({"problem_id": "1/A", "test_case_i": 0, "input": "10 20\n", "output": "30\n"}),
        json!({"problem_id": "9/Z", "test_case_i": 0, "input": "0\n", "output": "0\n"}),
    ]
}

#[test]
fn open_r1_generated_tests_come_from_tests_files_after_the_official_ones() {
    let ws = Workspace::new();
    parquet::write(&ws.path().join("cf.parquet"), &codeforces_rows());
    std::fs::create_dir_all(ws.path().join("generated_tests")).unwrap();
    let tests = ws.path().join("generated_tests/test_cases_0001.parquet");
    parquet::write(&tests, &test_case_rows());
    ws.write("cf.jsonl", jsonl(&codeforces_rows()));
    ws.write("tests.jsonl", jsonl(&test_case_rows()));
    let lines = [
        sample("1/A", "python", SUM_PY),
        sample("1/A", "python", SMALL_PY),
        sample("1/A", "python", WRONG_PY),
        sample("1/B", "cpp", SUM_CPP),
    ];
    ws.write("samples.jsonl", lines.join("\n") + "\n");

    // Without them, the problem whose official tests are a part is an error, never a pass.
    let (summary, stderr) = eval(&ws, "cf.parquet", 3, &["--samples", "samples.jsonl"]);
    let error = summary["problems"][0]["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("give them with --tests"),
        "{}",
        short(&stderr)
    );

    let (summary, stderr) = eval(
        &ws,
        "cf.parquet",
        0,
        &[
            "--samples",
            "samples.jsonl",
            "--tests",
            "generated_tests",
            "--out",
            "pq.out",
        ],
    );
    assert_eq!(
        summary["manifest"]["format"],
        "codeforces",
        "{}",
        short(&stderr)
    );
    let (results, problems) = decided(&ws, &summary, "pq.out");
    assert_eq!(
        results,
        vec![
            json!(["1/A", 0, "AC", 3, 3]),
            // Right on the official test and the first generated one (10 20, by test_case_i).
            json!(["1/A", 1, "WA", 2, 3]),
            json!(["1/A", 2, "WA", 0, 3]),
            json!(["1/B", 0, "AC", 3, 3]),
        ]
    );
    assert_eq!(
        summary["manifest"]["tests"],
        json!([{"path": tests.display().to_string(), "sha256": sha256(&tests)}])
    );

    // The same rows as JSON Lines, the tests too: the same results.
    let (json_summary, stderr) = eval(
        &ws,
        "cf.jsonl",
        0,
        &[
            "--samples",
            "samples.jsonl",
            "--tests",
            "tests.jsonl",
            "--out",
            "json.out",
        ],
    );
    let (json_results, json_problems) = decided(&ws, &json_summary, "json.out");
    assert_eq!(json_results, results, "{}", short(&stderr));
    assert_eq!(json_problems, problems);
}

#[test]
fn generated_tests_fewer_than_the_data_set_counts_are_the_problems_error() {
    let ws = Workspace::new();
    parquet::write(&ws.path().join("cf.parquet"), &codeforces_rows());
    let rows = test_case_rows();
    parquet::write(&ws.path().join("few.parquet"), &rows[..2]);
    ws.write("samples.jsonl", sample("1/A", "python", SUM_PY) + "\n");
    let (summary, stderr) = eval(
        &ws,
        "cf.parquet",
        3,
        &["--samples", "samples.jsonl", "--tests", "few.parquet"],
    );
    let error = summary["problems"][0]["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("counts 2 generated tests") && error.contains("hold 1 of them"),
        "{}",
        short(&stderr)
    );
}

#[test]
fn a_corrupt_parquet_file_or_one_of_other_columns_is_an_error_naming_it() {
    let ws = Workspace::new();
    let good = ws.path().join("good.parquet");
    parquet::write(&good, &code_contests_rows());
    let bytes = std::fs::read(&good).unwrap();
    ws.write("cut.parquet", &bytes[..bytes.len() / 2]);
    let out = ws
        .judge()
        .args(["eval", "cut.parquet"])
        .expect_exit(2)
        .run();
    assert!(
        out.stderr.contains("cut.parquet") && out.stderr.contains("fix: download the file again"),
        "{}",
        short(&out.stderr)
    );

    parquet::write(
        &ws.path().join("other.parquet"),
        &[json!({"title": "x", "votes": 3})],
    );
    let out = ws
        .judge()
        .args(["eval", "other.parquet"])
        .expect_exit(2)
        .run();
    assert!(
        out.stderr.contains("other.parquet")
            && out.stderr.contains("(title, votes)")
            && out.stderr.contains("fix: name it with --format"),
        "{}",
        short(&out.stderr)
    );

    parquet::write(&ws.path().join("cf.parquet"), &codeforces_rows());
    let out = ws
        .judge()
        .args(["eval", "cf.parquet", "--tests", "other.parquet"])
        .expect_exit(2)
        .run();
    assert!(
        out.stderr.contains("other.parquet") && out.stderr.contains("problem_id, input, output"),
        "{}",
        short(&out.stderr)
    );
}
