//! The launcher: a small process beside the runner that starts every program with a vfork, so a start costs what `posix_spawn` costs and passes on only a small footprint.
//!
//! Why not fork from the runner: a fork copies the runner's page tables, the child then faults
//! in every page it touches before `execve`, and `execve` tears it all down again: on a virtual
//! machine that cost 0.3 to 0.5 ms per program, as much as a small program's whole run. Why not
//! vfork from the runner itself: the peak resident size `wait4` reports is never below that of
//! the address space the program executed from, and the runner's is about 2.4 MiB, where a C
//! program's own is 1.1 MiB. The launcher is cloned from the runner when it starts serving and
//! touches few pages after that (about 1.1 MiB resident in all, the runner's private pages
//! mostly), so only a program smaller than that (a static one) reads more than its own.
//!
//! The launcher shares the runner's descriptor table and a page of memory for the plan; each
//! program is the runner's child (`CLONE_PARENT`), born in the runner's pids cgroup, which the
//! launcher joined. A launcher that died or was stopped (a program may signal it where Landlock
//! cannot scope signals) is replaced at the next start.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::protocol::{Limits, Request};
use super::sys::{self, Pid, Plan, Rlimit, Shared, Started, Step};

/// What `ps` shows for the launcher.
const NAME: &CStr = c"judge-launcher";
/// How often a start that is taking long looks whether the launcher was stopped.
const PATIENCE_MS: i32 = 100;

/// A live launcher, owned by the runner.
pub(super) struct Launcher {
    pid: Pid,
    pidfd: Option<OwnedFd>,
    shared: Shared,
    /// The runner's ends of the two pipes.
    go: File,
    done: File,
    /// The launcher's ends: held here, as the descriptor table is one for both.
    _launcher_ends: [OwnedFd; 2],
    /// `cgroup.procs` of the runner's pids cgroup, for a replacement to join.
    procs: Option<File>,
    /// Killed and reaped: its pid may be another process's by now.
    ended: bool,
}

impl Launcher {
    /// Clones the launcher from this (single-threaded) runner; it joins the pids cgroup whose
    /// `cgroup.procs` is `procs`, so that every program is born there.
    pub(super) fn start(procs: Option<&File>) -> io::Result<Launcher> {
        let procs = procs.map(File::try_clone).transpose()?;
        let shared = Shared::new()?;
        let (go_read, go) = sys::pipe()?;
        let (done, done_write) = sys::pipe()?;
        let runner = sys::getpid();
        let Some(pid) = sys::clone_sharing_files()? else {
            // The launcher: it never returns from here.
            sys::die_with_parent();
            if sys::getppid() != runner {
                sys::exit_now(0);
            }
            if let Some(mut p) = procs.as_ref() {
                // Failing only loses the cap on processes: programs still run.
                let _ = p.write_all(b"0");
            }
            sys::set_name(NAME);
            sys::serve_launches(&shared, go_read.as_raw_fd(), done_write.as_raw_fd());
        };
        Ok(Launcher {
            pid,
            pidfd: sys::pidfd_open(pid),
            shared,
            go: File::from(go),
            done: File::from(done),
            _launcher_ends: [go_read, done_write],
            procs,
            ended: false,
        })
    }

    /// The launcher's pid: a child of the runner that is not a program's.
    pub(super) fn pid(&self) -> Pid {
        self.pid
    }

    /// Starts `program` with `stdio` (stdin, stdout, stderr), in the Landlock ruleset open as
    /// `landlock` (-1: none); `ignore_sigpipe` as [`Plan::ignore_sigpipe`] says. The program
    /// is this process's child, already executing when this returns.
    pub(super) fn launch(
        &mut self,
        program: &Program,
        stdio: [RawFd; 3],
        landlock: RawFd,
        ignore_sigpipe: bool,
    ) -> io::Result<Pid> {
        let plan = Plan {
            path: &program.path,
            argv: &program.argv,
            envp: &program.envp,
            cwd: &program.cwd,
            stdio,
            rlimits: &program.rlimits,
            landlock,
            runner: sys::getpid(),
            ignore_sigpipe,
        };
        // A second attempt with a new launcher, should this one have been killed or stopped
        // before it made the child (after, the child is started: it may be what killed it).
        let mut started = None;
        for attempt in 0..2 {
            if self.gone() {
                // Reaped before the next is made; dropping it then does nothing more.
                self.end();
                *self = Launcher::start(self.procs.as_ref())?;
            }
            self.shared.lay_out(&plan)?;
            self.go.write_all(&[1])?;
            let done = self.wait_done();
            started = self.shared.started();
            match (done, &started) {
                (Ok(()), _) | (Err(Lost), Some(_)) => break,
                (Err(Lost), None) if attempt == 0 => continue,
                (Err(Lost), None) => {}
            }
        }
        match started {
            Some(Started::Running(pid)) => Ok(pid),
            Some(Started::Failed { step, error, pid }) => {
                if let Some(pid) = pid {
                    sys::wait4(pid);
                }
                Err(explain(step, error, program))
            }
            None => Err(io::Error::other(
                "the launcher was stopped or killed twice before it could start the program",
            )),
        }
    }

    /// Waits for the launcher's done; `Lost` (and the launcher ended) if it exited or was
    /// stopped meanwhile.
    fn wait_done(&mut self) -> Result<(), Lost> {
        let pidfd = self.pidfd.as_ref().map_or(-1, |f| f.as_raw_fd());
        loop {
            let mut fds = [sys::poll_fd(self.done.as_raw_fd()), sys::poll_fd(pidfd)];
            if sys::poll(&mut fds, PATIENCE_MS) < 0 {
                continue;
            }
            if fds[0].revents != 0 {
                let mut byte = [0u8];
                if io::Read::read_exact(&mut self.done, &mut byte).is_ok() {
                    return Ok(());
                }
            }
            // Without a pidfd (kernel older than 5.3) the timeout is the only look.
            if fds[1].revents != 0 || state(self.pid) != State::Running {
                self.end();
                return Err(Lost);
            }
        }
    }

