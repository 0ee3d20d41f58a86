//! Verifying problems: every reference solution against its expected verdict, under the time
//! limit the problem fixes or, where it fixes none, the one its accepted submissions justify
//! (they are judged first, and their runs kept); the others judged at the margin and stopped
//! once their verdict is decided; a package's graders and the cases that test its validators
//! (`judge verify`, the verify page and its API).

use std::time::Duration;

use judge_core::model::{Skipped, SolutionReport};
use judge_core::session::{AfterTle, Judging, Observer, Options};
use judge_core::verdict::Verdict;
use judge_core::verify::{self, Checked, Verification};
use judge_core::workspace::{Problem, Solution, TestCase, Workspace};

use crate::{Error, Judges};

/// What a verify asks for.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// The problems' ids; every problem of the workspace when empty.
    pub problems: Vec<String>,
    /// This time limit instead of the problem's.
    pub time_limit: Option<Duration>,
    /// After a solution goes over the time limit on a case, its remaining cases are skipped.
    pub skip_after_tle: bool,
    /// Every case of every solution, even once its verdict is decided.
    pub all_cases: bool,
    /// The wall-clock limit of each compilation.
    pub compile_time_limit: Duration,
}

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            problems: Vec::new(),
            time_limit: None,
            skip_after_tle: false,
            all_cases: false,
            compile_time_limit: Options::default().compile_time_limit,
        }
    }
}

/// What a verify tells its front-end as it goes, besides the engine's progress.
pub trait VerifyObserver: Observer {
    /// A problem is read; its time limit is found next (which may judge its accepted
    /// submissions).
    fn problem_loaded(&mut self, _problem: &Problem) {}
    /// Its `solutions` are judged under `limit` from here, but for those `skipped`.
    fn problem_started(
        &mut self,
        _problem: &Problem,
        _limit: Duration,
        _solutions: &[Solution],
        _skipped: &[Skipped],
    ) {
    }
    /// A solution is judged (and graded), and checked at `limit`.
    fn solution_checked(&mut self, _report: &SolutionReport, _checked: &Checked, _limit: Duration) {
    }
    /// Every solution of the problem is judged; the validators' cases are checked next.
    fn solutions_judged(&mut self) {}
    /// The problem is verified whole.
    fn problem_verified(&mut self, _verification: &Verification) {}
}

/// Observes nothing.
pub struct Quiet;
impl Observer for Quiet {}
impl VerifyObserver for Quiet {}

/// Problems verified.
#[derive(Debug, Clone)]
pub struct Verified {
    pub problems: Vec<Verification>,
    /// A run's verdict was IE: the judge, not a solution, failed somewhere.
    pub internal_error: bool,
}

impl Verified {
    /// Every solution got its expected verdict and every validator case its answer.
    pub fn ok(&self) -> bool {
        self.problems.iter().all(|v| v.ok())
    }
}

/// Verifies the problems `options` names, one after another.
pub fn verify(
    ws: &Workspace,
    judges: &mut dyn Judges,
    options: &VerifyOptions,
    observer: &mut dyn VerifyObserver,
) -> Result<Verified, Error> {
    let ids = if options.problems.is_empty() {
        ws.problem_ids()?
    } else {
        options.problems.clone()
    };
    let mut verified = Verified {
        problems: Vec::new(),
        internal_error: false,
    };
    for id in &ids {
        let (v, internal_error) = problem(ws, judges, id, options, observer)?;
        verified.internal_error |= internal_error;
        verified.problems.push(v);
    }
    Ok(verified)
}

/// A problem's time limit, fixed or derived, with the runs and skips deriving it made.
struct Limit {
    limit: Duration,
    reports: Vec<SolutionReport>,
    skipped: Vec<Skipped>,
}

