//! The messages between the judge and its runner process: one JSON line each way per run.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Why the runner did not start a program: the step that failed and what the system said.
/// Sent to the judge as the text of `Outcome::SpawnFailed`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StartError {
    #[error("opening {}: {source}", path.display())]
    Open {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("creating {}: {source}", path.display())]
    Create {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("duplicating stdout: {0}")]
    DuplicateStdout(std::io::Error),
    #[error("creating the stderr pipe: {0}")]
    StderrPipe(std::io::Error),
    #[error("creating a pipe: {0}")]
    Pipe(std::io::Error),
    #[error("copying a pipe: {0}")]
    CopyPipe(std::io::Error),
    #[error("putting the files of {} in the working folder: {source}", folder.display())]
    PlaceFiles {
        folder: PathBuf,
        source: std::io::Error,
    },
    #[error("putting {} in the working folder as {name}: {source}", path.display())]
    PlaceInput {
        path: PathBuf,
        name: String,
        source: std::io::Error,
    },
    #[error("the sandbox could not be set up: {0}")]
    Sandbox(std::io::Error),
    #[error("starting {}: {source}", program.display())]
    Program {
        program: PathBuf,
        source: std::io::Error,
    },
    /// The interactive partner could not be started.
    #[error("the interactor: {0}")]
    Partner(Box<StartError>),
}

/// What to run and under which limits.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Request {
    pub program: PathBuf,
    #[serde(default)]
    pub args: Vec<String>,
    /// `None` inherits the runner's environment (the compiler needs it); solutions get `Some(vec![])`.
    pub env: Option<Vec<(String, String)>>,
    /// The program's working directory; emptied after the run when `clean_cwd` is set.
    pub cwd: PathBuf,
    pub clean_cwd: bool,
    /// `None` gives the program an empty stdin.
    pub stdin: Option<PathBuf>,
    /// Created afresh (an existing file is removed first) for the program's stdout.
    pub stdout: PathBuf,
    /// Receives what was kept of stderr: its head and tail. Not created (an old one is
    /// removed) when the program wrote nothing to stderr.
    pub stderr: PathBuf,
    pub limits: Limits,
    /// For a program that reads a named file: copied into `cwd` before the program starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_file: Option<NamedFile>,
    /// A folder whose contents (files and folders) are copied into `cwd` before the program
    /// starts: a test case's files (a Kattis package's `NAME.files/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<PathBuf>,
    /// For a program that writes a named file: after the run, before `cwd` is emptied, that
    /// file (when the program left a regular file there) is moved to `path`. An old `path` is
    /// removed first, so it exists afterwards only when the program wrote the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_file: Option<NamedFile>,
    /// What the program may touch beyond what every program gets, when the runner sandboxes it.
    #[serde(default)]
    pub access: Access,
    /// For an interactive problem: the program it talks with (the interactor), started beside
    /// it with their stdin and stdout crossed; both programs' `stdin` and `stdout` are unused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partner: Option<Box<Partner>>,
}

/// The other side of an interactive run, and how the two are connected.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Partner {
    pub request: Request,
    /// Where the runner, relaying every byte between the two, writes what each said (one
    /// line per line said: `SECONDS >TEXT` from the program, `SECONDS <TEXT` to it); `None`
    /// connects them directly, pipe to pipe, with nothing in between.
    pub transcript: Option<PathBuf>,
    /// When the partner exits first with another exit code than this one, the verdict is
    /// known (the program was rejected, or the partner failed): the program is stopped at once.
    pub accept_code: i32,
}

/// What the runner measured of the partner of an interactive run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PartnerResponse {
    pub response: Response,
    /// The partner's main process ended before the program's did.
    pub exited_first: bool,
    /// The transcript was cut at its size cap.
    pub transcript_cut: bool,
}

/// A file of the program's working folder, by its plain `name` there, and a `path` outside.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedFile {
    pub name: String,
    pub path: PathBuf,
}

/// The files a sandboxed program may use besides the system's own (libraries, `/dev/null`...),
/// its stdin and its stdout, which the runner grants itself. A folder covers all beneath it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    /// Read and execute: the program's build, its interpreter, the files a checker is given.
    #[serde(default)]
    pub read: Vec<PathBuf>,
    /// Read and write (create, remove), never execute: its working folder, a compiler's output.
    #[serde(default)]
    pub write: Vec<PathBuf>,
}

/// Limits for one run. Every `None` means "not limited".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// CPU time (user + sys); the runner kills the group when it is exceeded.
    pub cpu_ms: Option<u64>,
    /// Wall-clock cap; the runner kills the group when it is reached.
    pub wall_ms: u64,
    /// Resident memory of the main process; the runner kills the group when it is exceeded.
    pub memory_bytes: Option<u64>,
    /// RLIMIT_AS: a hard backstop far above `memory_bytes`.
    pub address_space_bytes: Option<u64>,
    /// RLIMIT_STACK.
    pub stack_bytes: Option<u64>,
    /// RLIMIT_FSIZE: the largest file the program may write, stdout included.
    pub file_size_bytes: Option<u64>,
    /// RLIMIT_NOFILE.
    pub open_files: Option<u64>,
    /// What the program may add to the folders it may write (`access.write`), each file
    /// counted as 4 KiB at least; the runner kills the group when it is exceeded. RLIMIT_FSIZE
    /// caps one file; this caps them all, so that no program fills the disk.
    #[serde(default)]
    pub folder_bytes: Option<u64>,
    /// How much of stderr to keep (half from the start, half from the end).
    pub stderr_keep_bytes: u64,
}

