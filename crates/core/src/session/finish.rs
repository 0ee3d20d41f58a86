//! What follows from the cases a run judged: the cases that count under a package's groups,
//! where the run ended, the verdict and whether the run was partial; one rule whether the cases
//! ran here one by one, side by side, or on other machines.

use crate::model::{CaseReport, Partial, SolutionReport};
use crate::workspace::{Problem, TestCase};

use super::Options;

/// What follows from the cases a run of `cases` judged, in order: of a package's groups only the
/// cases that count stay, as if run in order; the report ends at a case that ends the run
/// (`--stop-on-fail`, `--skip-after-tle`); then the verdict, what passed, and whether the
/// run was partial. The same whether the cases ran here one by one, in parallel, or on other
/// machines.
pub fn finish(
    problem: &Problem,
    cases: &[TestCase],
    options: &Options,
    report: &mut SolutionReport,
) {
    if let (Some(g), false) = (&problem.grading, options.every_case) {
        let ran: Vec<CaseReport> = std::mem::take(&mut report.cases);
        report.cases = ran
            .iter()
            .filter(|c| {
                let before: Vec<CaseReport> = ran
                    .iter()
                    .take_while(|o| o.name != c.name)
                    .cloned()
                    .collect();
                runs(g, &before, &c.name)
            })
            .cloned()
            .collect();
    }
    if let Some(end) = report.cases.iter().position(|c| options.ends_run(c)) {
        report.cases.truncate(end + 1);
    }
    report.conclude(problem.grading.as_deref());
    // A case whose failure ended the run before its last case (`--stop-on-fail`,
    // `--skip-after-tle`); a package's grader skipping cases is its rule, not an early end.
    let stopped_early = report
        .cases
        .iter()
        .find(|c| options.ends_run(c))
        .and_then(|c| cases.iter().position(|t| t.name == c.name))
        .is_some_and(|i| i + 1 < cases.len());
    report.partial = Partial::of(
        options.selection.as_ref(),
        cases.len(),
        (report.cases.len(), report.not_timed.len()),
        stopped_early,
    );
}

/// Whether `case` runs, after the cases of `done`, under a package's groups.
pub(super) fn runs(grading: &crate::grading::Group, done: &[CaseReport], case: &str) -> bool {
    grading
        .runs(&|name| done.iter().find(|c| c.name == name).map(|c| c.verdict))
        .iter()
        .any(|n| n == case)
}