/// Verifies one problem: its verification, and whether a run was IE.
fn problem(
    ws: &Workspace,
    judges: &mut dyn Judges,
    id: &str,
    options: &VerifyOptions,
    observer: &mut dyn VerifyObserver,
) -> Result<(Verification, bool), Error> {
    let problem = ws.problem(id)?;
    let cases = ws.testcases(&problem)?;
    let solutions = ws.solutions(&problem.id)?;
    observer.problem_loaded(&problem);
    let Limit {
        limit,
        mut reports,
        mut skipped,
    } = limit(
        judges.judging()?,
        &problem,
        &solutions,
        &cases,
        options,
        observer,
    )?;
    skipped.splice(
        0..0,
        ws.package(id)
            .map(|p| p.skipped.clone())
            .unwrap_or_default(),
    );
    let margin = problem.time_rule.margin(limit);
    observer.problem_started(&problem, limit, &solutions, &skipped);
    let at = (limit, margin);
    for r in &mut reports {
        checked(judges, &problem, r, at, observer)?;
    }
    let rest = not_judged(&solutions, &reports, &skipped);
    let judging = at_margin(&problem, options, at);
    for (i, s) in rest.iter().enumerate() {
        observer.solution_started(s, i, rest.len());
        match judges
            .judging()?
            .judge(&problem, s, &cases, &judging, observer)
        {
            Ok(mut r) => {
                checked(judges, &problem, &mut r, at, observer)?;
                reports.push(r);
            }
            Err(e) => match s.skipped_because(&e) {
                Some(skip) => skipped.push(skip),
                None => return Err(e.into()),
            },
        }
    }
    observer.solutions_judged();
    let internal_error = reports.iter().any(|r| r.verdict == Verdict::Ie);
    reports.sort_by(|a, b| judge_core::workspace::natural_cmp(&a.solution, &b.solution));
    let mut v = verify::verify(&problem, limit, &reports, &skipped);
    // The cases that test the validators (a package's invalid_input, invalid_output,
    // valid_output) must be rejected or accepted as they say. The package's own validators
    // run here, with a cluster too: they are the jury's programs, not a submission.
    if !problem.terms.validator_cases.is_empty() {
        v.validator_cases = judge_core::validate::check_validator_cases(judges.local()?, &problem)?;
    }
    observer.problem_verified(&v);
    Ok((v, internal_error))
}

/// Grades a judged solution (by a package's own graders, when it has some: they are the jury's
/// programs and run here, with a cluster too, at the limit and the margin), checks it at `at`
/// (the limit and the margin) and tells `observer`.
fn checked(
    judges: &mut dyn Judges,
    problem: &Problem,
    report: &mut SolutionReport,
    (limit, margin): (Duration, Duration),
    observer: &mut dyn VerifyObserver,
) -> Result<(), Error> {
    if problem.grading.as_deref().is_some_and(|g| g.has_custom()) {
        judges
            .local()?
            .grade_by_package(problem, report, &[limit, margin]);
    }
    let c = verify::check(
        report,
        problem.expectation_of(&report.solution),
        (limit, margin),
        problem.grading.as_deref(),
        problem.scoring,
    );
    observer.solution_checked(report, &c, limit);
    Ok(())
}

/// The solutions still to judge: those neither judged already (the accepted ones, while the
/// limit was derived) nor skipped.
fn not_judged<'a>(
    solutions: &'a [Solution],
    reports: &[SolutionReport],
    skipped: &[Skipped],
) -> Vec<&'a Solution> {
    solutions
        .iter()
        .filter(|s| !reports.iter().any(|r| r.solution == s.name))
        .filter(|s| !skipped.iter().any(|k| k.solution == s.name))
        .collect()
}

/// How a solution is judged: under the margin (a solution meant to be too slow must fail
/// there too), stopped once its verdict at the limit is decided unless every case is asked for.
fn at_margin(
    problem: &Problem,
    options: &VerifyOptions,
    (limit, margin): (Duration, Duration),
) -> Options {
    Options {
        time_limit: Some(margin),
        until_decided: (!options.all_cases).then_some(limit),
        after_tle: AfterTle::whole_or_skip(options.skip_after_tle),
        compile_time_limit: options.compile_time_limit,
        // Expectations in the format's terms are about every case.
        every_case: !problem.terms.rules.is_empty(),
        ..Options::default()
    }
}

/// The limit `options` fixes (`--time-limit`), else the problem's own, if any.
fn fixed(problem: &Problem, options: &VerifyOptions) -> Option<Duration> {
    options.time_limit.or(problem.time_rule.fixed)
}

