//! The results file (`--out`): one JSON line per sample, added as soon as the sample is judged,
//! each in one write, so that a judge killed at any moment leaves whole lines and at most a
//! part of the last, which the next run drops (the file rewritten whole without it) before it
//! judges the samples that have no line.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use judge_core::error::Location;
use judge_core::schema::Document;
use judge_core::verdict::Verdict;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Error;

/// One sample's result, a line of the results file (with its `schema` first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SampleResult {
    /// The data set's id of the problem.
    pub problem: String,
    /// The sample's number among its problem's, from 0.
    pub sample: usize,
    pub language: String,
    /// A data set's own solution: among the right ones or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correct: Option<bool>,
    /// `None`: the sample did not run (no code, an unknown language): `reason` says why.
    pub verdict: Option<Verdict>,
    /// Tests passed, of the problem's `total`.
    pub passed: usize,
    pub total: usize,
    /// Why the verdict (its first failing test's reason), or why there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The identity of the compiler (or interpreter) that built it, as its version command
    /// says it: the manifest's toolchains, those of earlier runs too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compiler: Option<String>,
    /// The profile it was judged under (`--profile`); a line written before profiles were
    /// named was judged under the judge's own.
    #[serde(default = "judge_profile")]
    pub profile: String,
    /// Counted in pass@k: false for what is not the sample's fault (IE, a language this
    /// machine does not have).
    pub counted: bool,
    pub tests: Vec<TestRecord>,
}

impl Document for SampleResult {
    const SCHEMA: &'static str = "judge.eval.sample/2";
}

fn judge_profile() -> String {
    crate::Profile::Judge.name().into()
}

impl SampleResult {
    /// Right: every test passed.
    pub fn right(&self) -> bool {
        self.verdict == Some(Verdict::Ac)
    }

    fn key(&self) -> (String, usize) {
        (self.problem.clone(), self.sample)
    }
}

/// One test of a sample, as it ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TestRecord {
    pub test: String,
    pub verdict: Verdict,
    /// CPU time.
    pub time_ms: u64,
    pub memory_kb: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The results file, open for adding lines.
pub struct ResultsFile {
    path: PathBuf,
    file: std::fs::File,
}

/// What an earlier run left in the results file at `path` (nothing when there is none), with
/// a part of a last line dropped from the file.
pub fn earlier(path: &Path) -> Result<Vec<SampleResult>, Error> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("read", path, e)),
    };
    let text = String::from_utf8(bytes).map_err(|_| Error::Results {
        at: Location::file(path),
        message: "the file is not UTF-8 text, as this command writes it".into(),
    })?;
    let whole = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    let mut found = Vec::new();
    for (i, line) in whole.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let result: SampleResult = serde_json::from_str(line).map_err(|e| Error::Results {
            at: Location::file(path).with_line(i + 1),
            message: format!("the line is not a sample's result: {e}"),
        })?;
        found.push(result);
    }
    if whole.len() != text.len() {
        judge_core::atomic::replace(path, whole.as_bytes())?;
    }
    Ok(found)
}

/// The keys (problem, sample) that have a result in `results`.
pub fn keys(results: &[SampleResult]) -> BTreeSet<(String, usize)> {
    results.iter().map(SampleResult::key).collect()
}

impl ResultsFile {
    /// The results file at `path`, made when missing, to add lines to.
    pub fn open(path: &Path) -> Result<ResultsFile, Error> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Error::io("write", path, e))?;
        Ok(ResultsFile {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Adds `result` as one line, in one write.
    pub fn add(&mut self, result: &SampleResult) -> Result<(), Error> {
        let mut line =
            serde_json::to_vec(&judge_core::schema::tagged(result)).expect("a result is JSON");
        line.push(b'\n');
        self.file
            .write_all(&line)
            .map_err(|e| Error::io("write", &self.path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(problem: &str, sample: usize) -> SampleResult {
        SampleResult {
            problem: problem.into(),
            sample,
            language: "python".into(),
            correct: None,
            verdict: Some(Verdict::Wa),
            passed: 0,
            total: 2,
            reason: None,
            compiler: None,
            profile: "judge".into(),
            counted: true,
            tests: Vec::new(),
        }
    }

    #[test]
    fn a_part_of_a_last_line_is_dropped_and_the_rest_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        let mut file = ResultsFile::open(&path).unwrap();
        file.add(&result("a", 0)).unwrap();
        file.add(&result("b", 1)).unwrap();
        drop(file);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"problem\": \"c\", \"sam");
        std::fs::write(&path, &text).unwrap();
        let found = earlier(&path).unwrap();
        assert_eq!(found, vec![result("a", 0), result("b", 1)]);
        assert!(std::fs::read_to_string(&path).unwrap().ends_with("}\n"));
        assert!(keys(&found).contains(&("b".to_string(), 1)));
    }

    #[test]
    fn a_whole_line_that_is_no_result_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, "{\"x\": 1}\n").unwrap();
        let e = earlier(&path).unwrap_err().to_string();
        assert!(e.contains("out.jsonl:1") && e.contains("fix:"), "{e}");
    }
}
