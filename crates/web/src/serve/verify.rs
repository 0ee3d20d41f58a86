//! A verify as its page shows it: each reference solution's verdict at the limit and at the
//! margin against the one it is expected to get, the time limit and what justifies it, and the
//! cases that test a package's validators.

use serde::Serialize;

use super::views::VerdictView;
use judge_core::units::{format_duration, format_run_time};
use judge_core::verify::{Checked, Verification};

/// The whole result.
#[derive(Serialize)]
pub(super) struct VerifyView {
    ok: bool,
    internal_error: bool,
    limit: String,
    margin: String,
    derived: bool,
    /// "bitmask's slowest case 7 (120 ms)": what the derived limit rests on.
    justified: Option<String>,
    solutions: Vec<SolutionView>,
    warnings: Vec<String>,
    missing: Vec<String>,
    skipped: Vec<(String, String)>,
    /// Each validator case: its name, what it tests, whether it was answered as it must be,
    /// what the validators said.
    validator_cases: Vec<(String, String, bool, String)>,
}

#[derive(Serialize)]
struct SolutionView {
    name: String,
    expected: Option<String>,
    verdict: VerdictView,
    at_margin: VerdictView,
    time: String,
    /// "ok", "ok with extra time", "mismatch", or "" without an expectation.
    result: &'static str,
}

fn solution(c: &Checked, v: &Verification) -> SolutionView {
    SolutionView {
        name: c.solution.clone(),
        expected: c.expected.as_ref().map(ToString::to_string),
        verdict: VerdictView::of(c.verdict, None),
        at_margin: VerdictView::of(c.verdict_at_margin, None),
        time: c.max_time.map_or_else(
            || "—".into(),
            |t| format_run_time(t, c.over_limit.then_some(v.limit)),
        ),
        result: match (c.matches_expected, c.with_extra_time) {
            (Some(true), true) => "ok with extra time",
            (Some(true), false) => "ok",
            (Some(false), _) => "mismatch",
            (None, _) => "",
        },
    }
}

/// `v` as the page shows it; `internal_error`: a run's verdict was IE.
pub(super) fn view(v: &Verification, internal_error: bool) -> VerifyView {
    VerifyView {
        ok: v.ok() && !internal_error,
        internal_error,
        limit: format_duration(v.limit),
        margin: format_duration(v.margin),
        derived: v.derived,
        justified: v.justified.as_ref().map(|j| {
            format!(
                "{}'s slowest case {} ({})",
                j.solution,
                j.case,
                format_duration(j.slowest)
            )
        }),
        solutions: v.solutions.iter().map(|c| solution(c, v)).collect(),
        warnings: v.warnings.clone(),
        missing: v.missing.clone(),
        skipped: v
            .skipped
            .iter()
            .map(|s| (s.solution.clone(), s.skipped.clone()))
            .collect(),
        validator_cases: v
            .validator_cases
            .iter()
            .map(|c| {
                let kind = serde_json::to_value(c.kind)
                    .ok()
                    .and_then(|k| k.as_str().map(str::to_string))
                    .unwrap_or_default();
                (c.case.clone(), kind, c.ok, c.said.clone())
            })
            .collect(),
    }
}
