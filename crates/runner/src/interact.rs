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
use std::io::{self, BufWriter, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::time::Instant;

use super::landlock::Files;
use super::launch::{Launcher, Program};
use super::protocol::{Outcome, Partner, PartnerResponse, Request, Response};
use super::stop::{self, Interrupted};
use super::sweep::{clean_folder, sweep};
use super::sys::{self, Pid};
use super::tail::Tail;
use super::watch::Watch;

/// The most bytes held for a side that does not read what the other wrote: past it, the
/// writer waits, as it would on a full pipe.
const RELAY_HELD: usize = 1 << 20;
/// The largest transcript kept; the conversation goes on past it, unrecorded.
const TRANSCRIPT_CAP: u64 = 64 << 20;

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

/// Bytes on their way from one program to the other through the runner.
struct Relay {
    from: Option<File>,
    to: Option<File>,
    held: Vec<u8>,
    /// `>` from the program, `<` to it.
    mark: u8,
    /// Where reads land, made once: the relay reads often.
    buf: Box<[u8]>,
    /// The writer ended its output and the reader was told so, all it said passed on.
    told_end: bool,
    /// The end is passed on only once the writer was reaped (`writer_ended`): the program's
    /// output, so that the partner's verdict on it comes after the program's end.
    hold_end: bool,
    writer_ended: bool,
}

impl Relay {
    fn new(from: OwnedFd, to: OwnedFd, mark: u8, hold_end: bool) -> Relay {
        sys::set_nonblocking(from.as_raw_fd());
        sys::set_nonblocking(to.as_raw_fd());
        Relay {
            from: Some(File::from(from)),
            to: Some(File::from(to)),
            held: Vec::new(),
            mark,
            buf: vec![0; 1 << 16].into_boxed_slice(),
            told_end: false,
            hold_end,
            writer_ended: false,
        }
    }

    fn read_fd(&self) -> RawFd {
        match &self.from {
            Some(f) if self.held.len() < RELAY_HELD => f.as_raw_fd(),
            _ => -1,
        }
    }

    fn write_fd(&self) -> RawFd {
        match &self.to {
            Some(f) if !self.held.is_empty() => f.as_raw_fd(),
            _ => -1,
        }
    }

    /// Reads what is there, notes it, passes on what the reader takes.
    fn pump(&mut self, transcript: &mut Option<Transcript>) {
        let buf = &mut self.buf;
        if let Some(f) = self.from.as_mut() {
            loop {
                match f.read(buf) {
                    Ok(0) => {
                        self.from = None;
                        break;
                    }
                    Ok(n) => {
                        if let Some(t) = transcript.as_mut() {
                            t.note(self.mark, &buf[..n]);
                        }
                        self.held.extend_from_slice(&buf[..n]);
                        if self.held.len() >= RELAY_HELD || n < buf.len() {
                            break;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(_) => {
                        self.from = None;
                        break;
                    }
                }
            }
        }
        if let Some(to) = self.to.as_mut() {
            while !self.held.is_empty() {
                match to.write(&self.held) {
                    Ok(n) => {
                        self.held.drain(..n);
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(_) => {
                        // The reader is gone: the writer learns it as from a pipe with no
                        // reader (EPIPE), and what it still says goes nowhere.
                        self.to = None;
                        self.from = None;
                        self.held.clear();
                        break;
                    }
                }
            }
        }
        if self.from.is_none() && self.held.is_empty() && (self.writer_ended || !self.hold_end) {
            // The writer is done and all it said was passed on: the reader sees the end.
            if self.to.take().is_some() {
                self.told_end = true;
            }
        }
    }
}

/// The conversation as it is relayed: one line per line said, with the time it was complete.
struct Transcript {
    out: BufWriter<File>,
    start: Instant,
    /// The unfinished line of each direction (`>` then `<`).
    partial: [Vec<u8>; 2],
    written: u64,
    cut: bool,
}

impl Transcript {
    fn note(&mut self, mark: u8, bytes: &[u8]) {
        let i = usize::from(mark == b'<');
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            let mut line = std::mem::take(&mut self.partial[i]);
            line.extend_from_slice(&rest[..end]);
            self.line(mark, &line);
            rest = &rest[end + 1..];
        }
        self.partial[i].extend_from_slice(rest);
    }

    fn line(&mut self, mark: u8, text: &[u8]) {
        if self.cut {
            return;
        }
        let at = self.start.elapsed().as_secs_f64();
        let head = format!("{at:.6} {}", mark as char);
        self.written += (head.len() + text.len() + 1) as u64;
        if self.written > TRANSCRIPT_CAP {
            self.cut = true;
            return;
        }
        let _ = self
            .out
            .write_all(head.as_bytes())
            .and_then(|_| self.out.write_all(text))
            .and_then(|_| self.out.write_all(b"\n"));
    }

    /// Writes the unfinished lines (said without a newline at the end) and closes the file.
    fn finish(mut self) -> bool {
        for (i, mark) in [b'>', b'<'].into_iter().enumerate() {
            let line = std::mem::take(&mut self.partial[i]);
            if !line.is_empty() {
                self.line(mark, &line);
            }
        }
        let _ = self.out.flush();
        self.cut
    }
}

/// Starts one side with `stdin` and `stdout`. The `partner` ignores SIGPIPE, as interactors
/// do under problemtools: a solution that is gone is for it to notice, not to die of.
fn spawn<'a>(
    req: &'a Request,
    (stdin, stdout): (OwnedFd, OwnedFd),
    partner: bool,
    launcher: &mut Launcher,
    files: Option<&Files>,
) -> Result<Side<'a>, String> {
    let (err_read, err_write) =
        sys::pipe().map_err(|e| format!("creating the stderr pipe: {e}"))?;
    let ruleset = files
        .map(|f| f.ruleset(req))
        .transpose()
        .map_err(|e| format!("the sandbox could not be set up: {e}"))?;
    let program =
        Program::of(req).map_err(|e| format!("starting {}: {e}", req.program.display()))?;
    let start = Instant::now();
    let launched = launcher.launch(
        &program,
        [stdin.as_raw_fd(), stdout.as_raw_fd(), err_write.as_raw_fd()],
        ruleset.as_ref().map_or(-1, |r| r.as_raw_fd()),
        partner,
    );
    // The pipe ends the child got: only the child may hold them.
    drop((stdin, stdout, err_write, ruleset));
    let pid = launched.map_err(|e| format!("starting {}: {e}", req.program.display()))?;
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
    // Neither runs: both responses say why.
    let failed = |why: String| {
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
        Ok(response)
    };
    let pipes = || sys::pipe().map_err(|e| format!("creating a pipe: {e}"));
    let (to_partner, to_program) = match (pipes(), pipes()) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return failed(e),
    };
    let transcript = match &partner.transcript {
        Some(path) => match File::create(path) {
            Ok(f) => Some(Transcript {
                out: BufWriter::with_capacity(1 << 16, f),
                start: Instant::now(),
                partial: [Vec::new(), Vec::new()],
                written: 0,
                cut: false,
            }),
            Err(e) => return failed(format!("creating {}: {e}", path.display())),
        },
        None => None,
    };
    // Relayed: two more pipes, the runner between them. Joined: the runner keeps a copy of the
    // program's output until it reaps the program (`held`).
    let mut held = None;
    let (partner_io, program_io, mut relays) = if transcript.is_some() {
        let (from_program, from_partner) = match (pipes(), pipes()) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => return failed(e),
        };
        let relays = vec![
            Relay::new(from_program.0, to_partner.1, b'>', true),
            Relay::new(from_partner.0, to_program.1, b'<', false),
        ];
        (
            (to_partner.0, from_partner.1),
            (to_program.0, from_program.1),
            relays,
        )
    } else {
        match to_partner.1.try_clone() {
            Ok(copy) => held = Some(copy),
            Err(e) => return failed(format!("copying a pipe: {e}")),
        }
        (
            (to_partner.0, to_program.1),
            (to_program.0, to_partner.1),
            Vec::new(),
        )
    };
    let mut transcript = transcript;
    // The partner first: it is ready when the program starts, and the program's clock starts last.
    let mut other = match spawn(&partner.request, partner_io, true, launcher, files) {
        Ok(s) => s,
        Err(why) => return failed(format!("the interactor: {why}")),
    };
    if let Err(why) = super::place::place_input(req) {
        sys::kill_group(other.pid);
        let _ = other.check_exit(true);
        let _ = other.finish();
        return failed(why);
    }
    let mut main = match spawn(req, program_io, false, launcher, files) {
        Ok(s) => s,
        Err(why) => {
            sys::kill_group(other.pid);
            let _ = other.check_exit(true);
            let _ = other.finish();
            return failed(why);
        }
    };
    if let Some(t) = transcript.as_mut() {
        t.start = main.start;
    }
    let mut partner_first = false;
    // Relayed, the looks (turns of the loop) at which the partner's end of output was passed
    // on to the program, and at which the program's exit showed.
    let mut look = 0u64;
    let (mut partner_silent_at, mut program_ended_at) = (None, None);
    // Sampled when due, not on every byte relayed: a conversation wakes this loop often.
    let mut next_check = Instant::now();
    let mut timeout = 1;
    while main.running() || other.running() {
        look += 1;
        let now = Instant::now();
        if now >= next_check {
            for side in [&mut main, &mut other] {
                if side.running() {
                    side.watch.check();
                }
            }
            timeout = [&main, &other]
                .iter()
                .filter(|s| s.running())
                .map(|s| s.watch.next_timeout())
                .min()
                .unwrap_or(1);
            next_check = now + std::time::Duration::from_millis(timeout as u64);
        }
        let timeout = next_check
            .saturating_duration_since(Instant::now())
            .as_millis()
            .clamp(1, timeout as u128) as i32;
        let live = |s: &Side| match (&s.pidfd, s.running()) {
            (Some(fd), true) => fd.as_raw_fd(),
            _ => -1,
        };
        let err_fd = |s: &Side| s.err.as_ref().map_or(-1, |f| f.as_raw_fd());
        let [stop_signal, judge_gone] = stop::polls(stop);
        let mut fds = vec![
            sys::poll_fd(live(&main)),
            sys::poll_fd(live(&other)),
            sys::poll_fd(err_fd(&main)),
            sys::poll_fd(err_fd(&other)),
            stop_signal,
            judge_gone,
        ];
        for r in &relays {
            fds.push(sys::poll_fd(r.read_fd()));
            fds.push(sys::poll_fd_out(r.write_fd()));
        }
        if sys::poll(&mut fds, timeout) < 0 {
            continue; // EINTR
        }
        if stop::stopping(&fds[4..6], stop) {
            sys::kill_group(main.pid);
            sys::kill_group(other.pid);
            return Err(Interrupted);
        }
        for (i, side) in [(2, &mut main), (3, &mut other)] {
            if fds[i].revents != 0 {
                if let Some(f) = side.err.as_mut() {
                    if !side.stderr.drain(f) {
                        side.err = None;
                    }
                }
            }
        }
        for (i, r) in relays.iter_mut().enumerate() {
            if fds[6 + 2 * i].revents != 0 || fds[7 + 2 * i].revents != 0 {
                r.pump(&mut transcript);
            }
        }
        if partner_silent_at.is_none() && relays.iter().any(|r| r.mark == b'<' && r.told_end) {
            // Not when the program was on its way out already: its end did not follow this.
            let before_the_program = main.running() && !exiting(main.pid);
            partner_silent_at = Some(if before_the_program { look } else { u64::MAX });
        }
        relays.retain(|r| r.from.is_some() || r.to.is_some());
        // The program first when both ended since the last look: the partner's end is most
        // often its answer to the program's.
        if main.check_exit(fds[0].revents != 0) {
            // With whether the partner had ended by then (its exit may show a look later).
            program_ended_at = Some((look, !other.running() || exiting(other.pid)));
            // Only now may the partner see the end of the program's output.
            drop(held.take());
            for r in relays.iter_mut().filter(|r| r.mark == b'>') {
                r.writer_ended = true;
                r.pump(&mut transcript);
            }
        }
        if other.check_exit(fds[1].revents != 0) {
            // A program on its way out has closed its pipes before its exit shows: the partner
            // may answer that and end first, but it spoke second.
            partner_first = main.running() && main.watch.killed_by.is_none() && !exiting(main.pid);
            let accepted = matches!(
                other.ended.as_ref().map(|(r, _)| (r.signal(), r.exit_code())),
                Some((None, code)) if code == partner.accept_code
            );
            if partner_first && !accepted {
                // The verdict is known: whatever the program does now cannot change it.
                sys::kill_group(main.pid);
            }
        }
    }
    // Relayed, the runner knows more than the order in which the exits showed (both may show
    // at the same look): the program could see the end of its input only once the runner had
    // passed it on, and its exit showed in the poll before that look's relaying. So a program
    // whose exit showed at a later look, when the partner had ended too, ended after it.
    if let (Some(silent), Some((ended, partner_gone))) = (partner_silent_at, program_ended_at) {
        partner_first |= silent < ended && partner_gone;
    }
    let (found, stuck) = sweep(launcher.pid());
    let cut = transcript.map(Transcript::finish).unwrap_or(false);
    let mut response = main.finish();
    response.leftover_processes = found;
    response.unkillable_processes = stuck;
    response.partner = Some(Box::new(PartnerResponse {
        response: other.finish(),
        exited_first: partner_first,
        transcript_cut: cut,
    }));
    Ok(response)
}
