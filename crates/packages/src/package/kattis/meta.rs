//! `problem.yaml`: the format version, the problem's type, its limits and time rule, read
//! with what the judge leaves aside said as warnings.

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use super::super::{seconds, Format};
use super::constants::Constants;
use super::dir_name;
use judge_core::error::{Error, Location, Result};
use judge_core::stats::TimeLimitRule;

/// problemtools' defaults for what a package leaves out.
const DEFAULT_MEMORY_MIB: u64 = 1024;
const DEFAULT_OUTPUT_MIB: u64 = 8;
const DEFAULT_VALIDATION_TIME: Duration = Duration::from_secs(60);
const DEFAULT_VALIDATION_MEMORY_MIB: u64 = 1024;
const DEFAULT_VALIDATION_OUTPUT_MIB: u64 = 8;

/// problem.yaml's keys the judge reads or knowingly leaves aside, by format.
const KNOWN_LEGACY: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "author",
    "source",
    "source_url",
    "license",
    "rights_owner",
    "limits",
    "validation",
    "validator_flags",
    "grading",
    "keywords",
    "languages",
];
const KNOWN_2023: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "version",
    "credits",
    "source",
    "license",
    "rights_owner",
    "embargo_until",
    "limits",
    "keywords",
    "languages",
    "allow_file_writing",
    "allow_writing_files",
    "constants",
];

/// What problem.yaml says, as the judge uses it.
pub(super) struct Meta {
    pub(super) format: Format,
    pub(super) title: Option<String>,
    pub(super) scoring: bool,
    pub(super) interactive: bool,
    /// `type: multi-pass`: at most this many passes (`limits.validation_passes`, 2 by default).
    pub(super) passes: Option<u32>,
    pub(super) time: TimeLimitRule,
    pub(super) memory_mib: u64,
    pub(super) output_mib: u64,
    pub(super) code_kib: Option<u64>,
    pub(super) compilation_time: Option<Duration>,
    pub(super) compilation_memory_mib: Option<u64>,
    pub(super) validation_time: Duration,
    pub(super) validation_memory_mib: u64,
    pub(super) validation_output_mib: u64,
    /// Legacy `validation:` (`default`, `custom`, `custom score`, ...).
    pub(super) validation: String,
    /// Legacy `validator_flags:`, for the default validator or a custom one.
    pub(super) validator_flags: String,
    /// `languages`, as written (the format's codes); `None`: all.
    pub(super) languages: Option<Vec<String>>,
    /// Whether a submission may write in its working folder (`allow_file_writing`).
    pub(super) file_writing: bool,
    /// `constants`: each `{{name}}` in the files the format names is replaced by its value.
    pub(super) constants: Constants,
}

/// Reads `dir/problem.yaml`.
pub(super) fn read(dir: &Path, warnings: &mut Vec<String>) -> Result<Meta> {
    let yaml = dir.join("problem.yaml");
    let text = match std::fs::read_to_string(&yaml) {
        Ok(t) => t,
        // A DOMjudge archive may hold only domjudge-problem.ini: the defaults, then.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Error::read(&yaml, e)),
    };
    // The file and the line of the key, then the key: `relay/problem.yaml:7: type: ...`.
    let bad = |key: &str, message: String, fix: &str| {
        let line = line_of_key(&text, key.rsplit('.').next().unwrap_or(key));
        Error::Config {
            at: match line {
                Some(line) => {
                    Location::file(format!("{}/problem.yaml", dir_name(dir))).with_line(line)
                }
                None => Location::file(format!("{}/problem.yaml", dir_name(dir))).with_key(key),
            },
            message: match line {
                Some(_) => format!("{key}: {message}"),
                None => message,
            },
            fix: fix.to_string(),
        }
    };
    let meta = parse_yaml(&text).map_err(|e| Error::Config {
        at: Location::file(format!("{}/problem.yaml", dir_name(dir))).with_line(e.line),
        message: e.message,
        fix: "correct the YAML".into(),
    })?;
    let meta = match meta {
        Value::Object(m) => m,
        Value::Null => Map::new(),
        _ => {
            return Err(bad(
                "the file",
                "problem.yaml is not a map of keys".into(),
                "write `name: ...` and the other keys, one per line",
            ))
        }
    };
    let format = format_version(&meta, &bad)?;
    let known = if format == Format::KattisLegacy {
        KNOWN_LEGACY
    } else {
        KNOWN_2023
    };
    for key in meta.keys().filter(|k| !known.contains(&k.as_str())) {
        warnings.push(format!("problem.yaml: unknown key `{key}` (ignored)"));
    }
    let kind = Kind::read(meta.get("type"), &meta, &bad)?;
    let limits = Limits::read(&limits_map(&meta, &bad)?, format, &bad, warnings)?;
    let passes = passes(&kind, &limits, &bad)?;
    let languages = languages(&meta, &bad)?;
    let file_writing = file_writing(&meta, format, &bad)?;
    let constants = Constants::read(meta.get("constants"), &bad)?;
    Ok(Meta {
        format,
        title: title(meta.get("name")),
        scoring: kind.scoring,
        interactive: kind.interactive,
        passes,
        time: limits.time,
        memory_mib: limits.memory_mib,
        output_mib: limits.output_mib,
        code_kib: limits.code_kib,
        compilation_time: limits.compilation_time,
        compilation_memory_mib: limits.compilation_memory_mib,
        validation_time: limits.validation_time,
        validation_memory_mib: limits.validation_memory_mib,
        validation_output_mib: limits.validation_output_mib,
        validation: meta.get("validation").map(as_text).unwrap_or_default(),
        validator_flags: meta.get("validator_flags").map(as_text).unwrap_or_default(),
        languages,
        file_writing,
        constants,
    })
}

