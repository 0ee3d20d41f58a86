//! The raw system calls the runner needs, each behind a safe function: the only `unsafe` of the crate.
//!
//! Everything here is a thin wrapper: no policy, no decisions. Callers in [`super`] decide what
//! to kill, when to sample and how to report; this module only knows how to ask the kernel
//! (and [`spawn`], how a program is started from the launcher's memory).

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

mod spawn;

pub(crate) use spawn::{clone_sharing_files, serve_launches, Plan, Shared, Started, Step};

pub(crate) type Pid = libc::pid_t;

/// A resource limit to set in a child before it executes: (resource, value).
pub(crate) type Rlimit = (libc::__rlimit_resource_t, libc::rlim_t);

pub(crate) use libc::{
    RLIMIT_AS, RLIMIT_CORE, RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_STACK,
};

/// Makes this process the reaper of every orphan below it, and ignores SIGPIPE (a closed pipe
/// is an error to handle, not a reason to die).
pub(crate) fn become_subreaper() {
    // SAFETY: prctl and signal with plain integer arguments.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// Ends this process at once: no destructor, no buffer flushed, no exit handler (a clone must
/// not flush what its original holds).
pub(crate) fn exit_now(code: i32) -> ! {
    // SAFETY: _exit has no preconditions.
    unsafe { libc::_exit(code) }
}

pub(crate) fn getpid() -> Pid {
    // SAFETY: getpid has no preconditions.
    unsafe { libc::getpid() }
}

/// The parent's pid; 0 when the parent is outside this process's pid namespace.
pub(crate) fn getppid() -> Pid {
    // SAFETY: getppid has no preconditions.
    unsafe { libc::getppid() }
}

/// The real user and group ids.
pub(crate) fn ids() -> (u32, u32) {
    // SAFETY: getuid and getgid have no preconditions.
    unsafe { (libc::getuid(), libc::getgid()) }
}

/// Whether this process runs as root (the judge's guards differ: RLIMIT_NPROC, permissions).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// `poll(2)` for readability; returns the number of ready descriptors, negative on EINTR.
pub(crate) fn poll(fds: &mut [libc::pollfd], timeout_ms: i32) -> i32 {
    // SAFETY: fds is a valid array of pollfd for its length.
    unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) }
}

/// A pollfd waiting for input on `fd` (-1: ignored by poll).
pub(crate) fn poll_fd(fd: RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    }
}

/// A pollfd that reports only that the other end of `fd`, a pipe, is closed (`POLLHUP`), not
/// what it holds.
pub(crate) fn poll_hangup(fd: RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    }
}

/// A pollfd waiting until `fd` can be written to (-1: ignored by poll).
pub(crate) fn poll_fd_out(fd: RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLOUT,
        revents: 0,
    }
}

/// What `wait4` reports of a reaped child.
pub(crate) struct Reaped {
    /// The raw wait status.
    pub(crate) status: i32,
    pub(crate) user: Duration,
    pub(crate) sys: Duration,
    /// Peak resident memory, KiB.
    pub(crate) max_rss_kb: u64,
}

impl Reaped {
    /// The signal that killed it, if one did.
    pub(crate) fn signal(&self) -> Option<i32> {
        libc::WIFSIGNALED(self.status).then(|| libc::WTERMSIG(self.status))
    }

    pub(crate) fn exit_code(&self) -> i32 {
        libc::WEXITSTATUS(self.status)
    }
}

/// Reaps `pid` with `wait4`, retrying on EINTR.
pub(crate) fn wait4(pid: Pid) -> Reaped {
    let mut status = 0;
    // SAFETY: rusage is plain old data; wait4 fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointers to locals.
    while unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } < 0 {
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            break;
        }
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Reaped {
        status,
        user: tv(usage.ru_utime),
        sys: tv(usage.ru_stime),
        max_rss_kb: usage.ru_maxrss.max(0) as u64,
    }
}

/// Whether the child `pid` has exited, leaving it unreaped for whoever reaps it (`wait4` with
/// its rusage); `block` waits until it has.
pub(crate) fn exited_unreaped(pid: Pid, block: bool) -> bool {
    let flags = libc::WEXITED | libc::WNOWAIT | if block { 0 } else { libc::WNOHANG };
    // SAFETY: siginfo_t is plain old data; WNOWAIT leaves the zombie to its owner.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) == 0 && info.si_pid() != 0
    }
}

/// Reaps one exited descendant without waiting: > 0 a pid was reaped, 0 none has exited yet,
/// < 0 there are no children left (ECHILD).
pub(crate) fn reap_any() -> Pid {
    // SAFETY: a null status pointer is allowed.
    unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) }
}

/// The CPU-time clock of a running process, when the kernel gives one.
pub(crate) fn cpu_clock(pid: Pid) -> Option<libc::clockid_t> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: valid out-pointer.
    (unsafe { libc::clock_getcpuclockid(pid, &mut clock) } == 0).then_some(clock)
}

