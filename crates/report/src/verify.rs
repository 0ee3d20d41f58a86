//! `judge verify` as text: the head, one line per solution, and the time limits, warnings and mismatches beneath.

use std::fmt::Write as _;
use std::time::Duration;

use super::{alarm, bold, dim, paint, verdict_style, yellow};
use judge_core::units::format_duration;
use judge_core::verdict::{Expectation, Verdict};
use judge_core::verify::{Checked, Verification};
use judge_core::workspace::Problem;

/// The narrowest the solution and the expectation columns are.
const W_NAME: usize = 18;
const W_VERDICT: usize = 11;

/// The widths of the table's first columns: the longest solution name and expectation
/// (`WA or TLE or MLE or OLE or RE`, a Polygon tag's), known before the first line is printed.
#[derive(Debug, Clone, Copy)]
pub struct Columns {
    name: usize,
    expected: usize,
}

impl Columns {
    pub fn new<'a>(
        names: impl Iterator<Item = &'a str>,
        expected: impl Iterator<Item = &'a Expectation>,
    ) -> Columns {
        Columns {
            name: names.map(str::len).max().unwrap_or(0).max(W_NAME),
            expected: expected
                .map(|e| e.to_string().len())
                .max()
                .unwrap_or(0)
                .max(W_VERDICT),
        }
    }
}

/// The width of the verdict column: a scoring problem's holds the score too ("AC 50/100").
fn got_width(scoring: bool) -> usize {
    if scoring {
        12
    } else {
        5
    }
}

/// The head of the table of solutions.
pub fn render_head(problem: &Problem, limit: Duration, columns: Columns) -> String {
    let (w, e) = (columns.name, columns.expected);
    let g = got_width(problem.scoring);
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
            "{:<w$} {:<e$} {:<g$} {:>10}  {}",
            "solution", "expected", "got", "max time", "cases"
        ))
    )
}

/// One line per solution: expected, got, max time, cases passed.
pub fn render_line(c: &Checked, limit: Duration, columns: Columns) -> String {
    let (w, e) = (columns.name, columns.expected);
    let expected = match &c.expected {
        _ if !c.rules.is_empty() => format!("{:<e$}", "its rules"),
        Some(x) => format!("{:<e$}", x.to_string()),
        None => dim(&format!("{:<e$}", "(none)")),
    };
    let score = match (c.score, c.max_score) {
        (Some(s), Some(m)) if m.is_finite() => format!(" {}/{}", trim(s), trim(m)),
        (Some(s), _) => format!(" {}", trim(s)),
        _ => String::new(),
    };
    let width = got_width(c.score.is_some());
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
        Some(true) if c.with_extra_time => yellow("  as expected with the extra time only"),
        Some(true) => String::new(),
    };
    let mut line = format!(
        "  {:<w$} {expected} {got} {time:>10}  {cases}{flag}\n",
        c.solution
    );
    // The package's expectations it was held to, and where one broke.
    for rule in &c.rules {
        let _ = writeln!(line, "      {}", dim(&format!("held to {rule}")));
    }
    for b in &c.broken {
        let _ = writeln!(
            line,
            "      {}",
            alarm(&format!("broke {}: {}", b.source, b.why))
        );
    }
    line
}

/// Under the table: the time limits, the warnings and the mismatches.
pub fn render_tail(v: &Verification) -> String {
    tail(v, true)
}

/// The end of a verify cut short (Ctrl-C, SIGTERM): the tail of what it judged, then the
/// solutions it did not judge.
pub fn render_cut(v: &Verification, not_judged: &[String]) -> String {
    let mut out = tail(v, false);
    if !not_judged.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            alarm(&format!(
                "interrupted: not judged: {}",
                not_judged.join(", ")
            ))
        );
    }
    let _ = writeln!(out, "(what is above was verified so far)");
    out
}

/// The tail of a verification, `whole` or cut short.
fn tail(v: &Verification, whole: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out);
    let _ = writeln!(out, "  time limit: {}", time_limit(v));
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
        let every = if whole {
            "every solution"
        } else {
            "every solution judged"
        };
        let _ = writeln!(out, "  {every} got its expected verdict");
    } else {
        mismatch_table(&mut out, v, &mismatches);
    }
    out
}

/// The time limit, derived or configured, and the slowest time that justifies it.
fn time_limit(v: &Verification) -> String {
    let Some(j) = &v.justified else {
        return format!(
            "configured {} · no accepted solution to justify one",
            format_duration(v.limit)
        );
    };
    let rounded = v.rule.rounding().unwrap_or_else(|| "the nanosecond".into());
    let limits = if v.derived {
        format!("derived {}", format_duration(v.limit))
    } else {
        format!(
            "configured {} · justified {}",
            format_duration(v.limit),
            format_duration(j.limit)
        )
    };
    // The slowest time as `judge run` and the table above round it, and no product of
    // it: a product of the unrounded time would not be that of the time shown.
    format!(
        "{limits} (slowest {}: {} on case {}, {} x {}, rounded up to {rounded})",
        // A package's rules may bound the limit with other submissions than accepted ones.
        if j.solution.starts_with("accepted/") || !j.solution.contains('/') {
            "accepted"
        } else {
            "bounding it from below"
        },
        j.solution,
        j.case,
        format_duration(j.slowest),
        trim(v.rule.ac_to_limit),
    )
}

/// The solutions that did not get their expected verdict: what each got, and at the margin.
fn mismatch_table(out: &mut String, v: &Verification, mismatches: &[&Checked]) {
    let Columns {
        name: w,
        expected: e,
    } = Columns::new(
        v.solutions.iter().map(|c| c.solution.as_str()),
        v.solutions.iter().filter_map(|c| c.expected.as_ref()),
    );
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
            "{:<w$} {:<e$} {:<5} at {}",
            "solution",
            "expected",
            "got",
            format_duration(v.margin)
        ))
    );
    for c in mismatches {
        let row = format!(
            "  {:<w$} {:<e$} {:<5} {}",
            c.solution,
            match &c.expected {
                _ if !c.rules.is_empty() => "its rules".to_string(),
                Some(e) => e.to_string(),
                None => String::new(),
            },
            c.verdict.code(),
            c.verdict_at_margin.code()
        );
        let _ = writeln!(out, "{}", row.trim_end());
        for b in &c.broken {
            let _ = writeln!(out, "      broke {}: {}", b.source, b.why);
        }
    }
}

/// A number as a person writes it: "1.5", "2", "50".
fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::Duration;

    use judge_core::fixtures::{case, problem, report};
    use judge_core::verdict::Verdict;
    use judge_core::verify::verify;

    #[test]
    fn the_tail_counts_the_mismatches() {
        let mut p = problem("p", Path::new("problems/p"));
        for (name, expected) in [("fast", "AC"), ("wrong", "AC"), ("slow", "AC")] {
            p.expected.insert(name.into(), expected.parse().unwrap());
        }
        let mut fast = report("fast", vec![case("1", Verdict::Ac, 5)]);
        fast.cases[0].cpu = Duration::from_micros(37_600);
        let reports = [
            fast,
            report("wrong", vec![case("1", Verdict::Wa, 5)]),
            report("slow", vec![case("1", Verdict::Tle, 1100)]),
        ];
        let v = verify(&p, Duration::from_secs(1), &reports, &[]);
        let tail = super::render_tail(&v);
        assert!(tail.contains("2 mismatches"), "{tail}");
        // Its time rounded as `judge run` rounds it, as the table's is.
        assert!(
            tail.contains(
                "slowest accepted: fast on case 1, 38 ms x 2, rounded up to a whole second"
            ),
            "{tail}"
        );
    }
}
