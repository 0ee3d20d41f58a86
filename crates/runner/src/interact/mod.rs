//! An interactive run in the runner: a program and its partner (the interactor) started side by side, stdin to stdout crossed, each under its own limits, with or without a transcript.
//!
//! Without a transcript the two are joined by two pipes and the runner only watches. With one,
//! each program's stdout is a pipe to the runner, which passes every byte on at once (never
//! waiting for a line) and notes it, line by line, with the time it arrived: the programs see
//! the same byte stream either way, only a little later.
//!
//! Either way, as problemtools' `interactive` does, the partner never sees the program's output
//! end before the runner has seen the program end: the runner holds the write end of that pipe
//! (or holds back the end it relays) until it has reaped the program. So a program that closes
//! its output and keeps running is waited for (within its limits) before the partner reads the
//! end and gives its verdict: which ended first is never a matter of scheduling.

use std::fs::{self, File};
use std::os::fd::{AsRawFd, OwnedFd};
use std::time::Instant;

use super::landlock::Files;
use super::launch::{Launcher, Program};
use super::protocol::{Outcome, Partner, PartnerResponse, Request, Response, StartError};
use super::stop::{self, Interrupted};
use super::sweep::{clean_folder, sweep};
use super::sys::{self, Pid};
use super::tail::Tail;
use super::watch::Watch;
use relay::{Relay, Transcript};

mod relay;

/// One of the two programs: its process, its watch, its stderr.
struct Side<'a> {
    req: &'a Request,
    pid: Pid,
    pidfd: Option<OwnedFd>,
    watch: Watch,
    start: Instant,
    err: Option<File>,
    stderr: Tail,
    /// Its wait4 result and wall time, once it has ended.
    ended: Option<(sys::Reaped, u64)>,
}

impl Side<'_> {
    fn running(&self) -> bool {
        self.ended.is_none()
    }

    /// Whether its main process has exited (it is then reaped).
    fn check_exit(&mut self, ready: bool) -> bool {
        if !self.running() {
            return false;
        }
        let exited = match self.pidfd {
            Some(_) => ready,
            None => sys::exited_unreaped(self.pid, false),
        };
        if exited {
            let reaped = sys::wait4(self.pid);
            self.ended = Some((reaped, self.start.elapsed().as_micros() as u64));
            // What it started in its group goes with it: nothing may hold the pipes open.
            sys::kill_group(self.pid);
        }
        exited
    }

    fn finish(mut self) -> Response {
        if let Some(f) = self.err.as_mut() {
            self.stderr.drain(f);
        }
        let (reaped, wall) = self.ended.expect("reaped before finishing");
        let mut r = Response::not_started(String::new());
        r.outcome = match reaped.signal() {
            Some(sig) => Outcome::Signaled(sig),
            None => Outcome::Exited(reaped.exit_code()),
        };
        r.user_us = reaped.user.as_micros() as u64;
        r.sys_us = reaped.sys.as_micros() as u64;
        r.wall_us = wall;
        r.max_rss_kb = reaped.max_rss_kb;
        r.killed_by = self.watch.killed_by;
        r.stderr_bytes = self.stderr.total;
        let _ = fs::remove_file(&self.req.stderr);
        if self.stderr.total > 0 {
            let _ = fs::write(&self.req.stderr, self.stderr.into_bytes());
        }
        if self.req.clean_cwd {
            clean_folder(&self.req.cwd);
        }
        r
    }
}

/// Whether `pid` has begun to exit (the kernel's PF_EXITING, in `/proc/PID/stat`'s flags) or
/// is a zombie: it closes its files before its exit is signalled.
fn exiting(pid: Pid) -> bool {
    const PF_EXITING: u64 = 0x4;
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return true;
    };
    // Fields after the command name (which may hold spaces): state, ppid, pgrp, session,
    // tty_nr, tpgid, flags.
    let mut fields = stat
        .rfind(')')
        .map_or("", |i| &stat[i + 1..])
        .split_whitespace();
    let state = fields.next().unwrap_or("");
    let flags: u64 = fields.nth(5).and_then(|f| f.parse().ok()).unwrap_or(0);
    state == "Z" || state == "X" || flags & PF_EXITING != 0
}

