//! A `judge verify` cut short (Ctrl-C, SIGTERM): what it decided so far, reported before the
//! process ends, as text or in `--json`, with the solutions it did not judge.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use judge_core::model::{Skipped, SolutionReport};
use judge_core::verify::{self, Verification};
use judge_core::workspace::{Problem, Solution};
use judge_runner::interrupt::{self, HookGuard};

/// What the verify decided so far.
#[derive(Default)]
pub(super) struct SoFar {
    /// The problems verified whole.
    done: Vec<Verification>,
    /// The problem being verified.
    current: Option<Current>,
}

struct Current {
    problem: Problem,
    limit: Duration,
    /// Its solutions, in the order they are judged.
    solutions: Vec<String>,
    reports: Vec<SolutionReport>,
    skipped: Vec<Skipped>,
}

type Shared = Arc<Mutex<SoFar>>;

/// Reports what `so_far` holds should the process be cut short, until the guard is dropped.
pub(super) fn report_when_cut(so_far: &Shared, json: bool) -> HookGuard {
    let so_far = Arc::clone(so_far);
    interrupt::on_interrupt(Arc::new(move || {
        if let Ok(so_far) = so_far.lock() {
            let _ = report(&so_far, json);
        }
    }))
}

/// The verify of `problem` under `limit` begins: none of its `solutions` is judged yet.
pub(super) fn started(
    so_far: &Shared,
    problem: &Problem,
    limit: Duration,
    solutions: &[Solution],
    skipped: &[Skipped],
) {
    if let Ok(mut s) = so_far.lock() {
        s.current = Some(Current {
            problem: problem.clone(),
            limit,
            solutions: solutions.iter().map(|s| s.name.clone()).collect(),
            reports: Vec::new(),
            skipped: skipped.to_vec(),
        });
    }
}

/// A solution of the current problem is judged.
pub(super) fn judged(so_far: &Shared, report: &SolutionReport) {
    if let Ok(mut s) = so_far.lock() {
        if let Some(c) = &mut s.current {
            c.reports.push(report.clone());
        }
    }
}

/// The current problem is verified whole.
pub(super) fn verified(so_far: &Shared, v: &Verification) {
    if let Ok(mut s) = so_far.lock() {
        s.current = None;
        s.done.push(v.clone());
    }
}

fn report(so_far: &SoFar, json: bool) -> std::io::Result<()> {
    let current = so_far.current.as_ref().map(|c| {
        let mut reports = c.reports.clone();
        reports.sort_by(|a, b| judge_core::workspace::natural_cmp(&a.solution, &b.solution));
        let mut v = verify::verify(&c.problem, c.limit, &reports, &c.skipped);
        let not_judged: Vec<String> = c
            .solutions
            .iter()
            .filter(|n| !reports.iter().any(|r| &r.solution == *n))
            .filter(|n| !c.skipped.iter().any(|s| &s.solution == *n))
            .cloned()
            .collect();
        // Not judged is not missing.
        v.missing.retain(|m| !not_judged.contains(m));
        (v, not_judged)
    });
    let mut out = anstream::stdout().lock();
    if json {
        let mut all = Vec::new();
        for v in &so_far.done {
            all.push(judge_core::schema::to_value(v));
        }
        if let Some((v, not_judged)) = &current {
            let mut cut = judge_core::schema::to_value(v);
            if let Some(fields) = cut.as_object_mut() {
                fields.insert("interrupted".into(), true.into());
                fields.insert("not_judged".into(), not_judged.clone().into());
            }
            all.push(cut);
        }
        let text = serde_json::to_string_pretty(&all).map_err(std::io::Error::other)?;
        writeln!(out, "{text}")?;
    } else if let Some((v, not_judged)) = &current {
        write!(out, "{}", judge_report::verify::render_cut(v, not_judged))?;
    }
    out.flush()
}
