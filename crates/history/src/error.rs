//! What can go wrong with the history, said with what to do; and the one rule for a database
//! another judge holds: wait for it, long enough that a busy judge never drops a submission.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::ErrorCode;

/// How long SQLite itself waits for another judge's write before it says "busy".
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a write is tried again, in all, while the database stays busy: a writer holds it
/// for milliseconds, so only a judge stopped while it held it (by a debugger, `kill -STOP`)
/// keeps it that long.
pub(super) const BUSY_GIVE_UP: Duration = Duration::from_secs(60);

#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("{}: the history cannot be written: its file system or the file is read-only\n  fix: make it writable, or record elsewhere with --history PATH (or JUDGE_HISTORY)", path.display())]
    ReadOnly { path: PathBuf },
    #[error("{}: the history stayed locked by another process for {} s\n  fix: see which process holds it (`fuser {}`) and stop it, or record elsewhere with --history PATH", path.display(), waited.as_secs(), path.display())]
    Busy { path: PathBuf, waited: Duration },
    #[error("{}: {source}\n  fix: {}", path.display(), fix(source))]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("{}: written by a newer judge (format {found}, this judge knows up to {known})\n  fix: use that newer judge, or record elsewhere with --history PATH", path.display())]
    TooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    #[error("{}: {source}\n  fix: check that the folder can be made and written, or record elsewhere with --history PATH", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

pub(super) type Result<T> = std::result::Result<T, HistoryError>;

/// What to do about an error SQLite gave.
fn fix(e: &rusqlite::Error) -> &'static str {
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
            "the file is damaged or not a history: move it aside (a new one is made) and keep it to recover what it holds with `sqlite3 FILE .recover`"
        }
        Some(ErrorCode::DiskFull) => "free some space on its disk",
        Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => {
            "check that the file and its folder can be read and written"
        }
        _ => "check the file, or record elsewhere with --history PATH",
    }
}

/// An error of SQLite on the history at `path`, made the kind the caller can act on: SQLite
/// says "unable to open" of a file it may read but not write, so the file system is asked.
pub(super) fn sql(path: &Path) -> impl Fn(rusqlite::Error) -> HistoryError + '_ {
    move |source| match source.sqlite_error_code() {
        Some(ErrorCode::ReadOnly) => HistoryError::ReadOnly {
            path: path.to_path_buf(),
        },
        Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) if read_only(path) => {
            HistoryError::ReadOnly {
                path: path.to_path_buf(),
            }
        }
        _ => HistoryError::Sqlite {
            path: path.to_path_buf(),
            source,
        },
    }
}

/// Whether the file at `path` (or the folder it would be made in) is on a read-only file
/// system.
fn read_only(path: &Path) -> bool {
    let opened = match path.parent().filter(|_| !path.exists()) {
        Some(dir) => tempfile::tempfile_in(dir).map(|_| ()),
        None => std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map(|_| ()),
    };
    opened.is_err_and(|e| e.kind() == std::io::ErrorKind::ReadOnlyFilesystem)
}

/// A file error on the history (its folder, made when missing) at `path`.
pub(super) fn io(path: &Path) -> impl Fn(std::io::Error) -> HistoryError + '_ {
    move |source| match source.kind() {
        std::io::ErrorKind::ReadOnlyFilesystem => HistoryError::ReadOnly {
            path: path.to_path_buf(),
        },
        _ => HistoryError::Io {
            path: path.to_path_buf(),
            source,
        },
    }
}

impl HistoryError {
    /// Another process holds the database: trying again later can succeed.
    fn busy(&self) -> bool {
        matches!(self, HistoryError::Sqlite { source, .. }
            if matches!(source.sqlite_error_code(), Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)))
    }
}

/// Runs `attempt` until it succeeds, fails for another reason than a busy database, or the
/// database has stayed busy for [`BUSY_GIVE_UP`]. SQLite waits [`BUSY_TIMEOUT`] within each
/// attempt; a few steps (WAL recovery, a snapshot gone stale) say busy without waiting, so the
/// pause between attempts grows from 10 ms.
pub(super) fn patiently<T>(path: &Path, mut attempt: impl FnMut() -> Result<T>) -> Result<T> {
    let started = Instant::now();
    let mut pause = Duration::from_millis(10);
    loop {
        match attempt() {
            Err(e) if e.busy() => {
                if started.elapsed() >= BUSY_GIVE_UP {
                    return Err(HistoryError::Busy {
                        path: path.to_path_buf(),
                        waited: started.elapsed(),
                    });
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(500));
            }
            done => return done,
        }
    }
}
