//! The runner process: starts each program through its launcher, enforces limits, reaps with wait4, kills whatever the program left behind.
//!
//! It is a separate process (the judge's executable started as `judge __runner`, which serves
//! before anything else is loaded) because `ru_maxrss` can never be lower than the resident
//! size of the address space a program executed from: starting programs from the judge itself
//! would add the judge's own footprint (outputs held in memory, databases...) to every figure.
//! Programs are started from the runner's launcher, smaller still ([`super::launch`]), as the
//! runner's own children. The runner is the child subreaper of everything it starts, so no
//! descendant can escape the final sweep, not even one that called `setsid()`.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::time::Instant;

use super::cgroup::PidsCgroup;
use super::landlock::Files;
use super::launch::{Launcher, Program};
use super::place::{place_input, take_output};
use super::protocol::{Hello, Limits, Outcome, Request, Response, StartError};
use super::sandbox;
use super::stop::{self, Interrupted};
use super::sweep::{clean_folder, leftovers_possible, sweep};
use super::sys::{self, Pid};
use super::tail::Tail;
use super::watch::Watch;

/// Entry point of the runner process: serve requests from stdin until it closes. `sandboxed`
/// false (`--no-sandbox`) runs programs as they are, with the judge's own rights.
pub fn serve(sandboxed: bool) -> i32 {
    // If the judge dies without a word, stdin closes and we clean up; SIGTERM is its
    // explicit "stop now" (Ctrl-C), taken through a signalfd while a program runs.
    sys::become_subreaper();
    let stop = match sys::stop_signals_fd() {
        Ok(fd) => fd,
        Err(e) => {
            eprintln!("judge runner: signalfd: {e}");
            return 3;
        }
    };
    // Dropped (removed) when serving ends, on every path out of this function: made before
    // the namespaces, so it is named after the runner the judge started, which removes it.
    let cgroup = PidsCgroup::create();
    let setup = match sandbox::enter(sandboxed) {
        sandbox::Entered::Serve(setup) => setup,
        sandbox::Entered::Relay(inner) => return relay(inner, &stop),
    };
    // Inside the namespaces and under the seccomp filter, as the programs it starts. Dropped
    // (killed) before the cgroup, which must be empty to be removed.
    let mut launcher = match Launcher::start(cgroup.as_ref().map(|c| &c.procs)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("judge runner: cannot start the launcher: {e}");
            return 3;
        }
    };
    // Its own buffer, not the standard one, so that a request read ahead with the one before
    // it (the judge sends the next case while it checks the last) is seen before waiting.
    let mut requests = match io::stdin().as_fd().try_clone_to_owned() {
        Ok(fd) => BufReader::new(File::from(fd)),
        Err(e) => {
            eprintln!("judge runner: its stdin: {e}");
            return 3;
        }
    };
    let mut stdout = io::stdout().lock();
    let hello = Hello {
        sandbox: setup.status.clone(),
    };
    let mut text = serde_json::to_string(&hello).expect("the greeting always serialises");
    text.push('\n');
    if stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
        .is_err()
    {
        return 0;
    }
    let mut line = String::new();
    loop {
        line.clear();
        if requests.buffer().is_empty() && !wait_for_request(&stop) {
            return 130;
        }
        match requests.read_line(&mut line) {
            Ok(0) => return 0,
            Ok(_) => {}
            Err(e) => {
                eprintln!("judge runner: reading a request: {e}");
                return 3;
            }
        }
        let request: Request = match serde_json::from_str(&line) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("judge runner: malformed request: {e}");
                return 3;
            }
        };
        let response = match run(&request, &stop, &mut launcher, setup.files.as_ref()) {
            Ok(r) => r,
            Err(Interrupted) => {
                sweep(launcher.pid());
                return 130;
            }
        };
        let mut text = serde_json::to_string(&response).expect("responses always serialise");
        text.push('\n');
        if stdout
            .write_all(text.as_bytes())
            .and_then(|_| stdout.flush())
            .is_err()
        {
            sweep(launcher.pid());
            return 0;
        }
        // For the next program, if the last one did not (an interactive pair, a failed start).
        if let Some(files) = setup.files.as_ref() {
            files.prepare();
        }
    }
}

