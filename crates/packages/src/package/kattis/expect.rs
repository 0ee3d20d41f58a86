//! What each example submission must get: the format's default folders and
//! `submissions/submissions.yaml` (2025-09), and DOMjudge's `@EXPECTED_RESULTS@` comment in
//! a submission's source, which overrides its folder as DOMjudge has it.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Map, Value};

use super::meta::{as_number, as_text, parse_yaml};
use super::{dir_name, Format};
use judge_core::error::{Error, Location, Result};
use judge_core::expect::{path_glob, Rule, SpecVerdict, TimeUse};
use judge_core::verdict::{Expectation, Verdict};

use SpecVerdict::{Ac, Rte, Tle, Wa};

/// Verdicts a rule permits or requires, when it says.
type Verdicts = Option<&'static [SpecVerdict]>;

/// The format's default folders and what a submission in each must get (2025-09): the
/// verdicts permitted on every case, and those of which one is required.
pub(super) const DEFAULT_FOLDERS: &[(&str, Verdicts, Verdicts)] = &[
    ("accepted", Some(&[Ac]), None),
    ("rejected", None, Some(&[Rte, Tle, Wa])),
    ("wrong_answer", Some(&[Ac, Wa]), Some(&[Wa])),
    ("time_limit_exceeded", Some(&[Ac, Tle]), Some(&[Tle])),
    ("run_time_error", Some(&[Ac, Rte]), Some(&[Rte])),
    ("brute_force", Some(&[Ac, Rte, Tle]), Some(&[Rte, Tle])),
];

/// The folders 2025-09 adds to those problemtools knows, with the verdicts a whole run may
/// end in there (the first failure decides a run's verdict).
pub(super) const MORE_FOLDERS: &[(&str, &[Verdict])] = &[
    (
        "rejected",
        &[
            Verdict::Wa,
            Verdict::Tle,
            Verdict::Mle,
            Verdict::Ole,
            Verdict::Re,
        ],
    ),
    (
        "brute_force",
        &[Verdict::Tle, Verdict::Mle, Verdict::Ole, Verdict::Re],
    ),
];

/// `submissions.yaml`, read: its globs in order, each with its rules (the first without a
/// test-data part), and the keys the judge cannot honour.
pub(super) struct Expectations {
    entries: Vec<Entry>,
}

struct Entry {
    glob: String,
    rules: Vec<Rule>,
    /// `language`, as the format names it.
    language: Option<String>,
    /// `entrypoint`: the file (or Java's class) that starts the program.
    entrypoint: Option<String>,
}

/// The keys of a rule, beside test-data globs.
const RULE_KEYS: &[&str] = &[
    "permitted",
    "required",
    "score",
    "message",
    "use_for_time_limit",
];
/// The keys that describe the submission, not a rule.
const META_KEYS: &[&str] = &["language", "entrypoint", "authors", "model_solution"];

