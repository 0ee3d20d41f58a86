//! Running programs: the judge's side of the runner process, and Ctrl-C. The only module with `unsafe`.
//!
//! Every program (solutions and the compiler alike) is started by a runner process (the judge's
//! own executable started as `judge __runner`), see [`server`]. The judge talks to it over a
//! pipe, one JSON line per run.

pub mod protocol;
pub mod server;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

pub use protocol::{KilledBy, Limits, Outcome, Request, Response};

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("cannot start the runner process (`{} {RUNNER_ARG}`): {source}", path.display())]
    NoRunner {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the runner process failed: {0}")]
    Broken(String),
}

/// The hidden first argument that makes the judge's executable serve as a runner.
pub const RUNNER_ARG: &str = "__runner";

/// A live runner process. Runs one program at a time.
pub struct Runner {
    child: Child,
    to: Option<ChildStdin>,
    from: BufReader<ChildStdout>,
    line: String,
}

impl Runner {
    /// Starts a runner: the current executable, which must call [`runner_main`] when its first
    /// argument is [`RUNNER_ARG`] (the `judge` binary does).
    pub fn start() -> Result<Runner, RunError> {
        let path = std::env::current_exe().map_err(|source| RunError::NoRunner {
            path: PathBuf::from("judge"),
            source,
        })?;
        let mut child = Command::new(&path)
            .arg(RUNNER_ARG)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            // Its own process group: Ctrl-C reaches only the judge, which then stops runners in order.
            .process_group(0)
            .spawn()
            .map_err(|source| RunError::NoRunner {
                path: path.clone(),
                source,
            })?;
        let to = child.stdin.take().expect("piped");
        let from = BufReader::new(child.stdout.take().expect("piped"));
        interrupt::register_runner(child.id());
        Ok(Runner {
            child,
            to: Some(to),
            from,
            line: String::new(),
        })
    }

    /// Runs one program to completion (or to its limits) and returns what was measured.
    pub fn run(&mut self, request: &Request) -> Result<Response, RunError> {
        let mut text =
            serde_json::to_string(request).map_err(|e| RunError::Broken(e.to_string()))?;
        text.push('\n');
        let to = self.to.as_mut().expect("open until drop");
        to.write_all(text.as_bytes())
            .and_then(|_| to.flush())
            .map_err(|e| RunError::Broken(format!("sending a request: {e}")))?;
        self.line.clear();
        let n = self
            .from
            .read_line(&mut self.line)
            .map_err(|e| RunError::Broken(format!("reading a response: {e}")))?;
        if n == 0 {
            interrupt::wait_if_interrupted();
            return Err(RunError::Broken("the runner exited unexpectedly".into()));
        }
        serde_json::from_str(&self.line).map_err(|e| RunError::Broken(format!("bad response: {e}")))
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        // Closing its stdin tells the runner to finish; it has nothing running between requests.
        drop(self.to.take());
        let _ = self.child.wait();
        interrupt::unregister_runner(self.child.id());
    }
}

/// Human name of a signal number: "SIGSEGV".
pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return format!("signal {sig}"),
    };
    name.to_string()
}

pub use libc::{SIGABRT, SIGBUS, SIGKILL, SIGSEGV, SIGXCPU, SIGXFSZ};

/// The body of the runner process: call it from `main` when the first argument is [`RUNNER_ARG`].
pub fn runner_main() -> i32 {
    server::serve()
}

/// Whether the child `pid` has exited, leaving it unreaped for whoever reaps it (`wait4` with
/// its rusage); `block` waits until it has.
pub(crate) fn exited_unreaped(pid: libc::pid_t, block: bool) -> bool {
    let flags = libc::WEXITED | libc::WNOWAIT | if block { 0 } else { libc::WNOHANG };
    // SAFETY: siginfo_t is plain old data; WNOWAIT leaves the zombie to its owner.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) == 0 && info.si_pid() != 0
    }
}

/// Whether this process runs as root (the judge's guards differ: RLIMIT_NPROC, permissions).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

pub mod interrupt {
    //! Ctrl-C: stop every runner (each kills its program's whole tree), remove the temp dirs, exit 130.

    use super::*;

    static RUNNERS: Mutex<Vec<u32>> = Mutex::new(Vec::new());
    static TEMP_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

    /// Installs the handler; call once at start-up.
    pub fn install() {
        let _ = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
            let runners = RUNNERS.lock().map(|r| r.clone()).unwrap_or_default();
            for &pid in &runners {
                // SAFETY: plain syscall.
                unsafe {
                    libc::kill(pid as libc::pid_t, libc::SIGTERM);
                }
            }
            for &pid in &runners {
                exited_unreaped(pid as libc::pid_t, true);
            }
            for dir in TEMP_DIRS.lock().map(|d| d.clone()).unwrap_or_default() {
                let _ = std::fs::remove_dir_all(dir);
            }
            eprintln!("\ninterrupted: every program of this run was stopped");
            std::process::exit(130);
        });
    }

    /// Whether Ctrl-C was pressed (the handler is then finishing the process).
    pub fn wait_if_interrupted() {
        if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
            // The handler thread exits the process; do not race it with an error message.
            loop {
                std::thread::park();
            }
        }
    }

    pub(super) fn register_runner(pid: u32) {
        if let Ok(mut r) = RUNNERS.lock() {
            r.push(pid);
        }
    }

    pub(super) fn unregister_runner(pid: u32) {
        if let Ok(mut r) = RUNNERS.lock() {
            r.retain(|&p| p != pid);
        }
    }

    /// A temp dir to remove should the run be interrupted.
    pub fn register_temp_dir(dir: &Path) {
        if let Ok(mut d) = TEMP_DIRS.lock() {
            d.push(dir.to_path_buf());
        }
    }

    pub fn unregister_temp_dir(dir: &Path) {
        if let Ok(mut d) = TEMP_DIRS.lock() {
            d.retain(|p| p != dir);
        }
    }
}
