//! The runner process: forks each program from a small address space, enforces limits, reaps with wait4, kills whatever the program left behind.
//!
//! It is a separate small process (the judge's executable started as `judge __runner`, which
//! serves before anything else is loaded) because `ru_maxrss` can never be lower than the
//! parent's resident size at fork time: forking from the judge itself would add the judge's own
//! footprint (outputs held in memory, databases...) to every figure.
//! It is also the child subreaper of everything it starts, so no descendant can escape
//! the final sweep, not even one that called `setsid()`.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File};
use std::io::{self, BufRead, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::protocol::{KilledBy, Limits, Outcome, Request, Response};

/// How often a running program's CPU time and memory are sampled.
const TICK: Duration = Duration::from_millis(5);
/// How long the final sweep keeps killing and reaping before it gives up.
const SWEEP_PATIENCE: Duration = Duration::from_secs(5);

/// Entry point of the runner process: serve requests from stdin until it closes.
pub fn serve() -> i32 {
    // SAFETY: plain syscalls without memory arguments.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        // If the judge dies without a word, stdin closes and we clean up; SIGTERM is its
        // explicit "stop now" (Ctrl-C), taken through a signalfd while a program runs.
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let sigfd = match SignalFd::new() {
        Ok(fd) => fd,
        Err(e) => {
            eprintln!("judge runner: signalfd: {e}");
            return 3;
        }
    };
    // Dropped (removed) when serving ends, on every path out of this function.
    let cgroup = PidsCgroup::create();
    let procs_fd = cgroup.as_ref().map_or(-1, |c| c.procs.as_raw_fd());
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    let mut line = String::new();
    loop {
        line.clear();
        if !wait_for_request(&sigfd) {
            return 130;
        }
        match stdin.lock().read_line(&mut line) {
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
        let response = match run(&request, &sigfd, procs_fd) {
            Ok(r) => r,
            Err(Interrupted) => {
                sweep();
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
            sweep();
            return 0;
        }
    }
}

struct Interrupted;

/// Blocks until a request arrives (true) or a stop signal does (false).
fn wait_for_request(sigfd: &SignalFd) -> bool {
    loop {
        let mut fds = [poll_fd(0), poll_fd(sigfd.fd.as_raw_fd())];
        // SAFETY: fds is a valid array of pollfd for its length.
        if unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) } < 0 {
            continue;
        }
        if fds[1].revents != 0 {
            return false;
        }
        if fds[0].revents != 0 {
            return true;
        }
    }
}

fn run(req: &Request, sigfd: &SignalFd, procs_fd: RawFd) -> Result<Response, Interrupted> {
    let mut response = Response {
        outcome: Outcome::SpawnFailed(String::new()),
        user_us: 0,
        sys_us: 0,
        wall_us: 0,
        max_rss_kb: 0,
        killed_by: None,
        stdout_bytes: 0,
        stderr_bytes: 0,
        leftover_processes: 0,
        unkillable_processes: 0,
    };
    let failed = |mut r: Response, what: &str, e: io::Error| {
        r.outcome = Outcome::SpawnFailed(format!("{what}: {e}"));
        Ok(r)
    };
    let stdin = match &req.stdin {
        Some(path) => match File::open(path) {
            Ok(f) => Stdio::from(f),
            Err(e) => return failed(response, &format!("opening {}", path.display()), e),
        },
        None => Stdio::null(),
    };
    // A fresh file, never a truncated one: on ext4 (auto_da_alloc), closing a file that was
    // truncated and rewritten starts a flush to disk, which cost about 4 ms per case.
    let _ = fs::remove_file(&req.stdout);
    let stdout_file = match File::create(&req.stdout) {
        Ok(f) => f,
        Err(e) => return failed(response, &format!("creating {}", req.stdout.display()), e),
    };
    let stdout_probe = match stdout_file.try_clone() {
        Ok(f) => f,
        Err(e) => return failed(response, "duplicating stdout", e),
    };
    let (err_read, err_write) = match pipe() {
        Ok(p) => p,
        Err(e) => return failed(response, "creating the stderr pipe", e),
    };

    let mut cmd = Command::new(&req.program);
    cmd.args(&req.args)
        .current_dir(&req.cwd)
        .stdin(stdin)
        .stdout(Stdio::from(stdout_file))
        .stderr(Stdio::from(err_write))
        .process_group(0);
    if let Some(env) = &req.env {
        cmd.env_clear();
        cmd.envs(env.iter().map(|(k, v)| (k, v)));
    }
    let rlimits = rlimits(&req.limits);
    // SAFETY: getpid has no preconditions.
    let runner_pid = unsafe { libc::getpid() };
    // SAFETY: the closure runs between fork and exec and only makes syscalls on values
    // computed before the fork (no allocation, no locks).
    unsafe {
        cmd.pre_exec(move || {
            for &(resource, value) in &rlimits {
                let mut current = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: 0,
                };
                libc::getrlimit(resource, &mut current);
                let value = value.min(current.rlim_max);
                let limit = libc::rlimit {
                    rlim_cur: value,
                    rlim_max: value,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            // Into the runner's pids cgroup, when there is one ("0": this process). A failure
            // only loses the cap on processes, so it never stops the program.
            if procs_fd >= 0 {
                libc::write(procs_fd, b"0".as_ptr() as *const libc::c_void, 1);
            }
            // The runner is single-threaded, so "parent death" means the runner's death.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            if libc::getppid() != runner_pid {
                libc::_exit(137);
            }
            Ok(())
        });
    }

    let start = Instant::now();
    let child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            drop(cmd);
            clean_cwd(req);
            return failed(response, &format!("starting {}", req.program.display()), e);
        }
    };
    // Our copy of the pipe's write end lives in `cmd`: drop it so EOF means "no writer left".
    drop(cmd);
    let pid = child.id() as libc::pid_t;
    // The std handle is never waited on or killed: wait4 below reaps the pid itself.
    drop(child);

    let mut watch = Watch::new(pid, &req.limits, start);
    let mut stderr = Tail::new(req.limits.stderr_keep_bytes);
    let pidfd = pidfd_open(pid);
    set_nonblocking(err_read.as_raw_fd());
    let mut err_read = Some(File::from(err_read));

    loop {
        watch.check(&mut response.killed_by);
        let timeout = watch.next_timeout();
        let mut fds = [
            poll_fd(pidfd.as_ref().map_or(-1, |f| f.as_raw_fd())),
            poll_fd(err_read.as_ref().map_or(-1, |f| f.as_raw_fd())),
            poll_fd(sigfd.fd.as_raw_fd()),
        ];
        // SAFETY: fds is a valid array of pollfd for its length.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
        if n < 0 {
            continue; // EINTR
        }
        if fds[2].revents != 0 {
            kill_group(pid);
            return Err(Interrupted);
        }
        if fds[1].revents != 0 {
            if let Some(f) = err_read.as_mut() {
                if !stderr.drain(f) {
                    err_read = None;
                }
            }
        }
        if pidfd.is_none() {
            // No pidfd (kernel older than 5.3): fall back to polling for the exit.
            if super::exited_unreaped(pid, false) {
                break;
            }
        } else if fds[0].revents != 0 {
            break;
        }
    }

    let mut status = 0;
    // SAFETY: rusage is plain old data; wait4 fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointers to locals.
    while unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } < 0 {
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            break;
        }
    }
    response.wall_us = start.elapsed().as_micros() as u64;
    response.outcome = if libc::WIFSIGNALED(status) {
        Outcome::Signaled(libc::WTERMSIG(status))
    } else {
        Outcome::Exited(libc::WEXITSTATUS(status))
    };
    response.user_us = timeval_us(usage.ru_utime);
    response.sys_us = timeval_us(usage.ru_stime);
    response.max_rss_kb = usage.ru_maxrss.max(0) as u64;

    // Anything still alive now was left behind by the program.
    if leftovers_possible(pid) {
        let (found, stuck) = sweep();
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
    clean_cwd(req);
    Ok(response)
}

