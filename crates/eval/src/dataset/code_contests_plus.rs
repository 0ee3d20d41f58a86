//! ByteDance's CodeContests+ (`ByteDance-Seed/Code-Contests-Plus`): `id`, `test_cases`
//! (`[{input, output}]`), `time_limit` in milliseconds, `memory_limit` in MB, a testlib
//! `checker` in C++ that decides every output, and `correct_submissions` /
//! `incorrect_submissions` (`[{code, language}]`).

use std::time::Duration;

use serde_json::Value;

use super::{
    id_of, test_text, with_tests, Compare, DataProblem, Program, Programs, Reference, Spec, Test,
    DEFAULT_MEMORY,
};

/// Where a problem gives no time limit: Codeforces' most common one.
const DEFAULT_TIME: Duration = Duration::from_secs(2);

/// Its tests are `test_cases`; open-r1's records have `official_tests` instead.
pub(super) fn fits(record: &Value) -> bool {
    record.get("test_cases").is_some() && record.get("official_tests").is_none()
}

pub(super) fn problem(row: usize, record: &Value) -> DataProblem {
    DataProblem {
        id: id_of(record, &["id"], row),
        row,
        spec: spec(record),
        references: [
            ("correct_submissions", true),
            ("incorrect_submissions", false),
        ]
        .iter()
        .flat_map(|(field, correct)| references(record.get(*field), *correct))
        .collect(),
    }
}

fn spec(record: &Value) -> Result<Spec, String> {
    let tests = match record.get("test_cases") {
        Some(Value::Array(all)) => all
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let text = |key: &str| {
                    t.get(key)
                        .and_then(test_text)
                        .ok_or_else(|| format!("`test_cases`[{i}] has no `{key}` text"))
                };
                Ok(Test {
                    input: text("input")?,
                    output: text("output")?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?,
        None | Some(Value::Null) => Vec::new(),
        Some(_) => return Err("`test_cases` is not a list".into()),
    };
    let millis = record
        .get("time_limit")
        .and_then(Value::as_f64)
        .filter(|ms| *ms > 0.0);
    let megabytes = record
        .get("memory_limit")
        .and_then(Value::as_f64)
        .filter(|mb| *mb > 0.0);
    let checker = record
        .get("checker")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .map(|s| Program::Testlib(s.to_string()));
    with_tests(tests, |tests| Spec {
        tests,
        time: millis.map_or(DEFAULT_TIME, |ms| Duration::from_secs_f64(ms / 1000.0)),
        memory_bytes: megabytes.map_or(DEFAULT_MEMORY, |mb| (mb * 1048576.0) as u64),
        compare: Compare::Tokens,
        function: None,
        programs: Programs {
            checker,
            ..Programs::default()
        },
    })
}

/// The submissions of a `[{code, language}]` list.
fn references(value: Option<&Value>, correct: bool) -> Vec<Reference> {
    let Some(Value::Array(all)) = value else {
        return Vec::new();
    };
    all.iter()
        .filter_map(|s| {
            Some(Reference {
                language: language_of(s.get("language")),
                code: s.get("code")?.as_str()?.to_string(),
                correct,
            })
        })
        .collect()
}

/// A submission's language, by its name in any spelling the data set's sources use
/// (`cpp`, `C++17`, `python3`, `Python 3`, `java`...).
fn language_of(language: Option<&Value>) -> Result<String, String> {
    let Some(name) = language.and_then(Value::as_str) else {
        return Err("a submission without a `language`".into());
    };
    let plain: String = name
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if plain.starts_with("python2") || plain.starts_with("py2") {
        return Err("Python 2, which the judge does not run".into());
    }
    if plain.starts_with("python") || plain.starts_with("py3") || plain.starts_with("pypy3") {
        Ok("python".into())
    } else if plain.starts_with("cpp") || plain.starts_with("c++") || plain.starts_with("g++") {
        Ok("cpp".into())
    } else if plain.starts_with("java") && !plain.starts_with("javascript") {
        Ok("java".into())
    } else {
        Err(format!("language `{name}`, which the judge does not map"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_read_in_their_spellings() {
        let l = |s: &str| language_of(Some(&Value::String(s.into())));
        assert_eq!(l("cpp"), Ok("cpp".into()));
        assert_eq!(l("C++17"), Ok("cpp".into()));
        assert_eq!(l("Python 3"), Ok("python".into()));
        assert_eq!(l("python"), Ok("python".into()));
        assert_eq!(l("java"), Ok("java".into()));
        assert!(l("python2").is_err());
        assert!(l("javascript").is_err());
        assert!(language_of(None).is_err());
    }

    #[test]
    fn limits_are_milliseconds_and_megabytes_and_the_checker_decides() {
        let record = serde_json::json!({
            "id": "1A", "time_limit": 1500, "memory_limit": 64,
            "test_cases": [{"input": "1\n", "output": "2\n"}],
            "checker": "#include \"testlib.h\"\nint main() {}",
            "correct_submissions": [{"code": "x", "language": "cpp"}],
        });
        let p = problem(1, &record);
        let spec = p.spec.unwrap();
        assert_eq!(spec.time, Duration::from_millis(1500));
        assert_eq!(spec.memory_bytes, 64 << 20);
        assert!(matches!(spec.programs.checker, Some(Program::Testlib(_))));
        assert_eq!(p.references.len(), 1);
        assert!(p.references[0].correct);
    }
}
