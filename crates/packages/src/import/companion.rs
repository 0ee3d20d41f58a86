//! Competitive Companion's JSON: what the browser extension POSTs for each problem (`judge
//! listen`), and the same saved in a `.json` file (`judge import`), one problem or an array.
//!
//! Its documented fields: `name`, `group`, `url`, `interactive`, `memoryLimit` (MB),
//! `timeLimit` (ms), `tests` (`input`, `output`), `testType`, `input` and `output` (`type`
//! stdin/stdout or file, with `fileName`), `batch` (`id`, `size`). cph saves the same object
//! in its `.prob` files (see [`super::cph`]).

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use super::{has_extension, head, id, read_file, Draft, DraftCase, DraftChecker, Format};
use crate::error::{Error, Result};
use judge_core::workspace::{check_io_name, FileIo};

/// One problem as Competitive Companion sends it; unknown fields are ignored (tools add theirs).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Payload {
    pub(super) name: String,
    #[serde(default)]
    pub(super) group: Option<String>,
    #[serde(default)]
    pub(super) url: Option<String>,
    #[serde(default)]
    interactive: Option<bool>,
    #[serde(default)]
    memory_limit: Option<f64>,
    #[serde(default)]
    time_limit: Option<f64>,
    tests: Vec<RawTest>,
    #[serde(default)]
    input: Option<Stream>,
    #[serde(default)]
    output: Option<Stream>,
    #[serde(default)]
    batch: Option<RawBatch>,
}

#[derive(Debug, Deserialize)]
struct RawTest {
    input: Option<String>,
    output: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Stream {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    file_name: Option<String>,
    #[serde(default)]
    pattern: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RawBatch {
    id: String,
    size: u64,
}

/// The batch a problem came in: every problem of a contest parsed at once shares its `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    pub id: String,
    pub size: usize,
}

/// Where a problem came from, in messages.
const ORIGIN: &str = "Competitive Companion";

/// Why a body is not one problem as Competitive Companion sends it (the reason of an HTTP 400,
/// or of an import refused).
#[derive(Debug, thiserror::Error)]
pub enum Malformed {
    #[error("the request is empty: Competitive Companion sends a problem as JSON")]
    Empty,
    #[error("the JSON ends early, as if cut off (a half-written request or file?): {0}")]
    CutOff(serde_json::Error),
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("not Competitive Companion's JSON: a problem is an object with name, tests, timeLimit, memoryLimit...")]
    NotAnObject,
    #[error("not Competitive Companion's JSON: {0}")]
    NotAProblem(serde_json::Error),
    #[error("the problem has no name")]
    NoName,
    #[error("`{name}` is interactive: the judge has no interactor to run it with, so it cannot judge it")]
    Interactive { name: String },
    /// A test without its input or its output (`missing`).
    #[error("test {number} of {total} of `{name}` has no {missing}")]
    Test {
        number: usize,
        total: usize,
        name: String,
        missing: &'static str,
    },
    /// A file to read or write (`stream`: stdin or stdout) whose name is not one.
    #[error("the {stream} file `{file}` of `{name}` {why}")]
    IoFile {
        stream: &'static str,
        file: String,
        name: String,
        why: &'static str,
    },
    #[error("`{name}` has an {stream} of unknown type `{kind}`")]
    IoKind {
        name: String,
        stream: &'static str,
        kind: String,
    },
}

/// Reads one POSTed problem: the draft and its batch, or why it is not Competitive
/// Companion's JSON (the reason of an HTTP 400).
pub fn parse(body: &[u8]) -> std::result::Result<(Draft, Option<Batch>), Malformed> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(Malformed::Empty);
    }
    let value = json(body)?;
    if !value.is_object() {
        return Err(Malformed::NotAnObject);
    }
    payload(value, ORIGIN)
}

/// The JSON value of `body`, or why it is none.
pub(super) fn json(body: &[u8]) -> std::result::Result<serde_json::Value, Malformed> {
    serde_json::from_slice(body).map_err(|e| match e.classify() {
        serde_json::error::Category::Eof => Malformed::CutOff(e),
        _ => Malformed::NotJson(e),
    })
}

