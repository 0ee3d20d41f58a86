//! Comparing solutions like Polygon's invocations: the matrix of cases x solutions, expectations, relative speed.

use std::fmt::Write as _;
use std::time::Duration;

use anstyle::{AnsiColor, Style};
use serde::Serialize;

use crate::report::{dim, format_bytes, format_duration, paint, verdict_style};
use crate::session::{CaseReport, SolutionReport};
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

/// Whether a solution's overall verdict is the expected one; None without an expectation.
pub fn matches(expected: Option<&Expectation>, v: Verdict) -> Option<bool> {
    expected.map(|e| e.admits(v))
}

/// One solution's column.
pub struct Column<'a> {
    pub report: &'a SolutionReport,
    pub expected: Option<Expectation>,
}

/// The matrix of an invocation: every case of a problem against the solutions judged.
pub struct Matrix<'a> {
    pub problem: &'a Problem,
    pub cases: &'a [TestCase],
    pub limits: Limits,
    pub repeat: u32,
    pub columns: Vec<Column<'a>>,
}

/// "`solution` ran `factor` x faster than `other`", on `cases` cases both accepted.
#[derive(Debug, Clone, Serialize)]
pub struct Relative {
    pub solution: String,
    pub ratio: f64,
    /// Standard deviation of the ratio over the repeats (with --repeat).
    pub spread: Option<f64>,
    pub cases: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Speed {
    /// The fastest solution, which the others are compared with.
    pub reference: String,
    pub others: Vec<Relative>,
    /// Solutions that share no accepted case with the reference.
    pub incomparable: Vec<String>,
}

impl<'a> Matrix<'a> {
    pub fn new(
        problem: &'a Problem,
        cases: &'a [TestCase],
        limits: Limits,
        repeat: u32,
        reports: &'a [SolutionReport],
    ) -> Matrix<'a> {
        let columns = reports
            .iter()
            .map(|r| Column {
                report: r,
                expected: problem.expected.get(&r.solution).cloned(),
            })
            .collect();
        Matrix {
            problem,
            cases,
            limits,
            repeat,
            columns,
        }
    }

