//! The invocation matrix of `judge compare` as text: cells, totals, markers, and relative speed.

use std::fmt::Write as _;

use anstyle::Style;

use super::{alarm, dim, paint, verdict_style};
use judge_core::compare::{cell_contradicts, Column, Matrix, NotRanked, Speed};
use judge_core::model::{CaseReport, SolutionReport};
use judge_core::stats;
use judge_core::units::{format_bytes, format_duration, format_run_time};
use judge_core::verdict::Verdict;

/// The widest a matrix is printed with its solutions' names over their columns.
const MAX_WIDTH: usize = 120;

/// The matrix as text: a row per case, a column per solution, the totals beneath.
pub fn render(m: &Matrix) -> String {
    let mut out = String::new();
    let layout = Layout::of(m);
    title(&mut out, m);
    layout.head(&mut out, m);
    let markers = layout.rows(&mut out, m);
    let _ = writeln!(out);
    layout.totals(&mut out, m);
    markers.legend(
        &mut out,
        m.columns.iter().any(|c| c.report.expected.is_none()),
    );
    let speed = m.speed();
    let not_ranked = m.not_ranked();
    if speed.is_some() || !not_ranked.is_empty() {
        let _ = writeln!(out);
    }
    if let Some(speed) = speed {
        render_speed(&mut out, &speed);
    }
    render_not_ranked(&mut out, &not_ranked);
    for skip in m.skipped {
        let _ = writeln!(
            out,
            "\n  {}",
            dim(&format!("skipped {}: {}", skip.solution, skip.skipped))
        );
    }
    let mismatches = m.mismatches();
    if !mismatches.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            alarm(&format!(
                "verdict not the expected one: {}",
                mismatches.join(", ")
            ))
        );
    }
    out
}

/// The problem's name, its limits and what the matrix holds.
fn title(out: &mut String, m: &Matrix) {
    let _ = writeln!(
        out,
        "{}  {}",
        paint(Style::new().bold(), &m.problem.id),
        dim(&format!(
            "{} · time {} · memory {} · {} cases · {} solution{}{}",
            m.problem.title,
            format_duration(m.limits.time),
            format_bytes(m.limits.memory_bytes),
            m.cases.len(),
            m.columns.len(),
            if m.columns.len() == 1 { "" } else { "s" },
            if m.repeat > 1 {
                format!(" · {} runs per case: min / median", m.repeat)
            } else {
                String::new()
            }
        ))
    );
}

/// The widths of the matrix's columns, and whether they are numbered.
struct Layout {
    /// The width of a solution's column.
    width: usize,
    /// The width of the first column: the cases' names and the totals' titles.
    label: usize,
    /// Long names (a package's `time_limit_exceeded/...`) would push the matrix off the
    /// screen: the columns are then numbered, and the numbers named above.
    numbered: bool,
}

impl Layout {
    fn of(m: &Matrix) -> Layout {
        let content = m
            .columns
            .iter()
            .map(|c| passed_text(c.report).len())
            .chain([if m.repeat > 1 { 18 } else { 13 }])
            .max()
            .unwrap_or(13);
        let names = m.columns.iter().map(|c| c.report.solution.len()).max();
        let width = names.unwrap_or(0).max(content);
        let label = m
            .cases
            .iter()
            .map(|c| c.name.len() + if c.sample { 4 } else { 0 })
            .chain([if m.columns.iter().any(|c| c.report.time_rule.is_some()) {
                10
            } else {
                8
            }])
            .max()
            .unwrap_or(8);
        let numbered = width > content && 2 + label + m.columns.len() * (width + 2) > MAX_WIDTH;
        let width = if numbered { content } else { width };
        Layout {
            width,
            label,
            numbered,
        }
    }

    fn heading(&self, i: usize, col: &Column) -> String {
        match self.numbered {
            true => format!("#{}", i + 1),
            false => col.report.solution.clone(),
        }
    }