    /// Whether the launcher has exited (a stopped one shows while a start waits for it).
    fn gone(&self) -> bool {
        if self.ended {
            return true;
        }
        match &self.pidfd {
            Some(fd) => {
                let mut fds = [sys::poll_fd(fd.as_raw_fd())];
                sys::poll(&mut fds, 0) > 0
            }
            None => state(self.pid) == State::Gone || sys::exited_unreaped(self.pid, false),
        }
    }

    /// Kills and reaps the launcher (it may be gone already, even reaped by a sweep); once.
    fn end(&mut self) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        match &self.pidfd {
            Some(fd) => {
                sys::pidfd_kill(fd.as_raw_fd());
                sys::pidfd_reap(fd.as_raw_fd());
            }
            None => {
                sys::kill(self.pid, libc::SIGKILL);
                sys::wait4(self.pid);
            }
        }
    }
}

impl Drop for Launcher {
    fn drop(&mut self) {
        // Before the descriptors close: they are the launcher's too. And before the pids cgroup
        // is removed, which only an empty one can be.
        self.end();
    }
}

/// The launcher went away during a start.
struct Lost;

#[derive(PartialEq, Eq)]
enum State {
    Running,
    Stopped,
    Gone,
}

/// The launcher's state, from `/proc/PID/stat`: stopped (by a signal or a tracer), or gone (a
/// zombie, or no such process: reaped already).
fn state(pid: Pid) -> State {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return State::Gone;
    };
    match stat
        .rfind(')')
        .and_then(|i| stat[i + 1..].split_whitespace().next())
    {
        Some("T") | Some("t") => State::Stopped,
        Some("Z") | Some("X") | None => State::Gone,
        Some(_) => State::Running,
    }
}

/// What a failed start says, in the words of the step that failed.
fn explain(step: Step, error: io::Error, program: &Program) -> io::Error {
    let what = match step {
        Step::Exec | Step::Clone => return error,
        Step::Streams => "setting up its standard streams".to_string(),
        Step::Folder => format!("entering {}", program.cwd.to_string_lossy()),
        Step::Group => "giving it a process group".to_string(),
        Step::Limits => "setting its limits".to_string(),
        Step::Sandbox => "entering the sandbox".to_string(),
    };
    io::Error::new(error.kind(), format!("{what}: {error}"))
}

/// A request's program as the launcher starts it: found on the PATH, its arguments,
/// environment and folder as C strings, its limits as resource limits.
pub(super) struct Program {
    path: CString,
    argv: Vec<CString>,
    envp: Vec<CString>,
    cwd: CString,
    rlimits: Vec<Rlimit>,
}

impl Program {
    pub(super) fn of(req: &Request) -> io::Result<Program> {
        let c = |s: &OsStr| {
            CString::new(s.as_bytes()).map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{} holds a NUL byte", s.to_string_lossy()),
                )
            })
        };
        let env: Vec<(OsString, OsString)> = match &req.env {
            Some(vars) => vars.iter().map(|(k, v)| (k.into(), v.into())).collect(),
            None => std::env::vars_os().collect(),
        };
        let search = match (&req.env, env.iter().find(|(k, _)| k == "PATH")) {
            (_, Some((_, path))) => path.clone(),
            // As execvp does with no PATH at all.
            (Some(_), None) => OsString::from("/bin:/usr/bin"),
            (None, None) => OsString::new(),
        };
        let path = find(&req.program, &search)?;
        let mut argv = vec![c(req.program.as_os_str())?];
        for a in &req.args {
            argv.push(c(OsStr::new(a))?);
        }
        let envp = env
            .iter()
            .map(|(k, v)| {
                let mut kv = k.clone();
                kv.push("=");
                kv.push(v);
                c(&kv)
            })
            .collect::<io::Result<_>>()?;
        Ok(Program {
            path: c(path.as_os_str())?,
            argv,
            envp,
            cwd: c(req.cwd.as_os_str())?,
            rlimits: rlimits(&req.limits),
        })
    }
}

/// `program` itself when it names a path, else the first executable file of that name in
/// the folders of `search` (a PATH).
fn find(program: &Path, search: &OsStr) -> io::Result<PathBuf> {
    if program.as_os_str().as_bytes().contains(&b'/') {
        return Ok(program.to_path_buf());
    }
    std::env::split_paths(search)
        .map(|dir| dir.join(program))
        .find(|p| fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
        .ok_or_else(|| io::Error::from_raw_os_error(libc::ENOENT))
}

fn rlimits(limits: &Limits) -> Vec<Rlimit> {
    let mut out = vec![(sys::RLIMIT_CORE, 0)];
    if let Some(ms) = limits.cpu_ms {
        // Whole seconds only: a backstop should the runner itself stall; the runner's
        // sampling is what ends a program at the limit.
        out.push((sys::RLIMIT_CPU, ms.div_ceil(1000) + 1));
    }
    if let Some(b) = limits.address_space_bytes {
        out.push((sys::RLIMIT_AS, b));
    }
    if let Some(b) = limits.stack_bytes {
        out.push((sys::RLIMIT_STACK, b));
    }
    if let Some(b) = limits.file_size_bytes {
        out.push((sys::RLIMIT_FSIZE, b));
    }
    if let Some(n) = limits.open_files {
        out.push((sys::RLIMIT_NOFILE, n));
    }
    out
}
