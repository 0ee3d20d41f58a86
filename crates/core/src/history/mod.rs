//! The submission history: every `judge run` recorded in an embedded SQLite database, listed like an online judge's status page.
//!
//! The database is created on first use and upgraded in place: `schema_version` holds the
//! number of [`MIGRATIONS`] applied. Recording must never stop judging: callers turn every
//! error into a warning.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::model::{Partial, SolutionReport};

mod read;
#[cfg(test)]
mod tests;

use crate::verdict::Verdict;
pub use read::{CaseRecord, Entry, Filter, Submission, Unreadable};

/// Each entry upgrades the database by one version. Released entries are never edited: a
/// change of format is a new entry.
const MIGRATIONS: &[&str] = &[
    // 1: submissions and their per-case results.
    "CREATE TABLE submissions (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        submitted_ms  INTEGER NOT NULL,
        problem       TEXT    NOT NULL,
        solution      TEXT    NOT NULL,
        path          TEXT    NOT NULL,
        source_hash   TEXT    NOT NULL,
        code_length   INTEGER NOT NULL,
        verdict       TEXT    NOT NULL,
        passed        INTEGER NOT NULL,
        total         INTEGER NOT NULL,
        max_time_ms   INTEGER NOT NULL,
        max_memory_kb INTEGER NOT NULL,
        time_limit_ms INTEGER NOT NULL,
        compiler      TEXT    NOT NULL
    );
    CREATE TABLE cases (
        submission_id INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
        position      INTEGER NOT NULL,
        name          TEXT    NOT NULL,
        verdict       TEXT    NOT NULL,
        time_ms       INTEGER NOT NULL,
        memory_kb     INTEGER NOT NULL,
        PRIMARY KEY (submission_id, position)
    );",
    // 2: a solution's submissions are looked up for --best and for "first AC" / "new best".
    "CREATE INDEX submissions_by_solution ON submissions (problem, solution, verdict, max_time_ms);",
    // 3: solutions in any language; those recorded before were Rust.
    "ALTER TABLE submissions ADD COLUMN language TEXT NOT NULL DEFAULT 'rust';",
    // 4: the whole report as JSON (diffs, diagnostics, stderr), for `judge serve`'s submission
    // page; rows recorded before have none.
    "ALTER TABLE submissions ADD COLUMN report TEXT;",
    // 5: a run of part of the cases (`--samples`, `--case`, `--stop-on-fail`) as JSON, what it
    // judged; NULL for a run of every case. A partial run is never a first AC or a best time.
    "ALTER TABLE submissions ADD COLUMN partial TEXT;",
    // 6: judging on other machines. A submission judged again under the same key (a line of
    // `judge batch`, resumed) replaces its record, never doubles it; a case says which worker
    // judged it and from which delivery of its job.
    "ALTER TABLE submissions ADD COLUMN key TEXT;
    CREATE UNIQUE INDEX submissions_by_key ON submissions (key) WHERE key IS NOT NULL;
    ALTER TABLE cases ADD COLUMN worker TEXT;
    ALTER TABLE cases ADD COLUMN attempt INTEGER;",
];

/// How long a write waits for another judge holding the database.
const BUSY_TIMEOUT: Duration = Duration::from_millis(1000);

#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("{}: {source}", path.display())]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("{}: written by a newer judge (format {found}, this judge knows up to {known})", path.display())]
    TooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

type Result<T> = std::result::Result<T, HistoryError>;

/// A submission to record.
#[derive(Debug, Clone)]
pub struct NewSubmission {
    pub problem: String,
    pub solution: String,
    pub path: String,
    /// The language's key: `rust`, `python`.
    pub language: String,
    pub source_hash: String,
    pub code_length: u64,
    pub verdict: Verdict,
    pub passed: usize,
    pub total: usize,
    pub max_time: Duration,
    pub max_memory_bytes: u64,
    pub time_limit: Duration,
    pub compiler: String,
    /// Each case run.
    pub cases: Vec<NewCase>,
    /// The whole report, as `judge run --json` prints it.
    pub report: Option<String>,
    /// The run judged only part of the cases.
    pub partial: Option<Partial>,
    /// The same submission whenever it is judged: recording it again replaces its record.
    pub key: Option<String>,
}

/// A case's result, to be recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct NewCase {
    pub name: String,
    pub verdict: Verdict,
    pub cpu: Duration,
    pub memory_bytes: u64,
    /// The worker that judged it, on another machine.
    pub worker: Option<String>,
    /// Which delivery of its job (1 for the first).
    pub attempt: Option<u64>,
}

impl NewSubmission {
    pub fn from_report(report: &SolutionReport, source: &[u8]) -> NewSubmission {
        NewSubmission {
            problem: report.problem.clone(),
            solution: report.solution.clone(),
            path: report.path.display().to_string(),
            language: report.language.clone(),
            source_hash: blake3::hash(source).to_hex().to_string(),
            code_length: source.len() as u64,
            verdict: report.verdict,
            passed: report.passed,
            total: report.total,
            max_time: report.max_cpu(),
            max_memory_bytes: report.max_memory(),
            time_limit: report.limits.time,
            compiler: report.compile.compiler.clone(),
            cases: report
                .cases
                .iter()
                .map(|c| NewCase {
                    name: c.name.clone(),
                    verdict: c.verdict,
                    cpu: c.cpu,
                    memory_bytes: c.memory_bytes,
                    worker: c.worker.clone(),
                    attempt: c.attempt,
                })
                .collect(),
            report: serde_json::to_string(report).ok(),
            partial: report.partial.clone(),
            key: report.key.clone(),
        }
    }
}