    fn cell(&self, col: &Column<'a>, case: &str) -> Option<&'a CaseReport> {
        let report: &'a SolutionReport = col.report;
        report.cases.iter().find(|c| c.name == case)
    }

    /// Solutions whose verdict is not the expected one.
    pub fn mismatches(&self) -> Vec<&str> {
        self.columns
            .iter()
            .filter(|c| matches(c.expected.as_ref(), c.report.verdict) == Some(false))
            .map(|c| c.report.solution.as_str())
            .collect()
    }

    /// Relative speed, hyperfine's way: the fastest solution against each other one, by the
    /// ratio of summed CPU times (medians with --repeat) over the cases both accepted.
    pub fn speed(&self) -> Option<Speed> {
        let accepted = |col: &Column, name: &str| {
            self.cell(col, name)
                .filter(|c| c.verdict == Verdict::Ac)
                .is_some()
        };
        let candidates: Vec<&Column> = {
            let all_ac: Vec<&Column> = self
                .columns
                .iter()
                .filter(|c| c.report.verdict == Verdict::Ac && !c.report.cases.is_empty())
                .collect();
            if all_ac.is_empty() {
                self.columns
                    .iter()
                    .filter(|c| c.report.cases.iter().any(|k| k.verdict == Verdict::Ac))
                    .collect()
            } else {
                all_ac
            }
        };
        // The reference is the fastest on the cases every candidate accepted.
        let shared: Vec<&str> = self
            .cases
            .iter()
            .map(|c| c.name.as_str())
            .filter(|n| candidates.iter().all(|col| accepted(col, n)))
            .collect();
        let reference = candidates.iter().min_by_key(|col| self.sum(col, &shared))?;
        let mut others = Vec::new();
        let mut incomparable = Vec::new();
        for col in &self.columns {
            if col.report.solution == reference.report.solution {
                continue;
            }
            let both: Vec<&str> = self
                .cases
                .iter()
                .map(|c| c.name.as_str())
                .filter(|n| accepted(col, n) && accepted(reference, n))
                .collect();
            let ratio = (!both.is_empty())
                .then(|| {
                    stats::ratio(
                        self.sum(col, &both),
                        self.sum(reference, &both),
                        &self.per_repeat(col, &both),
                        &self.per_repeat(reference, &both),
                    )
                })
                .flatten();
            match ratio {
                Some(Ratio { factor, spread }) => others.push(Relative {
                    solution: col.report.solution.clone(),
                    ratio: factor,
                    spread,
                    cases: both.len(),
                }),
                None => incomparable.push(col.report.solution.clone()),
            }
        }
        others.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
        Some(Speed {
            reference: reference.report.solution.clone(),
            others,
            incomparable,
        })
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

    /// The matrix as text: a row per case, a column per solution, the totals beneath.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let width = self
            .columns
            .iter()
            .flat_map(|c| [c.report.solution.len(), passed_text(c.report).len()])
            .chain([if self.repeat > 1 { 18 } else { 13 }])
            .max()
            .unwrap_or(13);
        let label = self
            .cases
            .iter()
            .map(|c| c.name.len() + if c.sample { 4 } else { 0 })
            .chain([8])
            .max()
            .unwrap_or(8);
        let _ = writeln!(
            out,
            "{}  {}",
            paint(Style::new().bold(), &self.problem.id),
            dim(&format!(
                "{} · time {} · memory {} · {} cases · {} solution{}{}",
                self.problem.title,
                format_duration(self.limits.time),
                format_bytes(self.limits.memory_bytes),
                self.cases.len(),
                self.columns.len(),
                if self.columns.len() == 1 { "" } else { "s" },
                if self.repeat > 1 {
                    format!(" · {} runs per case: min / median", self.repeat)
                } else {
                    String::new()
                }
            ))
        );
        let mut head = format!("\n  {:<label$}", "case");
        for col in &self.columns {
            let _ = write!(head, "  {:<width$}", col.report.solution);
        }
        let _ = writeln!(out, "{}", paint(Style::new().bold(), head.trim_end()));
        let mut markers = Markers::default();
        for case in self.cases {
            let name = if case.sample {
                format!("{} (s)", case.name)
            } else {
                case.name.clone()
            };
            let mut row = format!("  {name:<label$}");
            for col in &self.columns {
                let cell = match self.cell(col, &case.name) {
                    Some(c) => self.cell_text(col, c, width, &mut markers),
                    None => dim(&format!("{:<width$}", "-")),
                };
                let _ = write!(row, "  {cell}");
            }
            let _ = writeln!(out, "{}", row.trim_end());
        }
        let _ = writeln!(out);
        let summary_row = |title: &str, f: &dyn Fn(&Column) -> String| {
            let mut row = format!("  {title:<label$}");
            for col in &self.columns {
                let _ = write!(row, "  {}", f(col));
            }
            row.trim_end().to_string()
        };
        let verdict_row = summary_row("verdict", &|col| {
            let v = col.report.verdict;
            let bad = matches(col.expected.as_ref(), v) == Some(false);
            let text = format!("{}{}", v.code(), if bad { " !" } else { "" });
            let pad = width.saturating_sub(text.len());
            format!("{}{}", paint(verdict_style(v), &text), " ".repeat(pad))
        });
        let _ = writeln!(out, "{verdict_row}");
        let passed = summary_row("passed", &|col| {
            format!("{:<width$}", passed_text(col.report))
        });
        let _ = writeln!(out, "{passed}");
        let max_time = summary_row("max time", &|col| {
            let r = col.report;
            let t = if r.cases.iter().any(|c| c.verdict == Verdict::Tle) {
                format!("> {}", format_duration(self.limits.time))
            } else if r.cases.is_empty() {
                "-".to_string()
            } else {
                format_duration(r.max_cpu())
            };
            format!("{t:<width$}")
        });
        let _ = writeln!(out, "{max_time}");
        let memory = summary_row("memory", &|col| {
            let r = col.report;
            let t = if r.cases.is_empty() {
                "-".to_string()
            } else {
                format_bytes(r.max_memory())
            };
            format!("{t:<width$}")
        });
        let _ = writeln!(out, "{memory}");
        let expected = summary_row("expected", &|col| match &col.expected {
            Some(e) => format!("{:<width$}", e.to_string()),
            None => dim(&format!("{:<width$}", "(none)")),
        });
        let _ = writeln!(out, "{expected}");
        markers.legend(&mut out, self.columns.iter().any(|c| c.expected.is_none()));
        if let Some(speed) = self.speed() {
            let _ = writeln!(out);
            render_speed(&mut out, &speed);
        }
        let mismatches = self.mismatches();
        if !mismatches.is_empty() {
            let _ = writeln!(
                out,
                "\n{}",
                paint(
                    Style::new().fg_color(Some(AnsiColor::Red.into())).bold(),
                    &format!("verdict not the expected one: {}", mismatches.join(", "))
                )
            );
        }
        out
    }

    fn cell_text(&self, col: &Column, c: &CaseReport, width: usize, m: &mut Markers) -> String {
        let time = if c.verdict == Verdict::Tle {
            format!("> {}", format_duration(self.limits.time))
        } else {
            match &c.timing {
                Some(t) => format!("{} / {}", format_duration(t.min()), format_duration(c.cpu)),
                None => format_duration(c.cpu),
            }
        };
        let mut flags = String::new();
        if cell_contradicts(col.expected.as_ref(), c.verdict) {
            flags.push('!');
            m.contradiction = true;
        }
        if c.timing.as_ref().is_some_and(|t| t.wide()) && c.verdict != Verdict::Tle {
            flags.push('~');
            m.spread = true;
        }
        if c.verdict != Verdict::Tle && stats::near_limit(c.cpu, self.limits.time) {
            flags.push('^');
            m.near = true;
        }
        let plain = format!(
            "{:<4}{time}{}",
            c.verdict.code(),
            if flags.is_empty() {
                String::new()
            } else {
                format!(" {flags}")
            }
        );
        let pad = width.saturating_sub(plain.chars().count());
        format!(
            "{}{}{}",
            paint(
                verdict_style(c.verdict),
                &format!("{:<4}", c.verdict.code())
            ),
            &plain[4..],
            " ".repeat(pad)
        )
    }
}

/// "13/14", or "7/14, 7 not run" when cases were skipped.
fn passed_text(r: &SolutionReport) -> String {
    let mut t = format!("{}/{}", r.passed, r.total);
    if r.cases.len() < r.total && r.verdict != Verdict::Ce {
        let _ = write!(t, ", {} not run", r.total - r.cases.len());
    }
    t
}

#[derive(Default)]
struct Markers {
    contradiction: bool,
    spread: bool,
    near: bool,
}

impl Markers {
    fn legend(&self, out: &mut String, unexpected: bool) {
        let mut parts = Vec::new();
        if self.contradiction {
            parts.push("! contradicts the expected verdict");
        }
        if self.spread {
            parts.push("~ wide spread over the runs");
        }
        if self.near {
            parts.push("^ within 10% of the time limit");
        }
        if unexpected {
            parts.push("(none): no expected verdict in problem.toml");
        }
        if !parts.is_empty() {
            let _ = writeln!(out, "\n  {}", dim(&parts.join(" · ")));
        }
    }
}

/// "eightfold ran / 2.04 x faster than symmetry-halved (14 cases) / ..."
pub fn render_speed(out: &mut String, speed: &Speed) {
    if speed.others.is_empty() && speed.incomparable.is_empty() {
        return;
    }
    let _ = writeln!(out, "{} ran", paint(Style::new().bold(), &speed.reference));
    for r in &speed.others {
        let (factor, word, spread) = if r.ratio >= 1.0 {
            (r.ratio, "faster", r.spread)
        } else {
            (
                1.0 / r.ratio,
                "slower",
                r.spread.map(|s| s / (r.ratio * r.ratio)),
            )
        };
        let spread = spread.map(|s| format!(" ± {s:.2}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "  {factor:>8.2}{spread} x {word} than {}  {}",
            r.solution,
            dim(&format!(
                "(on the {} case{} both accepted)",
                r.cases,
                if r.cases == 1 { "" } else { "s" }
            ))
        );
    }
    for s in &speed.incomparable {
        let _ = writeln!(out, "  {}", dim(&format!("{s}: no case both accepted")));
    }
}

/// The matrix as data, for `judge compare --json`.
#[derive(Serialize)]
pub struct MatrixJson {
    pub problem: String,
    pub time_limit_ms: u64,
    pub memory_limit_kb: u64,
    pub repeat: u32,
    pub cases: Vec<String>,
    pub solutions: Vec<ColumnJson>,
    pub speed: Option<Speed>,
    pub mismatches: Vec<String>,
}

#[derive(Serialize)]
pub struct ColumnJson {
    pub solution: String,
    pub path: String,
    pub verdict: Verdict,
    pub expected: Option<String>,
    /// null without an expectation.
    pub matches_expected: Option<bool>,
    pub passed: usize,
    pub total: usize,
    pub max_time_ms: u64,
    pub max_memory_kb: u64,
    /// One per case, in the order of `cases`; null for a case that was not run.
    pub cells: Vec<Option<CellJson>>,
}

#[derive(Serialize)]
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
        let ms = |d: Duration| d.as_millis() as u64;
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
                    verdict: col.report.verdict,
                    expected: col.expected.as_ref().map(|e| e.to_string()),
                    matches_expected: matches(col.expected.as_ref(), col.report.verdict),
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
                                    col.expected.as_ref(),
                                    c.verdict,
                                ),
                                wide_spread: c.timing.as_ref().is_some_and(|t| t.wide()),
                                near_limit: c.verdict != Verdict::Tle
                                    && stats::near_limit(c.cpu, self.limits.time),
                            })
                        })
                        .collect(),
                })
                .collect(),
            speed: self.speed(),
            mismatches: self.mismatches().into_iter().map(str::to_string).collect(),
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
        assert_eq!(matches(Some(&e("TL or OK")), Verdict::Ac), Some(true));
        assert_eq!(matches(Some(&e("AC")), Verdict::Wa), Some(false));
        assert_eq!(matches(None, Verdict::Wa), None);
    }
}
