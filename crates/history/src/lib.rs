//! The submission history: every `judge run` recorded in an embedded SQLite database, listed like an online judge's status page.
//!
//! The database is created on first use and upgraded in place: `schema_version` holds the
//! number of [`MIGRATIONS`] applied. Recording must never stop judging: callers turn every
//! error into a warning that says nothing was recorded. Judges, `judge serve` and `judge
//! history` share one database at once: WAL lets readers read while one writes, each write is
//! one short transaction, and a judge waits for another's ([`error::patiently`]) rather than
//! drop its submission. A commit is on the disk before the judge says "recorded".

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use judge_core::model::{Partial, SolutionReport};

mod error;
mod read;
#[cfg(test)]
mod tests;

pub use error::HistoryError;
use error::{io, patiently, sql, Result, BUSY_TIMEOUT};

use judge_core::verdict::Verdict;
pub use read::{CaseRecord, Entry, Filter, RowError, Submission, Unreadable};

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
    // 7: an AC of a scoring problem short of the most it could score (1): never a first AC or
    // a best time; those recorded before count as they did.
    "ALTER TABLE submissions ADD COLUMN below_max_score INTEGER NOT NULL DEFAULT 0;",
];

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
    /// A scoring problem's run that scored less than it could: its AC is not the solution's.
    pub below_max_score: bool,
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

/// Why a run cannot be recorded: the bytes its build read are not known (a folder's source),
/// and the file on disk now may not be what was judged.
#[derive(Debug, thiserror::Error)]
#[error("the source compiled from {} is not known", .0.display())]
pub struct UnknownSource(pub PathBuf);

impl NewSubmission {
    /// The submission of a run, under the hash and length of the source as its build read it
    /// (never the file as it is now: it may have been saved again during the run).
    pub fn from_report(
        report: &SolutionReport,
    ) -> std::result::Result<NewSubmission, UnknownSource> {
        let source = report
            .compile
            .source
            .as_ref()
            .ok_or_else(|| UnknownSource(report.path.clone()))?;
        Ok(NewSubmission {
            problem: report.problem.clone(),
            solution: report.solution.clone(),
            path: report.path.display().to_string(),
            language: report.language.clone(),
            source_hash: source.hash.clone(),
            code_length: source.length,
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
            report: serde_json::to_string(&judge_core::schema::tagged(report)).ok(),
            partial: report.partial.clone(),
            key: report.key.clone(),
            below_max_score: report.below_max_score(),
        })
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
        judge_core::paths::history(state_dir)
    }

    /// Opens the database, creating it (and its folder) or upgrading it as needed. On a
    /// read-only file system it is opened as it is, to be read: a write then says why not.
    pub fn open(path: &Path) -> Result<History> {
        match History::open_writable(path) {
            Err(HistoryError::ReadOnly { .. }) if path.is_file() => History::open_unchanging(path),
            opened => opened,
        }
    }

    fn open_writable(path: &Path) -> Result<History> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io(path))?;
        }
        let conn = Connection::open(path).map_err(sql(path))?;
        let mut h = History {
            conn,
            path: path.to_path_buf(),
        };
        h.configure()?;
        patiently(path, || h.migrate())?;
        Ok(h)
    }

    /// A database on a read-only file system, read as the file it is (SQLite's `immutable`:
    /// no lock, no log, nothing written beside it; nobody can change it there). One of an
    /// earlier format cannot be upgraded there, so it is refused as read-only.
    fn open_unchanging(path: &Path) -> Result<History> {
        let read_only = || HistoryError::ReadOnly {
            path: path.to_path_buf(),
        };
        let uri = format!("file:{}?immutable=1", uri_path(path));
        let flags =
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(uri, flags).map_err(|_| read_only())?;
        let version = conn
            .query_row("SELECT MAX(version) FROM schema_version", [], |r| {
                r.get::<_, Option<i64>>(0)
            })
            .map_err(|_| read_only())?;
        if version != Some(MIGRATIONS.len() as i64) {
            return Err(read_only());
        }
        Ok(History {
            conn,
            path: path.to_path_buf(),
        })
    }

    fn configure(&mut self) -> Result<()> {
        self.conn
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(sql(&self.path))?;
        // WAL lets `judge history` and `judge serve` read while a run writes. Two judges
        // making the database at once may both ask: the loser is told busy, without SQLite's
        // wait, and asks again. On a read-only file it stays as it is: reading works, and
        // the first write says why it cannot.
        let path = self.path.clone();
        let wal = patiently(&path, || {
            self.conn
                .query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0))
                .map_err(sql(&path))
        });
        if let Err(e @ HistoryError::Busy { .. }) = wal {
            return Err(e);
        }
        // FULL: a submission said to be recorded survives a power cut too (one flush of the
        // log per run, nothing beside judging it).
        self.conn
            .execute_batch("PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;")
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

    /// Records a submission, waiting for other judges' writes to end; says whether it is the
    /// solution's first AC or a new best time.
    pub fn record(&mut self, s: &NewSubmission) -> Result<Recorded> {
        let path = self.path.clone();
        patiently(&path, || self.record_once(s))
    }

    fn record_once(&mut self, s: &NewSubmission) -> Result<Recorded> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(sql(&path))?;
        let (earlier_ac, best): (i64, Option<i64>) = tx
            .query_row(
                "SELECT COUNT(*), MIN(max_time_ms) FROM submissions
                 WHERE problem = ?1 AND solution = ?2 AND verdict = 'AC' AND partial IS NULL
                   AND below_max_score = 0 AND (?3 IS NULL OR key IS NOT ?3)",
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
                language, report, partial, key, below_max_score)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                ?18)",
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
                s.below_max_score,
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
        // A partial run's AC is not the solution's, nor one short of the most it could score.
        let accepted = s.verdict == Verdict::Ac && s.partial.is_none() && !s.below_max_score;
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

/// `path` as the path of a `file:` URI: the characters a URI gives a meaning escaped.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for b in path.as_os_str().as_encoded_bytes() {
        match b {
            b'?' | b'#' | b'%' | 0..=0x20 | 0x7f..=0xff => out.push_str(&format!("%{b:02X}")),
            _ => out.push(*b as char),
        }
    }
    out
}
