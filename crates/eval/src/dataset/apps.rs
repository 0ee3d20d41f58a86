//! APPS (`codeparrot/apps`) and TACO (`BAAI/TACO`): `problem_id` (TACO: `name`), `input_output`
//! a JSON string of `{inputs, outputs, fn_name?}`, `solutions` a JSON string of right
//! solutions in Python, and TACO's `time_limit` and `memory_limit` as words ("2 seconds",
//! "256 megabytes").

use std::time::Duration;

use serde_json::Value;

use super::{
    id_of, json_field, test_text, with_tests, Compare, DataProblem, Programs, Reference, Spec,
    Test, DEFAULT_MEMORY,
};

/// APPS' own harness gives each test 4 seconds.
const DEFAULT_TIME: Duration = Duration::from_secs(4);

pub(super) fn fits(record: &Value) -> bool {
    record.get("input_output").is_some()
}

pub(super) fn problem(row: usize, record: &Value) -> DataProblem {
    let references = match json_field(record, "solutions") {
        Ok(Some(Value::Array(all))) => all
            .iter()
            .filter_map(Value::as_str)
            .map(|code| Reference {
                language: Ok("python".into()),
                code: code.to_string(),
                correct: true,
            })
            .collect(),
        _ => Vec::new(),
    };
    DataProblem {
        id: id_of(record, &["problem_id", "name", "id"], row),
        row,
        spec: spec(record),
        references,
    }
}

fn spec(record: &Value) -> Result<Spec, String> {
    let io = json_field(record, "input_output")?.ok_or("`input_output` is empty")?;
    if io.get("fn_name").is_some_and(|f| !f.is_null()) {
        return Err("a function problem (`fn_name`) of APPS gives no types for its arguments, which the judge needs: not judged yet".into());
    }
    let list = |key: &str| -> Result<Vec<String>, String> {
        let items = io
            .get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| format!("`input_output` has no `{key}` list"))?;
        items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                test_text(v)
                    .ok_or_else(|| format!("`{key}`[{i}] is neither text nor a list of lines"))
            })
            .collect()
    };
    let (inputs, outputs) = (list("inputs")?, list("outputs")?);
    if inputs.len() != outputs.len() {
        return Err(format!(
            "`input_output` has {} inputs and {} outputs",
            inputs.len(),
            outputs.len()
        ));
    }
    let tests = inputs
        .into_iter()
        .zip(outputs)
        .map(|(input, output)| Test { input, output })
        .collect();
    let time = words(
        record,
        "time_limit",
        &[
            ("second", 1.0),
            ("sec", 1.0),
            ("s", 1.0),
            ("millisecond", 1e-3),
            ("ms", 1e-3),
        ],
    );
    let memory = words(
        record,
        "memory_limit",
        &[
            ("megabyte", 1048576.0),
            ("mb", 1048576.0),
            ("kilobyte", 1024.0),
            ("kb", 1024.0),
        ],
    );
    with_tests(tests, |tests| Spec {
        tests,
        time: time.map(Duration::from_secs_f64).unwrap_or(DEFAULT_TIME),
        memory_bytes: memory.map(|b| b as u64).unwrap_or(DEFAULT_MEMORY),
        compare: Compare::Tokens,
        function: None,
        programs: Programs::default(),
    })
}

/// A limit written in words ("2 seconds", "256 megabytes"), in the base unit; `None` when
/// absent or not read (the default then applies).
fn words(record: &Value, field: &str, units: &[(&str, f64)]) -> Option<f64> {
    let text = record.get(field)?.as_str()?.trim().to_ascii_lowercase();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let unit = unit.trim();
    let scale = units.iter().find(|(u, _)| unit.starts_with(u))?.1;
    (number > 0.0).then_some(number * scale)
}