/// The outer half of a sandboxed runner: waits for the runner inside the namespaces (`inner`),
/// passing on the judge's stop signal, and ends as it ends.
fn relay(inner: Pid, stop: &OwnedFd) -> i32 {
    let pidfd = sys::pidfd_open(inner);
    loop {
        let mut fds = [
            sys::poll_fd(pidfd.as_ref().map_or(-1, |f| f.as_raw_fd())),
            sys::poll_fd(stop.as_raw_fd()),
        ];
        // Without a pidfd (kernel older than 5.3), look for the exit now and then.
        let timeout = if pidfd.is_some() { -1 } else { 50 };
        if sys::poll(&mut fds, timeout) < 0 {
            continue;
        }
        if fds[1].revents != 0 && stop::requested(stop) {
            sys::kill(inner, libc::SIGTERM);
        }
        if fds[0].revents != 0 || pidfd.is_none() && sys::exited_unreaped(inner, false) {
            let reaped = sys::wait4(inner);
            return match reaped.signal() {
                Some(sig) => 128 + sig,
                None => reaped.exit_code(),
            };
        }
    }
}

/// Blocks until a request arrives (true) or a stop signal does (false).
fn wait_for_request(stop: &OwnedFd) -> bool {
    loop {
        let mut fds = [sys::poll_fd(0), sys::poll_fd(stop.as_raw_fd())];
        if sys::poll(&mut fds, -1) < 0 {
            continue;
        }
        if fds[1].revents != 0 && stop::requested(stop) {
            return false;
        }
        if fds[0].revents != 0 {
            return true;
        }
    }
}

/// The program's standard streams, opened before it starts.
struct Streams {
    /// The input file, or `/dev/null`.
    stdin: File,
    stdout: File,
    /// A second handle on stdout, to read its size once the program is done.
    stdout_probe: File,
    err_read: OwnedFd,
    err_write: OwnedFd,
}

fn run(
    req: &Request,
    stop: &OwnedFd,
    launcher: &mut Launcher,
    files: Option<&Files>,
) -> Result<Response, Interrupted> {
    if let Some(partner) = &req.partner {
        return super::interact::run_pair(req, partner, stop, launcher, files);
    }
    let Started {
        pid,
        start,
        stdout_probe,
        err_read,
    } = match start_program(req, launcher, files) {
        Ok(started) => started,
        Err(not_started) => return Ok(not_started),
    };

    // While the program runs: the next program's ruleset, its system part. Its request may
    // be waiting already (sent ahead), and then there is no pause between the two for it.
    if let Some(files) = files {
        files.prepare();
    }
    let mut stderr = Tail::new(req.limits.stderr_keep_bytes);
    let mut err_read = Some(File::from(err_read));
    let watch = supervise(
        pid,
        &req.limits,
        &req.access.write,
        start,
        stop,
        &mut err_read,
        &mut stderr,
    )?;

    let reaped = sys::wait4(pid);
    // Before anything is removed: the room its writes met.
    let free = sys::free_space(stdout_probe.as_raw_fd()).map(|(bytes, _)| bytes);
    let mut response = measured(&reaped, start, free, watch);
    let ended = Ended {
        stderr,
        err_read,
        stdout_probe,
    };
    finish(req, launcher.pid(), pid, ended, &mut response);
    Ok(response)
}

/// A program started, with what is left of its streams here.
struct Started {
    pid: Pid,
    start: Instant,
    stdout_probe: File,
    err_read: OwnedFd,
}

/// Starts the request's program: its streams opened, its input placed, its sandbox set up.
/// `Err` is the response of a program that could not start, and why.
fn start_program(
    req: &Request,
    launcher: &mut Launcher,
    files: Option<&Files>,
) -> Result<Started, Response> {
    let streams = match open_streams(req).and_then(|s| place_input(req).map(|()| s)) {
        Ok(s) => s,
        Err(why) => {
            if req.clean_cwd {
                clean_folder(&req.cwd);
            }
            return Err(Response::not_started(why.to_string()));
        }
    };
    // After the streams: the rules name the stdout file, made afresh for this run.
    let ruleset = match files.map(|f| f.ruleset(req)).transpose() {
        Ok(r) => r,
        Err(e) => return Err(Response::not_started(StartError::Sandbox(e).to_string())),
    };
    let Streams {
        stdin,
        stdout,
        stdout_probe,
        err_read,
        err_write,
    } = streams;
    let launched = Program::of(req).and_then(|program| {
        let start = Instant::now();
        launcher
            .launch(
                &program,
                [stdin.as_raw_fd(), stdout.as_raw_fd(), err_write.as_raw_fd()],
                ruleset.as_ref().map_or(-1, |r| r.as_raw_fd()),
                false,
            )
            .map(|pid| (pid, start))
    });
    // Only the child may hold the write end now, so that EOF means "no writer left".
    drop((stdin, stdout, err_write, ruleset));
    match launched {
        Ok((pid, start)) => Ok(Started {
            pid,
            start,
            stdout_probe,
            err_read,
        }),
        Err(e) => {
            if req.clean_cwd {
                clean_folder(&req.cwd);
            }
            Err(Response::not_started(format!(
                "starting {}: {e}",
                req.program.display()
            )))
        }
    }
}

