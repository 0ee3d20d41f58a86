//! Starting programs the way `posix_spawn` does (a vfork: no copy of an address space), from the launcher's small process: the unsafe half of [`crate::launch`].
//!
//! The runner writes each start's plan into memory it shares with the launcher (mapped before
//! the launcher was cloned, so at the same address in both: the plan's pointers hold in either).
//! The launcher shares the runner's descriptor table, so the plan names descriptors by number.
//! It clones the program with `CLONE_VM | CLONE_VFORK | CLONE_PARENT`: the program is the
//! runner's child (the runner reaps it with `wait4`), it runs on the launcher's memory until it
//! executes, and the peak resident size it inherits is the launcher's, which is far below any
//! program's own.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::io;
use std::os::fd::RawFd;
use std::ptr::NonNull;

use super::{Pid, Rlimit};

/// The shared memory: the plan's fixed part, then its strings and pointer arrays.
const SHARED_BYTES: usize = 4 << 20;
/// The stack the program runs on between clone and execve (a few frames of plain calls).
const CHILD_STACK_BYTES: usize = 64 << 10;
/// At most this many resource limits per program.
const MAX_RLIMITS: usize = 8;

/// The step of a start that failed, for the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Clone,
    Streams,
    Folder,
    Group,
    Limits,
    Sandbox,
    Exec,
}

impl Step {
    const ALL: [Step; 7] = [
        Step::Clone,
        Step::Streams,
        Step::Folder,
        Step::Group,
        Step::Limits,
        Step::Sandbox,
        Step::Exec,
    ];

    fn code(self) -> c_int {
        Step::ALL.iter().position(|s| *s == self).expect("listed") as c_int + 1
    }

    fn from_code(code: c_int) -> Step {
        Step::ALL
            .get((code - 1).max(0) as usize)
            .copied()
            .unwrap_or(Step::Exec)
    }
}

/// The plan as it lies in shared memory. Only this binary reads and writes it, in the runner,
/// the launcher and the child, so Rust's own layout is the same on all sides.
struct Laid {
    path: *const c_char,
    argv: *const *const c_char,
    envp: *const *const c_char,
    cwd: *const c_char,
    stdio: [c_int; 3],
    landlock: c_int,
    runner: Pid,
    ignore_sigpipe: bool,
    rlimits: [Rlimit; MAX_RLIMITS],
    rlimit_count: usize,
    /// Filled in by the launcher and the child.
    pid: Pid,
    error: c_int,
    step: c_int,
}

/// What to start, as the runner knows it.
pub(crate) struct Plan<'a> {
    /// The executable, found (the child does no search).
    pub(crate) path: &'a CStr,
    pub(crate) argv: &'a [CString],
    pub(crate) envp: &'a [CString],
    pub(crate) cwd: &'a CStr,
    /// Descriptors (in the shared table) that become stdin, stdout and stderr; at least 3 each.
    pub(crate) stdio: [RawFd; 3],
    pub(crate) rlimits: &'a [Rlimit],
    /// The Landlock ruleset to enter, -1: none.
    pub(crate) landlock: RawFd,
    /// The runner's pid: the program dies with it.
    pub(crate) runner: Pid,
    /// Writing to a pipe nobody reads is an error (EPIPE) to it rather than its death.
    pub(crate) ignore_sigpipe: bool,
}

/// How a start went, once the launcher said it is done.
pub(crate) enum Started {
    Running(Pid),
    /// `pid`: the child that failed before executing, a zombie for the runner to reap.
    Failed {
        step: Step,
        error: io::Error,
        pid: Option<Pid>,
    },
}

/// Memory shared between the runner and its launcher.
pub(crate) struct Shared {
    base: NonNull<u8>,
}

impl Shared {
    pub(crate) fn new() -> io::Result<Shared> {
        // MAP_NORESERVE: only the pages a plan touches cost.
        let p = anonymous(SHARED_BYTES, libc::MAP_SHARED | libc::MAP_NORESERVE)?;
        let base = NonNull::new(p as *mut u8).expect("mmap never maps page 0 here");
        Ok(Shared { base })
    }

    fn laid(&self) -> *mut Laid {
        self.base.as_ptr() as *mut Laid
    }