/// Starts one side with `stdin` and `stdout`. The `partner` ignores SIGPIPE, as interactors
/// do under problemtools: a solution that is gone is for it to notice, not to die of.
fn spawn<'a>(
    req: &'a Request,
    (stdin, stdout): (OwnedFd, OwnedFd),
    partner: bool,
    launcher: &mut Launcher,
    files: Option<&Files>,
) -> Result<Side<'a>, StartError> {
    let (err_read, err_write) = sys::pipe().map_err(StartError::StderrPipe)?;
    let ruleset = files
        .map(|f| f.ruleset(req))
        .transpose()
        .map_err(StartError::Sandbox)?;
    let program = Program::of(req).map_err(|source| StartError::Program {
        program: req.program.clone(),
        source,
    })?;
    let start = Instant::now();
    let launched = launcher.launch(
        &program,
        [stdin.as_raw_fd(), stdout.as_raw_fd(), err_write.as_raw_fd()],
        ruleset.as_ref().map_or(-1, |r| r.as_raw_fd()),
        partner,
    );
    // The pipe ends the child got: only the child may hold them.
    drop((stdin, stdout, err_write, ruleset));
    let pid = launched.map_err(|source| StartError::Program {
        program: req.program.clone(),
        source,
    })?;
    let err = File::from(err_read);
    sys::set_nonblocking(err.as_raw_fd());
    Ok(Side {
        req,
        pid,
        pidfd: sys::pidfd_open(pid),
        watch: Watch::new(pid, &req.limits, start, &req.access.write),
        start,
        err: Some(err),
        stderr: Tail::new(req.limits.stderr_keep_bytes),
        ended: None,
    })
}

/// Runs `req` and its `partner` connected; the program's response carries the partner's.
pub(super) fn run_pair(
    req: &Request,
    partner: &Partner,
    stop: &OwnedFd,
    launcher: &mut Launcher,
    files: Option<&Files>,
) -> Result<Response, Interrupted> {
    let wiring = match Wiring::new(partner) {
        Ok(w) => w,
        Err(why) => return Ok(not_started(req, partner, why)),
    };
    let Wiring {
        partner_io,
        program_io,
        relays,
        held,
        mut transcript,
    } = wiring;
    let (main, other) = match start(req, partner, (partner_io, program_io), launcher, files) {
        Ok(both) => both,
        Err(why) => return Ok(not_started(req, partner, why)),
    };
    if let Some(t) = transcript.as_mut() {
        t.start = main.start;
    }
    let mut talk = Talk {
        main,
        other,
        relays,
        transcript,
        held,
        look: 0,
        partner_silent_at: None,
        program_ended_at: None,
        partner_first: false,
    };
    talk.until_both_end(stop, partner.accept_code)?;
    Ok(talk.finish(launcher))
}

/// Neither runs: both responses say why, and the folders they would have run in are emptied.
fn not_started(req: &Request, partner: &Partner, why: StartError) -> Response {
    let why = why.to_string();
    for r in [req, &partner.request] {
        if r.clean_cwd {
            clean_folder(&r.cwd);
        }
    }
    let mut response = Response::not_started(why.clone());
    response.partner = Some(Box::new(PartnerResponse {
        response: Response::not_started(why),
        exited_first: false,
        transcript_cut: false,
    }));
    response
}

/// The pipes between the two, made before either starts: each side's stdin and stdout, and,
/// with a transcript, the runner's relays between them.
struct Wiring {
    partner_io: (OwnedFd, OwnedFd),
    program_io: (OwnedFd, OwnedFd),
    relays: Vec<Relay>,
    /// Joined: the runner's copy of the program's output, kept until it reaps the program.
    held: Option<OwnedFd>,
    transcript: Option<Transcript>,
}

