//! DeepMind's `code_contests`: `name`, `public_tests`, `private_tests` and `generated_tests`
//! (each `{input: [..], output: [..]}`), `time_limit {seconds, nanos}`, `memory_limit_bytes`,
//! and `solutions` / `incorrect_solutions` (`{language: [codes], solution: [sources]}`).

use std::time::Duration;

use serde_json::Value;

use super::{
    id_of, with_tests, Compare, DataProblem, Programs, Reference, Spec, Test, DEFAULT_MEMORY,
};

const TEST_FIELDS: [&str; 3] = ["public_tests", "private_tests", "generated_tests"];

/// Where a problem gives no time limit (0 or none): Codeforces' most common one.
const DEFAULT_TIME: Duration = Duration::from_secs(2);

pub(super) fn fits(record: &Value) -> bool {
    TEST_FIELDS.iter().any(|f| record.get(f).is_some())
}

pub(super) fn problem(row: usize, record: &Value) -> DataProblem {
    DataProblem {
        id: id_of(record, &["name"], row),
        row,
        spec: spec(record),
        references: [("solutions", true), ("incorrect_solutions", false)]
            .iter()
            .flat_map(|(field, correct)| references(record.get(*field), *correct))
            .collect(),
    }
}

fn spec(record: &Value) -> Result<Spec, String> {
    let mut tests = Vec::new();
    for field in TEST_FIELDS {
        tests.extend(tests_of(record, field)?);
    }
    let seconds = record
        .pointer("/time_limit/seconds")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let nanos = record
        .pointer("/time_limit/nanos")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let time = Duration::from_secs(seconds) + Duration::from_nanos(nanos);
    let memory = record
        .get("memory_limit_bytes")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    with_tests(tests, |tests| Spec {
        tests,
        time: if time.is_zero() { DEFAULT_TIME } else { time },
        memory_bytes: if memory == 0 { DEFAULT_MEMORY } else { memory },
        compare: Compare::Float {
            absolute: 1e-5,
            any_case: true,
        },
        function: None,
        programs: Programs::default(),
    })
}

/// The tests of one of the three lists: inputs and outputs paired, as many of each.
fn tests_of(record: &Value, field: &str) -> Result<Vec<Test>, String> {
    let Some(list) = record.get(field).filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let strings = |key: &str| -> Result<Vec<String>, String> {
        match list.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|i| i.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| format!("`{field}.{key}` holds something that is not a string")),
            Some(_) => Err(format!("`{field}.{key}` is not a list")),
        }
    };
    let (inputs, outputs) = (strings("input")?, strings("output")?);
    if inputs.len() != outputs.len() {
        return Err(format!(
            "`{field}` has {} inputs and {} outputs",
            inputs.len(),
            outputs.len()
        ));
    }
    Ok(inputs
        .into_iter()
        .zip(outputs)
        .map(|(input, output)| Test { input, output })
        .collect())
}

/// The solutions of `{language: [..], solution: [..]}`, by code_contests' language codes.
fn references(value: Option<&Value>, correct: bool) -> Vec<Reference> {
    let (Some(languages), Some(sources)) = (
        value
            .and_then(|v| v.get("language"))
            .and_then(Value::as_array),
        value
            .and_then(|v| v.get("solution"))
            .and_then(Value::as_array),
    ) else {
        return Vec::new();
    };
    languages
        .iter()
        .zip(sources)
        .filter_map(|(language, source)| {
            Some(Reference {
                language: language_of(language),
                code: source.as_str()?.to_string(),
                correct,
            })
        })
        .collect()
}

/// code_contests' language codes (0 UNKNOWN, 1 PYTHON, 2 CPP, 3 PYTHON3, 4 JAVA), as numbers
/// or as their names.
fn language_of(code: &Value) -> Result<String, String> {
    let name = match code {
        Value::Number(n) => match n.as_u64() {
            Some(2) => "CPP",
            Some(3) => "PYTHON3",
            Some(4) => "JAVA",
            Some(1) => "PYTHON",
            _ => "UNKNOWN",
        },
        Value::String(s) => s.as_str(),
        _ => "UNKNOWN",
    };
    match name {
        "CPP" => Ok("cpp".into()),
        "PYTHON3" => Ok("python".into()),
        "JAVA" => Ok("java".into()),
        "PYTHON" => Err("Python 2, which the judge does not run".into()),
        other => Err(format!(
            "language `{other}`, which the data set does not name"
        )),
    }
}
