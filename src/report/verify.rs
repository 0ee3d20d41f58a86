//! `judge verify` as text: the head, one line per solution, and the time limits, warnings and mismatches beneath.

use std::fmt::Write as _;
use std::time::Duration;

use super::{alarm, bold, dim, paint, verdict_style, yellow};
use crate::stats;
use crate::units::format_duration;
use crate::verdict::Verdict;
use crate::verify::{margin_limit, Checked, Verification};
use crate::workspace::Problem;

/// Widths of the columns of `render_line`.
pub const W_NAME: usize = 18;
const W_VERDICT: usize = 11;

/// The head of the table of solutions.
pub fn render_head(problem: &Problem, limit: Duration) -> String {
    format!(
        "{}  {}\n\n  {}\n",
        bold(&problem.id),
        dim(&format!(
            "{} · time limit {} · every solution judged at {} (x {})",
            problem.title,
            format_duration(limit),
            format_duration(margin_limit(limit)),
            stats::SAFETY_MARGIN
        )),
        bold(&format!(
            "{:<W_NAME$} {:<W_VERDICT$} {:<5} {:>10}  {}",
            "solution", "expected", "got", "max time", "cases"
        ))
    )
}

/// One line per solution: expected, got, max time, cases passed.
pub fn render_line(c: &Checked, limit: Duration) -> String {
    let expected = match &c.expected {
        Some(e) => format!("{:<W_VERDICT$}", e.to_string()),
        None => dim(&format!("{:<W_VERDICT$}", "(none)")),
    };
    let got = paint(
        verdict_style(c.verdict),
        &format!("{:<5}", c.verdict.code()),
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
        "  {:<W_NAME$} {expected} {got} {time:>10}  {cases}{flag}\n",
        c.solution
    )
}

/// Under the table: the time limits, the warnings and the mismatches.
pub fn render_tail(v: &Verification) -> String {
    let mut out = String::new();
    let _ = writeln!(out);
    match &v.justified {
        Some(j) => {
            let _ = writeln!(
                out,
                "  time limit: configured {} · justified {} (slowest accepted: {} on case {}, {:.1} ms x {} = {:.1} ms, rounded up to a whole second)",
                format_duration(v.limit),
                format_duration(j.limit),
                j.solution,
                j.case,
                j.slowest.as_secs_f64() * 1000.0,
                stats::LIMIT_MULTIPLIER,
                (j.slowest * stats::LIMIT_MULTIPLIER).as_secs_f64() * 1000.0,
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
                "{:<W_NAME$} {:<W_VERDICT$} {:<5} at {}",
                "solution",
                "expected",
                "got",
                format_duration(v.margin)
            ))
        );
        for c in mismatches {
            let row = format!(
                "  {:<W_NAME$} {:<W_VERDICT$} {:<5} {}",
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