/// The time a clock from [`cpu_clock`] shows.
pub(crate) fn clock_time(clock: libc::clockid_t) -> Option<Duration> {
    // SAFETY: timespec is plain old data.
    let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: valid out-pointer.
    (unsafe { libc::clock_gettime(clock, &mut ts) } == 0)
        .then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

pub(crate) fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as u64
}

/// SIGKILL to every process of the group `pgid`.
pub(crate) fn kill_group(pgid: Pid) {
    // SAFETY: plain syscall.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

/// Whether any process of the group `pgid` still exists.
pub(crate) fn group_exists(pgid: Pid) -> bool {
    // SAFETY: plain syscall; signal 0 only checks.
    unsafe { libc::killpg(pgid, 0) == 0 }
}

/// Sends `signal` to one process.
pub(crate) fn kill(pid: Pid, signal: i32) {
    // SAFETY: plain syscall.
    unsafe {
        libc::kill(pid, signal);
    }
}

/// Free blocks (in bytes) and free inodes of the file system `fd` is open on.
pub(crate) fn free_space(fd: RawFd) -> Option<(u64, u64)> {
    // SAFETY: statfs is plain old data; fstatfs fills it.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: valid out-pointer; fd is the caller's.
    (unsafe { libc::fstatfs(fd, &mut st) } == 0)
        .then(|| (st.f_bfree as u64 * st.f_bsize as u64, st.f_ffree as u64))
}

/// Ends this process's stdout: `/dev/null` takes the place of descriptor 1, so the reader at
/// the other end sees the end of its input while the descriptor stays valid (a file opened
/// later never becomes stdout by accident).
pub fn end_stdout() -> io::Result<()> {
    let null = std::fs::OpenOptions::new().write(true).open("/dev/null")?;
    // SAFETY: dup2 of a descriptor we own onto stdout, which std only reaches through fd 1.
    if unsafe { libc::dup2(null.as_raw_fd(), libc::STDOUT_FILENO) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A pipe whose ends close on exec: (read, write).
pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: valid out-array of two ints.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 returned two fresh descriptors we now own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

pub(crate) fn set_nonblocking(fd: RawFd) {
    // SAFETY: plain fcntl on a descriptor the caller owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
}

/// SIGKILL to the process a pidfd names (never to another that took its pid since).
pub(crate) fn pidfd_kill(pidfd: RawFd) {
    // SAFETY: plain syscall with a null siginfo.
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            pidfd,
            libc::SIGKILL,
            std::ptr::null::<libc::siginfo_t>(),
            0u32,
        );
    }
}

/// Reaps the process a pidfd names, waiting for it to exit; nothing if it was reaped already.
pub(crate) fn pidfd_reap(pidfd: RawFd) {
    const P_PIDFD: libc::idtype_t = 3;
    // SAFETY: siginfo_t is plain old data; waitid fills it.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        while libc::waitid(P_PIDFD, pidfd as libc::id_t, &mut info, libc::WEXITED) < 0 {
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                break;
            }
        }
    }
}

/// Names this process (as `ps` and `/proc/PID/comm` show it; at most 15 bytes).
pub(crate) fn set_name(name: &std::ffi::CStr) {
    // SAFETY: prctl with a NUL-terminated string.
    unsafe {
        libc::prctl(libc::PR_SET_NAME, name.as_ptr(), 0, 0, 0);
    }
}

/// A descriptor that becomes readable when `pid` exits (kernel 5.3 and later).
pub(crate) fn pidfd_open(pid: Pid) -> Option<OwnedFd> {
    // SAFETY: plain syscall.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative result is a new descriptor we own.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// SIGTERM, SIGHUP and SIGINT blocked and made readable as a descriptor, so a poll loop sees
/// them. Blocking is not inherited by programs: the launcher's child clears the mask.
pub(crate) fn stop_signals_fd() -> io::Result<OwnedFd> {
    // SAFETY: sigset operations on a local; signalfd returns a new descriptor we own.
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
        Ok(OwnedFd::from_raw_fd(fd))
    }
}

/// Forks this process into new user, mount, network and pid namespaces: `Some(child)` in the
/// parent, `None` in the child, which is the init (pid 1) of its pid namespace and holds every
/// capability of its new user namespace (none outside it).
///
/// The caller must be single-threaded: the child is then a whole copy, as after `fork`.
pub(crate) fn clone_into_namespaces() -> io::Result<Option<Pid>> {
    clone_as_fork(libc::CLONE_NEWUSER | libc::CLONE_NEWNS | libc::CLONE_NEWNET | libc::CLONE_NEWPID)
}

/// `fork` with more `flags` for `clone`: `Some(child)` in the parent, `None` in the child. The
/// caller must be single-threaded.
fn clone_as_fork(flags: libc::c_int) -> io::Result<Option<Pid>> {
    let flags = flags | libc::SIGCHLD;
    // SAFETY: clone without CLONE_VM and with a null stack behaves as fork: the child runs on
    // a copy-on-write copy of this (single-threaded, per the contract) process.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            flags as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    };
    match pid {
        p if p < 0 => Err(io::Error::last_os_error()),
        0 => Ok(None),
        p => Ok(Some(p as Pid)),
    }
}

