//! The fork-bomb lock. The fork bomb (fork_bomb.rs) leaves other processes almost no CPU for
//! about a second: enough to push another test's program past its wall cap (twice the time limit
//! plus 1 s). It holds this lock alone ([`alone`]); whatever runs a program holds it shared
//! ([`guard`]) while the program runs, so the two never overlap.
//!
//! Two locks in one, always taken in this order, and in both a bomb waiting for the lock holds
//! back new readers, so it is never starved. A `RwLock`, for tests on the threads of one process
//! (`cargo test --release`). And `flock` on a file beside the build, for tests in processes of their own
//! (`cargo nextest`), entered through a turnstile: a second file, locked alone for a moment by
//! each reader on its way in, and by the bomb for as long as it waits.
//!
//! A thread's guards nest: only its first takes the locks, the others count. A test that holds a
//! live process and runs commands beside it must not wait for the lock a second time: behind a
//! waiting bomb, that second wait would wait for the bomb, which waits for the first guard. For
//! the same reason a guard is not `Send`, and a test that runs commands on threads of its own
//! holds none across them (each thread's commands hold their own).

use std::cell::RefCell;
use std::fs::File;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

static BOMB: RwLock<()> = RwLock::new(());

/// The file locked shared by readers, alone by the bomb.
const LOCK: &str = "fork-bomb.lock";
/// The file locked alone on the way to [`LOCK`].
const TURNSTILE: &str = "fork-bomb.turnstile";

/// What the current thread holds.
enum Held {
    Nothing,
    /// The locks, shared, for `depth` guards.
    Shared {
        depth: usize,
        // Released in this order: the file's lock, then the in-process one.
        _file: File,
        _lock: RwLockReadGuard<'static, ()>,
    },
    /// The bomb's: its own commands run under it.
    Alone,
}

thread_local! {
    static HELD: RefCell<Held> = const { RefCell::new(Held::Nothing) };
}

/// A shared hold of the lock, for as long as it lives.
#[must_use = "the lock is held only while the guard lives"]
pub(crate) struct Guard {
    _thread: PhantomData<*const ()>,
}

/// The lock, shared: the fork bomb does not run while this lives.
pub(crate) fn guard() -> Guard {
    HELD.with(|held| {
        let mut held = held.borrow_mut();
        match &mut *held {
            Held::Shared { depth, .. } => *depth += 1,
            Held::Alone => {}
            Held::Nothing => {
                let lock = BOMB.read().unwrap_or_else(PoisonError::into_inner);
                let turnstile = locked(TURNSTILE, File::lock);
                let file = locked(LOCK, File::lock_shared);
                drop(turnstile);
                *held = Held::Shared {
                    depth: 1,
                    _file: file,
                    _lock: lock,
                };
            }
        }
    });
    Guard {
        _thread: PhantomData,
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        HELD.with(|held| {
            let mut held = held.borrow_mut();
            if let Held::Shared { depth, .. } = &mut *held {
                *depth -= 1;
                if *depth == 0 {
                    *held = Held::Nothing;
                }
            }
        });
    }
}

/// The lock, alone: held by the fork-bomb test, while nothing else runs a program.
#[must_use = "the lock is held only while the guard lives"]
pub(crate) struct Alone {
    // Released in this order.
    _file: File,
    _turnstile: File,
    _lock: RwLockWriteGuard<'static, ()>,
}

pub(crate) fn alone() -> Alone {
    HELD.with(|held| {
        assert!(
            matches!(*held.borrow(), Held::Nothing),
            "the fork bomb takes its lock before it runs anything"
        );
    });
    let lock = BOMB.write().unwrap_or_else(PoisonError::into_inner);
    let turnstile = locked(TURNSTILE, File::lock);
    let file = locked(LOCK, File::lock);
    HELD.with(|held| *held.borrow_mut() = Held::Alone);
    Alone {
        _file: file,
        _turnstile: turnstile,
        _lock: lock,
    }
}

impl Drop for Alone {
    fn drop(&mut self) {
        HELD.with(|held| *held.borrow_mut() = Held::Nothing);
    }
}

/// The file `name` beside the build, opened afresh and locked by `lock`, waiting as long as it
/// takes. Afresh: `flock` locks belong to an open file, so two holds in one process are two
/// holders, as two processes are.
fn locked(name: &str, lock: fn(&File) -> std::io::Result<()>) -> File {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    lock(&file).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    file
}