/// `problem_format_version`: legacy when left out.
fn format_version(meta: &Map<String, Value>, bad: &Bad<'_>) -> Result<Format> {
    match meta.get("problem_format_version").map(as_text) {
        None => Ok(Format::KattisLegacy),
        Some(v) if v == "legacy" || v == "legacy-icpc" => Ok(Format::KattisLegacy),
        Some(v) if v == "2023-07-draft" || v == "2023-07" => Ok(Format::Kattis2023),
        Some(v) if v == "2025-09" || v == "2025-09-draft" => Ok(Format::Kattis2025),
        Some(v) => Err(bad(
            "problem_format_version",
            format!("`{v}` is not a version of the format the judge reads"),
            "write legacy, 2023-07-draft or 2025-09",
        )),
    }
}

/// `limits`, a map (empty when left out).
fn limits_map(meta: &Map<String, Value>, bad: &Bad<'_>) -> Result<Map<String, Value>> {
    match meta.get("limits") {
        Some(Value::Object(l)) => Ok(l.clone()),
        None | Some(Value::Null) => Ok(Map::new()),
        Some(_) => Err(bad(
            "limits",
            "`limits` is not a map".into(),
            "write limits:\\n  memory: 512",
        )),
    }
}

/// A multi-pass problem's most passes (2 by default); a limit of passes for any other is a
/// mistake.
fn passes(kind: &Kind, limits: &Limits, bad: &Bad<'_>) -> Result<Option<u32>> {
    match (kind.multi_pass, limits.validation_passes) {
        (true, passes) => Ok(Some(passes.unwrap_or(2))),
        (false, Some(_)) => Err(bad(
            "limits.validation_passes",
            "`validation_passes` is for multi-pass problems, and this one's type is not multi-pass"
                .into(),
            "remove it, or add multi-pass to `type`",
        )),
        (false, None) => Ok(None),
    }
}

/// `languages`: `None` for all of them.
fn languages(meta: &Map<String, Value>, bad: &Bad<'_>) -> Result<Option<Vec<String>>> {
    match meta.get("languages") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            let list = words(v);
            if list.is_empty() {
                return Err(bad(
                    "languages",
                    "an empty list of languages".into(),
                    "write `all`, or the languages' codes (cpp, python3, ...)",
                ));
            }
            Ok((list != ["all"]).then_some(list))
        }
    }
}

/// `allow_file_writing` (or `allow_writing_files`).
fn file_writing(meta: &Map<String, Value>, format: Format, bad: &Bad<'_>) -> Result<bool> {
    // The spec's default is false; problemtools', which reads 2023-07 and legacy packages,
    // is true (and legacy packages have no such key).
    let writing = meta
        .get("allow_file_writing")
        .or_else(|| meta.get("allow_writing_files"));
    match writing {
        Some(Value::Bool(b)) => Ok(*b),
        None | Some(Value::Null) => Ok(format != Format::Kattis2025),
        Some(v) => Err(bad(
            "allow_file_writing",
            format!("`{}` is not true or false", as_text(v)),
            "write true or false",
        )),
    }
}

/// The line of `key:` in `text`, where it starts a line (at any indent).
fn line_of_key(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map(|i| i + 1)
}

pub(super) type Bad<'a> = dyn Fn(&str, String, &str) -> Error + 'a;

/// `type`: what kind of problem, from a string or a list of the format's types.
struct Kind {
    scoring: bool,
    interactive: bool,
    multi_pass: bool,
}

