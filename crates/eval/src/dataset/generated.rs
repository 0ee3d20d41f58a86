//! open-r1's generated tests (`--tests`): the rows of its `test_cases` files, `problem_id`,
//! `input`, `output` and `test_case_i`, gathered by problem and put in `test_case_i`'s order
//! (the files' order where it is missing). A file with other columns is refused by name: a
//! file of something else read as tests would judge every sample on nothing.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::{dataset_error, ByProblem, Test};
use crate::Error;

/// The columns a tests file must have; `test_case_i` may be missing.
const NEEDED: [&str; 3] = ["problem_id", "input", "output"];

/// The tests of one file's rows, added to `into` (with each one's place, sorted by `sorted`).
pub(super) fn add(
    path: &Path,
    rows: &[(usize, Value)],
    into: &mut BTreeMap<String, Vec<(i64, Test)>>,
) -> Result<(), Error> {
    for (row, record) in rows {
        let text = |key: &str| record.get(key).and_then(Value::as_str);
        let (Some(input), Some(output)) = (text("input"), text("output")) else {
            return Err(not_tests(path, *row, record));
        };
        let id = match record.get("problem_id") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => return Err(not_tests(path, *row, record)),
        };
        let tests = into.entry(id).or_default();
        let place = record
            .get("test_case_i")
            .and_then(Value::as_i64)
            .unwrap_or(tests.len() as i64);
        tests.push((
            place,
            Test {
                input: input.to_string(),
                output: output.to_string(),
            },
        ));
    }
    Ok(())
}

/// The tests gathered, each problem's in `test_case_i`'s order (a stable sort: equal places
/// keep the files' order).
pub(super) fn sorted(gathered: BTreeMap<String, Vec<(i64, Test)>>) -> ByProblem {
    gathered
        .into_iter()
        .map(|(id, mut tests)| {
            tests.sort_by_key(|(place, _)| *place);
            (id, tests.into_iter().map(|(_, t)| t).collect())
        })
        .collect()
}

fn not_tests(path: &Path, row: usize, record: &Value) -> Error {
    let columns = match record.as_object() {
        Some(o) => o.keys().map(String::as_str).collect::<Vec<_>>().join(", "),
        None => "none (it is not a record)".into(),
    };
    dataset_error(
        path,
        None,
        format!(
            "row {row} is not a generated test: each needs the text columns {} (and may have test_case_i); this one has {columns}",
            NEEDED.join(", ")
        ),
        "give --tests open-r1's test_cases files (generated_tests/test_cases_*.parquet), or their folder",
    )
}
