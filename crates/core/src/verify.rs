//! Checking a problem's reference solutions, as problemtools' `verifyproblem` does: expected
//! verdicts, the time limit the accepted solutions justify, and verdicts sensitive to the limit.
//!
//! Each solution is judged once, at the limit x the safety margin (1.5 unless a package says
//! otherwise); its verdict at the limit itself follows from the same measurements, since a
//! case whose CPU time is over the limit is a TLE there whatever else happened (time is decided
//! first). A package's groups grade both, as they grade a run.

use std::time::Duration;

use serde::Serialize;

use crate::expect::{self, Broken, Rule};
use crate::grading::{CaseResult, Graded, Group};
use crate::lang::TimeRule;
use crate::model::{Skipped, SolutionReport};
use crate::stats::TimeLimitRule;
use crate::units::{format_duration, serde_as};
use crate::verdict::{self, Expectation, Verdict};
use crate::workspace::Problem;

/// Said of a solution that gets what it must only at the margin.
const EXTRA_TIME: &str =
    "; as expected only with the extra time (problemtools' \"OK with extra time\")";

/// The verdict of each case at a lower `limit` than the one it ran under.
pub fn case_verdicts_at(report: &SolutionReport, limit: Duration) -> Vec<Verdict> {
    report.case_verdicts_at(limit)
}

/// The verdict (and, for a scoring package, the score) of a run at a lower `limit` than the one
/// it ran under: the first failure, or as the groups grade it.
pub fn verdict_at(
    report: &SolutionReport,
    limit: Duration,
    grading: Option<&Group>,
) -> (Verdict, Option<f64>) {
    if report.verdict == Verdict::Ce {
        return (Verdict::Ce, None);
    }
    match graded_at(report, limit, grading) {
        None => (verdict::overall(&case_verdicts_at(report, limit)), None),
        Some(graded) => {
            let root = graded.root();
            (root.verdict, Some(root.score))
        }
    }
}

/// The groups of a run graded at a lower `limit` than the one it ran under.
fn graded_at(report: &SolutionReport, limit: Duration, grading: Option<&Group>) -> Option<Graded> {
    let grading = grading?;
    // A package's own graders graded it there already (`Judge::grade_by_package`).
    if let Some((_, graded)) = report.graded_at.iter().find(|(l, _)| *l == limit) {
        return Some(graded.clone());
    }
    let verdicts = case_verdicts_at(report, limit);
    Some(grading.grade_with(&|name| {
        let i = report.cases.iter().position(|c| c.name == name)?;
        Some(CaseResult {
            verdict: verdicts[i],
            score: report.cases[i].score.filter(|_| verdicts[i] == Verdict::Ac),
        })
    }))
}

/// One solution, checked.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Checked {
    pub solution: String,
    pub expected: Option<Expectation>,
    /// The verdict at the limit.
    pub verdict: Verdict,
    /// A scoring package's score at the limit, and the most it could be.
    pub score: Option<f64>,
    pub max_score: Option<f64>,
    /// The verdict at the limit x 1.5.
    pub verdict_at_margin: Verdict,
    /// None without an expectation.
    pub matches_expected: Option<bool>,
    /// It matches only at the margin (problemtools' "OK with extra time"): at the limit it
    /// does not.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub with_extra_time: bool,
    /// The slowest case's CPU time (within the limit x 1.5); None when no case ran.
    #[serde(serialize_with = "serde_as::opt_ms", rename = "max_time_ms")]
    #[schemars(with = "Option<u64>")]
    pub max_time: Option<Duration>,
    /// The case that took `max_time`.
    pub slowest_case: Option<String>,
    /// A case went over the limit: `max_time` is only a lower bound.
    pub over_limit: bool,
    /// How many cases went over the limit.
    pub cases_over_limit: usize,
    pub passed: usize,
    pub run: usize,
    pub total: usize,
    /// The language's extra time, which the limits above include.
    #[serde(skip)]
    pub rule: Option<TimeRule>,
    /// The package's expectations it was held to (each `source: what it asks`); when there
    /// are some, they decide `matches_expected` instead of `expected`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    /// Those it broke, and where.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub broken: Vec<Broken>,
    /// By its rules that bound the time limit from below: the slowest case they cover.
    #[serde(skip)]
    pub bound: Option<(Duration, String)>,
}