/// What recording a submission found out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Recorded {
    pub id: i64,
    /// The solution's first accepted run.
    pub first_ac: bool,
    /// An accepted run faster than every earlier one: the previous best time in ms.
    pub new_best_over_ms: Option<u64>,
}

pub struct History {
    conn: Connection,
    path: PathBuf,
}

impl History {
    /// `.judge/history.db` of a workspace.
    pub fn default_path(state_dir: &Path) -> PathBuf {
        state_dir.join("history.db")
    }

    /// Opens the database, creating it (and its folder) or upgrading it as needed.
    pub fn open(path: &Path) -> Result<History> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| HistoryError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let conn = Connection::open(path).map_err(sql(path))?;
        let mut h = History {
            conn,
            path: path.to_path_buf(),
        };
        h.configure()?;
        h.migrate()?;
        Ok(h)
    }

    fn configure(&mut self) -> Result<()> {
        self.conn
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(sql(&self.path))?;
        // WAL lets `judge history` read while a run writes. On a read-only file this fails;
        // the error then surfaces at the first write, as a warning.
        let _ = self
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()));
        self.conn
            .execute_batch("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;")
            .map_err(sql(&self.path))
    }

    /// The format version of the database (0 when it is new).
    pub fn version(&self) -> Result<i64> {
        version(&self.conn).map_err(sql(&self.path))
    }

    fn migrate(&mut self) -> Result<()> {
        let known = MIGRATIONS.len() as i64;
        let current = self.version()?;
        if current > known {
            return Err(HistoryError::TooNew {
                path: self.path.clone(),
                found: current,
                known,
            });
        }
        if current == known {
            return Ok(());
        }
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(sql(&path))?;
        // Another judge may have upgraded it while this one waited for the lock.
        let current = version(&tx).map_err(sql(&path))?;
        for m in MIGRATIONS.iter().skip(current as usize) {
            tx.execute_batch(m).map_err(sql(&path))?;
        }
        tx.execute("DELETE FROM schema_version", [])
            .map_err(sql(&path))?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES (?1)",
            params![known],
        )
        .map_err(sql(&path))?;
        tx.commit().map_err(sql(&path))
    }

    /// Records a submission; says whether it is the solution's first AC or a new best time.
    pub fn record(&mut self, s: &NewSubmission) -> Result<Recorded> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(sql(&path))?;
        let (earlier_ac, best): (i64, Option<i64>) = tx
            .query_row(
                "SELECT COUNT(*), MIN(max_time_ms) FROM submissions
                 WHERE problem = ?1 AND solution = ?2 AND verdict = 'AC' AND partial IS NULL
                   AND (?3 IS NULL OR key IS NOT ?3)",
                params![s.problem, s.solution, s.key],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(sql(&path))?;
        let max_time_ms = ms(s.max_time);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis() as i64;
        // The record this one replaces (the same key judged again): gone with its cases, so
        // that the key has exactly one record, the latest.
        if let Some(key) = &s.key {
            tx.execute("DELETE FROM submissions WHERE key = ?1", params![key])
                .map_err(sql(&path))?;
        }
        tx.execute(
            "INSERT INTO submissions (submitted_ms, problem, solution, path, source_hash,
                code_length, verdict, passed, total, max_time_ms, max_memory_kb, time_limit_ms, compiler,
                language, report, partial, key)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
            params![
                now,
                s.problem,
                s.solution,
                s.path,
                s.source_hash,
                s.code_length as i64,
                s.verdict.code(),
                s.passed as i64,
                s.total as i64,
                max_time_ms,
                (s.max_memory_bytes / 1024) as i64,
                s.time_limit.as_millis() as i64,
                s.compiler,
                s.language,
                s.report,
                s.partial
                    .as_ref()
                    .map(|p| serde_json::to_string(p).expect("a Partial is plain data")),
                s.key,
            ],
        )
        .map_err(sql(&path))?;
        let id = tx.last_insert_rowid();
        {
            let mut insert = tx
                .prepare(
                    "INSERT INTO cases (submission_id, position, name, verdict, time_ms, memory_kb,
                        worker, attempt)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )
                .map_err(sql(&path))?;
            for (i, c) in s.cases.iter().enumerate() {
                insert
                    .execute(params![
                        id,
                        i as i64,
                        c.name,
                        c.verdict.code(),
                        ms(c.cpu),
                        (c.memory_bytes / 1024) as i64,
                        c.worker,
                        c.attempt.map(|a| a as i64),
                    ])
                    .map_err(sql(&path))?;
            }
        }
        tx.commit().map_err(sql(&path))?;
        // A partial run's AC is not the solution's.
        let accepted = s.verdict == Verdict::Ac && s.partial.is_none();
        Ok(Recorded {
            id,
            first_ac: accepted && earlier_ac == 0,
            new_best_over_ms: match best {
                Some(b) if accepted && max_time_ms < b => Some(b as u64),
                _ => None,
            },
        })
    }
}

/// Milliseconds rounded as the tables show them (not truncated), so "199 ms" is stored as 199.
fn ms(d: Duration) -> i64 {
    (d.as_secs_f64() * 1000.0).round() as i64
}

fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
        [],
    )?;
    Ok(conn
        .query_row("SELECT MAX(version) FROM schema_version", [], |r| {
            r.get::<_, Option<i64>>(0)
        })
        .optional()?
        .flatten()
        .unwrap_or(0))
}

fn sql(path: &Path) -> impl Fn(rusqlite::Error) -> HistoryError + '_ {
    move |source| HistoryError::Sqlite {
        path: path.to_path_buf(),
        source,
    }
}
