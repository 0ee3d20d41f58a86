//! Piston's API (`GET /api/v2/runtimes`, `POST /api/v2/execute`), as open-r1's rewards and
//! other clients of Piston call it: the languages installed here as Piston's runtimes, and a
//! run's answer in its shape (`run` and, for a compiled language, `compile`, each with
//! `stdout`, `stderr`, `output`, `code`, `signal`).

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use judge_core::verdict::Verdict;
use judge_ops::execute::{Built, Executed, Ran, Runtime};

use super::names;

/// One of Piston's runtimes.
#[derive(Debug, Serialize)]
pub struct PistonRuntime {
    pub language: String,
    pub version: String,
    pub aliases: Vec<String>,
}

/// The runtimes this machine has, as Piston lists them.
pub fn runtimes(installed: &[Runtime]) -> Vec<PistonRuntime> {
    installed
        .iter()
        .map(|r| PistonRuntime {
            language: r.language.id.clone(),
            version: r.version.clone(),
            aliases: names::piston_aliases(&r.language.id)
                .into_iter()
                .map(str::to_string)
                .collect(),
        })
        .collect()
}

/// A file of Piston's request: the first is the program.
#[derive(Debug, Deserialize)]
pub struct File {
    #[serde(default)]
    pub name: Option<String>,
    pub content: String,
    /// `utf8` (its default), `base64` or `hex`.
    #[serde(default)]
    pub encoding: Option<String>,
}

/// Piston's execute request.
#[derive(Debug, Deserialize)]
pub struct Execute {
    pub language: String,
    /// `*`, or the installed version.
    #[serde(default)]
    pub version: Option<String>,
    pub files: Vec<File>,
    #[serde(default)]
    pub stdin: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Milliseconds.
    #[serde(default)]
    pub compile_timeout: Option<i64>,
    /// Milliseconds: the CPU time the program may use here.
    #[serde(default)]
    pub run_timeout: Option<i64>,
    /// Bytes; -1: the service's own limit.
    #[serde(default)]
    pub compile_memory_limit: Option<i64>,
    #[serde(default)]
    pub run_memory_limit: Option<i64>,
}

impl File {
    /// Its bytes, decoded as its `encoding` says.
    pub fn bytes(&self) -> Result<Vec<u8>, String> {
        use base64::Engine as _;
        match self.encoding.as_deref().unwrap_or("utf8") {
            "utf8" => Ok(self.content.as_bytes().to_vec()),
            "base64" => base64::engine::general_purpose::STANDARD
                .decode(&self.content)
                .map_err(|e| format!("a file's content is not base64: {e}")),
            "hex" => (0..self.content.len())
                .step_by(2)
                .map(|i| {
                    self.content
                        .get(i..i + 2)
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                        .ok_or_else(|| "a file's content is not hex".to_string())
                })
                .collect(),
            other => Err(format!("unknown encoding `{other}` (utf8, base64 or hex)")),
        }
    }

    /// Where it goes in the working folder: its name, or `file{i}`.
    pub fn path(&self, i: usize) -> PathBuf {
        PathBuf::from(self.name.clone().unwrap_or_else(|| format!("file{i}")))
    }
}

/// One stage of Piston's answer.
#[derive(Debug, Serialize)]
pub struct Stage {
    pub stdout: String,
    pub stderr: String,
    /// stdout and stderr together (here: stdout, then stderr).
    pub output: String,
    pub code: Option<i32>,
    pub signal: Option<String>,
    /// Piston's short status where the stage did not end cleanly: `TO` (over its time), `SG`
    /// (a signal), `RE` (a non-zero exit), `OL` (too much output), `XX` (the service's fault).
    pub status: Option<&'static str>,
    pub message: Option<String>,
    pub cpu_time: u64,
    pub wall_time: u64,
    pub memory: Option<u64>,
}

/// Piston's answer.
#[derive(Debug, Serialize)]
pub struct Answer {
    pub language: String,
    pub version: String,
    pub run: Stage,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compile: Option<Stage>,
}

/// The judge's result in Piston's shape.
pub fn answer(executed: &Executed, version: &str) -> Answer {
    let compile = executed
        .language
        .compile
        .is_some()
        .then(|| compiled(&executed.build));
    let run = match &executed.run {
        Some(ran) => run(ran),
        // Piston answers a failed compile with an empty run of its own.
        None => Stage {
            stdout: String::new(),
            stderr: String::new(),
            output: String::new(),
            code: None,
            signal: None,
            status: None,
            message: None,
            cpu_time: 0,
            wall_time: 0,
            memory: None,
        },
    };
    Answer {
        language: executed.language.id.clone(),
        version: version.to_string(),
        run,
        compile,
    }
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

fn compiled(build: &Built) -> Stage {
    Stage {
        stdout: String::new(),
        stderr: build.log.clone(),
        output: build.log.clone(),
        code: (!build.timed_out).then_some(if build.ok { 0 } else { 1 }),
        signal: build.timed_out.then(|| "SIGKILL".to_string()),
        status: match (build.ok, build.timed_out) {
            (_, true) => Some("TO"),
            (false, false) => Some("RE"),
            (true, false) => None,
        },
        message: None,
        cpu_time: 0,
        wall_time: ms(build.duration),
        memory: None,
    }
}

fn run(ran: &Ran) -> Stage {
    let stdout = String::from_utf8_lossy(&ran.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&ran.stderr).into_owned();
    let status = match ran.verdict {
        Verdict::Tle => Some("TO"),
        Verdict::Ole => Some("OL"),
        Verdict::Ie => Some("XX"),
        _ if ran.signal.is_some() => Some("SG"),
        _ if ran.exit_code != Some(0) => Some("RE"),
        _ => None,
    };
    Stage {
        output: format!("{stdout}{stderr}"),
        stdout,
        stderr,
        code: ran.exit_code,
        signal: ran.signal.map(signal_name),
        status,
        message: (ran.verdict != Verdict::Ac && ran.verdict != Verdict::Re)
            .then(|| format!("{}: {}", ran.verdict, ran.reason)),
        cpu_time: ms(ran.cpu),
        wall_time: ms(ran.wall),
        memory: Some(ran.memory_bytes),
    }
}

/// A signal's name as Piston gives it (`SIGKILL`).
fn signal_name(signal: i32) -> String {
    let name = match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        _ => return format!("SIG{signal}"),
    };
    name.to_string()
}
