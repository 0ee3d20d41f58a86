//! Running programs: the judge's side of the runner process, the seam the engine calls, and Ctrl-C.
//!
//! Every program (solutions, checkers, generators and compilers alike) is started by a runner
//! process (the judge's own executable started as `judge __runner`), see [`server`]. The judge
//! talks to it over a pipe, one JSON line per run. The engine sees only the [`Executor`] trait,
//! so its scheduling rules can be tested against a scripted fake.
//!
//! The raw system calls live in [`sys`], the one module of the crate with `unsafe`.

mod cgroup;
mod interact;
pub mod interrupt;
mod landlock;
mod launch;
mod place;
pub mod protocol;
mod sandbox;
mod seccomp;
pub mod server;
mod stop;
mod sweep;
// The one module with `unsafe`: the raw system calls, each wrapped in a safe function.
#[allow(unsafe_code)]
mod sys;
mod tail;
mod watch;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

pub use cgroup::{pids_parent, MAX_PROCESSES};
use protocol::Hello;
pub use protocol::{
    Access, KilledBy, Limits, Missing, NamedFile, Outcome, Partner, PartnerResponse, Request,
    Response, Sandbox,
};
pub use sweep::{descendants, remove_folder};
pub use sys::{end_stdout, is_root};

/// The Landlock ABI version this kernel offers (an error where it has none): whether programs
/// can be sandboxed here, for a probe.
pub fn landlock_abi() -> std::io::Result<i32> {
    sys::landlock_abi()
}

/// Free bytes on the file system that holds `dir`, when it can be told.
pub fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::fd::AsRawFd;
    let folder = std::fs::File::open(dir).ok()?;
    sys::free_space(folder.as_raw_fd()).map(|(bytes, _)| bytes)
}

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

/// Runs one program to completion (or to its limits) and says what was measured: the seam
/// between the engine and the processes. [`Runner`] is the real one.
///
/// Requests are served in the order they are sent, one at a time: a request sent before the
/// response to the previous one is read waits, and starts as soon as that one is done, so the
/// engine can check one case while the next one runs.
pub trait Executor: Send {
    /// Queues `request` behind those sent before it.
    fn send(&mut self, request: Request) -> Result<(), RunError>;

    /// The oldest request not yet answered, with its response.
    fn receive(&mut self) -> Result<(Request, Response), RunError>;

    /// The requests sent and not yet answered, oldest first.
    fn pending(&self) -> &[Request];

    /// Runs `request` alone. Responses still owed for requests sent ahead (a run that ended
    /// before it read them) are read and dropped first.
    fn run(&mut self, request: &Request) -> Result<Response, RunError> {
        while !self.pending().is_empty() {
            self.receive()?;
        }
        self.send(request.clone())?;
        Ok(self.receive()?.1)
    }

    /// What isolates the programs it runs (nothing, unless it says otherwise).
    fn sandbox(&self) -> Sandbox {
        Sandbox::default()
    }
}

/// Makes an executor for each slot of a judge (one per case run at once).
pub type ExecutorFactory = Box<dyn Fn() -> Result<Box<dyn Executor>, RunError> + Send + Sync>;

/// The factory of real runner processes, sandboxing their programs or (the user's
/// `--no-sandbox`, for one run) not.
pub fn runners(sandboxed: bool) -> ExecutorFactory {
    Box::new(move || Ok(Box::new(Runner::start(sandboxed)?) as Box<dyn Executor>))
}

/// The factory of real runner processes, as [`runners`], each runner's process id told to
/// `started`: what [`stop_runner`] stops (a service stops the program of a client gone away).
pub fn runners_noted(
    sandboxed: bool,
    started: std::sync::Arc<dyn Fn(u32) + Send + Sync>,
) -> ExecutorFactory {
    Box::new(move || {
        let runner = Runner::start(sandboxed)?;
        started(runner.child.id());
        Ok(Box::new(runner) as Box<dyn Executor>)
    })
}

/// Stops the runner `pid` as Ctrl-C does (SIGTERM): it kills its program's whole tree and
/// exits, and the judge holding it hears it broken (it must not be used again).
pub fn stop_runner(pid: u32) {
    sys::kill(pid as sys::Pid, libc::SIGTERM);
}