impl Kind {
    fn read(value: Option<&Value>, meta: &Map<String, Value>, bad: &Bad<'_>) -> Result<Kind> {
        let types: Vec<String> = match value {
            None | Some(Value::Null) => vec!["pass-fail".into()],
            Some(Value::Array(list)) => list.iter().map(as_text).collect(),
            Some(v) => as_text(v).split_whitespace().map(str::to_string).collect(),
        };
        const TYPES: [&str; 5] = [
            "pass-fail",
            "scoring",
            "interactive",
            "multi-pass",
            "submit-answer",
        ];
        for (i, t) in types.iter().enumerate() {
            if !TYPES.contains(&t.as_str()) {
                return Err(bad(
                    "type",
                    format!("`{t}` is not a problem type"),
                    "write pass-fail, scoring, interactive, multi-pass or submit-answer",
                ));
            }
            if types[..i].contains(t) {
                return Err(bad(
                    "type",
                    format!("`{t}` is listed twice"),
                    "list it once",
                ));
            }
        }
        let has = |t: &str| types.iter().any(|x| x == t);
        for (a, b) in [
            ("pass-fail", "scoring"),
            ("multi-pass", "submit-answer"),
            ("interactive", "submit-answer"),
        ] {
            if has(a) && has(b) {
                return Err(bad(
                    "type",
                    format!("`{a}` and `{b}` cannot go together"),
                    "keep one of them",
                ));
            }
        }
        // Never judged as something else: a submission's answers are not a program.
        if has("submit-answer") {
            return Err(bad(
                "type",
                "submit-answer problems are not judged here: their submissions are answers, not programs, and the judge runs programs".into(),
                "judge the problem on a system that takes answer files (Kattis, DOMjudge)",
            ));
        }
        let validation = meta.get("validation").map(as_text).unwrap_or_default();
        Ok(Kind {
            scoring: has("scoring") || validation.contains("score"),
            interactive: has("interactive") || validation.contains("interactive"),
            multi_pass: has("multi-pass"),
        })
    }
}

/// `limits`, with the defaults of the format's tools for what it leaves out.
struct Limits {
    time: TimeLimitRule,
    memory_mib: u64,
    output_mib: u64,
    code_kib: Option<u64>,
    compilation_time: Option<Duration>,
    compilation_memory_mib: Option<u64>,
    validation_time: Duration,
    validation_memory_mib: u64,
    validation_output_mib: u64,
    validation_passes: Option<u32>,
}

impl Limits {
    fn read(
        limits: &Map<String, Value>,
        format: Format,
        bad: &Bad<'_>,
        warnings: &mut Vec<String>,
    ) -> Result<Limits> {
        for key in limits.keys() {
            if !KNOWN_LIMITS.contains(&key.as_str()) {
                warnings.push(format!(
                    "problem.yaml: unknown key `limits.{key}` (ignored)"
                ));
            }
        }
        let number = |key: &str| -> Result<Option<f64>> {
            match limits.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => as_number(v).filter(|x| *x > 0.0).map(Some).ok_or_else(|| {
                    bad(
                        &format!("limits.{key}"),
                        format!("`{}` is not a positive number", as_text(v)),
                        "write a number",
                    )
                }),
            }
        };
        // Sizes and counts: whole numbers (the format says int).
        let whole = |key: &str| -> Result<Option<u64>> {
            match number(key)? {
                Some(x) if x.fract() != 0.0 => Err(bad(
                    &format!("limits.{key}"),
                    format!("`{x}` is not a whole number"),
                    "write a whole number",
                )),
                x => Ok(x.map(|x| x as u64)),
            }
        };
        let time = if format == Format::KattisLegacy {
            TimeLimitRule {
                fixed: number("time_limit")?.map(seconds),
                ac_to_limit: number("time_multiplier")?.unwrap_or(5.0),
                limit_to_tle: number("time_safety_margin")?.unwrap_or(2.0),
                resolution: number("time_resolution")?.map_or(Duration::from_secs(1), seconds),
            }
        } else {
            let multipliers = match limits.get("time_multipliers") {
                Some(Value::Object(m)) => m.clone(),
                None | Some(Value::Null) => Map::new(),
                Some(_) => {
                    return Err(bad(
                        "limits.time_multipliers",
                        "`time_multipliers` is not a map".into(),
                        "write time_multipliers:\\n    ac_to_time_limit: 2.0",
                    ))
                }
            };
            let m = |key: &str, default: f64| -> Result<f64> {
                match multipliers.get(key) {
                    None | Some(Value::Null) => Ok(default),
                    Some(v) => as_number(v).filter(|x| *x >= 1.0).ok_or_else(|| {
                        bad(
                            &format!("limits.time_multipliers.{key}"),
                            format!("`{}` is not a number of at least 1", as_text(v)),
                            "write a number such as 2.0",
                        )
                    }),
                }
            };
            TimeLimitRule {
                fixed: number("time_limit")?.map(seconds),
                ac_to_limit: m("ac_to_time_limit", 2.0)?,
                limit_to_tle: m("time_limit_to_tle", 1.5)?,
                resolution: number("time_resolution")?.map_or(Duration::from_secs(1), seconds),
            }
        };
        let passes = whole("validation_passes")?;
        if passes.is_some_and(|p| p < 2) {
            return Err(bad(
                "limits.validation_passes",
                "`validation_passes` must be at least 2".into(),
                "write 2 or more, or leave it out (2)",
            ));
        }
        Ok(Limits {
            time,
            memory_mib: whole("memory")?.unwrap_or(DEFAULT_MEMORY_MIB),
            output_mib: whole("output")?.unwrap_or(DEFAULT_OUTPUT_MIB),
            code_kib: whole("code")?,
            compilation_time: whole("compilation_time")?.map(Duration::from_secs),
            compilation_memory_mib: whole("compilation_memory")?,
            validation_time: number("validation_time")?.map_or(DEFAULT_VALIDATION_TIME, seconds),
            validation_memory_mib: whole("validation_memory")?
                .unwrap_or(DEFAULT_VALIDATION_MEMORY_MIB),
            validation_output_mib: whole("validation_output")?
                .unwrap_or(DEFAULT_VALIDATION_OUTPUT_MIB),
            validation_passes: passes.map(|p| p as u32),
        })
    }
}

