//! open-r1's `codeforces`: `id` ("1234/A"), `official_tests` (`[{input, output}]`) with
//! `official_tests_complete`, `time_limit` in seconds, `memory_limit` in MB, `input_mode`,
//! `interaction_format`, `generated_checker`, and `generated_tests`, the count of its tests in
//! the `test_cases` files (`--tests`), judged after the official ones. The generated checker
//! decides where there is one (open-r1's harness calls it `checker.py INPUT ANSWER OUTPUT`, and
//! a right output makes it print `1`); `input_mode: file` reads `input.txt` and writes
//! `output.txt`; an interactive problem runs with its `interactor` (testlib) where the record
//! has one, and is an error where it has none (open-r1's own records ship none). A problem
//! whose official tests are a part of Codeforces', with no generated tests given, is an error,
//! never a problem judged on a part of its tests.

use std::time::Duration;

use serde_json::Value;

use super::{
    id_of, with_tests, ByProblem, Compare, DataProblem, Program, Programs, Spec, Test,
    DEFAULT_MEMORY,
};

/// Codeforces' most common limit, where a problem gives none.
const DEFAULT_TIME: Duration = Duration::from_secs(2);

pub(super) fn fits(record: &Value) -> bool {
    record.get("official_tests").is_some()
}

/// The problem of `record`; `generated`: the tests of `--tests`' files, when given.
pub(super) fn problem(row: usize, record: &Value, generated: Option<&ByProblem>) -> DataProblem {
    let id = id_of(record, &["id"], row);
    let generated = generated.map(|g| g.get(&id).map_or(&[][..], Vec::as_slice));
    DataProblem {
        spec: spec(record, generated),
        id,
        row,
        references: Vec::new(),
    }
}

fn spec(record: &Value, generated: Option<&[Test]>) -> Result<Spec, String> {
    let programs = programs(record)?;
    let incomplete = record.get("official_tests_complete") == Some(&Value::Bool(false));
    if let Some(generated) = generated {
        counted(record, generated.len())?;
    }
    if incomplete && generated.is_none_or(<[Test]>::is_empty) {
        return Err(format!("its official tests are a part of Codeforces' (`official_tests_complete` false), and the rest is in the test_cases Parquet files: {}", match generated {
            None => "give them with --tests",
            Some(_) => "the files --tests gives hold none of its tests",
        }));
    }
    let mut tests = record
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
    tests.extend(generated.unwrap_or_default().iter().cloned());
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

/// The record's own programs: its generated checker, its interactor, its named files.
fn programs(record: &Value) -> Result<Programs, String> {
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
    Ok(Programs {
        checker: text("generated_checker").map(|s| Program::OpenR1(s.to_string())),
        interactor,
        files,
        testlib: None,
    })
}

/// The generated tests found are as many as the data set counts (`generated_tests`): a problem
/// judged on a part of them would look judged on all.
fn counted(record: &Value, found: usize) -> Result<(), String> {
    match record.get("generated_tests").and_then(Value::as_u64) {
        Some(count) if count != found as u64 => Err(format!(
            "the data set counts {count} generated tests (`generated_tests`), and the files --tests gives hold {found} of them"
        )),
        _ => Ok(()),
    }
}
