//! One answer to one data set record, judged on its own with every test run: what a service's
//! `/submit` (SandboxFusion's) asks. The record is read as `judge eval` reads a data set's, its
//! problem made and the code judged as there, so the verdicts are those an evaluation gives.

use std::time::Duration;

use judge_core::model::SolutionReport;
use judge_core::session::{Judging, Options};
use serde_json::Value;
use sha2::Digest;

use crate::dataset::{self, hex, Format, Spec};
use crate::eval::{judge_sample, Judged};
use crate::results::SampleResult;
use crate::samples::{self, Sample};
use crate::{problem, Error};

/// A record read: its id, its format (`None`: SandboxFusion's own stdin/stdout tests), and
/// what it is judged with; its limits may be changed before it is judged.
#[derive(Debug, Clone)]
pub struct Record {
    pub id: String,
    pub format: Option<Format>,
    pub spec: Spec,
    /// SHA-256 of the record's JSON: where its problem is made.
    sha256: String,
}

/// Reads `value` as a record of `format`, or of the format its fields tell; the reason when it
/// cannot be judged (no tests, tests that do not decode, fields of no format).
pub fn record(value: &Value, format: Option<Format>) -> Result<Record, String> {
    let (format, problem) = dataset::one(value, format)?;
    let spec = problem.spec?;
    let text = serde_json::to_vec(value).unwrap_or_default();
    Ok(Record {
        id: problem.id,
        format,
        spec,
        sha256: hex(&sha2::Sha256::digest(&text)),
    })
}

/// An answer judged, or why it was not.
#[derive(Debug)]
pub struct Submitted {
    /// The code judged, or why the answer has none.
    pub code: Result<String, String>,
    /// Whether the code was a fenced block of the answer (else the answer was the code).
    pub fenced: bool,
    /// The engine's report; `None` when nothing was judged (no code, no such language).
    pub report: Option<SolutionReport>,
    /// The result as `judge eval` writes it.
    pub result: SampleResult,
}

/// Judges `answer` in `language` (the judge's id) on every test of `record`. Its code is the
/// last fenced block in the language (or the only one); an answer with no fenced block is the
/// code itself. `Ok(Err(why))`: the record's problem cannot be judged (its tests against its
/// function, say); `Err`: the judge's own failure.
pub fn judge(
    judging: &mut dyn Judging,
    record: &Record,
    language: &str,
    answer: &str,
    compile_time_limit: Duration,
) -> Result<Result<Submitted, String>, Error> {
    let fenced = answer.lines().any(|l| l.trim_start().starts_with("```"));
    let code = if fenced {
        samples::extracted(answer, language)
    } else {
        Ok(answer.to_string())
    };
    let sample = Sample {
        problem: record.id.clone(),
        index: 0,
        language: language.to_string(),
        code: code.clone(),
        correct: None,
    };
    let ws = judging.workspace().clone();
    let dir = problem::folder(&ws.cache_dir(), &folder_key(record), &record.id);
    // A record's testlib checker is built with the `testlib.h` of the workspace's folder, or
    // the system's.
    let setup = problem::Setup {
        testlib: None,
        dataset: Some(&ws.root),
    };
    let (problem, cases) = match problem::materialise(&ws, &dir, &record.id, &record.spec, setup) {
        Ok(made) => made,
        Err(why) => return Ok(Err(why)),
    };
    let options = Options {
        stop_on_fail: false,
        compile_time_limit,
        ..Options::default()
    };
    Ok(
        match judge_sample(
            judging,
            &sample,
            &problem,
            &cases,
            &options,
            crate::Profile::Judge,
        )? {
            Judged::Sample(result, report) => Ok(Submitted {
                code,
                fenced,
                report: report.map(|r| *r),
                result,
            }),
            Judged::ProblemError(why) => Err(why),
        },
    )
}

/// The record's hash with the limits it is judged under: a record judged under other limits
/// is another problem (its `problem.toml` says them), never the one made before.
fn folder_key(record: &Record) -> String {
    let mut hash = sha2::Sha256::new();
    hash.update(record.sha256.as_bytes());
    hash.update(record.spec.time.as_nanos().to_le_bytes());
    hash.update(record.spec.memory_bytes.to_le_bytes());
    hex(&hash.finalize())
}
