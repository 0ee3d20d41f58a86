//! Nothing lost: the judge killed at any moment (`kills`), judges, `judge serve` and `judge
//! listen` writing one workspace and one history at once (`concurrency`), the servers under
//! load (`load`), and the faults around a run: a full disk, a read-only one, a compiler killed
//! or hung, SIGTERM (`faults`); the forms of `judge serve` fuzzed (`forms`; the other parsers
//! are fuzzed by `tests/fuzz/`).
//!
//! The default suite runs a small round of each; `JUDGE_KILLS=N` sets how many kills each kill
//! test makes, and the heavy loads are `#[ignore]`d tests run on demand (see the guide's
//! reliability page).

mod concurrency;
mod faults;
mod forms;
mod kills;
mod load;

use std::path::Path;
use std::time::Duration;

/// How many times each kill test kills its command: `JUDGE_KILLS`, else a round small enough
/// for every change.
pub(crate) fn kills() -> usize {
    count("JUDGE_KILLS", 12)
}

/// A count from the environment variable `name`, else `default`.
pub(crate) fn count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A small deterministic generator (xorshift): the delays and the data of a test are the same
/// on every run, so a failure can be replayed.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A duration in `[0, up_to)`.
    pub(crate) fn below(&mut self, up_to: Duration) -> Duration {
        let nanos = up_to.as_nanos().max(1) as u64;
        Duration::from_nanos(self.next() % nanos)
    }

    /// `len` bytes of printable text in lines, different on each call.
    pub(crate) fn text(&mut self, len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len);
        while out.len() < len {
            let word = self.next();
            for b in word.to_le_bytes() {
                out.push(if b % 61 == 0 { b'\n' } else { b'a' + b % 26 });
            }
        }
        out.truncate(len.saturating_sub(1));
        out.push(b'\n');
        out
    }
}

/// The history at `db` is whole: SQLite's own check finds nothing wrong. Its number of
/// submissions.
#[track_caller]
pub(crate) fn intact(db: &Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok", "{}", db.display());
    conn.query_row("SELECT COUNT(*) FROM submissions", [], |r| r.get(0))
        .unwrap()
}