impl Expectations {
    /// Reads `submissions/submissions.yaml` of the package in `dir` (none: no entries).
    pub(super) fn read(
        dir: &Path,
        constants: &super::constants::Constants,
    ) -> Result<Expectations> {
        let path = dir.join("submissions").join("submissions.yaml");
        if !path.is_file() {
            return Ok(Expectations {
                entries: Vec::new(),
            });
        }
        let shown = format!("{}/submissions/submissions.yaml", dir_name(dir));
        let text = std::fs::read_to_string(&path).map_err(|e| Error::read(&path, e))?;
        let text = constants.apply(&text);
        let bad = |key: &str, message: String, fix: &str| Error::Config {
            at: Location::file(&shown).with_key(key).with_line(
                text.lines()
                    .position(|l| l.trim_start().trim_matches(['"', '\'']).starts_with(key))
                    .map(|i| i + 1),
            ),
            message,
            fix: fix.to_string(),
        };
        let top = match parse_yaml(&text).map_err(|e| Error::Config {
            at: Location::file(&shown).with_line(e.line),
            message: e.message,
            fix: "correct the YAML".into(),
        })? {
            Value::Object(m) => m,
            Value::Null => Map::new(),
            _ => {
                return Err(bad(
                    "the file",
                    "not a map of submission globs".into(),
                    "write `accepted/fast.py:` and its rules below it",
                ))
            }
        };
        let mut entries = Vec::new();
        for (glob, body) in &top {
            let Value::Object(body) = body else {
                return Err(bad(
                    glob,
                    format!("`{glob}` maps to no rules"),
                    "give it a map: permitted: [AC]",
                ));
            };
            let source = format!("submissions.yaml: {glob}");
            let mut rules = Vec::new();
            let mut own = rule(&source, None, body, &bad, glob)?;
            // A default folder named alone keeps what it does not say of its default.
            if let Some((_, p, r)) = DEFAULT_FOLDERS.iter().find(|(f, _, _)| f == glob) {
                if own.permitted.is_none() {
                    own.permitted = p.map(|p| p.iter().copied().collect());
                }
                if own.required.is_none() {
                    own.required = r.map(|r| r.iter().copied().collect());
                }
            }
            if has_rule(&own) {
                rules.push(own);
            }
            for (key, v) in body {
                if RULE_KEYS.contains(&key.as_str()) || META_KEYS.contains(&key.as_str()) {
                    continue;
                }
                let Value::Object(part) = v else {
                    return Err(bad(
                        key,
                        format!("`{glob}` → `{key}` is neither a rule's key nor a test group with rules"),
                        "write permitted, required, score, message, use_for_time_limit, or a group such as secret/group1 with those under it",
                    ));
                };
                let r = rule(&source, Some(key.clone()), part, &bad, key)?;
                if has_rule(&r) {
                    rules.push(r);
                }
            }
            entries.push(Entry {
                glob: glob.clone(),
                rules,
                language: body.get("language").map(as_text),
                entrypoint: body.get("entrypoint").map(as_text),
            });
        }
        Ok(Expectations { entries })
    }

    /// The folders its globs name first (custom folders hold submissions too).
    pub(super) fn folders(&self) -> BTreeSet<String> {
        self.entries
            .iter()
            .filter_map(|e| e.glob.split('/').next())
            .filter(|f| !f.contains(['*', '{']))
            .map(str::to_string)
            .collect()
    }

    /// The rules of the submission `name` (its path under `submissions/`) in a package of
    /// `format`: its folder's default (2025-09), overridden by a `submissions.yaml` entry of
    /// the folder's name, and every other entry that matches it.
    pub(super) fn rules_of(&self, name: &str, format: Format) -> Vec<Rule> {
        let folder = name.split('/').next().unwrap_or_default();
        let mut rules = Vec::new();
        let overridden = self.entries.iter().any(|e| e.glob == folder);
        if format == Format::Kattis2025 && !overridden {
            if let Some((f, p, r)) = DEFAULT_FOLDERS.iter().find(|(f, _, _)| *f == folder) {
                rules.push(Rule::verdicts(&format!("folder {f}/"), *p, *r));
            }
        }
        for e in self.entries.iter().filter(|e| path_glob(&e.glob, name)) {
            rules.extend(e.rules.iter().cloned());
        }
        rules
    }

    /// The languages (the format's codes) the entries matching `name` say it is in.
    pub(super) fn language_of(&self, name: &str) -> Option<&str> {
        self.entries
            .iter()
            .filter(|e| path_glob(&e.glob, name))
            .find_map(|e| e.language.as_deref())
    }

    /// The entry point the entries matching `name` name for it: the first, as BAPCtools
    /// takes one when several do.
    pub(super) fn entrypoint_of(&self, name: &str) -> Option<&str> {
        self.entries
            .iter()
            .filter(|e| path_glob(&e.glob, name))
            .find_map(|e| e.entrypoint.as_deref())
    }
}

fn has_rule(r: &Rule) -> bool {
    r.permitted.is_some()
        || r.required.is_some()
        || r.score.is_some()
        || r.message.is_some()
        || r.time_use != TimeUse::Inferred
}