/// Samples a running program and kills its group when a limit is crossed.
struct Watch {
    pid: libc::pid_t,
    clock: Option<libc::clockid_t>,
    statm: Option<File>,
    cpu_limit: Option<Duration>,
    memory_limit: Option<u64>,
    deadline: Instant,
    page_size: u64,
    killed: bool,
}

impl Watch {
    fn new(pid: libc::pid_t, limits: &Limits, start: Instant) -> Watch {
        let mut clock: libc::clockid_t = 0;
        // SAFETY: valid out-pointer.
        let clock = (unsafe { libc::clock_getcpuclockid(pid, &mut clock) } == 0).then_some(clock);
        Watch {
            pid,
            clock,
            statm: limits
                .memory_bytes
                .and_then(|_| File::open(format!("/proc/{pid}/statm")).ok()),
            cpu_limit: limits.cpu_ms.map(Duration::from_millis),
            memory_limit: limits.memory_bytes,
            deadline: start + Duration::from_millis(limits.wall_ms),
            // SAFETY: sysconf has no preconditions.
            page_size: unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as u64,
            killed: false,
        }
    }

    fn check(&mut self, killed_by: &mut Option<KilledBy>) {
        if self.killed {
            return;
        }
        let reason = if Instant::now() >= self.deadline {
            Some(KilledBy::WallCap)
        } else if matches!((self.cpu_limit, self.cpu_time()), (Some(limit), Some(used)) if used > limit)
        {
            Some(KilledBy::CpuLimit)
        } else if matches!((self.memory_limit, self.resident()), (Some(limit), Some(used)) if used > limit)
        {
            Some(KilledBy::MemoryLimit)
        } else {
            None
        };
        if let Some(reason) = reason {
            kill_group(self.pid);
            self.killed = true;
            *killed_by = Some(reason);
        }
    }