impl Wiring {
    fn new(partner: &Partner) -> Result<Wiring, StartError> {
        let pipes = || sys::pipe().map_err(StartError::Pipe);
        let (to_partner, to_program) = (pipes()?, pipes()?);
        let transcript = match &partner.transcript {
            Some(path) => Some(Transcript::create(path)?),
            None => None,
        };
        // Relayed: two more pipes, the runner between them. Joined: the runner keeps a copy
        // of the program's output until it reaps the program (`held`).
        if transcript.is_none() {
            let held = to_partner.1.try_clone().map_err(StartError::CopyPipe)?;
            return Ok(Wiring {
                partner_io: (to_partner.0, to_program.1),
                program_io: (to_program.0, to_partner.1),
                relays: Vec::new(),
                held: Some(held),
                transcript,
            });
        }
        let (from_program, from_partner) = (pipes()?, pipes()?);
        Ok(Wiring {
            partner_io: (to_partner.0, from_partner.1),
            program_io: (to_program.0, from_program.1),
            relays: vec![
                Relay::new(from_program.0, to_partner.1, b'>', true),
                Relay::new(from_partner.0, to_program.1, b'<', false),
            ],
            held: None,
            transcript,
        })
    }
}

/// Starts the partner, then the program: the partner is ready when the program starts, and the
/// program's clock starts last. When the program cannot start, the partner is stopped.
fn start<'a>(
    req: &'a Request,
    partner: &'a Partner,
    (partner_io, program_io): ((OwnedFd, OwnedFd), (OwnedFd, OwnedFd)),
    launcher: &mut Launcher,
    files: Option<&Files>,
) -> Result<(Side<'a>, Side<'a>), StartError> {
    let mut other = spawn(&partner.request, partner_io, true, launcher, files)
        .map_err(|why| StartError::Partner(Box::new(why)))?;
    let main = super::place::place_input(req)
        .and_then(|()| spawn(req, program_io, false, launcher, files));
    match main {
        Ok(main) => Ok((main, other)),
        Err(why) => {
            sys::kill_group(other.pid);
            let _ = other.check_exit(true);
            let _ = other.finish();
            Err(why)
        }
    }
}

/// The two running, and what the runner learns of their order while it watches them.
struct Talk<'a> {
    main: Side<'a>,
    other: Side<'a>,
    relays: Vec<Relay>,
    transcript: Option<Transcript>,
    held: Option<OwnedFd>,
    /// Relayed, the looks (turns of the loop) at which the partner's end of output was passed
    /// on to the program, and at which the program's exit showed (with whether the partner
    /// had ended by then).
    look: u64,
    partner_silent_at: Option<u64>,
    program_ended_at: Option<(u64, bool)>,
    partner_first: bool,
}

/// Positions in the poll set: the two pidfds, the two stderr pipes, the stop signal and the
/// judge's end; the relays' ends follow.
const POLL_STOP: usize = 4;
const POLL_RELAYS: usize = 6;

