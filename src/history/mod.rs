//! The submission history: every `judge run` recorded in an embedded SQLite database, listed like an online judge's status page.
//!
//! The database is created on first use and upgraded in place: `schema_version` holds the
//! number of [`MIGRATIONS`] applied. Recording must never stop judging: callers turn every
//! error into a warning.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::model::SolutionReport;
use crate::verdict::Verdict;

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
    /// (name, verdict, CPU time, peak memory) of each case run.
    pub cases: Vec<(String, Verdict, Duration, u64)>,
    /// The whole report, as `judge run --json` prints it.
    pub report: Option<String>,
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
                .map(|c| (c.name.clone(), c.verdict, c.cpu, c.memory_bytes))
                .collect(),
            report: serde_json::to_string(report).ok(),
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

/// A recorded submission.
#[derive(Debug, Clone, Serialize)]
pub struct Submission {
    pub id: i64,
    /// Local time, "2026-05-01 14:03:11".
    pub submitted: String,
    pub submitted_unix_ms: i64,
    pub problem: String,
    pub solution: String,
    pub path: String,
    /// The language's key: `rust`, `python`.
    pub language: String,
    pub source_hash: String,
    pub code_length: u64,
    pub verdict: Verdict,
    pub passed: u64,
    pub total: u64,
    pub max_time_ms: u64,
    pub max_memory_kb: u64,
    pub time_limit_ms: u64,
    pub compiler: String,
    pub cases: Vec<CaseRecord>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CaseRecord {
    pub name: String,
    pub verdict: Verdict,
    pub time_ms: u64,
    pub memory_kb: u64,
}

/// Which submissions to list.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub problem: Option<String>,
    pub solution: Option<String>,
    pub limit: Option<usize>,
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
                 WHERE problem = ?1 AND solution = ?2 AND verdict = 'AC'",
                params![s.problem, s.solution],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(sql(&path))?;
        let max_time_ms = ms(s.max_time);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis() as i64;
        tx.execute(
            "INSERT INTO submissions (submitted_ms, problem, solution, path, source_hash,
                code_length, verdict, passed, total, max_time_ms, max_memory_kb, time_limit_ms, compiler,
                language, report)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
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
            ],
        )
        .map_err(sql(&path))?;
        let id = tx.last_insert_rowid();
        {
            let mut insert = tx
                .prepare(
                    "INSERT INTO cases (submission_id, position, name, verdict, time_ms, memory_kb)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(sql(&path))?;
            for (i, (name, v, t, m)) in s.cases.iter().enumerate() {
                insert
                    .execute(params![
                        id,
                        i as i64,
                        name,
                        v.code(),
                        ms(*t),
                        (m / 1024) as i64
                    ])
                    .map_err(sql(&path))?;
            }
        }
        tx.commit().map_err(sql(&path))?;
        let accepted = s.verdict == Verdict::Ac;
        Ok(Recorded {
            id,
            first_ac: accepted && earlier_ac == 0,
            new_best_over_ms: match best {
                Some(b) if accepted && max_time_ms < b => Some(b as u64),
                _ => None,
            },
        })
    }

    /// Submissions, newest first.
    pub fn list(&self, filter: &Filter) -> Result<Vec<Submission>> {
        self.query(
            "SELECT * FROM submissions s WHERE (?1 IS NULL OR problem = ?1) AND (?2 IS NULL OR solution = ?2)
               AND (?4 IS NULL OR id = ?4)
             ORDER BY id DESC LIMIT ?3",
            filter,
            None,
        )
    }

    /// Each solution's best accepted submission (least max time; the earliest of equals).
    pub fn best(&self, filter: &Filter) -> Result<Vec<Submission>> {
        self.query(
            "SELECT * FROM submissions s WHERE (?1 IS NULL OR problem = ?1) AND (?2 IS NULL OR solution = ?2)
               AND (?4 IS NULL OR id = ?4)
               AND id = (SELECT t.id FROM submissions t
                         WHERE t.problem = s.problem AND t.solution = s.solution AND t.verdict = 'AC'
                         ORDER BY t.max_time_ms, t.id LIMIT 1)
             ORDER BY max_time_ms, problem, solution LIMIT ?3",
            filter,
            None,
        )
    }

    /// One submission, with its per-case results; `None` when there is no such id.
    pub fn get(&self, id: i64) -> Result<Option<Submission>> {
        let mut found = self.query(
            "SELECT * FROM submissions s WHERE (?1 IS NULL OR problem = ?1) AND (?2 IS NULL OR solution = ?2)
               AND (?4 IS NULL OR id = ?4) LIMIT ?3",
            &Filter::default(),
            Some(id),
        )?;
        self.load_cases(&mut found)?;
        Ok(found.pop())
    }

    /// The report recorded with a submission (JSON), when it was.
    pub fn report(&self, id: i64) -> Result<Option<String>> {
        self.conn
            .query_row(
                "SELECT report FROM submissions WHERE id = ?1",
                params![id],
                |r| r.get::<_, Option<String>>(0),
            )
            .optional()
            .map(Option::flatten)
            .map_err(sql(&self.path))
    }

    /// The newest submission's id (0 when there is none): what changes when one is recorded.
    pub fn latest_id(&self) -> Result<i64> {
        self.conn
            .query_row("SELECT COALESCE(MAX(id), 0) FROM submissions", [], |r| {
                r.get(0)
            })
            .map_err(sql(&self.path))
    }

    fn query(&self, select: &str, filter: &Filter, id: Option<i64>) -> Result<Vec<Submission>> {
        let path = &self.path;
        let sql_text = select.replacen(
            "SELECT *",
            "SELECT id, strftime('%Y-%m-%d %H:%M:%S', submitted_ms / 1000, 'unixepoch', 'localtime'),
                    submitted_ms, problem, solution, path, source_hash, code_length, verdict, passed,
                    total, max_time_ms, max_memory_kb, time_limit_ms, compiler, language",
            1,
        );
        let mut stmt = self.conn.prepare(&sql_text).map_err(sql(path))?;
        let limit = filter.limit.map(|l| l as i64).unwrap_or(-1);
        let rows = stmt
            .query_map(params![filter.problem, filter.solution, limit, id], |r| {
                Ok(Submission {
                    id: r.get(0)?,
                    submitted: r.get(1)?,
                    submitted_unix_ms: r.get(2)?,
                    problem: r.get(3)?,
                    solution: r.get(4)?,
                    path: r.get(5)?,
                    source_hash: r.get(6)?,
                    code_length: r.get::<_, i64>(7)? as u64,
                    verdict: verdict(r, 8)?,
                    passed: r.get::<_, i64>(9)? as u64,
                    total: r.get::<_, i64>(10)? as u64,
                    max_time_ms: r.get::<_, i64>(11)? as u64,
                    max_memory_kb: r.get::<_, i64>(12)? as u64,
                    time_limit_ms: r.get::<_, i64>(13)? as u64,
                    compiler: r.get(14)?,
                    language: r.get(15)?,
                    cases: Vec::new(),
                })
            })
            .map_err(sql(path))?
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(sql(path))?;
        Ok(rows)
    }

    /// Fills in the per-case results of `subs`.
    pub fn load_cases(&self, subs: &mut [Submission]) -> Result<()> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT name, verdict, time_ms, memory_kb FROM cases
                 WHERE submission_id = ?1 ORDER BY position",
            )
            .map_err(sql(&self.path))?;
        for s in subs {
            s.cases = stmt
                .query_map(params![s.id], |r| {
                    Ok(CaseRecord {
                        name: r.get(0)?,
                        verdict: verdict(r, 1)?,
                        time_ms: r.get::<_, i64>(2)? as u64,
                        memory_kb: r.get::<_, i64>(3)? as u64,
                    })
                })
                .map_err(sql(&self.path))?
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(sql(&self.path))?;
        }
        Ok(())
    }
}

