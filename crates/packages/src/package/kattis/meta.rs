//! `problem.yaml`: the format version, the problem's type, its limits and time rule, read
//! with what the judge leaves aside said as warnings.

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use super::super::{seconds, Format};
use super::dir_name;
use judge_core::error::{Error, Result};
use judge_core::stats::TimeLimitRule;

/// problemtools' defaults for what a package leaves out.
const DEFAULT_MEMORY_MIB: u64 = 1024;
const DEFAULT_OUTPUT_MIB: u64 = 8;
const DEFAULT_VALIDATION_TIME: Duration = Duration::from_secs(60);
const DEFAULT_VALIDATION_MEMORY_MIB: u64 = 1024;

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
    pub(super) time: TimeLimitRule,
    pub(super) memory_mib: u64,
    pub(super) output_mib: u64,
    pub(super) validation_time: Duration,
    pub(super) validation_memory_mib: u64,
    /// Legacy `validation:` (`default`, `custom`, `custom score`, ...).
    pub(super) validation: String,
    /// Legacy `validator_flags:`, for the default validator or a custom one.
    pub(super) validator_flags: String,
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
    let shown = |key: &str| format!("{}/problem.yaml ({key})", dir_name(dir));
    let bad = |key: &str, message: String, fix: &str| Error::Config {
        path: shown(key),
        line: None,
        message,
        fix: fix.to_string(),
    };
    let meta = parse_yaml(&text).map_err(|e| Error::Config {
        path: format!("{}/problem.yaml", dir_name(dir)),
        line: e.line,
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
    let format = match meta.get("problem_format_version").map(as_text) {
        None => Format::KattisLegacy,
        Some(v) if v == "legacy" => Format::KattisLegacy,
        Some(v) if v == "2023-07-draft" || v == "2023-07" => Format::Kattis2023,
        Some(v) if v == "2025-09" => Format::Kattis2025,
        Some(v) => {
            return Err(bad(
                "problem_format_version",
                format!("`{v}` is not a version of the format the judge reads"),
                "write legacy, 2023-07-draft or 2025-09",
            ))
        }
    };
    let known = if format == Format::KattisLegacy {
        KNOWN_LEGACY
    } else {
        KNOWN_2023
    };
    for key in meta.keys().filter(|k| !known.contains(&k.as_str())) {
        warnings.push(format!("problem.yaml: unknown key `{key}` (ignored)"));
    }

    // What kind of problem: pass-fail or scoring, interactive or not.
    let types: Vec<String> = match meta.get("type") {
        None => vec!["pass-fail".into()],
        Some(Value::Array(list)) => list.iter().map(as_text).collect(),
        Some(v) => as_text(v).split_whitespace().map(str::to_string).collect(),
    };
    let validation = meta.get("validation").map(as_text).unwrap_or_default();
    let scoring = types.iter().any(|t| t == "scoring") || validation.contains("score");
    let interactive =
        types.iter().any(|t| t == "interactive") || validation.contains("interactive");
    for t in &types {
        if ![
            "pass-fail",
            "scoring",
            "interactive",
            "multi-pass",
            "submit-answer",
        ]
        .contains(&t.as_str())
        {
            return Err(bad(
                "type",
                format!("`{t}` is not a problem type"),
                "write pass-fail, scoring or interactive",
            ));
        }
        if ["multi-pass", "submit-answer"].contains(&t.as_str()) {
            warnings.push(format!(
                "type `{t}` is not supported: its submissions are judged as pass-fail"
            ));
        }
    }
    // Limits.
    let limits = match meta.get("limits") {
        Some(Value::Object(l)) => l.clone(),
        None | Some(Value::Null) => Map::new(),
        Some(_) => {
            return Err(bad(
                "limits",
                "`limits` is not a map".into(),
                "write limits:\\n  memory: 512",
            ))
        }
    };
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
            _ => Map::new(),
        };
        let m =
            |key: &str, default: f64| multipliers.get(key).and_then(as_number).unwrap_or(default);
        TimeLimitRule {
            fixed: number("time_limit")?.map(seconds),
            ac_to_limit: m("ac_to_time_limit", 2.0),
            limit_to_tle: m("time_limit_to_tle", 1.5),
            resolution: number("time_resolution")?.map_or(Duration::from_secs(1), seconds),
        }
    };
    let memory_mib = number("memory")?.map_or(DEFAULT_MEMORY_MIB, |m| m as u64);
    let output_mib = number("output")?.map_or(DEFAULT_OUTPUT_MIB, |m| m as u64);
    let validation_time = number("validation_time")?.map_or(DEFAULT_VALIDATION_TIME, seconds);
    let validation_memory =
        number("validation_memory")?.map_or(DEFAULT_VALIDATION_MEMORY_MIB, |m| m as u64);
    for key in limits.keys() {
        let known_limits = [
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
        if !known_limits.contains(&key.as_str()) {
            warnings.push(format!(
                "problem.yaml: unknown key `limits.{key}` (ignored)"
            ));
        }
    }

    Ok(Meta {
        format,
        title: title(meta.get("name")),
        scoring,
        interactive,
        time,
        memory_mib,
        output_mib,
        validation_time,
        validation_memory_mib: validation_memory,
        validation,
        validator_flags: meta.get("validator_flags").map(as_text).unwrap_or_default(),
    })
}

/// The problem's name: a string, or the English (else the first) of a map of languages.
fn title(name: Option<&Value>) -> Option<String> {
    match name? {
        Value::Object(m) => m.get("en").or_else(|| m.values().next()).map(as_text),
        v => Some(as_text(v)),
    }
}

pub(super) fn parse_yaml(text: &str) -> std::result::Result<Value, crate::yaml::YamlError> {
    if text.trim().is_empty() {
        return Ok(Value::Null);
    }
    crate::yaml::from_str::<Value>(text)
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