    /// The numbers' names when numbered, then the row of headings.
    fn head(&self, out: &mut String, m: &Matrix) {
        if self.numbered {
            let _ = writeln!(out);
            for (i, col) in m.columns.iter().enumerate() {
                let _ = writeln!(out, "  {:<4}{}", self.heading(i, col), col.report.solution);
            }
        }
        let label = self.label;
        let mut head = format!("\n  {:<label$}", "case");
        for (i, col) in m.columns.iter().enumerate() {
            let _ = write!(
                head,
                "  {:<width$}",
                self.heading(i, col),
                width = self.width
            );
        }
        let _ = writeln!(out, "{}", paint(Style::new().bold(), head.trim_end()));
    }

    /// A row per case; returns the markers its cells used.
    fn rows(&self, out: &mut String, m: &Matrix) -> Markers {
        let (label, width) = (self.label, self.width);
        let mut markers = Markers::default();
        for case in m.cases {
            let name = if case.sample {
                format!("{} (s)", case.name)
            } else {
                case.name.clone()
            };
            let mut row = format!("  {name:<label$}");
            for col in &m.columns {
                let cell = match m.cell(col, &case.name) {
                    Some(c) => cell_text(col, c, width, &mut markers),
                    // Padded outside the style, so that a row's end trims clean.
                    None => format!("{}{}", dim("-"), " ".repeat(width.saturating_sub(1))),
                };
                let _ = write!(row, "  {cell}");
            }
            let _ = writeln!(out, "{}", row.trim_end());
        }
        markers
    }

    /// A row of totals: its title, then each column's.
    fn total(&self, m: &Matrix, title: &str, f: &dyn Fn(&Column) -> String) -> String {
        let label = self.label;
        let mut row = format!("  {title:<label$}");
        for col in &m.columns {
            let _ = write!(row, "  {}", f(col));
        }
        row.trim_end().to_string()
    }

    /// The totals beneath the cases: language, time limit, verdict, passed, time, memory and
    /// the expected verdict.
    fn totals(&self, out: &mut String, m: &Matrix) {
        let width = self.width;
        let padded = |text: String| format!("{text:<width$}");
        let language = self.total(m, "language", &|col| {
            padded(col.report.language_name.clone())
        });
        let _ = writeln!(out, "{language}");
        if m.columns.iter().any(|c| c.report.time_rule.is_some()) {
            let limit = self.total(m, "time limit", &|col| {
                padded(format_duration(col.report.limits.time))
            });
            let _ = writeln!(out, "{limit}");
        }
        let verdict_row = self.total(m, "verdict", &|col| {
            let v = col.report.verdict;
            let bad = col.report.matches_expected() == Some(false);
            let text = format!("{}{}", v.code(), if bad { " !" } else { "" });
            let pad = width.saturating_sub(text.len());
            format!("{}{}", paint(verdict_style(v), &text), " ".repeat(pad))
        });
        let _ = writeln!(out, "{verdict_row}");
        let passed = self.total(m, "passed", &|col| padded(passed_text(col.report)));
        let _ = writeln!(out, "{passed}");
        let max_time = self.total(m, "max time", &|col| {
            let r = col.report;
            padded(match r.cases.is_empty() {
                true => "-".to_string(),
                false => format_run_time(r.max_cpu(), r.any_tle().then_some(r.limits.time)),
            })
        });
        let _ = writeln!(out, "{max_time}");
        let memory = self.total(m, "memory", &|col| {
            let r = col.report;
            padded(match r.cases.is_empty() {
                true => "-".to_string(),
                false => format_bytes(r.max_memory()),
            })
        });
        let _ = writeln!(out, "{memory}");
        let expected = self.total(m, "expected", &|col| match &col.report.expected {
            Some(e) => padded(e.to_string()),
            None => format!("{}{}", dim("(none)"), " ".repeat(width.saturating_sub(6))),
        });
        let _ = writeln!(out, "{expected}");
    }
}