/// Who ended a program early. Kernel-enforced limits show as a signal instead
/// (SIGXFSZ for the file-size limit, SIGXCPU or SIGKILL for the CPU backstop).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KilledBy {
    WallCap,
    CpuLimit,
    MemoryLimit,
    FolderLimit,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Exited(i32),
    Signaled(i32),
    /// The program could not be started at all (missing binary, exec refused ...).
    SpawnFailed(String),
}

/// What the runner measured.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Response {
    pub outcome: Outcome,
    pub user_us: u64,
    pub sys_us: u64,
    pub wall_us: u64,
    /// Peak resident memory (ru_maxrss), in KiB.
    pub max_rss_kb: u64,
    pub killed_by: Option<KilledBy>,
    pub stdout_bytes: u64,
    pub stderr_bytes: u64,
    /// Processes the program left running after it exited; the runner killed them.
    pub leftover_processes: u32,
    /// Processes that would not die within the runner's patience (should never happen).
    pub unkillable_processes: u32,
    /// For an interactive run (`Request::partner`): what became of the partner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partner: Option<Box<PartnerResponse>>,
    /// The free space of the file system its stdout went to, the moment it ended: when none
    /// was left, a write of the program may have been refused through no fault of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_bytes_at_end: Option<u64>,
}

impl Response {
    pub fn cpu_us(&self) -> u64 {
        self.user_us + self.sys_us
    }

    /// A program that could not be started: nothing measured.
    pub fn not_started(why: String) -> Response {
        Response {
            outcome: Outcome::SpawnFailed(why),
            user_us: 0,
            sys_us: 0,
            wall_us: 0,
            max_rss_kb: 0,
            killed_by: None,
            stdout_bytes: 0,
            stderr_bytes: 0,
            leftover_processes: 0,
            unkillable_processes: 0,
            partner: None,
            free_bytes_at_end: None,
        }
    }
}

/// The first line a runner sends, before any request: what isolates the programs it starts.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Hello {
    pub sandbox: Sandbox,
}

/// What isolates the programs a runner starts from the rest of the machine: each of `files`,
/// `network` and `processes` is either isolated or missing, with why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Sandbox {
    /// In force: any of "files", "network", "processes", in that order.
    pub isolated: Vec<String>,
    /// Not in force, each with the reason.
    pub missing: Vec<Missing>,
}

/// An isolation that is not in force, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Missing {
    pub what: String,
    pub why: String,
}

impl Sandbox {
    /// The three isolations, in the order they are shown.
    pub const KINDS: [&'static str; 3] = ["files", "network", "processes"];

    /// Nothing isolated, for one reason.
    pub fn off(why: &str) -> Sandbox {
        Sandbox {
            isolated: Vec::new(),
            missing: Sandbox::KINDS
                .iter()
                .map(|k| Missing {
                    what: k.to_string(),
                    why: why.to_string(),
                })
                .collect(),
        }
    }

    /// Whether `kind` ("files", "network", "processes") is in force.
    pub fn isolates(&self, kind: &str) -> bool {
        self.isolated.iter().any(|k| k == kind)
    }
}

/// "files, network, processes"; or what is in force, then what is not and why, the kinds that
/// miss for one reason said together: "files; no network, processes: user namespaces ...";
/// "off (why)" when nothing is, for one reason.
impl std::fmt::Display for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.isolated.is_empty() && self.missing.is_empty() {
            return write!(f, "none");
        }
        let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
        for m in &self.missing {
            match reasons.iter_mut().find(|(why, _)| *why == m.why) {
                Some((_, kinds)) => kinds.push(&m.what),
                None => reasons.push((&m.why, vec![&m.what])),
            }
        }
        if let ([], [(why, _)]) = (self.isolated.as_slice(), reasons.as_slice()) {
            return write!(f, "off ({why})");
        }
        let mut parts = vec![if self.isolated.is_empty() {
            "none".to_string()
        } else {
            self.isolated.join(", ")
        }];
        for (why, kinds) in reasons {
            parts.push(format!("no {}: {why}", kinds.join(", ")));
        }
        write!(f, "{}", parts.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sandbox_says_what_is_in_force_and_why_the_rest_is_not() {
        let all = Sandbox {
            isolated: Sandbox::KINDS.iter().map(|k| k.to_string()).collect(),
            missing: Vec::new(),
        };
        assert_eq!(all.to_string(), "files, network, processes");
        let why = "user namespaces are not allowed here";
        let some = Sandbox {
            isolated: vec!["files".into()],
            missing: ["network", "processes"]
                .iter()
                .map(|k| Missing {
                    what: k.to_string(),
                    why: why.into(),
                })
                .collect(),
        };
        assert_eq!(
            some.to_string(),
            format!("files; no network, processes: {why}")
        );
        assert_eq!(
            Sandbox::off("--no-sandbox").to_string(),
            "off (--no-sandbox)"
        );
    }
}
