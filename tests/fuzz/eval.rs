//! What `judge eval` reads: a data set (code_contests, APPS/TACO, LiveCodeBench, open-r1's
//! codeforces, CodeContests+, gzip or not), a folder of config.yaml problems, a samples file,
//! and the results file an earlier run left. Whatever the bytes: no panic, an
//! error that names the file and the fix, and never a problem judged on no tests.

use std::io::Write;

use proptest::prelude::*;

use crate::harness::{config, kept, mutants, names_file_and_fix, scratch, watch};
use judge_eval::{dataset, results, samples};

/// LiveCodeBench's private tests packed as it packs them (base64 of zlib of a pickled JSON
/// string), made once with Python's modules.
const PACKED: &str =
    "eJxrYJlqwwABPRbR1UqZeQWlJUpWCkpGMXlKOgpK+aUlUAETiEBJanFJSWVBKkiouCQlM0+pNnaKHgCVcRRJ";

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/eval")
        .join(name);
    std::fs::read(path).unwrap()
}

fn datasets() -> Vec<Vec<u8>> {
    let lcb = serde_json::json!({
        "question_id": "q1",
        "public_test_cases": "[{\"input\": \"[1]\\n1\", \"output\": \"1\", \"testtype\": \"functional\"}]",
        "private_test_cases": PACKED,
        "metadata": "{\"func_name\": \"f\"}",
        "starter_code": "class Solution:\n    def f(self, a: List[int], k: int) -> int:\n"
    });
    let apps = serde_json::json!({"problem_id": 3, "input_output": "{\"inputs\": [\"1\\n\"], \"outputs\": [\"1\\n\"]}", "time_limit": "2 seconds"});
    let codeforces = serde_json::json!({"id": "1/A", "official_tests": [{"input": "1\n", "output": "1\n"}], "official_tests_complete": true, "time_limit": 1.0, "memory_limit": 256.0, "input_mode": "stdio"});
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&fixture("untested.jsonl")).unwrap();
    vec![
        fixture("contests.jsonl"),
        fixture("untested.jsonl"),
        format!("{lcb}\n").into_bytes(),
        format!("[{apps}]").into_bytes(),
        format!("{codeforces}\n").into_bytes(),
        fixture("plus.jsonl"),
        gz.finish().unwrap(),
    ]
}

/// config.yaml files of each shape the folders use: `n_cases`, named cases, per-subtask limits.
fn configs() -> Vec<Vec<u8>> {
    [
        "type: default\ntime: 1s\nmemory: 256m\nchecker: chk.cc\nsubtasks:\n  - score: 100\n    n_cases: 1\n",
        "time: 500ms\nsubtasks:\n  - memory: 64m\n    cases:\n      - input: 1.in\n        output: 1.ans\n",
        "type: interactive\ntime: 2s\nmemory: 1g\ninteractor: chk.cc\nchecker_type: testlib\n",
    ]
    .iter()
    .map(|c| c.as_bytes().to_vec())
    .collect()
}

const YAML: &[&str] = &[
    ":",
    "- ",
    "\n",
    "  ",
    "~",
    "null",
    "[",
    "]",
    "{",
    "}",
    "time: ",
    "memory: ",
    "0s",
    "-1m",
    "1e999ms",
    "subtasks:",
    "cases:",
    "n_cases: ",
    "99999999999",
    "input: ",
    "output: ",
    "../",
    "/",
    "checker: ",
    "{file: chk.cc}",
    "type: ",
    "interactive",
    "&a",
    "*a",
];

const FIELDS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    "\"",
    "null",
    "1e999",
    "-1",
    "\"\"",
    "\n",
    "\"public_tests\":",
    "\"input\":",
    "\"output\":",
    "\"time_limit\":",
    "\"seconds\":",
    "\"solutions\":",
    "\"language\":",
    "\"input_output\":",
    "\"fn_name\":",
    "\"question_id\":",
    "\"private_test_cases\":",
    "\"testtype\": \"functional\"",
    "List[",
    "Optional[",
    "->",
    "\"problem\":",
    "\"code\":",
    "\"code_list\":",
    "```",
    "```python\n",
];

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_data_set(input in mutants(datasets(), FIELDS)) {
        let _watched = watch("a data set", &kept("eval-dataset"), &input);
        let dir = scratch();
        let path = dir.path().join("set.jsonl");
        std::fs::write(&path, &input).unwrap();
        match dataset::read(&path, None) {
            Ok(set) => {
                for p in &set.problems {
                    match &p.spec {
                        Ok(spec) => prop_assert!(!spec.tests.is_empty(), "{} judged on no tests", p.id),
                        Err(why) => prop_assert!(!why.is_empty()),
                    }
                }
            }
            Err(e) => names_file_and_fix(&format!("{e:#}"), "set.jsonl"),
        }
    }

    #[test]
    fn a_config_yaml_folder(input in mutants(configs(), YAML)) {
        let _watched = watch("a config.yaml", &kept("eval-config-yaml"), &input);
        let dir = scratch();
        let problem = dir.path().join("pro/1");
        std::fs::create_dir_all(problem.join("testdata")).unwrap();
        std::fs::write(problem.join("config.yaml"), &input).unwrap();
        std::fs::write(problem.join("chk.cc"), "int main() {}\n").unwrap();
        std::fs::write(problem.join("testdata/1.in"), "1\n").unwrap();
        std::fs::write(problem.join("testdata/1.ans"), "1\n").unwrap();
        match dataset::read(&dir.path().join("pro"), None) {
            Ok(set) => {
                for p in &set.problems {
                    match &p.spec {
                        Ok(spec) => prop_assert!(!spec.tests.is_empty(), "{} judged on no tests", p.id),
                        Err(why) => prop_assert!(!why.is_empty()),
                    }
                }
            }
            Err(e) => names_file_and_fix(&format!("{e:#}"), "pro"),
        }
    }

    #[test]
    fn a_samples_file(input in mutants(vec![fixture("answers.jsonl"), br#"[{"question_id": "q1", "code_list": ["print(1)", "```python\nprint(2)\n```"]}]"#.to_vec()], FIELDS), extract in any::<bool>()) {
        let _watched = watch("a samples file", &kept("eval-samples"), &input);
        let dir = scratch();
        let path = dir.path().join("samples.jsonl");
        std::fs::write(&path, &input).unwrap();
        if let Err(e) = samples::read(&path, extract) {
            names_file_and_fix(&format!("{e:#}"), "samples.jsonl");
        }
    }

    #[test]
    fn a_results_file(input in mutants(vec![br#"{"schema":"judge.eval.sample/2","problem":"sum","sample":0,"language":"python","verdict":"AC","passed":3,"total":3,"counted":true,"tests":[{"test":"01","verdict":"AC","time_ms":5,"memory_kb":900}]}
{"problem":"sum","sample":1,"language":"cpp","verdict":null,"passed":0,"total":3,"reason":"no code","counted":true,"tests":[]}
"#.to_vec()], FIELDS)) {
        let _watched = watch("a results file", &kept("eval-results"), &input);
        let dir = scratch();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, &input).unwrap();
        match results::earlier(&path) {
            // What is kept is whole lines: the file ends with one, or is empty.
            Ok(_) => {
                let left = std::fs::read(&path).unwrap();
                prop_assert!(left.is_empty() || left.ends_with(b"\n"));
            }
            Err(e) => names_file_and_fix(&format!("{e:#}"), "out.jsonl"),
        }
    }
}