    /// Milliseconds until the next sample (poll's timeout).
    fn next_timeout(&self) -> i32 {
        if self.killed {
            return TICK.as_millis() as i32;
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        let wait = if self.cpu_limit.is_some() || self.memory_limit.is_some() {
            left.min(TICK)
        } else {
            left
        };
        wait.as_millis().clamp(1, i32::MAX as u128) as i32
    }

    fn cpu_time(&self) -> Option<Duration> {
        let clock = self.clock?;
        // SAFETY: timespec is plain old data.
        let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
        // SAFETY: valid out-pointer.
        (unsafe { libc::clock_gettime(clock, &mut ts) } == 0)
            .then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }

    fn resident(&mut self) -> Option<u64> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 128];
        let n = self.statm.as_ref()?.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
        Some(pages * self.page_size)
    }
}

/// Keeps the first and the last bytes of a stream and counts the rest.
struct Tail {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    half: usize,
    total: u64,
}

impl Tail {
    fn new(keep: u64) -> Tail {
        let half = (keep / 2) as usize;
        Tail {
            head: Vec::new(),
            tail: std::collections::VecDeque::new(),
            half,
            total: 0,
        }
    }

    /// Reads what is available; false once the stream has ended.
    fn drain(&mut self, f: &mut File) -> bool {
        let mut buf = [0u8; 16384];
        loop {
            match f.read(&mut buf) {
                Ok(0) => return false,
                Ok(n) => self.push(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return true,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return false,
            }
        }
    }

    fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let room = self.half.saturating_sub(self.head.len());
        let take = room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..take]);
        bytes = &bytes[take..];
        if bytes.len() >= self.half {
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - self.half..]);
        } else {
            let excess = (self.tail.len() + bytes.len()).saturating_sub(self.half);
            self.tail.drain(..excess);
            self.tail.extend(bytes);
        }
    }

    fn into_bytes(self) -> Vec<u8> {
        let mut out = self.head;
        let kept = out.len() as u64 + self.tail.len() as u64;
        if self.total > kept {
            out.extend_from_slice(
                format!(
                    "\n[... {} bytes of stderr not kept ...]\n",
                    self.total - kept
                )
                .as_bytes(),
            );
        }
        out.extend(self.tail);
        out
    }
}

/// Processes and threads a program may have at once, when the runner has a pids cgroup.
pub const MAX_PROCESSES: u32 = 512;

/// A pids cgroup of the runner's own (as root, with the cgroup v1 `pids` controller or a cgroup
/// v2 tree that delegates it): every program joins it before `execve`, so a fork bomb stops at
/// [`MAX_PROCESSES`] instead of exhausting the machine's PIDs. RLIMIT_NPROC cannot do that for
/// root, whom it does not bind. Without such a cgroup the judge works as before, uncapped.
struct PidsCgroup {
    dir: std::path::PathBuf,
    procs: File,
}

impl PidsCgroup {
    fn create() -> Option<PidsCgroup> {
        let own = fs::read_to_string("/proc/self/cgroup").ok()?;
        let base = own.lines().find_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            let path = path.trim_start_matches('/');
            if controllers.split(',').any(|c| c == "pids") {
                Some(Path::new("/sys/fs/cgroup/pids").join(path))
            } else if controllers.is_empty() {
                let dir = Path::new("/sys/fs/cgroup").join(path);
                let delegated = fs::read_to_string(dir.join("cgroup.subtree_control")).ok()?;
                delegated
                    .split_whitespace()
                    .any(|c| c == "pids")
                    .then_some(dir)
            } else {
                None
            }
        })?;
        // SAFETY: getpid has no preconditions.
        let dir = base.join(format!("judge-{}", unsafe { libc::getpid() }));
        fs::create_dir(&dir).ok()?;
        let made = fs::write(dir.join("pids.max"), MAX_PROCESSES.to_string()).and_then(|_| {
            fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))
        });
        match made {
            Ok(procs) => Some(PidsCgroup { dir, procs }),
            Err(_) => {
                let _ = fs::remove_dir(&dir);
                None
            }
        }
    }
}

impl Drop for PidsCgroup {
    fn drop(&mut self) {
        // Empty by now: every program and what it left was killed and reaped.
        let _ = fs::remove_dir(&self.dir);
    }
}

