//! The samples judged: a JSON Lines file of `{"problem", "language", "code"}`, LiveCodeBench's
//! `[{"question_id", "code_list"}]`, or, with no file, the data set's own solutions (a
//! verification of the data set). Each sample is numbered within its problem, in the file's
//! order: the key of its result. `--extract` takes the code out of a model's raw answer.

use std::path::Path;

use judge_core::error::Location;
use serde_json::Value;
use sha2::Digest;

use crate::dataset::{hex, Dataset};
use crate::Error;

/// One program to judge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// The data set's id of its problem.
    pub problem: String,
    /// Its number among its problem's samples, from 0.
    pub index: usize,
    /// The judge's language id (`python`, `cpp`), or the name the file gave.
    pub language: String,
    /// The source, or why there is none (no code block in the answer): a failed sample.
    pub code: Result<String, String>,
    /// A data set's own solution: whether it is among the right ones.
    pub correct: Option<bool>,
}

/// A samples file read.
#[derive(Debug)]
pub struct Samples {
    pub samples: Vec<Sample>,
    /// SHA-256 of the file, for the manifest.
    pub sha256: String,
}

/// Reads the samples at `path`; with `extract`, each sample's code is the last fenced block
/// of the answer in its language (or its only one).
pub fn read(path: &Path, extract: bool) -> Result<Samples, Error> {
    let raw = std::fs::read(path).map_err(|e| Error::io("read", path, e))?;
    let sha256 = hex(&sha2::Sha256::digest(&raw));
    let text = String::from_utf8(raw)
        .map_err(|_| samples_error(path, None, "the file is not UTF-8 text".into()))?;
    let mut numbering = Numbering::default();
    let mut samples = Vec::new();
    if text.trim_start().starts_with('[') {
        let all: Value = serde_json::from_str(&text)
            .map_err(|e| samples_error(path, Some(e.line()), format!("not JSON: {e}")))?;
        for (i, item) in all.as_array().into_iter().flatten().enumerate() {
            let (Some(id), Some(codes)) = (
                id_of(item.get("question_id")),
                item.get("code_list").and_then(Value::as_array),
            ) else {
                return Err(samples_error(
                    path,
                    None,
                    format!("element {} has no `question_id` and `code_list`", i + 1),
                ));
            };
            for code in codes {
                let code = code.as_str().unwrap_or_default();
                samples.push(numbering.sample(&id, "python", code, extract));
            }
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let item: Value = serde_json::from_str(line).map_err(|e| {
                samples_error(path, Some(i + 1), format!("the line is not JSON: {e}"))
            })?;
            let field = |f: &str| item.get(f).and_then(Value::as_str);
            let (Some(problem), Some(language)) = (id_of(item.get("problem")), field("language"))
            else {
                return Err(samples_error(
                    path,
                    Some(i + 1),
                    "the line has no `problem` and `language`".into(),
                ));
            };
            let code = field("code").unwrap_or_default();
            samples.push(numbering.sample(&problem, language, code, extract));
        }
    }
    Ok(Samples { samples, sha256 })
}

/// The data set's own solutions, right ones first, as samples.
pub fn references(dataset: &Dataset) -> Vec<Sample> {
    let mut samples = Vec::new();
    for p in &dataset.problems {
        for (index, r) in p.references.iter().enumerate() {
            samples.push(Sample {
                problem: p.id.clone(),
                index,
                language: r.language.clone().unwrap_or_else(|_| "unknown".into()),
                code: r
                    .language
                    .as_ref()
                    .map(|_| r.code.clone())
                    .map_err(|why| format!("not judged: {why}")),
                correct: Some(r.correct),
            });
        }
    }
    samples
}

/// Each problem's next sample number.
#[derive(Default)]
struct Numbering(std::collections::BTreeMap<String, usize>);

impl Numbering {
    fn sample(&mut self, problem: &str, language: &str, code: &str, extract: bool) -> Sample {
        let next = self.0.entry(problem.to_string()).or_default();
        let index = *next;
        *next += 1;
        let language = language_id(language);
        let code = if extract {
            extracted(code, &language)
        } else if code.trim().is_empty() {
            Err("the sample has no code".into())
        } else {
            Ok(code.to_string())
        };
        Sample {
            problem: problem.to_string(),
            index,
            language,
            code,
            correct: None,
        }
    }
}

fn id_of(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The judge's id of a language as data sets and models write it.
pub fn language_id(name: &str) -> String {
    let lower = name.trim().to_ascii_lowercase();
    match lower.as_str() {
        "python" | "python3" | "py" | "py3" => "python".into(),
        "c++" | "cpp" | "cc" | "cxx" | "c++17" | "cpp17" | "c++20" | "cpp20" | "gnu c++17" => {
            "cpp".into()
        }
        "java" | "java8" | "java11" | "java17" | "java21" => "java".into(),
        _ => lower,
    }
}

/// The code of a model's answer: the last fenced block whose tag is the language's, else the
/// only block; no block, or several of other tags, is no code.
pub fn extracted(answer: &str, language: &str) -> Result<String, String> {
    let blocks = fenced(answer);
    let ours = blocks
        .iter()
        .rev()
        .find(|(tag, _)| language_id(tag) == language && !tag.is_empty());
    match (ours, blocks.as_slice()) {
        (Some((_, code)), _) | (None, [(_, code)]) => Ok(code.clone()),
        (None, []) => Err("the answer has no fenced code block".into()),
        (None, _) => Err(format!(
            "the answer has {} fenced code blocks, none tagged `{language}`",
            blocks.len()
        )),
    }
}

/// The fenced blocks of `text`, each with its tag (the info string's first word).
fn fenced(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        match open.take() {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let tag = info.split_whitespace().next().unwrap_or("").to_string();
                    open = Some((tag, String::new()));
                }
            }
            Some((tag, body)) if trimmed.trim_end() == "```" => blocks.push((tag, body)),
            Some((tag, mut body)) => {
                body.push_str(line);
                body.push('\n');
                open = Some((tag, body));
            }
        }
    }
    blocks
}

fn samples_error(path: &Path, line: Option<usize>, message: String) -> Error {
    Error::Samples {
        at: Location::file(path).with_line(line),
        message,
        fix: "give JSON Lines of {\"problem\": ID, \"language\": \"python\", \"code\": \"...\"}, or LiveCodeBench's [{\"question_id\": ID, \"code_list\": [...]}]".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_block_in_the_language_is_taken() {
        let answer = "Try this:\n```python\nprint(1)\n```\nor better:\n```py\nprint(2)\n```\n```text\nout\n```\n";
        assert_eq!(extracted(answer, "python").unwrap(), "print(2)\n");
    }

    #[test]
    fn the_only_block_is_taken_whatever_its_tag() {
        assert_eq!(
            extracted("```\nint main(){}\n```", "cpp").unwrap(),
            "int main(){}\n"
        );
    }

    #[test]
    fn no_block_or_none_of_the_language_is_no_code() {
        assert!(extracted("print(1)", "python")
            .unwrap_err()
            .contains("no fenced code block"));
        let two = "```java\nA\n```\n```go\nB\n```\n";
        assert!(extracted(two, "python")
            .unwrap_err()
            .contains("none tagged `python`"));
    }

    #[test]
    fn an_unclosed_block_is_not_code() {
        assert!(extracted("```python\nprint(1)\n", "python").is_err());
    }
}
