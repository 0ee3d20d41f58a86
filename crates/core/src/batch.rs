//! `judge batch`'s files: the submissions file (a JSON object per line: a problem, a language,
//! a source) and the results file beside it (a JSON object per submission), and the key that
//! ties a result to its line, so that a batch run again judges only what has no result yet.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// One line of a submissions file, as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The submission's own key; without it, one is made from the line's text.
    #[serde(default)]
    pub id: Option<String>,
    /// A problem's id in the workspace, or a package's path.
    pub problem: String,
    /// A language's id: `python`, `cpp`, `rust`.
    pub language: String,
    /// The program's source code.
    pub source: String,
}

/// Why a line of the submissions file asks for nothing that can be judged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// `why`: what the JSON reader said.
    #[error("not a submission ({why}); a line is {{\"problem\": ID, \"language\": ID, \"source\": CODE}}, with an optional \"id\"")]
    NotASubmission { why: String },
    #[error("its `id` is empty: give each line a key of its own, or none")]
    EmptyId,
    #[error("the id `{0}` is on an earlier line too: each line needs an id of its own")]
    RepeatedId(String),
}

/// A results file that is not one: its first line that is no result (from 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line} is not a result ({why})")]
pub struct NotResults {
    pub line: usize,
    /// What the JSON reader said.
    pub why: String,
}

/// A line of the submissions file: its number (from 1), its key, and what it asks for (or why
/// it cannot be read).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub number: usize,
    pub key: String,
    pub request: Result<Request, LineError>,
}

/// The lines of a submissions file, blank ones left out. A line's key is its `id`; or else
/// the hash of its text, with `#2`, `#3`... for the second and third of identical lines: the
/// same file always gives the same keys, so that a result names its line across runs.
pub fn lines(text: &str) -> Vec<Line> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut ids: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        let request = serde_json::from_str::<Request>(raw)
            .map_err(|e| LineError::NotASubmission { why: e.to_string() });
        let given = request.as_ref().ok().and_then(|r| r.id.clone());
        let mut request = request;
        let key = match given {
            Some(id) if id.is_empty() => {
                request = Err(LineError::EmptyId);
                hashed(raw, &mut seen)
            }
            Some(id) if !ids.insert(id.clone()) => {
                request = Err(LineError::RepeatedId(id.clone()));
                format!("{id}#line-{}", i + 1)
            }
            Some(id) => id,
            None => hashed(raw, &mut seen),
        };
        out.push(Line {
            number: i + 1,
            key,
            request,
        });
    }
    out
}

/// The key of a line without an id: the hash of its text, numbered among identical lines.
fn hashed(raw: &str, seen: &mut BTreeMap<String, usize>) -> String {
    let hash = blake3::hash(raw.as_bytes()).to_hex()[..16].to_string();
    let n = seen.entry(hash.clone()).or_insert(0);
    *n += 1;
    match *n {
        1 => hash,
        n => format!("{hash}#{n}"),
    }
}

/// The file name (without extension) of the submission with `key`: a key may hold any
/// character, a name of its hash never clashes with another's.
pub fn file_stem(key: &str) -> String {
    format!("s{}", &blake3::hash(key.as_bytes()).to_hex()[..16])
}

/// A line of the results file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Outcome {
    pub key: String,
    /// The line of the submissions file it is the result of.
    pub line: usize,
    /// Why the line could not be judged; the fields below are then absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_time_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_memory_kb: Option<u64>,
    /// The whole report, as `judge run --json` prints it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<crate::schema::Tagged<'static, crate::model::SolutionReport>>")]
    pub report: Option<serde_json::Value>,
}

impl crate::schema::Document for Outcome {
    const SCHEMA: &'static str = "judge.batch/1";
}

/// What an earlier run left in the results file: the keys that have a verdict, and the lines
/// that say so. A line that could not be judged (its problem unknown, its language not
/// installed) is tried again, so its old result goes; so does a part of a line at the end, left
/// by a run killed while writing it.
#[derive(Debug, Default, PartialEq)]
pub struct Done {
    pub keys: BTreeSet<String>,
    /// The results kept, whole lines, in their order.
    pub kept: String,
    /// Some of the file is not kept: it must be written again, without them.
    pub dropped: bool,
}

/// Reads a results file's text. A whole line that is not a result is an error naming it (the
/// file is not a results file, or was edited by hand).
pub fn done(text: &str) -> Result<Done, NotResults> {
    let mut done = Done::default();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if !line.ends_with('\n') {
            done.dropped = true;
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let outcome: Outcome = serde_json::from_str(line).map_err(|e| NotResults {
            line: i + 1,
            why: e.to_string(),
        })?;
        if outcome.error.is_some() {
            done.dropped = true;
            continue;
        }
        done.keys.insert(outcome.key);
        done.kept.push_str(line);
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = r#"{"problem": "p", "language": "python", "source": "print(1)"}"#;

    #[test]
    fn keys_are_ids_or_hashes_numbered_among_identical_lines() {
        let text = format!(
            "{A}\n\n{A}\n{}\n{}\nnot json\n{}\n",
            r#"{"id": "x", "problem": "p", "language": "c", "source": ""}"#,
            r#"{"id": "x", "problem": "q", "language": "c", "source": ""}"#,
            r#"{"problem": "p", "language": "c"}"#,
        );
        let lines = lines(&text);
        let keys: Vec<&str> = lines.iter().map(|l| l.key.as_str()).collect();
        assert_eq!(lines.len(), 6, "blank lines are left out");
        assert_eq!(lines[0].number, 1);
        assert_eq!(lines[1].number, 3);
        assert_eq!(keys[1], format!("{}#2", keys[0]));
        assert_eq!(keys[2], "x");
        assert_eq!(
            lines[3].request.as_ref().unwrap_err().to_string(),
            "the id `x` is on an earlier line too: each line needs an id of its own"
        );
        assert_ne!(keys[3], "x");
        assert!(lines[4].request.is_err());
        let missing = lines[5].request.as_ref().unwrap_err().to_string();
        assert!(
            missing.starts_with("not a submission (missing field `source`")
                && missing.ends_with("a line is {\"problem\": ID, \"language\": ID, \"source\": CODE}, with an optional \"id\""),
            "{missing}"
        );
        // The same text, the same keys.
        let again: Vec<String> = super::lines(&text).into_iter().map(|l| l.key).collect();
        assert_eq!(again, keys);
    }

    #[test]
    fn a_part_of_a_line_at_the_end_and_a_line_not_judged_are_not_done() {
        let one = serde_json::to_string(&Outcome {
            key: "k1".into(),
            line: 1,
            error: Some("no such problem".into()),
            problem: None,
            language: None,
            verdict: None,
            passed: None,
            total: None,
            max_time_ms: None,
            max_memory_kb: None,
            report: None,
        })
        .unwrap();
        let two = one
            .replace("k1", "k2")
            .replace(r#""error":"no such problem""#, r#""verdict":"AC""#);
        let text = format!("{one}\n{two}\n{{\"key\": \"k3\", \"li");
        let d = done(&text).unwrap();
        // k1 could not be judged: tried again; k3 was cut off: judged again.
        assert_eq!(d.keys, BTreeSet::from(["k2".to_string()]));
        assert_eq!(d.kept, format!("{two}\n"));
        assert!(d.dropped);
        let not = done("oops\n").unwrap_err();
        assert_eq!(not.line, 1);
        assert!(
            not.to_string().starts_with("line 1 is not a result ("),
            "{not}"
        );
        assert_eq!(done("").unwrap(), Done::default());
        assert!(!done(&format!("{two}\n")).unwrap().dropped);
    }
}
