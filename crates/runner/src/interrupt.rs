//! Ctrl-C, and SIGTERM or SIGHUP alike (a `kill`, a closed terminal, a service manager): stop
//! every runner (each kills its program's whole tree), remove the temp dirs, undo what was
//! registered (work queued for other machines), exit 130.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::sys;

/// The exit status of a judge stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
pub const EXIT_INTERRUPTED: u8 = 130;

static RUNNERS: Mutex<Vec<u32>> = Mutex::new(Vec::new());
/// What else to undo at Ctrl-C (work handed to other machines), by the id [`on_interrupt`] gave.
static HOOKS: Mutex<Vec<(u64, Hook)>> = Mutex::new(Vec::new());
static TEMP_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Requests sent to the runners and not yet answered: a program running, or about to.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
/// Held while files that belong together are written (see [`uninterruptible`]).
static WRITING: Mutex<()> = Mutex::new(());

/// Installs the handler; call once at start-up.
pub fn install() {
    install_then(|| {});
}

/// Installs the handler, which runs `before_exit` once the programs are stopped (a worker hands
/// back the work it holds); call once at start-up.
pub fn install_then(before_exit: impl Fn() + Send + 'static) {
    let _ = ctrlc::set_handler(move || {
        INTERRUPTED.store(true, Ordering::SeqCst);
        // Read before the runners are stopped: whether a program was running, to say so.
        let running = IN_FLIGHT.load(Ordering::SeqCst) > 0;
        let runners = RUNNERS.lock().map(|r| r.clone()).unwrap_or_default();
        for &pid in &runners {
            sys::kill(pid as sys::Pid, libc::SIGTERM);
        }
        for &pid in &runners {
            sys::exited_unreaped(pid as sys::Pid, true);
        }
        for dir in TEMP_DIRS.lock().map(|d| d.clone()).unwrap_or_default() {
            let _ = std::fs::remove_dir_all(dir);
        }
        let hooks: Vec<Hook> = HOOKS
            .lock()
            .map(|h| h.iter().map(|(_, f)| f.clone()).collect())
            .unwrap_or_default();
        for hook in hooks {
            hook();
        }
        before_exit();
        // Held until the exit: nothing is half-written, and nothing starts after.
        let _writing = WRITING.lock();
        // Runners wait idle between programs (a watch between saves): only a program that
        // ran was stopped.
        if running {
            eprintln!("\ninterrupted: every program of this run was stopped");
        } else {
            eprintln!("\ninterrupted");
        }
        std::process::exit(EXIT_INTERRUPTED.into());
    });
}

/// Whether Ctrl-C was pressed (the first thing its handler records).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// When Ctrl-C was pressed, parks this thread: the handler is finishing the process, and an
/// error message from here would race it.
pub fn wait_if_interrupted() {
    if INTERRUPTED.load(Ordering::SeqCst) {
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

/// A request sent to a runner.
pub(super) fn sent() {
    IN_FLIGHT.fetch_add(1, Ordering::SeqCst);
}

/// `n` requests answered, or given up with their runner.
pub(super) fn answered(n: usize) {
    IN_FLIGHT.fetch_sub(n, Ordering::SeqCst);
}

pub(super) fn unregister_runner(pid: u32) {
    if let Ok(mut r) = RUNNERS.lock() {
        r.retain(|&p| p != pid);
    }
}

/// Runs `f` to its end even when Ctrl-C comes meanwhile: the handler waits for it before the
/// process exits, so files written in several steps (an imported problem) are never left
/// half-made.
pub fn uninterruptible<T>(f: impl FnOnce() -> T) -> T {
    let _writing = WRITING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    f()
}

/// Something to undo should the run be interrupted, after its programs are stopped.
pub type Hook = std::sync::Arc<dyn Fn() + Send + Sync>;

/// Runs `hook` at Ctrl-C until the [`HookGuard`] returned is dropped.
pub fn on_interrupt(hook: Hook) -> HookGuard {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    if let Ok(mut h) = HOOKS.lock() {
        h.push((id, hook));
    }
    HookGuard(id)
}

/// Keeps a hook of [`on_interrupt`]: dropped, the hook is forgotten.
pub struct HookGuard(u64);

impl Drop for HookGuard {
    fn drop(&mut self) {
        if let Ok(mut h) = HOOKS.lock() {
            h.retain(|(id, _)| *id != self.0);
        }
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