/// The limit `options` or the problem fixes; without one, the accepted submissions come
/// first: the slowest of them sets the limit, by the package's own rule.
fn limit(
    judge: &mut dyn Judging,
    problem: &Problem,
    solutions: &[Solution],
    cases: &[TestCase],
    options: &VerifyOptions,
    observer: &mut dyn VerifyObserver,
) -> Result<Limit, Error> {
    if let Some(limit) = fixed(problem, options) {
        return Ok(Limit {
            limit,
            reports: Vec::new(),
            skipped: Vec::new(),
        });
    }
    let d = judge_core::derive::time_limit(judge, problem, solutions, cases, observer, false)?;
    // A run on only some of the cases (those its rules bound the limit with) is judged
    // again, on every case.
    let reports = d
        .reports
        .into_iter()
        .filter(|r| problem.terms.rules.is_empty() || r.cases.len() == cases.len())
        .collect();
    Ok(Limit {
        limit: d.limit,
        reports,
        skipped: d.skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::fixtures;
    use judge_core::verdict::Verdict;
    use std::path::{Path, PathBuf};

    fn solution(name: &str) -> Solution {
        Solution {
            name: name.into(),
            problem: "p".into(),
            path: PathBuf::from(format!("solutions/p/{name}.rs")),
        }
    }

    #[test]
    fn the_limit_asked_for_comes_before_the_problems_and_none_is_derived() {
        let mut problem = fixtures::problem("p", Path::new("problems/p"));
        let options = VerifyOptions::default();
        assert_eq!(fixed(&problem, &options), None, "derived");
        problem.time_rule.fixed = Some(Duration::from_secs(2));
        assert_eq!(fixed(&problem, &options), Some(Duration::from_secs(2)));
        let asked = VerifyOptions {
            time_limit: Some(Duration::from_millis(300)),
            ..VerifyOptions::default()
        };
        assert_eq!(fixed(&problem, &asked), Some(Duration::from_millis(300)));
    }

    #[test]
    fn the_accepted_runs_of_the_derivation_and_the_skipped_are_not_judged_again() {
        let solutions = [solution("fast"), solution("slow"), solution("csharp")];
        let reports = vec![fixtures::report(
            "fast",
            vec![fixtures::case("1", Verdict::Ac, 5)],
        )];
        let skipped = vec![Skipped {
            solution: "csharp".into(),
            path: "solutions/p/csharp.cs".into(),
            skipped: "C# needs `mcs`, which is not installed".into(),
        }];
        let rest: Vec<&str> = not_judged(&solutions, &reports, &skipped)
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(rest, ["slow"]);
    }

    #[test]
    fn solutions_run_at_the_margin_and_stop_once_decided_at_the_limit() {
        let problem = fixtures::problem("p", Path::new("problems/p"));
        let (limit, margin) = (Duration::from_secs(1), Duration::from_millis(1500));
        let options = VerifyOptions {
            compile_time_limit: Duration::from_secs(5),
            ..VerifyOptions::default()
        };
        let o = at_margin(&problem, &options, (limit, margin));
        assert_eq!(o.time_limit, Some(margin));
        assert_eq!(o.until_decided, Some(limit));
        assert_eq!(o.compile_time_limit, Duration::from_secs(5));
        assert_eq!(o.after_tle, AfterTle::WholeLimit);
        assert!(!o.every_case, "no expectations in the format's terms");
        let every = VerifyOptions {
            all_cases: true,
            skip_after_tle: true,
            ..VerifyOptions::default()
        };
        let o = at_margin(&problem, &every, (limit, margin));
        assert_eq!(o.until_decided, None);
        assert_eq!(o.after_tle, AfterTle::Skip);
    }

    #[test]
    fn a_verify_is_ok_only_when_every_problem_is() {
        let problem = fixtures::problem("p", Path::new("problems/p"));
        let limit = Duration::from_secs(1);
        let good = verify::verify(
            &problem,
            limit,
            &[fixtures::report(
                "fast",
                vec![fixtures::case("1", Verdict::Ac, 5)],
            )],
            &[],
        );
        let mut problem = problem;
        problem
            .expected
            .insert("wrong".into(), "AC".parse().expect("an expectation"));
        let bad = verify::verify(
            &problem,
            limit,
            &[fixtures::report(
                "wrong",
                vec![fixtures::case("1", Verdict::Wa, 5)],
            )],
            &[],
        );
        let verified = |problems| Verified {
            problems,
            internal_error: false,
        };
        assert!(verified(vec![good.clone()]).ok());
        assert!(!verified(vec![good, bad]).ok());
    }
}