impl Talk<'_> {
    /// Watches both, relays between them, and notes their exits until both have ended; stops
    /// both when the judge asks.
    fn until_both_end(&mut self, stop: &OwnedFd, accept_code: i32) -> Result<(), Interrupted> {
        // Sampled when due, not on every byte relayed: a conversation wakes this loop often.
        let mut next_check = Instant::now();
        let mut timeout = 1;
        while self.main.running() || self.other.running() {
            self.look += 1;
            let now = Instant::now();
            if now >= next_check {
                timeout = self.sample();
                next_check = now + std::time::Duration::from_millis(timeout as u64);
            }
            let timeout = next_check
                .saturating_duration_since(Instant::now())
                .as_millis()
                .clamp(1, timeout as u128) as i32;
            let mut fds = self.poll_set(stop);
            if sys::poll(&mut fds, timeout) < 0 {
                continue; // EINTR
            }
            if stop::stopping(&fds[POLL_STOP..POLL_RELAYS], stop) {
                sys::kill_group(self.main.pid);
                sys::kill_group(self.other.pid);
                return Err(Interrupted);
            }
            self.pass_on(&fds);
            self.note_exits(&fds, accept_code);
        }
        Ok(())
    }

    /// Checks each running side against its limits: the time until the next check is due.
    fn sample(&mut self) -> i32 {
        for side in [&mut self.main, &mut self.other] {
            if side.running() {
                side.watch.check();
            }
        }
        [&self.main, &self.other]
            .iter()
            .filter(|s| s.running())
            .map(|s| s.watch.next_timeout())
            .min()
            .unwrap_or(1)
    }

    fn poll_set(&self, stop: &OwnedFd) -> Vec<libc::pollfd> {
        let live = |s: &Side| match (&s.pidfd, s.running()) {
            (Some(fd), true) => fd.as_raw_fd(),
            _ => -1,
        };
        let err_fd = |s: &Side| s.err.as_ref().map_or(-1, |f| f.as_raw_fd());
        let [stop_signal, judge_gone] = stop::polls(stop);
        let mut fds = vec![
            sys::poll_fd(live(&self.main)),
            sys::poll_fd(live(&self.other)),
            sys::poll_fd(err_fd(&self.main)),
            sys::poll_fd(err_fd(&self.other)),
            stop_signal,
            judge_gone,
        ];
        for r in &self.relays {
            fds.push(sys::poll_fd(r.read_fd()));
            fds.push(sys::poll_fd_out(r.write_fd()));
        }
        fds
    }

    /// Reads what each side said on stderr, and passes on what is ready between them.
    fn pass_on(&mut self, fds: &[libc::pollfd]) {
        for (i, side) in [(2, &mut self.main), (3, &mut self.other)] {
            if fds[i].revents != 0 {
                if let Some(f) = side.err.as_mut() {
                    if !side.stderr.drain(f) {
                        side.err = None;
                    }
                }
            }
        }
        for (i, r) in self.relays.iter_mut().enumerate() {
            let (read, write) = (POLL_RELAYS + 2 * i, POLL_RELAYS + 1 + 2 * i);
            if fds[read].revents != 0 || fds[write].revents != 0 {
                r.pump(&mut self.transcript);
            }
        }
        let told_end = self.relays.iter().any(|r| r.mark == b'<' && r.told_end);
        if self.partner_silent_at.is_none() && told_end {
            // Not when the program was on its way out already: its end did not follow this.
            let before_the_program = self.main.running() && !exiting(self.main.pid);
            self.partner_silent_at = Some(if before_the_program {
                self.look
            } else {
                u64::MAX
            });
        }
        self.relays.retain(|r| r.from.is_some() || r.to.is_some());
    }

    /// Reaps a side whose exit showed, the program first when both ended since the last look:
    /// the partner's end is most often its answer to the program's.
    fn note_exits(&mut self, fds: &[libc::pollfd], accept_code: i32) {
        let (main, other) = (&mut self.main, &mut self.other);
        if main.check_exit(fds[0].revents != 0) {
            // With whether the partner had ended by then (its exit may show a look later).
            self.program_ended_at = Some((self.look, !other.running() || exiting(other.pid)));
            // Only now may the partner see the end of the program's output.
            drop(self.held.take());
            for r in self.relays.iter_mut().filter(|r| r.mark == b'>') {
                r.writer_ended = true;
                r.pump(&mut self.transcript);
            }
        }
        if other.check_exit(fds[1].revents != 0) {
            // A program on its way out has closed its pipes before its exit shows: the partner
            // may answer that and end first, but it spoke second.
            self.partner_first =
                main.running() && main.watch.killed_by.is_none() && !exiting(main.pid);
            let accepted = matches!(
                other.ended.as_ref().map(|(r, _)| (r.signal(), r.exit_code())),
                Some((None, code)) if code == accept_code
            );
            if self.partner_first && !accepted {
                // The verdict is known: whatever the program does now cannot change it.
                sys::kill_group(main.pid);
            }
        }
    }

    /// Both responses, once both have ended, with which ended first and the leftovers swept.
    fn finish(self, launcher: &Launcher) -> Response {
        let mut partner_first = self.partner_first;
        // Relayed, the runner knows more than the order in which the exits showed (both may
        // show at the same look): the program could see the end of its input only once the
        // runner had passed it on, and its exit showed in the poll before that look's
        // relaying. So a program whose exit showed at a later look, when the partner had
        // ended too, ended after it.
        if let (Some(silent), Some((ended, partner_gone))) =
            (self.partner_silent_at, self.program_ended_at)
        {
            partner_first |= silent < ended && partner_gone;
        }
        let (found, stuck) = sweep(launcher.pid());
        let cut = self.transcript.map(Transcript::finish).unwrap_or(false);
        let mut response = self.main.finish();
        response.leftover_processes = found;
        response.unkillable_processes = stuck;
        response.partner = Some(Box::new(PartnerResponse {
            response: self.other.finish(),
            exited_first: partner_first,
            transcript_cut: cut,
        }));
        response
    }
}