/// A draft from one problem's JSON object.
pub(super) fn payload(
    value: serde_json::Value,
    origin: &str,
) -> std::result::Result<(Draft, Option<Batch>), Malformed> {
    let p: Payload = serde_json::from_value(value).map_err(Malformed::NotAProblem)?;
    let batch = p.batch.as_ref().map(|b| Batch {
        id: b.id.clone(),
        size: usize::try_from(b.size).unwrap_or(usize::MAX).max(1),
    });
    let draft = draft(p, origin)?;
    Ok((draft, batch))
}

/// The draft a payload describes, or what is wrong with it.
pub(super) fn draft(p: Payload, origin: &str) -> std::result::Result<Draft, Malformed> {
    let name = p.name.trim().to_string();
    if name.is_empty() {
        return Err(Malformed::NoName);
    }
    if p.interactive == Some(true) {
        return Err(Malformed::Interactive { name });
    }
    let total = p.tests.len();
    let mut cases = Vec::new();
    for (i, t) in p.tests.into_iter().enumerate() {
        let missing = |missing| Malformed::Test {
            number: i + 1,
            total,
            name: name.clone(),
            missing,
        };
        let input = t.input.ok_or_else(|| missing("input"))?;
        let answer = t.output.ok_or_else(|| missing("output"))?;
        cases.push(DraftCase {
            name: Some((i + 1).to_string()),
            input: input.into_bytes(),
            answer: answer.into_bytes(),
            sample: true,
        });
    }
    let mut notes = Vec::new();
    let time = match p.time_limit {
        Some(ms) if ms.is_finite() && ms > 0.0 => {
            Some(Duration::from_millis(ms.round().max(1.0) as u64))
        }
        _ => None,
    };
    let memory_bytes = match p.memory_limit {
        Some(mb) if mb.is_finite() && mb > 0.0 => Some((mb * (1u64 << 20) as f64).round() as u64),
        _ => None,
    };
    let mut io = FileIo::default();
    for (stream, slot, plain) in [
        (&p.input, &mut io.input, "stdin"),
        (&p.output, &mut io.output, "stdout"),
    ] {
        let Some(s) = stream else { continue };
        match s.kind.as_str() {
            k if k == plain => {}
            "file" => {
                let file = s.file_name.clone().unwrap_or_default();
                check_io_name(&file).map_err(|why| Malformed::IoFile {
                    stream: plain,
                    file: file.clone(),
                    name: name.clone(),
                    why,
                })?;
                *slot = Some(file);
            }
            "regex" => notes.push(format!(
                "it reads the newest file matching `{}`; here it reads stdin",
                s.pattern.as_deref().unwrap_or("")
            )),
            other => {
                return Err(Malformed::IoKind {
                    name,
                    stream: plain,
                    kind: other.to_string(),
                })
            }
        }
    }
    let url = p
        .url
        .map(|u| u.trim().to_string())
        .filter(|u| u.starts_with("http://") || u.starts_with("https://"));
    Ok(Draft {
        origin: origin.to_string(),
        id: id::suggest(url.as_deref(), &name),
        title: name,
        url,
        contest: p.group.filter(|g| !g.trim().is_empty()),
        time,
        memory_bytes,
        checker: DraftChecker::default(),
        interactor: None,
        io,
        cases,
        interactions: Vec::new(),
        solutions: Vec::new(),
        notes,
    })
}

/// A `.json` file holding what Competitive Companion sent: one problem, or an array of them.
pub(super) struct SavedJson;