/// What the program's run measured, as reaped: its end, times and memory.
fn measured(reaped: &sys::Reaped, start: Instant, free: Option<u64>, watch: Watch) -> Response {
    let mut response = Response::not_started(String::new());
    response.free_bytes_at_end = free;
    response.wall_us = start.elapsed().as_micros() as u64;
    response.outcome = match reaped.signal() {
        Some(sig) => Outcome::Signaled(sig),
        None => Outcome::Exited(reaped.exit_code()),
    };
    response.user_us = reaped.user.as_micros() as u64;
    response.sys_us = reaped.sys.as_micros() as u64;
    response.max_rss_kb = reaped.max_rss_kb;
    response.killed_by = watch.killed_by;
    response
}

/// A finished program's streams, still to be read.
struct Ended {
    stderr: Tail,
    err_read: Option<File>,
    stdout_probe: File,
}

/// After the program: what it left behind swept, its output sizes counted, its stderr and
/// output put where the request says, its folder cleaned when asked.
fn finish(req: &Request, launcher: Pid, pid: Pid, ended: Ended, response: &mut Response) {
    let Ended {
        mut stderr,
        mut err_read,
        stdout_probe,
    } = ended;
    // Anything still alive now was left behind by the program.
    if leftovers_possible(pid, launcher) {
        let (found, stuck) = sweep(launcher);
        response.leftover_processes = found;
        response.unkillable_processes = stuck;
    }
    if let Some(f) = err_read.as_mut() {
        stderr.drain(f);
    }
    response.stderr_bytes = stderr.total;
    response.stdout_bytes = stdout_probe.metadata().map(|m| m.len()).unwrap_or(0);
    // Fresh for the same reason as stdout, and only when there is something to keep: most
    // programs write nothing there, and creating a file is a journal write.
    let _ = fs::remove_file(&req.stderr);
    if stderr.total > 0 {
        let _ = fs::write(&req.stderr, stderr.into_bytes());
    }
    take_output(req);
    if req.clean_cwd {
        clean_folder(&req.cwd);
    }
}

/// Opens stdin (the input file, or nothing), a fresh stdout file and the stderr pipe.
fn open_streams(req: &Request) -> Result<Streams, StartError> {
    let dev_null = PathBuf::from("/dev/null");
    let path = req.stdin.as_ref().unwrap_or(&dev_null);
    let stdin = File::open(path).map_err(|source| StartError::Open {
        path: path.clone(),
        source,
    })?;
    // A fresh file, never a truncated one: on ext4 (auto_da_alloc), closing a file that was
    // truncated and rewritten starts a flush to disk, which cost about 4 ms per case.
    let _ = fs::remove_file(&req.stdout);
    let stdout = File::create(&req.stdout).map_err(|source| StartError::Create {
        path: req.stdout.clone(),
        source,
    })?;
    let stdout_probe = stdout.try_clone().map_err(StartError::DuplicateStdout)?;
    let (err_read, err_write) = sys::pipe().map_err(StartError::StderrPipe)?;
    Ok(Streams {
        stdin,
        stdout,
        stdout_probe,
        err_read,
        err_write,
    })
}

/// Watches the program until it exits: samples it against its limits, drains its stderr,
/// and stops everything on a stop signal.
fn supervise(
    pid: Pid,
    limits: &Limits,
    folders: &[PathBuf],
    start: Instant,
    stop: &OwnedFd,
    err_read: &mut Option<File>,
    stderr: &mut Tail,
) -> Result<Watch, Interrupted> {
    let mut watch = Watch::new(pid, limits, start, folders);
    let pidfd = sys::pidfd_open(pid);
    if let Some(f) = err_read.as_ref() {
        sys::set_nonblocking(f.as_raw_fd());
    }
    loop {
        watch.check();
        let timeout = watch.next_timeout();
        let [stop_signal, judge_gone] = stop::polls(stop);
        let mut fds = [
            sys::poll_fd(pidfd.as_ref().map_or(-1, |f| f.as_raw_fd())),
            sys::poll_fd(err_read.as_ref().map_or(-1, |f| f.as_raw_fd())),
            stop_signal,
            judge_gone,
        ];
        if sys::poll(&mut fds, timeout) < 0 {
            continue; // EINTR
        }
        if stop::stopping(&fds[2..], stop) {
            sys::kill_group(pid);
            return Err(Interrupted);
        }
        if fds[1].revents != 0 {
            if let Some(f) = err_read.as_mut() {
                if !stderr.drain(f) {
                    *err_read = None;
                }
            }
        }
        if pidfd.is_none() {
            // No pidfd (kernel older than 5.3): fall back to polling for the exit.
            if sys::exited_unreaped(pid, false) {
                return Ok(watch);
            }
        } else if fds[0].revents != 0 {
            return Ok(watch);
        }
    }
}
