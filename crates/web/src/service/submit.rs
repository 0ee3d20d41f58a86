//! SandboxFusion's `POST /submit`: a model's answer to one problem of a data set, the
//! problem's record sent along as `config.provided_data` (the service keeps no tables), judged
//! on every test as `judge eval` judges a sample, and answered as SandboxFusion's `EvalResult`
//! (`accepted`, the code extracted, a `RunCodeResponse` per test). The records read are those
//! of the data sets `judge eval` reads, and SandboxFusion's own stdin/stdout records.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use judge_core::model::{CaseReport, SolutionReport};
use judge_core::reason::Reason;
use judge_core::verdict::Verdict;
use judge_eval::single::{Record, Submitted};

use super::fusion::{CommandResult, CommandStatus, RunCodeResponse, RunStatus};

/// SandboxFusion's `SubmitRequest`.
#[derive(Debug, Deserialize)]
pub struct Submit {
    /// The data set's name: said back in messages; the record's fields tell its format.
    pub dataset: String,
    /// The problem's id, said back as it came (a number or a string).
    pub id: Value,
    /// The model's answer.
    pub completion: String,
    pub config: TestConfig,
}

/// SandboxFusion's `TestConfig`: the fields read here (the others are of prompts).
#[derive(Debug, Deserialize)]
pub struct TestConfig {
    /// SandboxFusion's language name.
    #[serde(default)]
    pub language: Option<String>,
    /// Seconds.
    #[serde(default)]
    pub compile_timeout: Option<f64>,
    /// Seconds of CPU time per test; none: the record's own time limit.
    #[serde(default)]
    pub run_timeout: Option<f64>,
    /// The problem's record: an object, or a list of them among which the one with `id`.
    #[serde(default)]
    pub provided_data: Option<Value>,
    /// Python code SandboxFusion runs to take the code out of the answer: not run here.
    #[serde(default)]
    pub custom_extract_logic: Option<String>,
}

/// SandboxFusion's `EvalResult`; `extra` holds the judge's words (verdict, tests passed).
#[derive(Debug, Serialize)]
pub struct EvalResult {
    pub id: Value,
    pub accepted: bool,
    pub extracted_code: String,
    pub full_code: Option<String>,
    pub test_code: Option<String>,
    pub tests: Vec<EvalTestCase>,
    pub extracted_type: Option<&'static str>,
    pub extra: Value,
}

/// SandboxFusion's `EvalTestCase`.
#[derive(Debug, Serialize)]
pub struct EvalTestCase {
    pub passed: bool,
    pub exec_info: RunCodeResponse,
    pub test_info: Value,
}

/// The record of the problem `id` among what the request provides, or why there is none.
pub fn provided(request: &Submit) -> Result<&Value, String> {
    let fix = "send the problem's record (a row of the data set) as config.provided_data: the service keeps no data set tables";
    match &request.config.provided_data {
        None | Some(Value::Null) => Err(format!(
            "no config.provided_data for `{}`: {fix}",
            request.dataset
        )),
        Some(Value::Array(rows)) => {
            let wanted = id_text(&request.id);
            rows.iter()
                // The id fields of the formats read, looked at alone: each record is read
                // whole only once it is the one.
                .find(|row| {
                    ["id", "name", "question_id", "problem_id"]
                        .iter()
                        .any(|f| row.get(f).map(id_text).as_deref() == Some(wanted.as_str()))
                })
                .ok_or_else(|| {
                    format!("config.provided_data holds no record with the id `{wanted}`")
                })
        }
        Some(row @ Value::Object(_)) => Ok(row),
        Some(_) => Err(format!(
            "config.provided_data is neither a record nor a list of them: {fix}"
        )),
    }
}