    /// Lays `plan` out; E2BIG when its arguments and environment do not fit.
    pub(crate) fn lay_out(&self, plan: &Plan) -> io::Result<()> {
        if plan.rlimits.len() > MAX_RLIMITS {
            return Err(io::Error::from_raw_os_error(libc::EINVAL));
        }
        let mut arena = Arena {
            base: self.base.as_ptr(),
            used: std::mem::size_of::<Laid>(),
        };
        let path = arena.string(plan.path)?;
        let cwd = arena.string(plan.cwd)?;
        let argv = arena.list(plan.argv)?;
        let envp = arena.list(plan.envp)?;
        let mut rlimits = [(0, 0); MAX_RLIMITS];
        rlimits[..plan.rlimits.len()].copy_from_slice(plan.rlimits);
        let laid = Laid {
            path,
            argv,
            envp,
            cwd,
            stdio: plan.stdio,
            landlock: plan.landlock,
            runner: plan.runner,
            ignore_sigpipe: plan.ignore_sigpipe,
            rlimits,
            rlimit_count: plan.rlimits.len(),
            pid: 0,
            error: 0,
            step: 0,
        };
        // SAFETY: the mapping is large enough and aligned for Laid (page-aligned base); the
        // launcher reads it only after the runner's go, which follows this write.
        unsafe { self.laid().write(laid) };
        Ok(())
    }

    /// What the launcher and the child reported of the last start; `None`: no child was made.
    pub(crate) fn started(&self) -> Option<Started> {
        // SAFETY: the launcher has finished with the plan (it said done, or it is gone).
        let laid = unsafe { &*self.laid() };
        match (laid.step, laid.pid) {
            (0, 0) => None,
            (0, pid) => Some(Started::Running(pid)),
            (step, pid) => Some(Started::Failed {
                step: Step::from_code(step),
                error: io::Error::from_raw_os_error(laid.error),
                pid: (pid > 0).then_some(pid),
            }),
        }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: the mapping made in new(), not used after this.
        unsafe {
            libc::munmap(self.base.as_ptr() as *mut c_void, SHARED_BYTES);
        }
    }
}

/// Bump allocation in the shared memory, after the plan's fixed part.
struct Arena {
    base: *mut u8,
    used: usize,
}

impl Arena {
    fn take(&mut self, bytes: usize, align: usize) -> io::Result<*mut u8> {
        let start = self.used.next_multiple_of(align);
        if start + bytes > SHARED_BYTES {
            return Err(io::Error::from_raw_os_error(libc::E2BIG));
        }
        self.used = start + bytes;
        // SAFETY: within the mapping, checked above.
        Ok(unsafe { self.base.add(start) })
    }

    fn string(&mut self, s: &CStr) -> io::Result<*const c_char> {
        let bytes = s.to_bytes_with_nul();
        let at = self.take(bytes.len(), 1)?;
        // SAFETY: `at` has room for the bytes; the source is a separate allocation.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), at, bytes.len()) };
        Ok(at as *const c_char)
    }

    /// A NULL-terminated array of pointers to copies of `items`.
    fn list(&mut self, items: &[CString]) -> io::Result<*const *const c_char> {
        let size = std::mem::size_of::<*const c_char>();
        let at = self.take((items.len() + 1) * size, size)? as *mut *const c_char;
        for (i, item) in items.iter().enumerate() {
            let s = self.string(item)?;
            // SAFETY: `at` has room for items.len() + 1 aligned pointers.
            unsafe { at.add(i).write(s) };
        }
        // SAFETY: as above, the last slot.
        unsafe { at.add(items.len()).write(std::ptr::null()) };
        Ok(at as *const *const c_char)
    }
}

/// A fresh readable and writable anonymous mapping of `len` bytes, with `flags` (sharing and
/// the like) besides MAP_ANONYMOUS.
fn anonymous(len: usize, flags: c_int) -> io::Result<*mut c_void> {
    // SAFETY: a new mapping at an address the kernel picks; nothing is overwritten.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            flags | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        Err(io::Error::last_os_error())
    } else {
        Ok(p)
    }
}

/// Clones this process as the launcher: a copy that shares the descriptor table (so a
/// descriptor the runner opens is the launcher's too). `Some(pid)` in the runner, `None` in
/// the launcher. The caller must be single-threaded: the launcher is a whole copy, as after
/// `fork`.
pub(crate) fn clone_sharing_files() -> io::Result<Option<Pid>> {
    super::clone_as_fork(libc::CLONE_FILES)
}

