//! `judge verify` as text: the head, one line per solution, and the time limits, warnings and mismatches beneath.

use std::fmt::Write as _;
use std::time::Duration;

use super::{alarm, bold, dim, paint, verdict_style, yellow};
use crate::units::format_duration;
use crate::verdict::Verdict;
use crate::verify::{Checked, Verification};
use crate::workspace::Problem;

/// The narrowest the solution column is, and the width of the expectation column.
const W_NAME: usize = 18;
const W_VERDICT: usize = 11;

/// The widths of the solution and expectation columns: wide enough for every name and every
/// expected verdict ("MLE or OLE or RE", a package's run_time_error/ folder).
#[derive(Debug, Clone, Copy)]
pub struct Columns {
    names: usize,
    expected: usize,
}

impl Columns {
    /// The columns for `problem`'s solutions, whose longest name is `names` long.
    pub fn of(problem: &Problem, names: usize) -> Columns {
        let expected = problem
            .expected
            .values()
            .map(|e| e.to_string().len())
            .max()
            .unwrap_or(0);
        Columns {
            names: names.max(W_NAME),
            expected: expected.max(W_VERDICT),
        }
    }
}

/// The head of the table of solutions.
pub fn render_head(problem: &Problem, limit: Duration, cols: Columns) -> String {
    let (w, v) = (cols.names, cols.expected);
    let rule = &problem.time_rule;
    let how = if rule.fixed.is_some() {
        "time limit"
    } else {
        "time limit (derived)"
    };
    format!(
        "{}  {}\n\n  {}\n",
        bold(&problem.id),
        dim(&format!(
            "{} · {how} {} · every solution judged at {} (x {})",
            problem.title,
            format_duration(limit),
            format_duration(rule.margin(limit)),
            trim(rule.limit_to_tle)
        )),
        bold(&format!(
            "{:<w$} {:<v$} {:<5} {:>10}  {}",
            "solution", "expected", "got", "max time", "cases"
        ))
    )
}

/// One line per solution: expected, got, max time, cases passed.
pub fn render_line(c: &Checked, limit: Duration, cols: Columns) -> String {
    let (w, v) = (cols.names, cols.expected);
    let expected = match &c.expected {
        Some(e) => format!("{:<v$}", e.to_string()),
        None => dim(&format!("{:<v$}", "(none)")),
    };
    let score = match (c.score, c.max_score) {
        (Some(s), Some(m)) if m.is_finite() => format!(" {}/{}", trim(s), trim(m)),
        (Some(s), _) => format!(" {}", trim(s)),
        _ => String::new(),
    };
    // A scoring problem's column holds the score too: "AC 50/100".
    let width: usize = if c.score.is_some() { 12 } else { 5 };
    let pad = width.saturating_sub(c.verdict.code().len() + score.chars().count());
    let got = format!(
        "{}{score}{}",
        paint(verdict_style(c.verdict), c.verdict.code()),
        " ".repeat(pad)
    );
    let time = match c.max_time {
        _ if c.over_limit => format!("> {}", format_duration(limit)),
        Some(t) => format_duration(t),
        None => "-".into(),
    };
    let mut cases = format!("{}/{}", c.passed, c.total);
    if c.run < c.total && c.verdict != Verdict::Ce {
        let _ = write!(cases, ", {} not run", c.total - c.run);
    }
    let flag = match c.matches_expected {
        Some(false) => alarm("  MISMATCH"),
        None => dim("  no expected verdict"),
        Some(true) => String::new(),
    };
    format!(
        "  {:<w$} {expected} {got} {time:>10}  {cases}{flag}\n",
        c.solution
    )
}

/// Under the table: the time limits, the warnings and the mismatches.
pub fn render_tail(v: &Verification) -> String {
    let mut out = String::new();
    let _ = writeln!(out);
    match &v.justified {
        Some(j) => {
            let rounded = if v.rule.resolution == Duration::from_secs(1) {
                "a whole second".to_string()
            } else {
                format!("a multiple of {}", format_duration(v.rule.resolution))
            };
            let limits = if v.derived {
                format!("derived {}", format_duration(v.limit))
            } else {
                format!(
                    "configured {} · justified {}",
                    format_duration(v.limit),
                    format_duration(j.limit)
                )
            };
            let _ = writeln!(
                out,
                "  time limit: {limits} (slowest accepted: {} on case {}, {:.1} ms x {} = {:.1} ms, rounded up to {rounded})",
                j.solution,
                j.case,
                j.slowest.as_secs_f64() * 1000.0,
                trim(v.rule.ac_to_limit),
                j.slowest.as_secs_f64() * 1000.0 * v.rule.ac_to_limit,
            );
        }
        None => {
            let _ = writeln!(
                out,
                "  time limit: configured {} · no accepted solution to justify one",
                format_duration(v.limit)
            );
        }
    }
    for w in &v.warnings {
        let _ = writeln!(out, "  {}", yellow(&format!("warning: {w}")));
    }
    for m in &v.missing {
        let _ = writeln!(
            out,
            "  {}",
            yellow(&format!(
                "warning: problem.toml expects a verdict of `{m}`, which has no source file"
            ))
        );
    }
    for skip in &v.skipped {
        let _ = writeln!(
            out,
            "  {}",
            dim(&format!("skipped {}: {}", skip.solution, skip.skipped))
        );
    }
    let mismatches: Vec<&Checked> = v.mismatches().collect();
    let w = v
        .solutions
        .iter()
        .map(|c| c.solution.len())
        .max()
        .unwrap_or(0)
        .max(W_NAME);
    if mismatches.is_empty() {
        let _ = writeln!(out, "  every solution got its expected verdict");
    } else {
        let _ = writeln!(
            out,
            "\n  {}",
            alarm(&format!(
                "{} mismatch{}:",
                mismatches.len(),
                if mismatches.len() == 1 { "" } else { "es" }
            ))
        );
        let _ = writeln!(
            out,
            "  {}",
            bold(&format!(
                "{:<w$} {:<W_VERDICT$} {:<5} at {}",
                "solution",
                "expected",
                "got",
                format_duration(v.margin)
            ))
        );
        for c in mismatches {
            let row = format!(
                "  {:<w$} {:<W_VERDICT$} {:<5} {}",
                c.solution,
                c.expected
                    .as_ref()
                    .map(|e| e.to_string())
                    .unwrap_or_default(),
                c.verdict.code(),
                c.verdict_at_margin.code()
            );
            let _ = writeln!(out, "{}", row.trim_end());
        }
    }
    out
}

/// A number as a person writes it: "1.5", "2", "50".
fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