/// An id as text: a string as it is, a number written.
fn id_text(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The answer to `request` whose record `record` was judged as `submitted`.
pub fn answer(request: &Submit, record: &Record, submitted: &Submitted) -> EvalResult {
    let result = &submitted.result;
    let tests = match &submitted.report {
        Some(report) if report.verdict == Verdict::Ce => {
            (0..result.total).map(|_| not_compiled(report)).collect()
        }
        Some(report) => report.cases.iter().map(test_case).collect(),
        None => Vec::new(),
    };
    EvalResult {
        id: request.id.clone(),
        accepted: result.verdict == Some(Verdict::Ac),
        extracted_code: submitted.code.clone().unwrap_or_default(),
        full_code: None,
        test_code: None,
        tests,
        extracted_type: match (&submitted.code, submitted.fenced) {
            (Err(_), _) => Some("empty"),
            (Ok(_), true) => Some("fenced"),
            (Ok(_), false) => None,
        },
        extra: serde_json::json!({
            "problem": record.id,
            "verdict": result.verdict.map(|v| v.to_string()),
            "passed": result.passed,
            "total": result.total,
            "reason": result.reason,
            "time_limit_ms": record.spec.time.as_millis() as u64,
            "memory_limit_bytes": record.spec.memory_bytes,
        }),
    }
}

/// Every test of a source that did not compile: the compiler's failure, nothing run.
fn not_compiled(report: &SolutionReport) -> EvalTestCase {
    EvalTestCase {
        passed: false,
        exec_info: RunCodeResponse {
            status: RunStatus::Failed,
            message: String::new(),
            compile_result: Some(CommandResult {
                status: CommandStatus::Finished,
                execution_time: Some(report.compile.duration.as_secs_f64()),
                cpu_time: None,
                return_code: Some(1),
                stdout: Some(String::new()),
                stderr: report.compile.diagnostics.clone(),
                memory_bytes: None,
            }),
            run_result: None,
            files: Default::default(),
        },
        test_info: serde_json::json!({ "verdict": "CE" }),
    }
}

/// A test as it ran: its run in SandboxFusion's shape, the judge's verdict in `test_info`.
fn test_case(case: &CaseReport) -> EvalTestCase {
    let detail = case.reason.as_ref().map(ToString::to_string);
    let test_info = serde_json::json!({
        "test": case.name,
        "verdict": case.verdict.to_string(),
        "time_ms": case.cpu.as_millis() as u64,
        "memory_kb": case.memory_bytes / 1024,
        "detail": detail,
    });
    if case.verdict == Verdict::Ie {
        let why = detail.unwrap_or_else(|| "the judge failed".into());
        return EvalTestCase {
            passed: false,
            exec_info: RunCodeResponse::sandbox_error(format!(
                "the test could not be judged: {why}"
            )),
            test_info,
        };
    }
    let return_code = match &case.reason {
        Some(Reason::ExitCode(code)) => Some(*code),
        // Minus the signal, as Python's subprocess (and so SandboxFusion) reports it.
        Some(Reason::Signal(signal)) => Some(-signal),
        Some(Reason::Memory { killed: true }) => Some(-9),
        _ if matches!(case.verdict, Verdict::Ac | Verdict::Wa) => Some(0),
        _ => None,
    };
    let tle = case.verdict == Verdict::Tle;
    let ran_well = !tle && return_code == Some(0);
    EvalTestCase {
        passed: case.verdict == Verdict::Ac,
        exec_info: RunCodeResponse {
            status: if ran_well {
                RunStatus::Success
            } else {
                RunStatus::Failed
            },
            message: match case.verdict {
                Verdict::Ac => String::new(),
                v => match &detail {
                    Some(d) => format!("{v}: {d}"),
                    None => v.to_string(),
                },
            },
            compile_result: None,
            run_result: Some(CommandResult {
                status: if tle {
                    CommandStatus::TimeLimitExceeded
                } else {
                    CommandStatus::Finished
                },
                execution_time: Some(case.wall.as_secs_f64()),
                cpu_time: Some(case.cpu.as_secs_f64()),
                return_code,
                stdout: None,
                stderr: case.stderr.clone(),
                memory_bytes: Some(case.memory_bytes),
            }),
            files: Default::default(),
        },
        test_info,
    }
}
