//! Reading the history back: every row on its own, so that one it cannot read (a verdict a
//! newer judge wrote, say) is listed as such and never hides the others.

use std::sync::Arc;
use std::time::Duration;

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::{sql, History, Result};
use judge_core::model::Partial;
use judge_core::verdict::Verdict;

/// A recorded submission.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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
    /// The run judged only part of the cases: not the solution's verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial: Option<Partial>,
    pub cases: Vec<CaseRecord>,
}

impl Submission {
    /// A case went over the time limit: the max time is only a lower bound. (Cases read back
    /// with [`History::load_cases`]; a TLE's own verdict says so without them.)
    pub fn any_tle(&self) -> bool {
        self.verdict == Verdict::Tle || self.cases.iter().any(|c| c.verdict == Verdict::Tle)
    }

    /// The max time as every table shows it ("> 4 s" past the limit).
    pub fn time_text(&self) -> String {
        judge_core::units::format_run_time(
            Duration::from_millis(self.max_time_ms),
            self.any_tle()
                .then_some(Duration::from_millis(self.time_limit_ms)),
        )
    }
}

/// A row of the history: a submission, or one this judge cannot read (a verdict it does not
/// know, written by a newer judge, say). One such row never hides the others.
// Nearly every row is read: boxing the common case to shrink the rare one would not pay.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Entry {
    Read(Submission),
    Unreadable(Unreadable),
}

impl judge_core::schema::Document for Entry {
    const SCHEMA: &'static str = "judge.history/1";
}

/// A row that could not be read: its number, and why.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Unreadable {
    pub id: i64,
    /// What could not be read: "verdict `XY` is not one this judge knows".
    #[schemars(with = "String")]
    pub unreadable: RowError,
}

/// What of a row could not be read, said as the history's listing shows it (and written as
/// that sentence in the JSON).
#[derive(Debug, Clone, thiserror::Error)]
pub enum RowError {
    /// A column SQLite could not give as its type (`name`: the column).
    #[error("its {name}: {source}")]
    Column {
        name: &'static str,
        // Shared: a row's error is cloned with its entry, and SQLite's error is not `Clone`.
        source: Arc<rusqlite::Error>,
    },
    /// A count or a measure below zero.
    #[error("its {name} is negative ({value})")]
    Negative { name: &'static str, value: i64 },
    /// A verdict's code a newer judge wrote.
    #[error("its verdict `{code}` is not one this judge knows (written by a newer judge?)")]
    Verdict { code: String },
    #[error("what its partial run judged: {0}")]
    Partial(Arc<serde_json::Error>),
    /// One of its cases (`number`: from 1).
    #[error("case {number}: {source}")]
    Case { number: i64, source: Box<RowError> },
}

impl Serialize for RowError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Entry {
    pub fn id(&self) -> i64 {
        match self {
            Entry::Read(s) => s.id,
            Entry::Unreadable(u) => u.id,
        }
    }

    pub fn submission(&self) -> Option<&Submission> {
        match self {
            Entry::Read(s) => Some(s),
            Entry::Unreadable(_) => None,
        }
    }
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CaseRecord {
    pub name: String,
    pub verdict: Verdict,
    pub time_ms: u64,
    pub memory_kb: u64,
    /// Judged on another machine: the worker, and which delivery of the case's job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worker: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempt: Option<u64>,
}

/// Which submissions to list.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub problem: Option<String>,
    pub solution: Option<String>,
    pub limit: Option<usize>,
}

impl History {
    /// Submissions, newest first.
    pub fn list(&self, filter: &Filter) -> Result<Vec<Entry>> {
        self.query(
            "SELECT * FROM submissions s WHERE (?1 IS NULL OR problem = ?1) AND (?2 IS NULL OR solution = ?2)
               AND (?4 IS NULL OR id = ?4)
             ORDER BY id DESC LIMIT ?3",
            filter,
            None,
        )
    }

    /// Each solution's best accepted submission of all its cases, with the most it could
    /// score (least max time; the earliest of equals).
    pub fn best(&self, filter: &Filter) -> Result<Vec<Entry>> {
        self.query(
            "SELECT * FROM submissions s WHERE (?1 IS NULL OR problem = ?1) AND (?2 IS NULL OR solution = ?2)
               AND (?4 IS NULL OR id = ?4)
               AND id = (SELECT t.id FROM submissions t
                         WHERE t.problem = s.problem AND t.solution = s.solution AND t.verdict = 'AC'
                           AND t.partial IS NULL AND t.below_max_score = 0
                         ORDER BY t.max_time_ms, t.id LIMIT 1)
             ORDER BY max_time_ms, problem, solution LIMIT ?3",
            filter,
            None,
        )
    }