/// The time limit the accepted solutions justify.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Justified {
    #[serde(serialize_with = "serde_as::ms", rename = "time_limit_ms")]
    #[schemars(with = "u64")]
    pub limit: Duration,
    pub solution: String,
    pub case: String,
    #[serde(serialize_with = "serde_as::ms", rename = "slowest_ms")]
    #[schemars(with = "u64")]
    pub slowest: Duration,
}

/// A problem's reference solutions, checked.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[schemars(transform = cut_short)]
pub struct Verification {
    pub problem: String,
    #[serde(serialize_with = "serde_as::ms", rename = "time_limit_ms")]
    #[schemars(with = "u64")]
    pub limit: Duration,
    /// The limit was derived by the rule from the accepted solutions (none was fixed).
    pub derived: bool,
    pub rule: TimeLimitRule,
    #[serde(serialize_with = "serde_as::ms", rename = "margin_limit_ms")]
    #[schemars(with = "u64")]
    pub margin: Duration,
    pub solutions: Vec<Checked>,
    pub justified: Option<Justified>,
    pub warnings: Vec<String>,
    /// problem.toml expects verdicts of these, but they have no source file.
    pub missing: Vec<String>,
    /// Solutions not judged here (their language is not installed): never a mismatch.
    pub skipped: Vec<Skipped>,
    /// A package's cases that test its validators, checked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub validator_cases: Vec<crate::validate::CaseChecked>,
}

impl crate::schema::Document for Verification {
    const SCHEMA: &'static str = "judge.verify/1";
}

/// A verify cut short (Ctrl-C) reports the problem it was judging with two fields more.
fn cut_short(schema: &mut schemars::Schema) {
    if let Some(p) = schema.get_mut("properties").and_then(|p| p.as_object_mut()) {
        p.insert(
            "interrupted".into(),
            serde_json::json!({
                "description": "The verify was cut short while judging this problem.",
                "const": true,
            }),
        );
        p.insert(
            "not_judged".into(),
            serde_json::json!({
                "description": "Cut short: the solutions not judged.",
                "type": "array",
                "items": {"type": "string"},
            }),
        );
    }
}

impl Verification {
    pub fn mismatches(&self) -> impl Iterator<Item = &Checked> {
        self.solutions
            .iter()
            .filter(|c| c.matches_expected == Some(false))
    }

    pub fn ok(&self) -> bool {
        self.mismatches().next().is_none() && self.validator_cases.iter().all(|c| c.ok)
    }
}

