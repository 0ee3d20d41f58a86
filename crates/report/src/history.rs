//! `judge history` as text: the submissions as an online judge's status page.

use std::fmt::Write as _;

use super::{bold, dim, paint, verdict_style};
use judge_core::units::format_bytes;
use judge_core::verdict::Verdict;
use judge_history::{Entry, Submission};

/// The status page: one line per submission.
pub fn render(entries: &[Entry]) -> String {
    let mut out = String::new();
    if entries.is_empty() {
        let _ = writeln!(out, "no submissions yet");
        return out;
    }
    let subs: Vec<&Submission> = entries.iter().filter_map(Entry::submission).collect();
    let width = |f: &dyn Fn(&Submission) -> usize, least: usize| {
        subs.iter().map(|s| f(s)).max().unwrap_or(0).max(least)
    };
    let w_id = entries
        .iter()
        .map(|e| e.id().to_string().len() + 1)
        .max()
        .unwrap_or(2)
        .max(2);
    let w_problem = width(&|s| s.problem.len(), 7);
    let w_solution = width(&|s| s.solution.len(), 8);
    let w_language = width(&|s| s.language.len(), 4);
    let _ = writeln!(
        out,
        "  {}",
        bold(&format!(
            "{:<w_id$}  {:<19}  {:<w_problem$}  {:<w_solution$}  {:<w_language$}  {:<7}  {:>9}  {:>9}  {:>7}  passed",
            "#", "submitted", "problem", "solution", "lang", "verdict", "time", "memory", "length"
        ))
    );
    for entry in entries {
        let s = match entry {
            Entry::Read(s) => s,
            Entry::Unreadable(u) => {
                let _ = writeln!(
                    out,
                    "  {:<w_id$}  {}",
                    format!("#{}", u.id),
                    paint(
                        verdict_style(Verdict::Ie),
                        &format!("cannot be read: {}", u.unreadable)
                    )
                );
                continue;
            }
        };
        // A partial run's AC is not the solution's: not shown as one.
        let style = match &s.partial {
            Some(_) if s.verdict == Verdict::Ac => anstyle::Style::new(),
            _ => verdict_style(s.verdict),
        };
        let verdict = paint(style, &format!("{:<7}", s.verdict.code()));
        let (time, memory) = match s.verdict {
            Verdict::Ce => ("-".to_string(), "-".to_string()),
            _ => (s.time_text(), format_bytes(s.max_memory_kb * 1024)),
        };
        let mut passed = format!("{}/{}", s.passed, s.total);
        if let Some(p) = &s.partial {
            passed.push_str(&format!(" · partial: {}", p.describe()));
        }
        let _ = writeln!(
            out,
            "  {:<w_id$}  {}  {:<w_problem$}  {:<w_solution$}  {:<w_language$}  {verdict}  {time:>9}  {memory:>9}  {:>7}  {}",
            format!("#{}", s.id),
            dim(&s.submitted),
            s.problem,
            s.solution,
            s.language,
            format!("{} B", s.code_length),
            dim(&passed),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::model::{Partial, Selection};
    use judge_history::{RowError, Unreadable};

    #[test]
    fn the_status_page() {
        let s = |id: i64, solution: &str, verdict: &str, ms: u64, kb: u64, len: u64| {
            Entry::Read(Submission {
                id,
                submitted: format!("2026-05-01 14:0{id}:00"),
                submitted_unix_ms: 0,
                problem: "nqueens-ii".into(),
                solution: solution.into(),
                path: String::new(),
                language: if solution == "typo" { "python" } else { "rust" }.into(),
                source_hash: String::new(),
                code_length: len,
                verdict: verdict.parse().unwrap(),
                passed: match verdict {
                    "AC" => 14,
                    "CE" => 0,
                    _ => 8,
                },
                total: 14,
                max_time_ms: ms,
                max_memory_kb: kb,
                time_limit_ms: 4000,
                compiler: String::new(),
                partial: None,
                cases: vec![],
            })
        };
        let mut samples = s(6, "bitmask", "AC", 1, 1800, 1300);
        if let Entry::Read(s) = &mut samples {
            (s.passed, s.total) = (2, 2);
            s.partial = Partial::of(
                Some(&Selection {
                    samples: true,
                    cases: vec![],
                    of: 14,
                }),
                2,
                (2, 0),
                false,
            );
        }
        let page = render(&[
            samples,
            Entry::Unreadable(Unreadable {
                id: 5,
                unreadable: RowError::Verdict { code: "PE".into() },
            }),
            s(4, "symmetry-halved", "AC", 108, 1900, 2210),
            s(3, "odometer", "TLE", 4003, 1800, 1585),
            s(2, "typo", "CE", 0, 0, 96),
            s(1, "bitmask", "AC", 214, 1850, 1300),
        ]);
        insta::assert_snapshot!(anstream::adapter::strip_str(&page).to_string());
        assert_eq!(render(&[]), "no submissions yet\n");
    }
}