fn rlimits(limits: &Limits) -> Vec<(libc::__rlimit_resource_t, libc::rlim_t)> {
    let mut out = vec![(libc::RLIMIT_CORE, 0)];
    if let Some(ms) = limits.cpu_ms {
        // Whole seconds only: a backstop should the runner itself stall; the runner's
        // sampling is what ends a program at the limit.
        out.push((libc::RLIMIT_CPU, ms.div_ceil(1000) + 1));
    }
    if let Some(b) = limits.address_space_bytes {
        out.push((libc::RLIMIT_AS, b));
    }
    if let Some(b) = limits.stack_bytes {
        out.push((libc::RLIMIT_STACK, b));
    }
    if let Some(b) = limits.file_size_bytes {
        out.push((libc::RLIMIT_FSIZE, b));
    }
    if let Some(n) = limits.open_files {
        out.push((libc::RLIMIT_NOFILE, n));
    }
    out
}

fn clean_cwd(req: &Request) {
    if !req.clean_cwd {
        return;
    }
    let dirty = fs::read_dir(&req.cwd)
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    if dirty {
        let _ = make_writable(&req.cwd);
        let _ = fs::remove_dir_all(&req.cwd);
        let _ = fs::create_dir_all(&req.cwd);
    }
}

/// A program may have removed write permission from what it created.
fn make_writable(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
        if entry.file_type().is_dir() {
            let _ = fs::set_permissions(entry.path(), fs::Permissions::from_mode(0o700));
        }
    }
    Ok(())
}

fn kill_group(pgid: libc::pid_t) {
    // SAFETY: plain syscall.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

/// After the main process is reaped: could anything it started still exist?
fn leftovers_possible(pgid: libc::pid_t) -> bool {
    // SAFETY: plain syscalls; waitpid with WNOHANG and a null status pointer is allowed.
    unsafe {
        if libc::killpg(pgid, 0) == 0 {
            return true;
        }
        // Orphans are re-parented to us (the subreaper), whatever their process group.
        libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) >= 0
    }
}

/// Kills every descendant of the runner and reaps them all. Returns how many live
/// processes were found and how many would not die.
fn sweep() -> (u32, u32) {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    let started = Instant::now();
    let mut seen = HashSet::new();
    loop {
        let alive = descendants(me);
        for &(pid, zombie) in &alive {
            if !zombie {
                seen.insert(pid);
            }
            // SAFETY: plain syscall.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        loop {
            // SAFETY: null status pointer is allowed.
            let r = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
            if r > 0 {
                continue;
            }
            if r < 0 {
                // ECHILD: every descendant is gone (orphans always come to us).
                return (seen.len() as u32, 0);
            }
            break;
        }
        if started.elapsed() > SWEEP_PATIENCE {
            let stuck = descendants(me).iter().filter(|(_, z)| !z).count() as u32;
            return (seen.len() as u32, stuck);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// (pid, is_zombie) of every process below `root`, from /proc.
fn descendants(root: libc::pid_t) -> Vec<(libc::pid_t, bool)> {
    let mut children: HashMap<libc::pid_t, Vec<(libc::pid_t, bool)>> = HashMap::new();
    let Ok(dir) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // The command name may hold spaces and parentheses: fields start after the last ')'.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let state = fields.next().unwrap_or("");
        let Some(ppid) = fields.next().and_then(|s| s.parse().ok()) else {
            continue;
        };
        children.entry(ppid).or_default().push((pid, state == "Z"));
    }
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(p) = stack.pop() {
        if let Some(kids) = children.get(&p) {
            for &(kid, zombie) in kids {
                out.push((kid, zombie));
                stack.push(kid);
            }
        }
    }
    out
}

fn timeval_us(tv: libc::timeval) -> u64 {
    (tv.tv_sec as u64) * 1_000_000 + tv.tv_usec as u64
}

fn poll_fd(fd: RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    }
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: valid out-array of two ints.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 returned two fresh descriptors we now own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn set_nonblocking(fd: RawFd) {
    // SAFETY: plain fcntl on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
}

fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    // SAFETY: plain syscall; a non-negative result is a new descriptor we own.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// SIGTERM and SIGHUP as a readable descriptor, so a running program's poll loop sees them.
struct SignalFd {
    fd: OwnedFd,
}

impl SignalFd {
    fn new() -> io::Result<SignalFd> {
        // SAFETY: sigset operations on a local; signalfd returns a new descriptor we own.
        // Blocking these signals is not inherited by programs: std resets the mask in the child.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGTERM);
            libc::sigaddset(&mut set, libc::SIGHUP);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            let fd = libc::signalfd(-1, &set, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK);
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(SignalFd {
                fd: OwnedFd::from_raw_fd(fd),
            })
        }
    }
}
