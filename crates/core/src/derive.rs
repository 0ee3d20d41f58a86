//! A package's time limit when it fixes none: derived by its own rule from its accepted
//! submissions, judged here first, and remembered until the package changes.

use std::path::Path;
use std::time::Duration;

use crate::error::{Error, Result};
use crate::model::{Skipped, SolutionReport};
use crate::session::{Judging, Observer, Options};
use crate::verdict::Verdict;
use crate::workspace::{Problem, Solution, TestCase};

/// How long an accepted submission may take while the limit is being derived from it, as
/// problemtools caps that first run.
pub const CAP: Duration = Duration::from_secs(60);

/// The limit, how it came about, and what was judged to get it.
#[derive(Debug, Clone)]
pub struct Derived {
    pub limit: Duration,
    /// The slowest accepted case: its time and where.
    pub slowest: Duration,
    pub solution: String,
    /// The accepted submissions' reports (empty when the limit was remembered).
    pub reports: Vec<SolutionReport>,
    pub skipped: Vec<Skipped>,
    /// Taken from what an earlier run derived: nothing was judged.
    pub remembered: bool,
}

/// The submissions of a package that set its limit: those in `accepted/`, or in a package
/// with expectations in the format's terms, those whose rules bound it from below.
pub fn accepted(problem: &Problem, solutions: &[Solution]) -> Vec<Solution> {
    solutions
        .iter()
        .filter(|s| problem.sets_time_limit(&s.name))
        .cloned()
        .collect()
}

/// The time a run bounds the limit with, and where: its slowest case, or the slowest its rules
/// that bound the limit from below cover (a run of those that broke none of them).
fn bound(problem: &Problem, r: &SolutionReport) -> Option<Duration> {
    let rules = problem.expectation_of(&r.solution).1;
    if rules.is_empty() {
        return (r.verdict == Verdict::Ac).then(|| r.max_cpu());
    }
    if matches!(r.verdict, Verdict::Ce | Verdict::Ie) {
        return None;
    }
    rules
        .iter()
        .filter(|rule| rule.lower_bound())
        .filter_map(|rule| crate::expect::slowest(rule, r).map(|(t, _)| t))
        .max()
}

/// Derives `problem`'s limit from its accepted submissions (judged under [`CAP`]), or takes
/// it from an earlier run when neither they nor the cases have changed. `remember` is false
/// when the caller needs the reports themselves (`judge verify`).
pub fn time_limit(
    judge: &mut dyn Judging,
    problem: &Problem,
    solutions: &[Solution],
    cases: &[TestCase],
    observer: &mut dyn Observer,
    remember: bool,
) -> Result<Derived> {
    let accepted = accepted(problem, solutions);
    let memo =
        crate::paths::derived(&judge.workspace().state_dir()).join(key(problem, &accepted, cases));
    if remember {
        if let Some(d) = std::fs::read_to_string(&memo).ok().and_then(|t| parse(&t)) {
            return Ok(d);
        }
    }
    let options = Options {
        time_limit: Some(CAP),
        every_case: !problem.terms.rules.is_empty(),
        ..Options::default()
    };
    let mut reports = Vec::new();
    let mut skipped = Vec::new();
    for (i, s) in accepted.iter().enumerate() {
        observer.solution_started(s, i, accepted.len());
        // Only the cases its rules bound the limit with run under the cap: one that must time
        // out elsewhere is not left to spin there for a minute.
        let rules = problem.expectation_of(&s.name).1;
        let bounded: Vec<TestCase> = cases
            .iter()
            .filter(|c| {
                rules.is_empty() || rules.iter().any(|r| r.lower_bound() && r.covers(&c.name))
            })
            .cloned()
            .collect();
        match judge.judge(problem, s, &bounded, &options, observer) {
            Ok(r) => reports.push(r),
            Err(e) => match s.skipped_because(&e) {
                Some(skip) => skipped.push(skip),
                None => return Err(e),
            },
        }
    }
    let slowest = reports
        .iter()
        .filter_map(|r| Some((bound(problem, r)?, r)))
        .max_by_key(|(t, _)| *t);
    let Some((time, slowest)) = slowest else {
        return Err(Error::NoTimeLimit {
            problem: problem.id.clone(),
        });
    };
    let d = Derived {
        limit: problem.time_rule.derive(time),
        slowest: time,
        solution: slowest.solution.clone(),
        reports: Vec::new(),
        skipped,
        remembered: false,
    };
    // Whole or not at all: a half-written memo would be read back as another time limit.
    let _ = crate::atomic::replace(
        &memo,
        format!(
            "{} {} {}",
            d.limit.as_nanos(),
            d.slowest.as_nanos(),
            d.solution
        )
        .as_bytes(),
    );
    Ok(Derived { reports, ..d })
}

/// Gives `problem` its time limit when it fixes none (a package under its own rule): derived
/// once from the accepted submissions and remembered. None when the limit was fixed already.
pub fn settle(
    judge: &mut dyn Judging,
    problem: &mut Problem,
    observer: &mut dyn Observer,
) -> Result<Option<Derived>> {
    if problem.time_rule.fixed.is_some() {
        return Ok(None);
    }
    let cases = judge.workspace().testcases(problem)?;
    let solutions = judge.workspace().solutions(&problem.id)?;
    let d = time_limit(judge, problem, &solutions, &cases, observer, true)?;
    problem.limits.time = d.limit;
    Ok(Some(d))
}

/// What the limit derived from `d` means, in one line.
pub fn describe(d: &Derived, problem: &Problem) -> String {
    format!(
        "time limit {}: derived from {} (slowest case {} x {}{}){}",
        crate::units::format_duration(d.limit),
        d.solution,
        crate::units::format_duration(d.slowest),
        problem.time_rule.ac_to_limit,
        match problem.time_rule.rounding() {
            Some(r) => format!(", rounded up to {r}"),
            None => String::new(),
        },
        if d.remembered {
            ", as judged before"
        } else {
            ""
        },
    )
}

fn parse(text: &str) -> Option<Derived> {
    let mut parts = text.splitn(3, ' ');
    let limit = Duration::from_nanos(parts.next()?.parse().ok()?);
    let slowest = Duration::from_nanos(parts.next()?.parse().ok()?);
    Some(Derived {
        limit,
        slowest,
        solution: parts.next()?.to_string(),
        reports: Vec::new(),
        skipped: Vec::new(),
        remembered: true,
    })
}

/// What the derived limit depends on: the rule, the accepted submissions' sources and the
/// cases (by path, size and time of change: hashing the data on every start would cost more
/// than it saves).
fn key(problem: &Problem, accepted: &[Solution], cases: &[TestCase]) -> String {
    use std::os::unix::fs::MetadataExt;
    let mut h = blake3::Hasher::new();
    h.update(problem.id.as_bytes());
    h.update(format!("{:?}", problem.time_rule).as_bytes());
    for s in accepted {
        h.update(s.name.as_bytes());
        h.update(&std::fs::read(&s.path).unwrap_or_default());
    }
    let stat = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| format!("{} {} {}", m.len(), m.mtime(), m.mtime_nsec()))
            .unwrap_or_default()
    };
    for c in cases {
        h.update(c.input.as_os_str().as_encoded_bytes());
        h.update(stat(&c.input).as_bytes());
        h.update(stat(&c.answer).as_bytes());
    }
    h.finalize().to_hex()[..32].to_string()
}
