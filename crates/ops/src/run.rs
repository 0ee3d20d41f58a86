//! Judging one solution and recording it in the history: `judge run`, a submission from the
//! browser, a line of a batch. The problem and its cases are read again on every call (they may
//! have changed since the last); a package that fixes no time limit gets the one its accepted
//! submissions justify first.

use std::path::PathBuf;

use judge_core::model::SolutionReport;
use judge_core::session::{Judging, Observer, Options};
use judge_core::workspace::{self, Problem, Solution, TestCase, Workspace};
use judge_history::{History, HistoryError, NewSubmission, Recorded, UnknownSource};

use crate::Error;

/// What a run of one solution asks for.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// How it is judged: limits, what follows a TLE, jobs (its `selection` is set from `cases`
    /// and `samples`).
    pub judging: Options,
    /// Only the cases these patterns match (`*`, `?`); all when empty.
    pub cases: Vec<String>,
    /// Only the sample cases (with `cases`: the samples and those).
    pub samples: bool,
    /// The problem's sample interactions said by the judge's own interactor instead of its
    /// tests. A replay checks one possible conversation, not the problem: it is never recorded.
    pub replay: bool,
    /// The history to record the run in; `None` records nothing.
    pub history: Option<PathBuf>,
}

/// What a run tells its front-end as it goes.
pub trait RunObserver {
    /// What follows the derivation of a package's time limit (which judges its accepted
    /// submissions first); told the limit found, as a `note`.
    fn settling(&mut self) -> &mut dyn Observer;

    /// What follows the judging of the solution on `cases`, under `options`.
    fn judging(&mut self, cases: &[TestCase], options: &Options) -> &mut dyn Observer;

    /// The solution is judged; it is recorded next.
    fn judged(&mut self, _report: &SolutionReport) {}
}

/// Why a judged run is not in the history. The verdict stands either way.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// What was compiled is not known, so the record would name a source never judged.
    #[error(transparent)]
    Source(#[from] UnknownSource),
    /// The database could not be opened or written.
    #[error(transparent)]
    History(#[from] HistoryError),
}

/// A solution judged, and how its recording went (`None`: not asked for).
#[derive(Debug)]
pub struct Ran {
    pub report: SolutionReport,
    pub recorded: Option<Result<Recorded, RecordError>>,
}

/// Judges `solution` once with `judge` and records the report in the history.
pub fn run(
    ws: &Workspace,
    judge: &mut dyn Judging,
    solution: &Solution,
    options: &RunOptions,
    observer: &mut dyn RunObserver,
) -> Result<Ran, Error> {
    let mut problem = ws.problem(&solution.problem)?;
    if options.judging.time_limit.is_none() {
        settle_time_limit(judge, &mut problem, observer.settling())?;
    }
    let (cases, selection) = if options.replay {
        let cases = ws.replay_cases(&problem)?;
        let chosen = workspace::select_cases(&problem, cases, &options.cases, false)?;
        problem = problem.replaying();
        chosen
    } else {
        let cases = ws.testcases(&problem)?;
        workspace::select_cases(&problem, cases, &options.cases, options.samples)?
    };
    let judging = Options {
        selection,
        ..options.judging.clone()
    };
    let live = observer.judging(&cases, &judging);
    let report = judge.judge(&problem, solution, &cases, &judging, live)?;
    observer.judged(&report);
    let recorded = recorded_in(options).map(|path| record(path, &report));
    Ok(Ran { report, recorded })
}

/// The history a run is recorded in: none for a replay, which checks one possible
/// conversation, not the problem's tests.
fn recorded_in(options: &RunOptions) -> Option<&std::path::Path> {
    options.history.as_deref().filter(|_| !options.replay)
}

/// Gives a package that fixes no time limit the one its accepted submissions justify, and
/// tells `observer` the limit found as a note (deriving it the first time judges them, which
/// takes a while; later it is remembered).
pub fn settle_time_limit(
    judge: &mut dyn Judging,
    problem: &mut Problem,
    observer: &mut dyn Observer,
) -> Result<(), Error> {
    if problem.time_rule.fixed.is_some() {
        return Ok(());
    }
    if let Some(d) = judge_core::derive::settle(judge, problem, observer)? {
        observer.note(&judge_core::derive::describe(&d, problem));
    }
    Ok(())
}

/// Records a judged run in the history at `path`, under the digest of the source as its build
/// read it. A judge stopped while it writes records nothing: SQLite rolls back what it had not
/// committed.
pub fn record(path: &std::path::Path, report: &SolutionReport) -> Result<Recorded, RecordError> {
    let submission = NewSubmission::from_report(report)?;
    Ok(History::open(path).and_then(|mut h| h.record(&submission))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::fixtures;
    use judge_core::verdict::Verdict;

    #[test]
    fn a_replay_is_never_recorded() {
        let asked = RunOptions {
            history: Some("h.db".into()),
            ..RunOptions::default()
        };
        assert_eq!(recorded_in(&asked), Some(std::path::Path::new("h.db")));
        let replay = RunOptions {
            replay: true,
            ..asked
        };
        assert_eq!(recorded_in(&replay), None);
        assert_eq!(recorded_in(&RunOptions::default()), None);
    }

    #[test]
    fn a_run_whose_compiled_source_is_unknown_is_not_recorded_and_says_why() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let history = dir.path().join("history.db");
        // A report made without a build: no digest of what was compiled.
        let report = fixtures::report("ok", vec![fixtures::case("1", Verdict::Ac, 5)]);
        let e = record(&history, &report).expect_err("nothing compiled is known");
        assert!(matches!(e, RecordError::Source(_)), "{e:?}");
        assert!(e.to_string().contains("is not known"), "{e}");
        assert!(!history.exists(), "nothing was written");
    }

    #[test]
    fn a_history_that_cannot_be_opened_is_a_history_error() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let mut report = fixtures::report("ok", vec![fixtures::case("1", Verdict::Ac, 5)]);
        report.compile.source = Some(judge_core::model::SourceDigest::of(b"fn main() {}"));
        // A folder where the database file should be.
        let e = record(dir.path(), &report).expect_err("a folder is not a database");
        assert!(matches!(e, RecordError::History(_)), "{e:?}");
    }
}