/// Milliseconds rounded as the tables show them (not truncated), so "199 ms" is stored as 199.
fn ms(d: Duration) -> i64 {
    (d.as_secs_f64() * 1000.0).round() as i64
}

/// A verdict as stored (its code, "AC").
fn verdict(row: &rusqlite::Row, column: usize) -> rusqlite::Result<Verdict> {
    let code: String = row.get(column)?;
    code.parse().map_err(|e: String| {
        rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Text, e.into())
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(solution: &str, verdict: Verdict, ms: u64) -> NewSubmission {
        NewSubmission {
            problem: "p".into(),
            solution: solution.into(),
            path: format!("solutions/p/{solution}.rs"),
            language: "rust".into(),
            source_hash: "abc".into(),
            code_length: 321,
            verdict,
            passed: 2,
            total: 3,
            max_time: Duration::from_millis(ms),
            max_memory_bytes: 2 << 20,
            time_limit: Duration::from_secs(1),
            compiler: "rustc 1.95.0".into(),
            cases: vec![
                ("1".into(), Verdict::Ac, Duration::from_millis(1), 1 << 20),
                ("2".into(), verdict, Duration::from_millis(ms), 2 << 20),
            ],
            report: Some(format!("{{\"solution\": \"{solution}\"}}")),
        }
    }

    #[test]
    fn first_ac_and_new_best_times() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = History::open(&dir.path().join("sub/history.db")).unwrap();
        assert_eq!(h.version().unwrap(), MIGRATIONS.len() as i64);
        let r = h.record(&sub("a", Verdict::Wa, 10)).unwrap();
        assert!(!r.first_ac && r.new_best_over_ms.is_none());
        let r = h.record(&sub("a", Verdict::Ac, 50)).unwrap();
        assert!(r.first_ac && r.new_best_over_ms.is_none());
        let r = h.record(&sub("a", Verdict::Ac, 60)).unwrap();
        assert!(!r.first_ac && r.new_best_over_ms.is_none());
        let r = h.record(&sub("a", Verdict::Ac, 40)).unwrap();
        assert_eq!(r.new_best_over_ms, Some(50));
        let r = h.record(&sub("b", Verdict::Ac, 90)).unwrap();
        assert!(r.first_ac, "first AC is per solution");

        let all = h.list(&Filter::default()).unwrap();
        assert_eq!(
            all.iter().map(|s| s.id).collect::<Vec<_>>(),
            [5, 4, 3, 2, 1]
        );
        let only_a = h
            .list(&Filter {
                solution: Some("a".into()),
                limit: Some(2),
                ..Filter::default()
            })
            .unwrap();
        assert_eq!(only_a.iter().map(|s| s.id).collect::<Vec<_>>(), [4, 3]);
        let best = h.best(&Filter::default()).unwrap();
        assert_eq!(
            best.iter()
                .map(|s| (s.solution.as_str(), s.max_time_ms))
                .collect::<Vec<_>>(),
            [("a", 40), ("b", 90)]
        );
        let mut one = h
            .list(&Filter {
                limit: Some(1),
                ..Filter::default()
            })
            .unwrap();
        h.load_cases(&mut one).unwrap();
        assert_eq!(one[0].cases.len(), 2);
        assert_eq!(one[0].cases[1].time_ms, 90);
        assert_eq!(h.latest_id().unwrap(), 5);
        let third = h.get(3).unwrap().unwrap();
        assert_eq!((third.max_time_ms, third.cases.len()), (60, 2));
        assert!(h.get(6).unwrap().is_none());
        assert_eq!(
            h.report(5).unwrap().as_deref(),
            Some("{\"solution\": \"b\"}")
        );
    }

    #[test]
    fn an_older_database_is_upgraded_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        {
            // A database of format 1, with a submission in it.
            let conn = Connection::open(&path).unwrap();
            version(&conn).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.execute("INSERT INTO schema_version VALUES (1)", [])
                .unwrap();
            conn.execute(
                "INSERT INTO submissions (submitted_ms, problem, solution, path, source_hash, code_length,
                   verdict, passed, total, max_time_ms, max_memory_kb, time_limit_ms, compiler)
                 VALUES (0, 'p', 'old', 'old.rs', 'h', 1, 'AC', 1, 1, 5, 100, 1000, 'rustc')",
                [],
            )
            .unwrap();
        }
        let mut h = History::open(&path).unwrap();
        assert_eq!(h.version().unwrap(), MIGRATIONS.len() as i64);
        let index: i64 = h
            .conn
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE name = 'submissions_by_solution'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(index, 1);
        let r = h.record(&sub("old", Verdict::Ac, 3)).unwrap();
        assert_eq!(r.new_best_over_ms, Some(5), "the old rows are kept");
        let old = h.list(&Filter::default()).unwrap();
        assert_eq!(
            old.last().unwrap().language,
            "rust",
            "rows from before languages were Rust"
        );
    }

    #[test]
    fn a_newer_or_corrupt_database_is_an_error_not_a_crash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        {
            let conn = Connection::open(&path).unwrap();
            version(&conn).unwrap();
            conn.execute("INSERT INTO schema_version VALUES (99)", [])
                .unwrap();
        }
        let err = History::open(&path).err().unwrap().to_string();
        assert!(err.contains("newer judge"), "{err}");
        let junk = dir.path().join("junk.db");
        std::fs::write(&junk, vec![b'x'; 8192]).unwrap();
        assert!(History::open(&junk).is_err());
    }

    #[test]
    #[ignore = "a measurement, not a check: cargo test --release -- --ignored --nocapture recording_cost"]
    fn recording_cost() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        let mut s = sub("a", Verdict::Ac, 50);
        s.cases = (0..14)
            .map(|i| {
                (
                    format!("{i:02}"),
                    Verdict::Ac,
                    Duration::from_millis(i),
                    2 << 20,
                )
            })
            .collect();
        let n = 200;
        let started = std::time::Instant::now();
        for _ in 0..n {
            // Open, upgrade check and record: what one `judge run` does.
            History::open(&path).unwrap().record(&s).unwrap();
        }
        let each = started.elapsed() / n;
        println!("recording one submission of 14 cases: {each:?} on average over {n}");
    }
}