/// Checks one solution, judged at the limit x the margin, against its expectation at the limit
/// (its language's extra time, when the problem gives some, applied to both). In a scoring
/// package, a `partially_accepted/` submission must be accepted without the full score, and an
/// `accepted/` one with it.
pub fn check(
    report: &SolutionReport,
    (expected, rules): (Option<&Expectation>, &[Rule]),
    (limit, margin): (Duration, Duration),
    grading: Option<&Group>,
    scoring: bool,
) -> Checked {
    let rule = report.time_rule.map(|a| a.rule);
    let limit = rule.map_or(limit, |r| r.apply(limit));
    let margin = rule.map_or(margin, |r| r.apply(margin));
    let (verdict, score) = verdict_at(report, limit, grading);
    let score = score.filter(|_| scoring);
    let at_margin = verdict_at(report, margin, grading);
    let verdict_at_margin = at_margin.0;
    let max_score = report
        .groups
        .as_ref()
        .and_then(|g| g.root().max_score)
        .filter(|_| scoring);
    let meets = |(verdict, score): (Verdict, Option<f64>)| {
        let full = match (score.filter(|_| scoring), max_score) {
            (Some(s), Some(m)) if m.is_finite() => Some(s >= m),
            _ => None,
        };
        expected.map(|e| {
            e.admits(verdict)
                && match (report.solution.split('/').next(), full) {
                    (Some("partially_accepted"), Some(full)) => !full,
                    _ => true,
                }
        })
    };
    let slowest = report.cases.iter().max_by_key(|c| c.cpu);
    let mut matches = meets((verdict, score));
    // problemtools' "OK with extra time": not as expected at the limit, but at the margin.
    let mut extra_time = matches == Some(false) && meets(at_margin) == Some(true);
    let mut broken = Vec::new();
    if !rules.is_empty() {
        broken = held_to(rules, report, (limit, margin), grading);
        extra_time = !broken.is_empty()
            && report.verdict != Verdict::Ce
            && held_to(rules, report, (margin, margin), grading).is_empty();
        if extra_time {
            broken.clear();
        }
        matches = Some(broken.is_empty());
    }
    if extra_time {
        matches = Some(true);
    }
    Checked {
        solution: report.solution.clone(),
        expected: expected.cloned(),
        verdict,
        score,
        max_score,
        verdict_at_margin,
        matches_expected: matches,
        with_extra_time: extra_time,
        max_time: slowest.map(|c| c.cpu),
        slowest_case: slowest.map(|c| c.name.clone()),
        over_limit: report.cases.iter().any(|c| c.cpu > limit),
        cases_over_limit: report.cases.iter().filter(|c| c.cpu > limit).count(),
        passed: case_verdicts_at(report, limit)
            .iter()
            .filter(|v| **v == Verdict::Ac)
            .count(),
        run: report.cases.len(),
        total: report.total,
        rule,
        rules: rules
            .iter()
            .map(|r| format!("{}: {}", r.source, r.summary()))
            .collect(),
        broken,
        bound: rules
            .iter()
            .filter(|r| r.lower_bound())
            .filter_map(|r| expect::slowest(r, report))
            .max_by_key(|(t, _)| *t),
    }
}

/// The rules a run breaks at the limit, and those that bound the limit from above and do not
/// (a case that must time out there must still at the limit x the margin, so that the limit
/// is not set so close to it that a slower machine decides).
fn held_to(
    rules: &[Rule],
    report: &SolutionReport,
    (limit, margin): (Duration, Duration),
    grading: Option<&Group>,
) -> Vec<Broken> {
    let verdicts = case_verdicts_at(report, limit);
    let graded = graded_at(report, limit, grading);
    let run = expect::Run {
        report,
        verdicts: &verdicts,
        graded: graded.as_ref(),
    };
    let mut broken = expect::check(rules, &run);
    if report.verdict == Verdict::Ce {
        return broken;
    }
    for r in rules.iter().filter(|r| r.upper_bound()) {
        let timed_out = report
            .cases
            .iter()
            .any(|c| r.covers(&c.name) && (c.verdict == Verdict::Tle || c.cpu >= margin));
        if !timed_out && !broken.iter().any(|b| b.source == r.source) {
            let why = match expect::slowest(r, report) {
                Some((t, case)) => format!(
                    "it bounds the time limit from above, and its slowest case ({case}, {}) is under the limit x time_limit_to_tle ({})",
                    format_duration(t),
                    format_duration(margin)
                ),
                None => "it bounds the time limit from above, and none of its cases ran".into(),
            };
            broken.push(Broken {
                source: r.source.clone(),
                rule: r.summary(),
                why,
            });
        }
    }
    broken
}

