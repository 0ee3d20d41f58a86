//! Comparing solutions like Polygon's invocations: the matrix of cases x solutions, expectations, relative speed.

use std::time::Duration;

use serde::Serialize;

use crate::model::{CaseReport, Skipped, SolutionReport};
use crate::stats::{self, Ratio};
use crate::verdict::{Expectation, Limits, Verdict};
use crate::workspace::{Problem, TestCase};

/// Whether a case's verdict contradicts what its solution is expected to get. An accepted
/// case never does (a TLE solution passes its small cases); any other verdict does unless
/// the expectation admits it.
pub fn cell_contradicts(expected: Option<&Expectation>, v: Verdict) -> bool {
    match expected {
        Some(e) => v != Verdict::Ac && !e.admits(v),
        None => false,
    }
}

/// One solution's column.
pub struct Column<'a> {
    pub report: &'a SolutionReport,
}

/// The matrix of an invocation: every case of a problem against the solutions judged.
pub struct Matrix<'a> {
    pub problem: &'a Problem,
    pub cases: &'a [TestCase],
    /// The problem's limits; a column whose language has extra time has its own.
    pub limits: Limits,
    pub repeat: u32,
    pub columns: Vec<Column<'a>>,
    /// Solutions not judged here (their language is not installed).
    pub skipped: &'a [Skipped],
}

/// "`solution` ran `factor` x faster than `other`", on `cases` cases both accepted.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Relative {
    pub solution: String,
    pub ratio: f64,
    /// Standard deviation of the ratio over the repeats (with --repeat).
    pub spread: Option<f64>,
    pub cases: usize,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Speed {
    /// The fastest accepted solution, which the other accepted ones are compared with.
    pub reference: String,
    pub others: Vec<Relative>,
    /// Accepted solutions whose ratio cannot be taken: the reference measured no time.
    pub incomparable: Vec<String>,
}

/// A solution left out of the ranking of speeds, with its verdict: a speed against a solution
/// that failed says nothing.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct NotRanked {
    pub solution: String,
    pub verdict: Verdict,
}

impl<'a> Matrix<'a> {
    pub fn new(
        problem: &'a Problem,
        cases: &'a [TestCase],
        limits: Limits,
        repeat: u32,
        reports: &'a [SolutionReport],
        skipped: &'a [Skipped],
    ) -> Matrix<'a> {
        let columns = reports.iter().map(|report| Column { report }).collect();
        Matrix {
            problem,
            cases,
            limits,
            repeat,
            columns,
            skipped,
        }
    }

    /// The report of `case` in `col`'s solution, when it ran.
    pub fn cell(&self, col: &Column<'a>, case: &str) -> Option<&'a CaseReport> {
        let report: &'a SolutionReport = col.report;
        report.cases.iter().find(|c| c.name == case)
    }

    /// Solutions whose verdict is not the expected one.
    pub fn mismatches(&self) -> Vec<&str> {
        self.columns
            .iter()
            .filter(|c| c.report.matches_expected() == Some(false))
            .map(|c| c.report.solution.as_str())
            .collect()
    }

    /// Relative speed, hyperfine's way, among the accepted solutions: the fastest against
    /// each other one, by the ratio of summed CPU times (medians with --repeat) over the cases
    /// both accepted. `None` when no solution was accepted ([`Matrix::not_ranked`] are the
    /// others).
    pub fn speed(&self) -> Option<Speed> {
        let accepted: Vec<&Column> = self.columns.iter().filter(|c| ranked(c)).collect();
        let shared: Vec<&str> = self
            .cases
            .iter()
            .map(|c| c.name.as_str())
            .filter(|n| accepted.iter().all(|col| self.accepted(col, n)))
            .collect();
        let reference = accepted.iter().min_by_key(|col| self.sum(col, &shared))?;
        let mut incomparable = Vec::new();
        let mut others: Vec<Relative> = accepted
            .iter()
            .filter(|col| col.report.solution != reference.report.solution)
            .filter_map(|col| {
                let both: Vec<&str> = self
                    .cases
                    .iter()
                    .map(|c| c.name.as_str())
                    .filter(|n| self.accepted(col, n) && self.accepted(reference, n))
                    .collect();
                let ratio = stats::ratio(
                    self.sum(col, &both),
                    self.sum(reference, &both),
                    &self.per_repeat(col, &both),
                    &self.per_repeat(reference, &both),
                );
                let Some(Ratio { factor, spread }) = ratio else {
                    incomparable.push(col.report.solution.clone());
                    return None;
                };
                Some(Relative {
                    solution: col.report.solution.clone(),
                    ratio: factor,
                    spread,
                    cases: both.len(),
                })
            })
            .collect();
        others.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
        Some(Speed {
            reference: reference.report.solution.clone(),
            others,
            incomparable,
        })
    }

    /// The solutions left out of the ranking of speeds (not accepted), with their verdicts.
    pub fn not_ranked(&self) -> Vec<NotRanked> {
        self.columns
            .iter()
            .filter(|c| !ranked(c))
            .map(|c| NotRanked {
                solution: c.report.solution.clone(),
                verdict: c.report.verdict,
            })
            .collect()
    }

    /// Whether `col`'s solution was accepted on the case `name`.
    fn accepted(&self, col: &Column, name: &str) -> bool {
        self.cell(col, name)
            .is_some_and(|c| c.verdict == Verdict::Ac)
    }

    fn sum(&self, col: &Column, cases: &[&str]) -> Duration {
        cases
            .iter()
            .filter_map(|n| self.cell(col, n))
            .map(|c| c.cpu)
            .sum()
    }

    /// Summed CPU time of each repeat; empty unless every case ran `repeat` times.
    fn per_repeat(&self, col: &Column, cases: &[&str]) -> Vec<Duration> {
        if self.repeat < 2 {
            return Vec::new();
        }
        let mut sums = vec![Duration::ZERO; self.repeat as usize];
        for c in cases.iter().filter_map(|n| self.cell(col, n)) {
            let runs = c.runs();
            if runs.len() != sums.len() {
                return Vec::new();
            }
            for (s, r) in sums.iter_mut().zip(runs) {
                *s += r;
            }
        }
        sums
    }
}

