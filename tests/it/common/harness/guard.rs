//! The fork-bomb lock. The fork bomb (fork_bomb.rs) leaves other processes almost no CPU for
//! about a second: enough to push another test's program past its wall cap (twice the time limit
//! plus 1 s). It holds this lock alone ([`alone`]); whatever runs a program holds it shared
//! ([`guard`]) while the program runs, so the two never overlap. A bomb waiting for the lock
//! holds back new readers, so it is never starved.
//!
//! A thread's guards nest: only its first takes the lock, the others count. A test that holds a
//! live process and runs commands beside it must not wait for the lock a second time: behind a
//! waiting bomb, that second wait would wait for the bomb, which waits for the first guard. For
//! the same reason a guard is not `Send`, and a test that runs commands on threads of its own
//! holds none across them (each thread's commands hold their own).

use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

static BOMB: RwLock<()> = RwLock::new(());

/// What the current thread holds.
enum Held {
    Nothing,
    /// The lock, shared, for `depth` guards.
    Shared {
        depth: usize,
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
                *held = Held::Shared {
                    depth: 1,
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
    HELD.with(|held| *held.borrow_mut() = Held::Alone);
    Alone { _lock: lock }
}

impl Drop for Alone {
    fn drop(&mut self) {
        HELD.with(|held| *held.borrow_mut() = Held::Nothing);
    }
}
