//! `judge history` as text: the submissions as an online judge's status page.

use std::fmt::Write as _;
use std::time::Duration;

use super::{bold, dim, paint, verdict_style};
use crate::history::Submission;
use crate::units::{format_bytes, format_duration};
use crate::verdict::Verdict;

/// The status page: one line per submission.
pub fn render(subs: &[Submission]) -> String {
    let mut out = String::new();
    if subs.is_empty() {
        let _ = writeln!(out, "no submissions yet");
        return out;
    }
    let w_id = subs
        .iter()
        .map(|s| s.id.to_string().len() + 1)
        .max()
        .unwrap_or(2)
        .max(2);
    let w_problem = subs
        .iter()
        .map(|s| s.problem.len())
        .max()
        .unwrap_or(0)
        .max(7);
    let w_solution = subs
        .iter()
        .map(|s| s.solution.len())
        .max()
        .unwrap_or(0)
        .max(8);
    let w_language = subs
        .iter()
        .map(|s| s.language.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let _ = writeln!(
        out,
        "  {}",
        bold(&format!(
            "{:<w_id$}  {:<19}  {:<w_problem$}  {:<w_solution$}  {:<w_language$}  {:<7}  {:>9}  {:>9}  {:>7}  passed",
            "#", "submitted", "problem", "solution", "lang", "verdict", "time", "memory", "length"
        ))
    );
    for s in subs {
        let verdict = paint(
            verdict_style(s.verdict),
            &format!("{:<7}", s.verdict.code()),
        );
        let (time, memory) = match s.verdict {
            Verdict::Ce => ("-".to_string(), "-".to_string()),
            Verdict::Tle => (
                format!(
                    "> {}",
                    format_duration(Duration::from_millis(s.time_limit_ms))
                ),
                format_bytes(s.max_memory_kb * 1024),
            ),
            _ => (
                format_duration(Duration::from_millis(s.max_time_ms)),
                format_bytes(s.max_memory_kb * 1024),
            ),
        };
        let _ = writeln!(
            out,
            "  {:<w_id$}  {}  {:<w_problem$}  {:<w_solution$}  {:<w_language$}  {verdict}  {time:>9}  {memory:>9}  {:>7}  {}",
            format!("#{}", s.id),
            dim(&s.submitted),
            s.problem,
            s.solution,
            s.language,
            format!("{} B", s.code_length),
            dim(&format!("{}/{}", s.passed, s.total)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_page() {
        let s = |id: i64, solution: &str, verdict: &str, ms: u64, kb: u64, len: u64| Submission {
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
            cases: vec![],
        };
        let page = render(&[
            s(4, "symmetry-halved", "AC", 108, 1900, 2210),
            s(3, "odometer", "TLE", 4003, 1800, 1585),
            s(2, "typo", "CE", 0, 0, 96),
            s(1, "bitmask", "AC", 214, 1850, 1300),
        ]);
        insta::assert_snapshot!(anstream::adapter::strip_str(&page).to_string());
        assert_eq!(render(&[]), "no submissions yet\n");
    }
}