/// Whether a solution's speed is ranked: it was accepted (on cases it ran).
fn ranked(col: &Column) -> bool {
    col.report.verdict == Verdict::Ac && !col.report.cases.is_empty()
}

/// The matrix as data, for `judge compare --json`.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(rename = "Compare")]
pub struct MatrixJson {
    pub problem: String,
    pub time_limit_ms: u64,
    pub memory_limit_kb: u64,
    pub repeat: u32,
    pub cases: Vec<String>,
    pub solutions: Vec<ColumnJson>,
    /// Relative speed among the accepted solutions.
    pub speed: Option<Speed>,
    /// The solutions not accepted, with their verdicts: not in `speed`.
    pub not_ranked: Vec<NotRanked>,
    pub mismatches: Vec<String>,
    /// Solutions not judged here, with the reason.
    pub skipped: Vec<Skipped>,
}

impl crate::schema::Document for MatrixJson {
    const SCHEMA: &'static str = "judge.compare/1";
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct ColumnJson {
    pub solution: String,
    pub path: String,
    pub language: String,
    /// This solution's time limit (the problem's, with its language's extra time).
    pub time_limit_ms: u64,
    pub verdict: Verdict,
    pub expected: Option<Expectation>,
    /// null without an expectation.
    pub matches_expected: Option<bool>,
    pub passed: usize,
    pub total: usize,
    pub max_time_ms: u64,
    pub max_memory_kb: u64,
    /// One per case, in the order of `cases`; null for a case that was not run.
    pub cells: Vec<Option<CellJson>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct CellJson {
    pub verdict: Verdict,
    /// CPU time (the median with --repeat).
    pub time_ms: u64,
    pub min_ms: u64,
    pub memory_kb: u64,
    pub contradicts_expected: bool,
    pub wide_spread: bool,
    pub near_limit: bool,
}

impl Matrix<'_> {
    pub fn to_json(&self) -> MatrixJson {
        let ms = crate::units::millis;
        MatrixJson {
            problem: self.problem.id.clone(),
            time_limit_ms: ms(self.limits.time),
            memory_limit_kb: self.limits.memory_bytes / 1024,
            repeat: self.repeat,
            cases: self.cases.iter().map(|c| c.name.clone()).collect(),
            solutions: self
                .columns
                .iter()
                .map(|col| ColumnJson {
                    solution: col.report.solution.clone(),
                    path: col.report.path.display().to_string(),
                    language: col.report.language.clone(),
                    time_limit_ms: ms(col.report.limits.time),
                    verdict: col.report.verdict,
                    expected: col.report.expected.clone(),
                    matches_expected: col.report.matches_expected(),
                    passed: col.report.passed,
                    total: col.report.total,
                    max_time_ms: ms(col.report.max_cpu()),
                    max_memory_kb: col.report.max_memory() / 1024,
                    cells: self
                        .cases
                        .iter()
                        .map(|case| {
                            self.cell(col, &case.name).map(|c| CellJson {
                                verdict: c.verdict,
                                time_ms: ms(c.cpu),
                                min_ms: ms(c.runs().into_iter().min().unwrap_or_default()),
                                memory_kb: c.memory_bytes / 1024,
                                contradicts_expected: cell_contradicts(
                                    col.report.expected.as_ref(),
                                    c.verdict,
                                ),
                                wide_spread: c.timing.as_ref().is_some_and(|t| t.wide()),
                                near_limit: c.verdict != Verdict::Tle
                                    && stats::near_limit(c.cpu, col.report.limits.time),
                            })
                        })
                        .collect(),
                })
                .collect(),
            speed: self.speed(),
            not_ranked: self.not_ranked(),
            mismatches: self.mismatches().into_iter().map(str::to_string).collect(),
            skipped: self.skipped.to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(s: &str) -> Expectation {
        s.parse().unwrap()
    }

    #[test]
    fn a_cell_contradicts_only_a_verdict_the_expectation_excludes() {
        assert!(!cell_contradicts(Some(&e("TLE")), Verdict::Ac));
        assert!(!cell_contradicts(Some(&e("TLE")), Verdict::Tle));
        assert!(cell_contradicts(Some(&e("TLE")), Verdict::Wa));
        assert!(cell_contradicts(Some(&e("AC")), Verdict::Tle));
        assert!(!cell_contradicts(Some(&e("TLE or AC")), Verdict::Tle));
        assert!(cell_contradicts(Some(&e("TLE or AC")), Verdict::Re));
        assert!(!cell_contradicts(None, Verdict::Wa));
    }

    #[test]
    fn only_accepted_solutions_are_ranked_the_others_are_listed_with_their_verdicts() {
        use crate::fixtures::{case, problem, report};
        let cases: Vec<TestCase> = ["1", "2"]
            .iter()
            .map(|n| TestCase {
                name: n.to_string(),
                ..TestCase::default()
            })
            .collect();
        let reports = [
            report(
                "slow",
                vec![case("1", Verdict::Ac, 40), case("2", Verdict::Ac, 60)],
            ),
            report(
                "fast",
                vec![case("1", Verdict::Ac, 4), case("2", Verdict::Ac, 6)],
            ),
            // Faster still on the case it passed, but wrong: no ratio says anything of it.
            report(
                "wrong",
                vec![case("1", Verdict::Ac, 1), case("2", Verdict::Wa, 1)],
            ),
            report("spin", vec![case("1", Verdict::Tle, 1000)]),
        ];
        let p = problem("p", std::path::Path::new("problems/p"));
        let limits = Limits::new(Duration::from_secs(1), 1 << 28, 1 << 20);
        let m = Matrix::new(&p, &cases, limits, 1, &reports, &[]);
        let speed = m.speed().unwrap();
        assert_eq!(speed.reference, "fast");
        let ranked: Vec<(&str, f64)> = speed
            .others
            .iter()
            .map(|r| (r.solution.as_str(), r.ratio))
            .collect();
        assert_eq!(ranked, [("slow", 10.0)]);
        let apart: Vec<(String, Verdict)> = m
            .not_ranked()
            .into_iter()
            .map(|n| (n.solution, n.verdict))
            .collect();
        assert_eq!(
            apart,
            [("wrong".into(), Verdict::Wa), ("spin".into(), Verdict::Tle)]
        );
        // With none accepted there is no ranking, and every solution is listed apart.
        let m = Matrix::new(&p, &cases, limits, 1, &reports[2..], &[]);
        assert!(m.speed().is_none());
        assert_eq!(m.not_ranked().len(), 2);
    }
}