/// One rule from a map of its keys.
fn rule(
    source: &str,
    cases: Option<String>,
    map: &Map<String, Value>,
    bad: &dyn Fn(&str, String, &str) -> Error,
    key: &str,
) -> Result<Rule> {
    let verdicts = |k: &str| -> Result<Option<BTreeSet<SpecVerdict>>> {
        let Some(v) = map.get(k) else {
            return Ok(None);
        };
        let items: Vec<String> = match v {
            Value::Array(a) => a.iter().map(as_text).collect(),
            v => vec![as_text(v)],
        };
        items
            .iter()
            .map(|i| {
                SpecVerdict::parse(i).ok_or_else(|| {
                    bad(
                        key,
                        format!("{k}: `{i}` is not one of the format's verdicts"),
                        "write AC, WA, TLE or RTE",
                    )
                })
            })
            .collect::<Result<BTreeSet<_>>>()
            .map(Some)
    };
    let score = match map.get("score") {
        None => None,
        Some(Value::Array(a)) => match a.iter().map(as_number).collect::<Option<Vec<f64>>>() {
            Some(v) if v.len() == 2 && v[0] <= v[1] => Some((v[0], v[1])),
            _ => {
                return Err(bad(
                    key,
                    "score: not a number or a range of two".into(),
                    "write score: 50 or score: [40, 60]",
                ))
            }
        },
        Some(v) => match as_number(v) {
            Some(x) => Some((x, x)),
            None => {
                return Err(bad(
                    key,
                    format!("score: `{}` is not a number", as_text(v)),
                    "write score: 50 or score: [40, 60]",
                ))
            }
        },
    };
    let time_use = match map.get("use_for_time_limit") {
        None => TimeUse::Inferred,
        Some(Value::Bool(false)) => TimeUse::Off,
        Some(Value::Bool(true)) => TimeUse::Inferred,
        Some(v) if as_text(v) == "lower" => TimeUse::Lower,
        Some(v) if as_text(v) == "upper" => TimeUse::Upper,
        Some(v) => {
            return Err(bad(
                key,
                format!(
                    "use_for_time_limit: `{}` is not false, lower or upper",
                    as_text(v)
                ),
                "write false, lower or upper",
            ))
        }
    };
    Ok(Rule {
        source: source.to_string(),
        cases,
        permitted: verdicts("permitted")?,
        required: verdicts("required")?,
        score,
        message: map.get("message").map(as_text),
        time_use,
    })
}

/// A result `@EXPECTED_RESULTS@` names that neither DOMjudge nor BAPCtools reads: the
/// submission is left aside with this as its reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("@EXPECTED_RESULTS@ names `{0}`, which is not a result DOMjudge or BAPCtools reads (CORRECT, WRONG-ANSWER, TIMELIMIT, RUN-ERROR, MEMORY-LIMIT, OUTPUT-LIMIT, NO-OUTPUT, COMPILER-ERROR, or ACCEPTED, WRONG_ANSWER, TIME_LIMIT_EXCEEDED, RUN_TIME_ERROR)")]
pub(super) struct UnknownResult(String);

/// The results DOMjudge's `@EXPECTED_RESULTS@: A, B` comment in `source` names, as the judge's
/// verdicts; `Err` names a result no tool reads. Packages carry two spellings, and BAPCtools
/// writes and reads both: DOMjudge's (`WRONG-ANSWER`, `TIMELIMIT`, `RUN-ERROR`) and the format's
/// long names (`WRONG_ANSWER`, `TIME_LIMIT_EXCEEDED`, `RUN_TIME_ERROR`), with the short codes.
pub(super) fn expected_results(
    source: &str,
) -> Option<std::result::Result<Expectation, UnknownResult>> {
    const TAG: &str = "@EXPECTED_RESULTS@:";
    let at = source.find(TAG)?;
    let line = source[at + TAG.len()..].lines().next().unwrap_or_default();
    let mut set = BTreeSet::new();
    for word in line
        .split(',')
        .map(|w| w.trim().trim_end_matches("*/").trim())
    {
        if word.is_empty() {
            continue;
        }
        let Some(verdicts) = result_verdicts(word) else {
            return Some(Err(UnknownResult(word.to_string())));
        };
        set.extend(verdicts.iter().copied());
    }
    (!set.is_empty()).then_some(Ok(Expectation(set)))
}

