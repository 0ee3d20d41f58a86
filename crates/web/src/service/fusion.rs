//! SandboxFusion's API (`POST /run_code`), so that its own client and the frameworks built on
//! it (verl's code rewards) call the judge unchanged: its request read as it sends it, the
//! answer in its shapes (`status` Success, Failed or SandboxError; a compile result and a run
//! result, each Finished, Error or TimeLimitExceeded with its time, return code and streams).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use judge_core::verdict::Verdict;
use judge_ops::execute::{Built, Executed, Ran};

/// SandboxFusion's `RunCodeRequest`.
#[derive(Debug, Deserialize)]
pub struct RunCode {
    pub code: String,
    pub language: String,
    #[serde(default)]
    pub stdin: Option<String>,
    /// Seconds.
    #[serde(default = "ten")]
    pub compile_timeout: f64,
    /// Seconds: the CPU time the program may use here.
    #[serde(default = "ten")]
    pub run_timeout: f64,
    /// MiB; -1 (its default) or absent: the service's own limit.
    #[serde(default, rename = "memory_limit_MB")]
    pub memory_limit_mb: Option<i64>,
    /// Files put beside the program: relative path to base64 content (`null`: an empty file).
    #[serde(default)]
    pub files: BTreeMap<String, Option<String>>,
    /// Files of the working folder sent back, base64.
    #[serde(default)]
    pub fetch_files: Vec<String>,
}

fn ten() -> f64 {
    10.0
}

/// SandboxFusion's `RunStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RunStatus {
    Success,
    Failed,
    SandboxError,
}

/// SandboxFusion's `CommandRunStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CommandStatus {
    Finished,
    Error,
    TimeLimitExceeded,
}

/// SandboxFusion's `CommandRunResult`; `cpu_time` and `memory_bytes` are the judge's
/// measurements (its client ignores fields it does not know).
#[derive(Debug, Serialize)]
pub struct CommandResult {
    pub status: CommandStatus,
    pub execution_time: Option<f64>,
    pub cpu_time: Option<f64>,
    pub return_code: Option<i32>,
    pub stdout: Option<String>,
    pub stderr: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<u64>,
}

/// SandboxFusion's `RunCodeResponse`.
#[derive(Debug, Serialize)]
pub struct RunCodeResponse {
    pub status: RunStatus,
    pub message: String,
    pub compile_result: Option<CommandResult>,
    pub run_result: Option<CommandResult>,
    pub files: BTreeMap<String, String>,
}

impl RunCodeResponse {
    /// An answer of the service's own failure (a language not here, a runner lost): its
    /// client raises it as an exception with `message`.
    pub fn sandbox_error(message: String) -> RunCodeResponse {
        RunCodeResponse {
            status: RunStatus::SandboxError,
            message,
            compile_result: None,
            run_result: None,
            files: BTreeMap::new(),
        }
    }
}

/// The request's files decoded: a path that is not base64 is named.
pub fn files(request: &RunCode) -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
    let engine = base64::engine::general_purpose::STANDARD;
    request
        .files
        .iter()
        .map(|(path, content)| {
            // Refused before anything runs: a name that leads out of the working folder.
            let path = judge_ops::execute::relative(std::path::Path::new(path))
                .map_err(|e| e.to_string())?;
            let bytes = match content {
                Some(text) => engine
                    .decode(text)
                    .map_err(|e| format!("files[{path:?}] is not base64: {e}"))?,
                None => Vec::new(),
            };
            Ok((path.to_path_buf(), bytes))
        })
        .collect()
}

/// The judge's result in SandboxFusion's shapes.
pub fn answer(executed: &Executed) -> RunCodeResponse {
    // An interpreted language's check (Python's py_compile) is no compile stage to
    // SandboxFusion: its failure is the run's, as the interpreter would have reported it.
    let check_only = executed.language.checks_only();
    let compile_result =
        (executed.language.compile.is_some() && !check_only).then(|| compiled(&executed.build));
    let Some(ran) = &executed.run else {
        let failed_check = check_only.then(|| failed_check(&executed.build));
        return RunCodeResponse {
            status: RunStatus::Failed,
            message: String::new(),
            compile_result,
            run_result: failed_check,
            files: BTreeMap::new(),
        };
    };
    if ran.verdict == Verdict::Ie {
        return RunCodeResponse::sandbox_error(format!(
            "the program could not run: {}",
            ran.reason
        ));
    }
    let run_result = run(ran);
    let success = run_result.status == CommandStatus::Finished && run_result.return_code == Some(0);
    let engine = base64::engine::general_purpose::STANDARD;
    RunCodeResponse {
        status: if success {
            RunStatus::Success
        } else {
            RunStatus::Failed
        },
        message: match ran.verdict {
            Verdict::Ac | Verdict::Re => String::new(),
            _ => format!("{}: {}", ran.verdict, ran.reason),
        },
        compile_result,
        run_result: Some(run_result),
        files: executed
            .fetched
            .iter()
            .filter_map(|(path, bytes)| {
                let bytes = bytes.as_ref()?;
                Some((path.display().to_string(), engine.encode(bytes)))
            })
            .collect(),
    }
}

fn seconds(d: Duration) -> Option<f64> {
    Some(d.as_secs_f64())
}

fn compiled(build: &Built) -> CommandResult {
    CommandResult {
        status: match build.timed_out {
            true => CommandStatus::TimeLimitExceeded,
            false => CommandStatus::Finished,
        },
        execution_time: seconds(build.duration),
        cpu_time: None,
        return_code: (!build.timed_out).then_some(if build.ok { 0 } else { 1 }),
        stdout: Some(String::new()),
        stderr: Some(build.log.clone()),
        memory_bytes: None,
    }
}

/// An interpreter's check that failed, as the run that would have failed.
fn failed_check(build: &Built) -> CommandResult {
    CommandResult {
        status: CommandStatus::Finished,
        execution_time: seconds(build.duration),
        cpu_time: None,
        return_code: Some(1),
        stdout: Some(String::new()),
        stderr: Some(build.log.clone()),
        memory_bytes: None,
    }
}

fn run(ran: &Ran) -> CommandResult {
    CommandResult {
        status: match ran.verdict {
            Verdict::Tle => CommandStatus::TimeLimitExceeded,
            _ => CommandStatus::Finished,
        },
        execution_time: seconds(ran.wall),
        cpu_time: seconds(ran.cpu),
        // Killed by a signal: minus the signal, as Python's subprocess (and so SandboxFusion)
        // reports it.
        return_code: match ran.verdict {
            Verdict::Tle => None,
            _ => ran.exit_code.or(ran.signal.map(|s| -s)),
        },
        stdout: Some(String::from_utf8_lossy(&ran.stdout).into_owned()),
        stderr: Some(String::from_utf8_lossy(&ran.stderr).into_owned()),
        memory_bytes: Some(ran.memory_bytes),
    }
}
