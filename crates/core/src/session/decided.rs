//! When `judge verify` has seen enough of a submission: its verdict is decided, and the cases
//! left would cost time and change nothing, as problemtools and BAPCtools stop there too.

use std::time::Duration;

use super::Options;
use crate::expect::{Rule, SpecVerdict};
use crate::model::{CaseReport, SolutionReport};
use crate::verdict::Verdict;
use crate::workspace::Problem;

/// Whether a verify's run of `solution` stops after the cases it ran so far
/// ([`Options::until_decided`], the language's extra time applied to the limit).
pub(super) fn stops(
    problem: &Problem,
    solution: &str,
    options: &Options,
    report: &SolutionReport,
) -> bool {
    options.until_decided.is_some_and(|limit| {
        let limit = report.time_rule.map_or(limit, |a| a.rule.apply(limit));
        decided(problem, solution, &report.cases, limit, options.every_case)
    })
}

/// Whether the run of `solution` is decided once `cases` ran (the last one just now), for a
/// verify that holds it to `limit` (the run itself is under the limit x the margin). Only a
/// failure decides, and of a failure:
/// - without rules in the format's terms, the first failure is the verdict at the limit and at
///   the margin alike, whatever the expectation; a package's groups decide for themselves which
///   of their cases run, unless `every_case` runs them all (the package has rules for other
///   submissions), where the first failure decides a pass-fail package's verdict too;
/// - with rules, a failure that a rule covering its case does not permit breaks that rule
///   whatever follows; and a failure after which every rule is met is settled, when the rules
///   are about verdicts alone (a score or a judge message needs the cases that follow).
pub(super) fn decided(
    problem: &Problem,
    solution: &str,
    cases: &[CaseReport],
    limit: Duration,
    every_case: bool,
) -> bool {
    let Some(last) = cases.last() else {
        return false;
    };
    if last.verdict == Verdict::Ac {
        return false;
    }
    let rules = problem.expectation_of(solution).1;
    if rules.is_empty() {
        return problem.grading.is_none() || (every_case && !problem.scoring);
    }
    let at_limit = |c: &CaseReport| {
        SpecVerdict::of(if c.cpu > limit {
            Verdict::Tle
        } else {
            c.verdict
        })
    };
    let failure = at_limit(last);
    let ruled_out = |r: &Rule| {
        r.covers(&last.name)
            && r.permitted
                .as_ref()
                .is_some_and(|p| failure.is_none_or(|v| !p.contains(&v)))
    };
    let met = |r: &Rule| {
        r.score.is_none()
            && r.message.is_none()
            && r.required.as_ref().is_none_or(|required| {
                cases
                    .iter()
                    .filter(|c| r.covers(&c.name))
                    .any(|c| at_limit(c).is_some_and(|v| required.contains(&v)))
            })
    };
    rules.iter().any(ruled_out) || rules.iter().all(met)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{self, case};
    use std::path::Path;

    fn problem(rules: Vec<Rule>) -> Problem {
        let mut p = fixtures::problem("p", Path::new("problems/p"));
        p.terms.rules.insert("s".into(), rules);
        p
    }

    const LIMIT: Duration = Duration::from_secs(1);

    #[test]
    fn without_rules_the_first_failure_decides() {
        let p = fixtures::problem("p", Path::new("problems/p"));
        assert!(!decided(
            &p,
            "s",
            &[case("1", Verdict::Ac, 10)],
            LIMIT,
            false
        ));
        let ran = [case("1", Verdict::Ac, 10), case("2", Verdict::Wa, 10)];
        assert!(decided(&p, "s", &ran, LIMIT, false));
    }

    #[test]
    fn a_rule_broken_or_every_rule_met_decides() {
        use SpecVerdict::{Ac, Tle, Wa};
        let wa = problem(vec![Rule::verdicts("wa", Some(&[Ac, Wa]), Some(&[Wa]))]);
        let tle = [case("1", Verdict::Ac, 10), case("2", Verdict::Tle, 1500)];
        let wrong = [case("1", Verdict::Ac, 10), case("2", Verdict::Wa, 10)];
        // A TLE where only AC and WA are permitted: broken for good.
        assert!(decided(&wa, "s", &tle, LIMIT, false));
        // A WA: the rule is met by what ran.
        assert!(decided(&wa, "s", &wrong, LIMIT, false));
        // Required on a part not run yet: not met, not decided.
        let mut later = Rule::verdicts("later", Some(&[Ac, Wa, Tle]), Some(&[Tle]));
        later.cases = Some("secret/late".into());
        let p = problem(vec![later]);
        assert!(!decided(&p, "s", &wrong, LIMIT, false));
        // A score needs every case.
        let mut scored = Rule::verdicts("scored", Some(&[Ac, Wa]), None);
        scored.score = Some((10.0, 20.0));
        assert!(!decided(&problem(vec![scored]), "s", &wrong, LIMIT, false));
    }
}