fn check(result: libc::c_int) -> io::Result<()> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// Mounts a fresh `/proc` for this process's pid namespace, after making every mount of its
/// (new) mount namespace private so that nothing propagates back to the machine's.
pub(crate) fn mount_own_proc() -> io::Result<()> {
    let root = c"/";
    let (proc, at) = (c"proc", c"/proc");
    // SAFETY: mount with NUL-terminated strings and null data/source where allowed.
    unsafe {
        check(libc::mount(
            std::ptr::null(),
            root.as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ))?;
        check(libc::mount(
            proc.as_ptr(),
            at.as_ptr(),
            proc.as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            std::ptr::null(),
        ))
    }
}

/// For the runner once its namespaces are made: no program it starts may gain a privilege
/// (no_new_privs; an empty capability bounding set, so even uid 0 executes with no
/// capability), nor inspect the runner (not dumpable: no ptrace, no `/proc/1/...` links).
pub(crate) fn harden() -> io::Result<()> {
    // SAFETY: prctl with plain integer arguments.
    unsafe {
        check(libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0))?;
        // Capabilities past the last the kernel knows give EINVAL: the end of the set.
        for cap in 0..64 {
            if libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 {
                break;
            }
        }
        check(libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        ))?;
        check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
    }
}

/// SIGKILL when the parent dies (the runner inside its namespaces, should its outer half die).
pub(crate) fn die_with_parent() {
    // SAFETY: prctl with plain integer arguments.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
    }
}

/// Sets no_new_privs (needed to enter a Landlock domain without privileges).
pub(crate) fn no_new_privs() -> io::Result<()> {
    // SAFETY: prctl with plain integer arguments.
    check(unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) })
}

/// The Landlock ABI version the kernel offers, or why there is none (ENOSYS: not built in;
/// EOPNOTSUPP: built in but not enabled at boot).
pub(crate) fn landlock_abi() -> io::Result<i32> {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: the version query takes a null attribute pointer and size 0.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    if v < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(v as i32)
    }
}

/// Reads one pending signal from a signalfd: the pid of its sender as this process sees it
/// (0 when the sender is outside its pid namespace), or `None` when none is pending.
pub(crate) fn read_signal(fd: RawFd) -> Option<u32> {
    // SAFETY: signalfd_siginfo is plain old data.
    let mut info: libc::signalfd_siginfo = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::signalfd_siginfo>();
    // SAFETY: reads at most `size` bytes into a local of that size.
    let n = unsafe { libc::read(fd, &mut info as *mut _ as *mut libc::c_void, size) };
    (n == size as isize).then_some(info.ssi_pid)
}

/// A new Landlock ruleset that handles the access rights `fs` and `net` and the scopes
/// `scoped`, each limited by the caller to what the kernel's ABI version `abi` knows.
pub(crate) fn landlock_ruleset(abi: i32, fs: u64, net: u64, scoped: u64) -> io::Result<OwnedFd> {
    /// `struct landlock_ruleset_attr`; older kernels take a prefix of it.
    #[repr(C)]
    struct Attr {
        handled_access_fs: u64,
        handled_access_net: u64,
        scoped: u64,
    }
    let attr = Attr {
        handled_access_fs: fs,
        handled_access_net: net,
        scoped,
    };
    let size: usize = match abi {
        ..=3 => 8,
        4 | 5 => 16,
        _ => 24,
    };
    // SAFETY: attr outlives the call and holds at least `size` bytes.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            &attr as *const Attr,
            size,
            0u32,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a new descriptor we own.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Allows `rights` on the file, or beneath the folder, open as `parent` (O_PATH).
pub(crate) fn landlock_allow(ruleset: RawFd, parent: RawFd, rights: u64) -> io::Result<()> {
    /// `struct landlock_path_beneath_attr`, packed as the kernel declares it.
    #[repr(C, packed)]
    struct PathBeneath {
        allowed_access: u64,
        parent_fd: i32,
    }
    const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;
    let attr = PathBeneath {
        allowed_access: rights,
        parent_fd: parent,
    };
    // SAFETY: attr outlives the call; both descriptors are the caller's.
    let r = unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset,
            LANDLOCK_RULE_PATH_BENEATH,
            &attr as *const PathBeneath,
            0u32,
        )
    };
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// `path` opened only to name it (O_PATH), and whether it is a folder; `None` when it does
/// not exist.
pub(crate) fn open_path(path: &std::path::Path) -> io::Result<Option<(OwnedFd, bool)>> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_PATH)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
    };
    let is_dir = file.metadata()?.is_dir();
    Ok(Some((file.into(), is_dir)))
}

/// Installs a seccomp filter on this process and all it starts from now on (no_new_privs must
/// be set).
pub(crate) fn install_seccomp(filter: &[libc::sock_filter]) -> io::Result<()> {
    let program = libc::sock_fprog {
        len: filter.len() as libc::c_ushort,
        filter: filter.as_ptr() as *mut libc::sock_filter,
    };
    // SAFETY: the program points to `filter`, which outlives the call (the kernel copies it).
    check(unsafe {
        libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER,
            &program as *const libc::sock_fprog,
            0,
            0,
        )
    })
}
