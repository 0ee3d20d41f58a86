//! open-r1's `codeforces`: `id` ("1234/A"), `official_tests` (`[{input, output}]`) with
//! `official_tests_complete`, `time_limit` in seconds, `memory_limit` in MB, `input_mode`,
//! `interaction_format` and `generated_checker`. The generated checker decides where there is
//! one (open-r1's harness calls it `checker.py INPUT ANSWER OUTPUT`, and a right output makes it
//! print `1`); `input_mode: file` reads `input.txt` and writes `output.txt`; an interactive
//! problem runs with its `interactor` (testlib) where the record has one, and is an error
//! where it has none (open-r1's own records ship none). What is not run yet (the generated
//! tests of its Parquet files) makes the problem an error, never a problem judged by the
//! wrong rule or on a part of its tests.

use std::time::Duration;

use serde_json::Value;

use super::{
    id_of, with_tests, Compare, DataProblem, Program, Programs, Spec, Test, DEFAULT_MEMORY,
};

/// Codeforces' most common limit, where a problem gives none.
const DEFAULT_TIME: Duration = Duration::from_secs(2);

pub(super) fn fits(record: &Value) -> bool {
    record.get("official_tests").is_some()
}

pub(super) fn problem(row: usize, record: &Value) -> DataProblem {
    DataProblem {
        id: id_of(record, &["id"], row),
        row,
        spec: spec(record),
        references: Vec::new(),
    }
}

fn spec(record: &Value) -> Result<Spec, String> {
    let text = |field: &str| {
        record
            .get(field)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
    };
    let interactor = match (text("interaction_format"), text("interactor")) {
        (None, _) => None,
        (Some(_), Some(source)) => Some(Program::Testlib(source.to_string())),
        (Some(_), None) => {
            return Err("an interactive problem (`interaction_format`), and the record has no `interactor` to run it with (open-r1's records ship none)".into())
        }
    };
    let files = match record.get("input_mode").and_then(Value::as_str) {
        None | Some("stdio") => None,
        Some("file") => Some(("input.txt".to_string(), "output.txt".to_string())),
        Some(other) => {
            return Err(format!(
                "its `input_mode` is `{other}`, and only `stdio` and `file` are known"
            ))
        }
    };
    let programs = Programs {
        checker: text("generated_checker").map(|s| Program::OpenR1(s.to_string())),
        interactor,
        files,
        testlib: None,
    };
    if record.get("official_tests_complete") == Some(&Value::Bool(false)) {
        return Err("its official tests are a part of Codeforces' (`official_tests_complete` false), and the rest is in the test_cases Parquet files, which are not read yet".into());
    }
    let tests = record
        .get("official_tests")
        .and_then(Value::as_array)
        .ok_or("`official_tests` is not a list")?
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let text = |key: &str| {
                t.get(key)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| format!("`official_tests`[{i}] has no `{key}` text"))
            };
            Ok(Test {
                input: text("input")?,
                output: text("output")?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let seconds = record
        .get("time_limit")
        .and_then(Value::as_f64)
        .filter(|s| *s > 0.0);
    let megabytes = record
        .get("memory_limit")
        .and_then(Value::as_f64)
        .filter(|m| *m > 0.0);
    with_tests(tests, |tests| Spec {
        tests,
        time: seconds.map_or(DEFAULT_TIME, Duration::from_secs_f64),
        memory_bytes: megabytes.map_or(DEFAULT_MEMORY, |m| (m * 1048576.0) as u64),
        compare: Compare::Tokens,
        function: None,
        programs,
    })
}