/// Whether a solution counts as an accepted reference solution: expected to be AC (and only
/// AC), or with no expectation at all, and accepted; in a package with expectations in the
/// format's terms, one whose rules bound the limit from below and that met them.
fn accepted_reference(c: &Checked, problem: &Problem) -> bool {
    if !problem.terms.rules.is_empty() {
        return problem.sets_time_limit(&c.solution) && c.broken.is_empty();
    }
    // A package's partially accepted submissions pass too, but they do not set the limit.
    c.verdict == Verdict::Ac
        && c.expected.as_ref().is_none_or(|e| e.is_only(Verdict::Ac))
        && !c.solution.starts_with("partially_accepted/")
}

/// Checks every solution of a problem (each judged at `problem.time_rule.margin(limit)`).
pub fn verify(
    problem: &Problem,
    limit: Duration,
    reports: &[SolutionReport],
    skipped: &[Skipped],
) -> Verification {
    let rule = problem.time_rule;
    let grading = problem.grading.as_deref();
    let margin = rule.margin(limit);
    let solutions: Vec<Checked> = reports
        .iter()
        .map(|r| {
            check(
                r,
                problem.expectation_of(&r.solution),
                (limit, margin),
                grading,
                problem.scoring,
            )
        })
        .collect();
    let justified = justify(problem, &solutions);
    let mut warnings: Vec<String> = solutions
        .iter()
        .flat_map(|c| warnings_of(problem, c, (limit, margin)))
        .collect();
    if let Some(j) = &justified {
        if j.limit > limit {
            warnings.push(format!(
                "the time limit {} is below the {} the accepted solutions justify",
                format_duration(limit),
                format_duration(j.limit)
            ));
        }
    }
    let missing = problem
        .expected
        .keys()
        .filter(|n| {
            !reports.iter().any(|r| &&r.solution == n) && !skipped.iter().any(|s| &&s.solution == n)
        })
        .cloned()
        .collect();
    Verification {
        problem: problem.id.clone(),
        limit,
        derived: rule.fixed.is_none(),
        rule,
        margin,
        solutions,
        justified,
        warnings,
        missing,
        skipped: skipped.to_vec(),
        validator_cases: Vec::new(),
    }
}

/// The time limit the slowest accepted reference solution justifies, by the problem's rule.
fn justify(problem: &Problem, solutions: &[Checked]) -> Option<Justified> {
    solutions
        .iter()
        .filter(|c| accepted_reference(c, problem))
        // A time measured with extra time for its language counts as the time it would
        // need without: (t - extra) / factor.
        .filter_map(|c| {
            let t = match &c.bound {
                Some((t, _)) => *t,
                None => c.max_time?,
            };
            Some((
                c,
                c.rule
                    .map_or(t, |r| t.saturating_sub(r.extra).div_f64(r.factor)),
            ))
        })
        .max_by_key(|(_, t)| *t)
        .map(|(c, t)| Justified {
            limit: problem.time_rule.derive(t),
            solution: c.solution.clone(),
            case: c
                .bound
                .as_ref()
                .map(|(_, case)| case.clone())
                .or_else(|| c.slowest_case.clone())
                .unwrap_or_default(),
            slowest: t,
        })
}

/// What is said of one solution: the package's word on it, a verdict that depends on the
/// limit, an accepted one without the full score, and its time.
fn warnings_of(
    problem: &Problem,
    c: &Checked,
    (limit, margin): (Duration, Duration),
) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some(said) = problem.terms.decided.get(&c.solution) {
        warnings.push(format!("{}: {said}", c.solution));
    }
    if c.verdict != c.verdict_at_margin || c.with_extra_time {
        warnings.push(format!(
            "{}: sensitive to the time limit: {} at {}, {} at {}{}",
            c.solution,
            c.verdict,
            format_duration(limit),
            c.verdict_at_margin,
            format_duration(margin),
            if c.with_extra_time { EXTRA_TIME } else { "" }
        ));
    }
    if c.matches_expected == Some(true)
        && c.solution.starts_with("accepted/")
        && c.score
            .zip(c.max_score)
            .is_some_and(|(s, m)| m.is_finite() && s < m)
    {
        warnings.push(format!(
            "{}: accepted without the full score ({} of {}): partially_accepted/ is its folder",
            c.solution,
            c.score.unwrap_or_default(),
            c.max_score.unwrap_or_default()
        ));
    }
    warnings.extend(slowness(c, limit));
    warnings
}