/// The launcher's life: for each byte on `go`, start the plan in `shared`, then write a byte to
/// `done`. Ends the process when `go` ends. Touches as little memory as it can: every page it
/// touches is in the peak resident size of the programs it starts.
pub(crate) fn serve_launches(shared: &Shared, go: RawFd, done: RawFd) -> ! {
    // The child's stack, kept for the process's life.
    let Ok(stack) = anonymous(CHILD_STACK_BYTES, libc::MAP_PRIVATE | libc::MAP_STACK) else {
        super::exit_now(1)
    };
    // The stack grows down on every architecture this builds for.
    let top = (stack as usize + CHILD_STACK_BYTES) as *mut c_void;
    let laid = shared.laid();
    let mut byte = 0u8;
    loop {
        // SAFETY: reads one byte into a local.
        let n = unsafe { libc::read(go, &mut byte as *mut u8 as *mut c_void, 1) };
        if n == 0 {
            super::exit_now(0);
        }
        if n < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            super::exit_now(1);
        }
        // SAFETY: the runner wrote the plan before the go and waits for done: the plan is the
        // launcher's (and its child's) alone until then. The child runs on `top`, in this
        // address space, while this process is suspended (CLONE_VFORK) until it executes or
        // exits; it shares nothing else that it could disturb.
        unsafe {
            (*laid).pid = 0;
            (*laid).error = 0;
            (*laid).step = 0;
            let flags = libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PARENT | libc::SIGCHLD;
            let pid = libc::clone(child, top, flags, laid as *mut c_void);
            if pid < 0 {
                (*laid).error = io::Error::last_os_error().raw_os_error().unwrap_or(0);
                (*laid).step = Step::Clone.code();
            } else {
                (*laid).pid = pid;
            }
            libc::write(done, &byte as *const u8 as *const c_void, 1);
        }
    }
}

/// The program's side between clone and execve: plain system calls on the plan, no allocation,
/// no lock (it runs on the launcher's memory). A failure is noted in the plan and ends it.
extern "C" fn child(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the plan in shared memory, which nothing else touches while this runs
    // (the launcher is suspended, the runner waits for done).
    unsafe {
        let plan = &mut *(arg as *mut Laid);
        // First: should the launcher die before it reports, the runner still knows its child.
        plan.pid = libc::getpid();
        let fail = |plan: &mut Laid, step: Step| -> ! {
            plan.error = io::Error::last_os_error().raw_os_error().unwrap_or(0);
            plan.step = step.code();
            libc::_exit(127)
        };
        // The runner blocks its stop signals and ignores SIGPIPE: a program starts with no
        // signal blocked and SIGPIPE as its plan says (execve keeps an ignored signal ignored).
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        let sigpipe = if plan.ignore_sigpipe {
            libc::SIG_IGN
        } else {
            libc::SIG_DFL
        };
        libc::signal(libc::SIGPIPE, sigpipe);
        for (target, &fd) in plan.stdio.iter().enumerate() {
            let target = target as c_int;
            // dup2 onto itself would leave close-on-exec set.
            let kept = if fd == target {
                libc::fcntl(fd, libc::F_SETFD, 0)
            } else {
                libc::dup2(fd, target)
            };
            if kept < 0 {
                fail(plan, Step::Streams);
            }
        }
        if libc::chdir(plan.cwd) != 0 {
            fail(plan, Step::Folder);
        }
        // A process group of its own: the whole group is killed at a limit.
        if libc::setpgid(0, 0) != 0 {
            fail(plan, Step::Group);
        }
        for &(resource, value) in &plan.rlimits[..plan.rlimit_count] {
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
                fail(plan, Step::Limits);
            }
        }
        // Its parent is the runner (CLONE_PARENT), single-threaded: "parent death" is the
        // runner's death.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        if libc::getppid() != plan.runner {
            libc::_exit(137);
        }
        // Last: a program that cannot be confined must not run at all.
        if plan.landlock >= 0
            && libc::syscall(libc::SYS_landlock_restrict_self, plan.landlock, 0) != 0
        {
            fail(plan, Step::Sandbox);
        }
        libc::execve(plan.path, plan.argv, plan.envp);
        fail(plan, Step::Exec)
    }
}