impl Format for SavedJson {
    fn name(&self) -> &'static str {
        "a saved Competitive Companion JSON file (.json)"
    }

    fn detect(&self, path: &Path) -> bool {
        path.is_file()
            && has_extension(path, &["json"])
            && head(path)
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|&b| b == b'{' || b == b'[')
    }

    fn read(&self, path: &Path) -> Result<Vec<Draft>> {
        let bad = |message: String| Error::Import {
            path: path.display().to_string(),
            message,
            fix: "give the JSON Competitive Companion sends, saved whole".into(),
        };
        let value = json(&read_file(path)?).map_err(|m| bad(m.to_string()))?;
        let origin = format!("Competitive Companion's JSON {}", file_name(path));
        let values = match value {
            serde_json::Value::Array(items) => items,
            one => vec![one],
        };
        values
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                payload(v, &origin).map(|(draft, _)| draft).map_err(|m| {
                    bad(if i > 0 {
                        format!("problem {}: {m}", i + 1)
                    } else {
                        m.to_string()
                    })
                })
            })
            .collect()
    }
}

/// A path's last part, for an origin.
pub(super) fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASTLE: &str = r#"{"name":"G. Castle Defense","group":"Codeforces - Educational Codeforces Round 40 (Rated for Div. 2)","url":"https://codeforces.com/problemset/problem/954/G","interactive":false,"memoryLimit":256,"timeLimit":1500,"tests":[{"input":"5 0 6\n5 4 3 4 9\n","output":"5\n"},{"input":"4 2 0\n1 2 3 4\n","output":"6\n"}],"testType":"single","input":{"type":"stdin"},"output":{"type":"stdout"},"languages":{"java":{"mainClass":"Main","taskClass":"GCastleDefense"}},"batch":{"id":"123e67c8-03c6-44a4-a3f9-5918533f9fb2","size":1}}"#;

    #[test]
    fn the_documented_payload() {
        let (d, batch) = parse(CASTLE.as_bytes()).unwrap();
        assert_eq!(d.id, "cf-954g");
        assert_eq!(d.title, "G. Castle Defense");
        assert_eq!(d.time, Some(Duration::from_millis(1500)));
        assert_eq!(d.memory_bytes, Some(256 << 20));
        assert_eq!(d.cases.len(), 2);
        assert_eq!(d.cases[1].answer, b"6\n");
        assert!(d.cases.iter().all(|c| c.sample));
        assert_eq!(d.io, FileIo::default());
        assert_eq!(batch.unwrap().size, 1);
    }

    #[test]
    fn what_is_not_competitive_companions_json_is_said() {
        let reason = |body: &str| parse(body.as_bytes()).unwrap_err().to_string();
        assert!(reason("").contains("empty"));
        assert!(reason("hello").contains("not JSON"));
        assert!(reason(&CASTLE[..CASTLE.len() / 2]).contains("ends early"));
        assert!(reason("[1, 2]").contains("not Competitive Companion's JSON"));
        assert!(reason(r#"{"name": "x"}"#).contains("missing field `tests`"));
        let no_output = CASTLE.replace(r#","output":"6\n""#, "");
        assert!(reason(&no_output).contains("test 2 of 2 of `G. Castle Defense` has no output"));
        let interactive = CASTLE.replace(r#""interactive":false"#, r#""interactive":true"#);
        assert!(reason(&interactive).contains("interactive"));
        let bad_file = CASTLE.replace(
            r#""input":{"type":"stdin"}"#,
            r#""input":{"type":"file","fileName":"../x"}"#,
        );
        assert!(
            reason(&bad_file).contains("not a plain file name"),
            "{}",
            reason(&bad_file)
        );
    }

    #[test]
    fn files_instead_of_stdin_and_stdout() {
        let body = CASTLE
            .replace(
                r#""input":{"type":"stdin"}"#,
                r#""input":{"type":"file","fileName":"input.txt"}"#,
            )
            .replace(
                r#""output":{"type":"stdout"}"#,
                r#""output":{"type":"file","fileName":"output.txt"}"#,
            );
        let (d, _) = parse(body.as_bytes()).unwrap();
        assert_eq!(d.io.input.as_deref(), Some("input.txt"));
        assert_eq!(d.io.output.as_deref(), Some("output.txt"));
    }
}