/// The limits the judge reads.
const KNOWN_LIMITS: &[&str] = &[
    "time_multiplier",
    "time_safety_margin",
    "time_multipliers",
    "time_limit",
    "time_resolution",
    "memory",
    "output",
    "code",
    "compilation_time",
    "compilation_memory",
    "validation_time",
    "validation_memory",
    "validation_output",
    "validation_passes",
];

/// The problem's name: a string, or the English (else the first) of a map of languages.
fn title(name: Option<&Value>) -> Option<String> {
    match name? {
        Value::Object(m) => m.get("en").or_else(|| m.values().next()).map(as_text),
        v => Some(as_text(v)),
    }
}

pub(super) fn parse_yaml(text: &str) -> std::result::Result<Value, crate::yaml::YamlError> {
    crate::yaml::value(text)
}

pub(super) fn as_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

pub(super) fn as_number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

pub(super) fn words(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a.iter().map(as_text).collect(),
        v => as_text(v).split_whitespace().map(str::to_string).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bad(key: &str, message: String, fix: &str) -> Error {
        Error::Config {
            at: Location::file("problem.yaml").with_key(key),
            message,
            fix: fix.into(),
        }
    }

    fn map(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(m) => m,
            _ => panic!("a map"),
        }
    }

    #[test]
    fn the_format_version_is_legacy_unless_said() {
        let version = |v: Value| format_version(&map(v), &bad).map_err(|e| e.to_string());
        assert_eq!(version(json!({})), Ok(Format::KattisLegacy));
        assert_eq!(
            version(json!({"problem_format_version": "2023-07-draft"})),
            Ok(Format::Kattis2023)
        );
        assert_eq!(
            version(json!({"problem_format_version": "2025-09"})),
            Ok(Format::Kattis2025)
        );
        let wrong = version(json!({"problem_format_version": "1.0"})).unwrap_err();
        assert!(wrong.contains("`1.0` is not a version"), "{wrong}");
    }

    #[test]
    fn languages_are_all_unless_listed_and_never_none() {
        let languages = |v: Value| languages(&map(v), &bad).map_err(|e| e.to_string());
        assert_eq!(languages(json!({})), Ok(None));
        assert_eq!(languages(json!({"languages": "all"})), Ok(None));
        assert_eq!(
            languages(json!({"languages": ["cpp", "python3"]})),
            Ok(Some(vec!["cpp".to_string(), "python3".to_string()]))
        );
        let empty = languages(json!({"languages": []})).unwrap_err();
        assert!(empty.contains("an empty list of languages"), "{empty}");
    }

    #[test]
    fn file_writing_defaults_by_format() {
        let writing =
            |v: Value, f: Format| file_writing(&map(v), f, &bad).map_err(|e| e.to_string());
        assert_eq!(writing(json!({}), Format::Kattis2023), Ok(true));
        assert_eq!(writing(json!({}), Format::Kattis2025), Ok(false));
        assert_eq!(
            writing(json!({"allow_writing_files": false}), Format::Kattis2023),
            Ok(false)
        );
        let wrong = writing(json!({"allow_file_writing": "yes"}), Format::Kattis2025).unwrap_err();
        assert!(wrong.contains("is not true or false"), "{wrong}");
    }
}