/// What is said of an accepted run's time. Accepted with cases over the limit (a scoring
/// package's groups accept a run whose other cases score): its score and those cases, which
/// the scoring rules grade as time-outs; otherwise its slowest case, when over half the limit.
fn slowness(c: &Checked, limit: Duration) -> Option<String> {
    if c.verdict != Verdict::Ac {
        return None;
    }
    if c.cases_over_limit > 0 {
        let cases = match c.cases_over_limit {
            1 => "1 case".to_string(),
            n => format!("{n} cases"),
        };
        let score = match (c.score, c.max_score) {
            (Some(s), Some(m)) if m.is_finite() => format!("scored {s} of {m}"),
            (Some(s), _) => format!("scored {s}"),
            (None, _) => "accepted by its groups".to_string(),
        };
        return Some(format!(
            "{}: {score}; {cases} hit the time limit (TLE, graded as rejected)",
            c.solution
        ));
    }
    let t = c.max_time?;
    (t * 2 > limit).then(|| {
        format!(
            "{}: accepted, but its slowest case ({}, {}) uses {:.0}% of the time limit (at most half is safe)",
            c.solution,
            c.slowest_case.as_deref().unwrap_or("?"),
            format_duration(t),
            t.as_secs_f64() / limit.as_secs_f64() * 100.0
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expect::SpecVerdict;
    use crate::fixtures::{self, case};
    use crate::model::CaseReport;
    use crate::verdict::Limits;
    use std::collections::BTreeMap;
    use std::path::Path;

    /// A run under 1.5 s of problem `p`'s three cases.
    fn report(name: &str, cases: Vec<CaseReport>) -> SolutionReport {
        let mut r = fixtures::report(name, cases);
        r.limits = Limits::new(Duration::from_millis(1500), 1 << 30, 1 << 30);
        r.total = 3;
        r
    }

    fn problem(expected: &[(&str, &str)]) -> Problem {
        let mut p = fixtures::problem("p", Path::new("problems/p"));
        (p.limits.memory_bytes, p.limits.output_bytes) = (1 << 30, 1 << 30);
        p.expected = expected
            .iter()
            .map(|(n, e)| (n.to_string(), e.parse().unwrap()))
            .collect::<BTreeMap<_, _>>();
        p
    }

    #[test]
    fn a_case_over_the_lower_limit_is_a_tle_there() {
        let r = report(
            "s",
            vec![
                case("1", Verdict::Ac, 10),
                case("2", Verdict::Wa, 1200),
                case("3", Verdict::Tle, 1500),
            ],
        );
        assert_eq!(r.verdict, Verdict::Wa);
        assert_eq!(
            case_verdicts_at(&r, Duration::from_secs(1)),
            [Verdict::Ac, Verdict::Tle, Verdict::Tle]
        );
        assert_eq!(verdict_at(&r, Duration::from_secs(1), None).0, Verdict::Tle);
        assert_eq!(verdict_at(&r, Duration::from_secs(2), None).0, Verdict::Wa);
    }

    #[test]
    fn mismatches_warnings_and_the_justified_limit() {
        let p = problem(&[
            ("fast", "AC"),
            ("edge", "AC"),
            ("slow", "TLE"),
            ("wrong", "AC"),
            ("gone", "AC"),
        ]);
        let reports = vec![
            report(
                "fast",
                vec![
                    case("1", Verdict::Ac, 5),
                    case("2", Verdict::Ac, 300),
                    case("3", Verdict::Ac, 20),
                ],
            ),
            // AC at 1.5 s, TLE at 1 s: as expected with the extra time only, and sensitive.
            report(
                "edge",
                vec![
                    case("1", Verdict::Ac, 5),
                    case("2", Verdict::Ac, 1100),
                    case("3", Verdict::Ac, 20),
                ],
            ),
            report(
                "slow",
                vec![case("1", Verdict::Ac, 5), case("2", Verdict::Tle, 1500)],
            ),
            report("wrong", vec![case("1", Verdict::Wa, 5)]),
            report("free", vec![case("1", Verdict::Ac, 700)]),
        ];
        let v = verify(&p, Duration::from_secs(1), &reports, &[]);
        let by = |n: &str| v.solutions.iter().find(|c| c.solution == n).unwrap();
        assert_eq!(by("fast").matches_expected, Some(true));
        assert_eq!(by("edge").verdict, Verdict::Tle);
        assert_eq!(by("edge").verdict_at_margin, Verdict::Ac);
        assert_eq!(by("edge").matches_expected, Some(true));
        assert!(by("edge").with_extra_time);
        assert!(!by("fast").with_extra_time);
        assert_eq!(by("slow").matches_expected, Some(true));
        assert!(by("slow").over_limit);
        assert_eq!(by("wrong").matches_expected, Some(false));
        assert_eq!(by("free").matches_expected, None);
        let names: Vec<&str> = v.mismatches().map(|c| c.solution.as_str()).collect();
        assert_eq!(names, ["wrong"]);
        assert!(!v.ok());
        // The slowest accepted reference: `free` (no expectation) at 700 ms -> 1.4 s -> 2 s.
        let j = v.justified.as_ref().unwrap();
        assert_eq!(
            (j.solution.as_str(), j.case.as_str(), j.limit),
            ("free", "1", Duration::from_secs(2))
        );
        let w = v.warnings.join("\n");
        assert!(
            w.contains("edge: sensitive to the time limit: TLE at 1 s, AC at 1.50 s; as expected only with the extra time"),
            "{w}"
        );
        assert!(
            w.contains("free: accepted, but its slowest case (1, 700 ms) uses 70%"),
            "{w}"
        );
        assert!(!w.contains("fast:"), "{w}");
        assert!(
            w.contains("below the 2 s the accepted solutions justify"),
            "{w}"
        );
        assert_eq!(v.missing, ["gone"]);
    }

    #[test]
    fn a_verdict_reached_only_with_the_extra_time_matches_as_problemtools_holds_it() {
        // A wrong answer that runs 1.2 s against 1 s: TLE at the limit, WA at the margin.
        let p = problem(&[("wrong", "WA"), ("slow", "WA")]);
        let reports = [
            report("wrong", vec![case("1", Verdict::Wa, 1200)]),
            report("slow", vec![case("1", Verdict::Tle, 1500)]),
        ];
        let v = verify(&p, Duration::from_secs(1), &reports, &[]);
        let c = &v.solutions[0];
        assert_eq!(
            (c.verdict, c.verdict_at_margin),
            (Verdict::Tle, Verdict::Wa)
        );
        assert_eq!(c.matches_expected, Some(true));
        assert!(c.with_extra_time);
        let json = serde_json::to_value(c).unwrap();
        assert_eq!(json["with_extra_time"], true);
        // TLE at the margin too: a mismatch still.
        assert_eq!(v.solutions[1].matches_expected, Some(false));
        assert!(!v.ok());
        assert!(
            v.warnings
                .iter()
                .any(|w| w.starts_with("wrong: sensitive to the time limit")
                    && w.contains("OK with extra time")),
            "{:?}",
            v.warnings
        );
        // The same with a package's rules: permitted AC WA breaks at the limit only.
        let mut p = problem(&[]);
        let rule = Rule::verdicts(
            "folder wrong_answer/",
            Some(&[SpecVerdict::Ac, SpecVerdict::Wa]),
            Some(&[SpecVerdict::Wa]),
        );
        p.terms.rules.insert("wrong".into(), vec![rule]);
        let v = verify(&p, Duration::from_secs(1), &reports[..1], &[]);
        assert_eq!(
            v.solutions[0].matches_expected,
            Some(true),
            "{:?}",
            v.solutions[0].broken
        );
        assert!(v.solutions[0].with_extra_time && v.ok());
    }

    #[test]
    fn every_expectation_met_is_ok() {
        let p = problem(&[("fast", "AC")]);
        let v = verify(
            &p,
            Duration::from_secs(1),
            &[report("fast", vec![case("1", Verdict::Ac, 400)])],
            &[],
        );
        assert!(v.ok());
        assert!(v.warnings.is_empty(), "{:?}", v.warnings);
        assert_eq!(v.justified.unwrap().limit, Duration::from_secs(1));
    }

    /// Three solutions judged by the scripted executor on cases `n` → `2n`, then verified:
    /// the fast one accepted, the slow one over the limit on case 2 as expected, and the
    /// wrong one, expected accepted, the one mismatch.
    #[test]
    fn solutions_judged_by_a_scripted_executor_are_verified_against_their_expectations() {
        use crate::fixtures::scripted::{self, Reply, Script};
        use crate::session::{Options, Quiet};
        use crate::workspace::{Solution, TestCase};

        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let names = ["fast", "slow", "wrong"];
        let sources = scripted::sources(root, &names);
        let problem_dir = root.join("problems/p");
        std::fs::create_dir_all(&problem_dir).unwrap();
        let mut p = fixtures::problem("p", &problem_dir);
        p.expected = [("fast", "AC"), ("slow", "TLE"), ("wrong", "AC")]
            .iter()
            .map(|(n, e)| (n.to_string(), e.parse().unwrap()))
            .collect();
        let cases: Vec<TestCase> = (1..=3)
            .map(|n| {
                let (input, answer) = (root.join(format!("{n}.in")), root.join(format!("{n}.ans")));
                std::fs::write(&input, format!("{n}\n")).unwrap();
                std::fs::write(&answer, format!("{}\n", 2 * n)).unwrap();
                TestCase {
                    name: n.to_string(),
                    input,
                    answer,
                    ..TestCase::default()
                }
            })
            .collect();
        let n = |c: &scripted::Call<'_>| c.input().trim().parse::<u64>().unwrap();
        let script = Script::new()
            .program("fast", move |c| {
                Reply::prints((2 * n(c)).to_string()).cpu_ms(10)
            })
            .program("slow", move |c| {
                let ms = if n(c) == 2 { 1500 } else { 10 };
                Reply::prints((2 * n(c)).to_string()).cpu_ms(ms)
            })
            .program("wrong", move |c| Reply::prints((2 * n(c) + 1).to_string()));
        let mut judge = script.judge(root);
        let reports: Vec<SolutionReport> = names
            .iter()
            .zip(&sources)
            .map(|(name, path)| {
                let solution = Solution {
                    name: name.to_string(),
                    problem: "p".into(),
                    path: path.clone(),
                };
                let options = Options::default();
                judge
                    .judge(&p, &solution, &cases, &options, &mut Quiet)
                    .unwrap()
            })
            .collect();
        let verdicts: Vec<Verdict> = reports.iter().map(|r| r.verdict).collect();
        assert_eq!(verdicts, [Verdict::Ac, Verdict::Tle, Verdict::Wa]);
        let v = verify(&p, Duration::from_secs(1), &reports, &[]);
        let mismatches: Vec<&str> = v.mismatches().map(|c| c.solution.as_str()).collect();
        assert_eq!(mismatches, ["wrong"], "{v:#?}");
        assert!(!v.ok());
        let slow = v.solutions.iter().find(|c| c.solution == "slow").unwrap();
        assert_eq!(slow.matches_expected, Some(true), "{slow:#?}");
        assert_eq!(slow.cases_over_limit, 1);
    }
}