fn cell_text(col: &Column, c: &CaseReport, width: usize, markers: &mut Markers) -> String {
    let time = match &c.timing {
        Some(t) if c.verdict != Verdict::Tle => {
            format!("{} / {}", format_duration(t.min()), format_duration(c.cpu))
        }
        _ => format_run_time(
            c.cpu,
            (c.verdict == Verdict::Tle).then_some(col.report.limits.time),
        ),
    };
    let mut flags = String::new();
    if cell_contradicts(col.report.expected.as_ref(), c.verdict) {
        flags.push('!');
        markers.contradiction = true;
    }
    if c.timing.as_ref().is_some_and(|t| t.wide()) && c.verdict != Verdict::Tle {
        flags.push('~');
        markers.spread = true;
    }
    if c.verdict != Verdict::Tle && stats::near_limit(c.cpu, col.report.limits.time) {
        flags.push('^');
        markers.near = true;
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
        let _ = writeln!(
            out,
            "  {}",
            dim(&format!("{s}: not compared (no time was measured)"))
        );
    }
}

/// "not ranked (not accepted): wrong WA · spin TLE": a speed against a solution that failed
/// says nothing.
pub fn render_not_ranked(out: &mut String, not_ranked: &[NotRanked]) {
    if not_ranked.is_empty() {
        return;
    }
    let list: Vec<String> = not_ranked
        .iter()
        .map(|n| {
            format!(
                "{} {}",
                n.solution,
                paint(verdict_style(n.verdict), n.verdict.code())
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "{} {}",
        dim("not ranked (not accepted):"),
        list.join(" · ")
    );
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use judge_core::fixtures;
    use judge_core::model::Skipped;
    use judge_core::workspace::TestCase;

    fn case(name: &str, sample: bool) -> TestCase {
        TestCase {
            name: name.into(),
            sample,
            ..TestCase::default()
        }
    }

    /// Three solutions of `sum`: one accepted, one slower, one wrong on a case it was expected
    /// to pass, and one not judged.
    fn reports(name: &str) -> Vec<judge_core::model::SolutionReport> {
        let fast = fixtures::report(
            name,
            vec![
                fixtures::case("01", Verdict::Ac, 10),
                fixtures::case("02", Verdict::Ac, 20),
            ],
        );
        let slow = fixtures::report(
            "slow",
            vec![
                fixtures::case("01", Verdict::Ac, 30),
                fixtures::case("02", Verdict::Ac, 960),
            ],
        );
        let mut wrong = fixtures::report("wrong", vec![fixtures::case("01", Verdict::Wa, 5)]);
        wrong.total = 2;
        wrong.expected = Some("AC".parse().unwrap());
        vec![fast, slow, wrong]
    }

    fn render_plain(name: &str) -> String {
        let problem = fixtures::problem("sum", Path::new("problems/sum"));
        let cases = [case("01", true), case("02", false)];
        let reports = reports(name);
        let skipped = [Skipped {
            solution: "mono".into(),
            path: "solutions/sum/mono.cs".into(),
            skipped: "C# needs `mcs`, which is not installed".into(),
        }];
        let limits = reports[0].limits;
        let m = Matrix::new(&problem, &cases, limits, 1, &reports, &skipped);
        anstream::adapter::strip_str(&render(&m)).to_string()
    }

    #[test]
    fn the_matrix_its_totals_and_the_speed() {
        insta::assert_snapshot!(render_plain("fast"));
    }

    #[test]
    fn long_names_number_the_columns() {
        let text = render_plain("time_limit_exceeded/a_very_long_name_indeed_of_a_solution");
        assert!(
            text.contains("#1  time_limit_exceeded/a_very_long_name_indeed_of_a_solution"),
            "{text}"
        );
        assert!(text.contains("case      #1"), "{text}");
    }
}