/// The verdicts one result of `@EXPECTED_RESULTS@` stands for, in any case.
fn result_verdicts(word: &str) -> Option<&'static [Verdict]> {
    Some(match word.to_ascii_uppercase().as_str() {
        "CORRECT" | "ACCEPTED" | "AC" => &[Verdict::Ac],
        "WRONG-ANSWER" | "WRONG_ANSWER" | "WA" | "NO-OUTPUT" | "NO_OUTPUT" => &[Verdict::Wa],
        "TIMELIMIT" | "TIME_LIMIT_EXCEEDED" | "TIME-LIMIT-EXCEEDED" | "TLE" => &[Verdict::Tle],
        "RUN-ERROR" | "RUN_TIME_ERROR" | "RUNTIME_ERROR" | "RUN-TIME-ERROR" | "RTE" => {
            &[Verdict::Re]
        }
        "MEMORY-LIMIT" | "MEMORY_LIMIT" | "MLE" => &[Verdict::Mle],
        "OUTPUT-LIMIT" | "OUTPUT_LIMIT" | "OLE" => &[Verdict::Ole],
        "COMPILER-ERROR" | "COMPILER_ERROR" | "CE" => &[Verdict::Ce],
        _ => return None,
    })
}

/// What decided a submission's expectation when its `@EXPECTED_RESULTS@` and its folder
/// disagree (the tag admits a verdict the folder does not): the tag, as DOMjudge has it.
pub(super) fn tag_over_folder(tag: &Expectation, folder: &str) -> Option<String> {
    let (_, verdicts) = super::programs::FOLDERS
        .iter()
        .chain(MORE_FOLDERS)
        .find(|(f, _)| *f == folder)?;
    let disagree = tag.0.iter().any(|v| !verdicts.contains(v));
    disagree.then(|| {
        format!(
            "its @EXPECTED_RESULTS@ says {tag}, its folder {folder}/ says {}: the tag decides (DOMjudge's rule)",
            Expectation(verdicts.iter().copied().collect())
        )
    })
}

/// The judge's language ids a language code of the format stands for.
pub(super) fn language_ids(code: &str) -> Vec<String> {
    let ids: &[&str] = match code {
        "python3" | "python3numpy" => &["python", "pypy"],
        "cpp" | "cppgmp" => &["cpp"],
        "c" | "cgmp" => &["c"],
        "java" | "javaalgs4" => &["java"],
        other => return vec![other.to_string()],
    };
    ids.iter().map(|s| s.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domjudge_results_become_verdicts() {
        let e = expected_results("// @EXPECTED_RESULTS@: TIMELIMIT, RUN-ERROR\nint main")
            .unwrap()
            .unwrap();
        assert_eq!(e.to_string(), "TLE or RE");
        assert!(expected_results("# nothing here").is_none());
        assert_eq!(
            expected_results("@EXPECTED_RESULTS@: SLOW */")
                .unwrap()
                .unwrap_err()
                .to_string(),
            "@EXPECTED_RESULTS@ names `SLOW`, which is not a result DOMjudge or BAPCtools reads (CORRECT, WRONG-ANSWER, TIMELIMIT, RUN-ERROR, MEMORY-LIMIT, OUTPUT-LIMIT, NO-OUTPUT, COMPILER-ERROR, or ACCEPTED, WRONG_ANSWER, TIME_LIMIT_EXCEEDED, RUN_TIME_ERROR)"
        );
    }

    #[test]
    fn the_formats_long_names_are_read_beside_domjudges() {
        for (tag, read) in [
            ("WRONG_ANSWER", "WA"),
            ("TIME_LIMIT_EXCEEDED, RUN_TIME_ERROR", "TLE or RE"),
            ("ACCEPTED", "AC"),
            ("wrong_answer, timelimit", "WA or TLE"),
        ] {
            let e = expected_results(&format!("# @EXPECTED_RESULTS@: {tag}\n"))
                .unwrap()
                .unwrap();
            assert_eq!(e.to_string(), read, "{tag}");
        }
        let tle = Expectation([Verdict::Tle].into_iter().collect());
        let said = tag_over_folder(&tle, "wrong_answer").unwrap();
        assert!(
            said.contains("says TLE, its folder wrong_answer/ says WA: the tag decides"),
            "{said}"
        );
        let re = Expectation([Verdict::Re].into_iter().collect());
        assert_eq!(tag_over_folder(&re, "run_time_error"), None);
    }
}
