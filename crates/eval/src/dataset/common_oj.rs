//! SandboxFusion's own records of stdin/stdout problems (its `CommonOJDataset`, in which it
//! keeps `code_contests`): `id` and `test`, a list (or the JSON text of one) of
//! `{"input": {"stdin": ..}, "output": {"stdout": ..}}`. Read for its `/submit`, where a client
//! sends such a record as `provided_data`.

use serde_json::Value;

use super::{
    id_of, json_field, with_tests, Compare, DataProblem, Programs, Spec, Test, DEFAULT_MEMORY,
};

/// The time limit where the record gives none: SandboxFusion's default `run_timeout` for a
/// compiled language's test.
const DEFAULT_TIME: std::time::Duration = std::time::Duration::from_secs(10);

pub(super) fn fits(record: &Value) -> bool {
    let first = match json_field(record, "test") {
        Ok(Some(Value::Array(tests))) => tests.into_iter().next(),
        _ => None,
    };
    first.is_some_and(|t| t.pointer("/input/stdin").is_some())
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
    let tests = match json_field(record, "test")? {
        Some(Value::Array(tests)) => tests,
        _ => return Err("`test` is not a list of tests".into()),
    };
    let tests = tests
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let text = |pointer: &str| t.pointer(pointer).and_then(Value::as_str);
            match (text("/input/stdin"), text("/output/stdout")) {
                (Some(input), Some(output)) => Ok(Test {
                    input: input.to_string(),
                    output: output.to_string(),
                }),
                _ => Err(format!(
                    "test {} has no `input.stdin` or no `output.stdout` text",
                    i + 1
                )),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    with_tests(tests, |tests| Spec {
        tests,
        time: DEFAULT_TIME,
        memory_bytes: DEFAULT_MEMORY,
        // SandboxFusion's own rule for these: stripped lines, letters in any case, numbers
        // within 1e-5; the judge's tokens with the same tolerance and case rule.
        compare: Compare::Float {
            absolute: 1e-5,
            any_case: true,
        },
        function: None,
        programs: Programs::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_of_stdio_tests_is_read_and_its_text_form_too() {
        let record = serde_json::json!({"id": 7, "test": [
            {"input": {"stdin": "1 2\n"}, "output": {"stdout": "3\n"}}
        ]});
        assert!(fits(&record));
        let p = problem(1, &record);
        assert_eq!(p.id, "7");
        assert_eq!(p.spec.unwrap().tests[0].output, "3\n");

        let text = serde_json::json!({"id": "a", "test": "[{\"input\": {\"stdin\": \"\"}, \"output\": {\"stdout\": \"x\"}}]"});
        assert!(fits(&text));
        assert_eq!(problem(1, &text).spec.unwrap().tests.len(), 1);
    }

    #[test]
    fn a_test_without_its_texts_and_no_tests_are_the_problems_errors() {
        let broken =
            serde_json::json!({"id": 1, "test": [{"input": {"stdin": "1"}, "output": {}}]});
        assert!(problem(1, &broken).spec.unwrap_err().contains("test 1"));
        let empty = serde_json::json!({"id": 1, "test": []});
        assert!(!fits(&empty));
        assert!(problem(1, &empty).spec.unwrap_err().contains("no tests"));
    }
}
