//! Comparing solutions of a problem: each judged on every case, one at a time, for the matrix
//! of cases by solutions and the relative speed (`judge compare`, the compare page).

use judge_core::compare::Matrix;
use judge_core::model::{Skipped, SolutionReport};
use judge_core::session::{Judging, Observer, Options};
use judge_core::verdict::{Limits, Verdict};
use judge_core::workspace::{Problem, Solution, TestCase, Workspace};

use crate::run::settle_time_limit;
use crate::Error;

/// What a comparison asks for.
#[derive(Debug, Clone, Default)]
pub struct CompareOptions {
    /// The problem's id.
    pub problem: String,
    /// The solutions to compare; `None`: every solution of the problem.
    pub solutions: Option<Vec<Solution>>,
    /// How each is judged (limits, repeats, what follows a TLE).
    pub judging: Options,
}

/// Solutions compared: what the matrix is made of.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub problem: Problem,
    pub cases: Vec<TestCase>,
    /// The limits every solution ran under.
    pub limits: Limits,
    pub repeat: u32,
    pub reports: Vec<SolutionReport>,
    /// The solutions not judged here (their language is not installed), with why.
    pub skipped: Vec<Skipped>,
}

impl Comparison {
    /// The matrix of cases by solutions, with the speeds and the mismatches.
    pub fn matrix(&self) -> Matrix<'_> {
        Matrix::new(
            &self.problem,
            &self.cases,
            self.limits,
            self.repeat,
            &self.reports,
            &self.skipped,
        )
    }

    /// A solution's verdict is IE: the judge, not the solutions, failed somewhere.
    pub fn internal_error(&self) -> bool {
        self.reports.iter().any(|r| r.verdict == Verdict::Ie)
    }
}

/// Judges the solutions `options` names with `judge`, each in turn, telling `observer` which
/// solution and case is being judged (and, as a note, the time limit derived for a package that
/// fixes none).
pub fn compare(
    ws: &Workspace,
    judge: &mut dyn Judging,
    options: &CompareOptions,
    observer: &mut dyn Observer,
) -> Result<Comparison, Error> {
    let mut problem = ws.problem(&options.problem)?;
    let solutions = match &options.solutions {
        Some(s) => s.clone(),
        None => ws.solutions(&problem.id)?,
    };
    if solutions.is_empty() {
        return Err(Error::no_solutions(ws, &problem.id));
    }
    if options.judging.time_limit.is_none() {
        settle_time_limit(judge, &mut problem, observer)?;
    }
    let cases = ws.testcases(&problem)?;
    let (reports, skipped) =
        judge.judge_all(&problem, &solutions, &cases, &options.judging, observer)?;
    Ok(Comparison {
        limits: options.judging.limits(&problem),
        repeat: options.judging.repeat,
        problem,
        cases,
        reports,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::fixtures;
    use std::path::Path;

    #[test]
    fn a_problem_without_solutions_says_where_to_add_one() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::create_dir(dir.path().join("problems")).expect("problems/");
        let ws = Workspace::loose(dir.path());
        let e = Error::no_solutions(&ws, "double");
        let text = e.to_string();
        assert!(
            text.starts_with("problem `double` has no solutions: add solutions/double/NAME."),
            "{text}"
        );
    }

    #[test]
    fn an_ie_of_any_solution_is_the_judges_failure() {
        let problem = fixtures::problem("p", Path::new("problems/p"));
        let mut compared = Comparison {
            limits: Options::default().limits(&problem),
            problem,
            cases: Vec::new(),
            repeat: 1,
            reports: vec![
                fixtures::report("ok", vec![fixtures::case("1", Verdict::Ac, 5)]),
                fixtures::report("wa", vec![fixtures::case("1", Verdict::Wa, 5)]),
            ],
            skipped: Vec::new(),
        };
        assert!(!compared.internal_error());
        assert_eq!(compared.matrix().columns.len(), 2);
        compared.reports[1] = fixtures::report("ie", vec![fixtures::case("1", Verdict::Ie, 5)]);
        assert!(compared.internal_error());
    }
}