    /// One submission, with its per-case results; `None` when there is no such id.
    pub fn get(&self, id: i64) -> Result<Option<Entry>> {
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

    /// The rows `select` picks, each read on its own: one that cannot be read is an
    /// [`Entry::Unreadable`], never an error for the whole list.
    fn query(&self, select: &str, filter: &Filter, id: Option<i64>) -> Result<Vec<Entry>> {
        let path = &self.path;
        let sql_text = select.replacen(
            "SELECT *",
            "SELECT id, strftime('%Y-%m-%d %H:%M:%S', submitted_ms / 1000, 'unixepoch', 'localtime'),
                    submitted_ms, problem, solution, path, source_hash, code_length, verdict, passed,
                    total, max_time_ms, max_memory_kb, time_limit_ms, compiler, language, partial",
            1,
        );
        let mut stmt = self.conn.prepare(&sql_text).map_err(sql(path))?;
        let limit = filter.limit.map(|l| l as i64).unwrap_or(-1);
        let rows = stmt
            .query_map(params![filter.problem, filter.solution, limit, id], |r| {
                let id: i64 = r.get(0)?;
                Ok(match submission(r) {
                    Ok(s) => Entry::Read(s),
                    Err(why) => Entry::Unreadable(Unreadable {
                        id,
                        unreadable: why,
                    }),
                })
            })
            .map_err(sql(path))?
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(sql(path))?;
        Ok(rows)
    }

    /// Fills in the per-case results of the submissions among `entries`; a submission with a
    /// case that cannot be read becomes unreadable itself.
    pub fn load_cases(&self, entries: &mut [Entry]) -> Result<()> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT position, name, verdict, time_ms, memory_kb, worker, attempt FROM cases
                 WHERE submission_id = ?1 ORDER BY position",
            )
            .map_err(sql(&self.path))?;
        for entry in entries {
            let Entry::Read(s) = entry else { continue };
            let cases = stmt
                .query_map(params![s.id], |r| {
                    let position: i64 = r.get(0)?;
                    Ok(case(r).map_err(|why| RowError::Case {
                        number: position + 1,
                        source: Box::new(why),
                    }))
                })
                .map_err(sql(&self.path))?
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(sql(&self.path))?;
            match cases
                .into_iter()
                .collect::<std::result::Result<Vec<_>, _>>()
            {
                Ok(cases) => s.cases = cases,
                Err(why) => {
                    *entry = Entry::Unreadable(Unreadable {
                        id: s.id,
                        unreadable: why,
                    })
                }
            }
        }
        Ok(())
    }
}

/// A submission from its row, or what of it could not be read.
fn submission(r: &rusqlite::Row) -> std::result::Result<Submission, RowError> {
    Ok(Submission {
        id: column(r, 0, "id")?,
        submitted: column(r, 1, "submitted")?,
        submitted_unix_ms: column(r, 2, "submitted_ms")?,
        problem: column(r, 3, "problem")?,
        solution: column(r, 4, "solution")?,
        path: column(r, 5, "path")?,
        source_hash: column(r, 6, "source_hash")?,
        code_length: count(r, 7, "code_length")?,
        verdict: verdict(r, 8)?,
        passed: count(r, 9, "passed")?,
        total: count(r, 10, "total")?,
        max_time_ms: count(r, 11, "max_time_ms")?,
        max_memory_kb: count(r, 12, "max_memory_kb")?,
        time_limit_ms: count(r, 13, "time_limit_ms")?,
        compiler: column(r, 14, "compiler")?,
        language: column(r, 15, "language")?,
        partial: match column::<Option<String>>(r, 16, "partial")? {
            None => None,
            Some(json) => {
                Some(serde_json::from_str(&json).map_err(|e| RowError::Partial(Arc::new(e)))?)
            }
        },
        cases: Vec::new(),
    })
}

/// A case from its row (position first), or what of it could not be read.
fn case(r: &rusqlite::Row) -> std::result::Result<CaseRecord, RowError> {
    Ok(CaseRecord {
        name: column(r, 1, "name")?,
        verdict: verdict(r, 2)?,
        time_ms: count(r, 3, "time_ms")?,
        memory_kb: count(r, 4, "memory_kb")?,
        worker: column(r, 5, "worker")?,
        attempt: column::<Option<i64>>(r, 6, "attempt")?.map(|a| a.max(0) as u64),
    })
}

fn column<T: rusqlite::types::FromSql>(
    r: &rusqlite::Row,
    index: usize,
    name: &'static str,
) -> std::result::Result<T, RowError> {
    r.get(index).map_err(|e| RowError::Column {
        name,
        source: Arc::new(e),
    })
}

/// A count or a measure, never negative.
fn count(
    r: &rusqlite::Row,
    index: usize,
    name: &'static str,
) -> std::result::Result<u64, RowError> {
    let n: i64 = column(r, index, name)?;
    u64::try_from(n).map_err(|_| RowError::Negative { name, value: n })
}

/// A verdict as stored (its code, "AC").
fn verdict(r: &rusqlite::Row, index: usize) -> std::result::Result<Verdict, RowError> {
    let code: String = column(r, index, "verdict")?;
    code.parse().map_err(|_| RowError::Verdict { code })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rows_error_says_what_of_it_could_not_be_read() {
        let negative = RowError::Negative {
            name: "time_ms",
            value: -3,
        };
        assert_eq!(negative.to_string(), "its time_ms is negative (-3)");
        let verdict = RowError::Verdict { code: "XX".into() };
        let case = RowError::Case {
            number: 2,
            source: Box::new(verdict),
        };
        assert_eq!(
            case.to_string(),
            "case 2: its verdict `XX` is not one this judge knows (written by a newer judge?)"
        );
        let partial = serde_json::from_str::<Partial>("[").unwrap_err();
        assert!(RowError::Partial(Arc::new(partial))
            .to_string()
            .starts_with("what its partial run judged: "));
        // The JSON keeps the sentence, as it did when the reason was text.
        let json = serde_json::to_value(Unreadable {
            id: 7,
            unreadable: negative,
        })
        .unwrap();
        assert_eq!(json["unreadable"], "its time_ms is negative (-3)");
    }
}