/// The hidden first argument that makes the judge's executable serve as a runner.
pub const RUNNER_ARG: &str = "__runner";
/// After [`RUNNER_ARG`]: run programs without the sandbox.
const NO_SANDBOX_ARG: &str = "--no-sandbox";

/// A live runner process. Runs one program at a time.
pub struct Runner {
    child: Child,
    to: Option<ChildStdin>,
    from: BufReader<ChildStdout>,
    line: String,
    sandbox: Sandbox,
    /// Requests sent and not yet answered, oldest first.
    pending: Vec<Request>,
}

impl Runner {
    /// Starts a runner: the current executable, which must call [`runner_main`] when its first
    /// argument is [`RUNNER_ARG`] (the `judge` binary does); `sandboxed`: its programs run in
    /// the sandbox.
    pub fn start(sandboxed: bool) -> Result<Runner, RunError> {
        let path = std::env::current_exe().map_err(|source| RunError::NoRunner {
            path: PathBuf::from("judge"),
            source,
        })?;
        let mut command = Command::new(&path);
        command.arg(RUNNER_ARG);
        if !sandboxed {
            command.arg(NO_SANDBOX_ARG);
        }
        let mut child = command
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
        let mut runner = Runner {
            child,
            to: Some(to),
            from,
            line: String::new(),
            sandbox: Sandbox::default(),
            pending: Vec::new(),
        };
        // The runner first says what isolates its programs.
        let hello: Hello = runner.read_as("its greeting")?;
        runner.sandbox = hello.sandbox;
        Ok(runner)
    }

    /// Reads one line from the runner: `what` it should be.
    fn read_as<T: serde::de::DeserializeOwned>(&mut self, what: &str) -> Result<T, RunError> {
        self.line.clear();
        let n = self
            .from
            .read_line(&mut self.line)
            .map_err(|e| RunError::Broken(format!("reading {what}: {e}")))?;
        if n == 0 {
            interrupt::wait_if_interrupted();
            return Err(RunError::Broken("the runner exited unexpectedly".into()));
        }
        serde_json::from_str(&self.line).map_err(|e| RunError::Broken(format!("bad {what}: {e}")))
    }
}

impl Executor for Runner {
    fn send(&mut self, request: Request) -> Result<(), RunError> {
        let mut text =
            serde_json::to_string(&request).map_err(|e| RunError::Broken(e.to_string()))?;
        text.push('\n');
        let to = self.to.as_mut().expect("open until drop");
        to.write_all(text.as_bytes())
            .and_then(|_| to.flush())
            .map_err(|e| RunError::Broken(format!("sending a request: {e}")))?;
        self.pending.push(request);
        interrupt::sent();
        Ok(())
    }

    fn receive(&mut self) -> Result<(Request, Response), RunError> {
        if self.pending.is_empty() {
            return Err(RunError::Broken(
                "a response to no request was awaited".into(),
            ));
        }
        let response = self.read_as("a response")?;
        interrupt::answered(1);
        Ok((self.pending.remove(0), response))
    }

    fn pending(&self) -> &[Request] {
        &self.pending
    }

    fn sandbox(&self) -> Sandbox {
        self.sandbox.clone()
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        // Closing its stdin tells the runner to finish once the requests it has are served;
        // those nobody will read (an error left them) are stopped instead, as by Ctrl-C.
        if !self.pending.is_empty() {
            sys::kill(self.child.id() as sys::Pid, libc::SIGTERM);
        }
        drop(self.to.take());
        let _ = self.child.wait();
        interrupt::answered(self.pending.len());
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

pub use libc::{SIGABRT, SIGBUS, SIGKILL, SIGPIPE, SIGSEGV, SIGXCPU, SIGXFSZ};

/// The body of the runner process: call it from `main` when the first argument is [`RUNNER_ARG`].
pub fn runner_main() -> i32 {
    let sandboxed = std::env::args_os()
        .nth(2)
        .is_none_or(|a| a != NO_SANDBOX_ARG);
    server::serve(sandboxed)
}
