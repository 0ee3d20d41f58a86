//! `--jobs N`: cases on several slots at once, reported in order; a case whose time could decide its verdict is re-run alone.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::slot::shown_input;
use super::{Judge, Observer, Options, Run};
use crate::compile::Program;
use crate::error::Result;
use crate::model::{CaseReport, Rerun};
use crate::verdict::{Limits, Verdict};
use crate::workspace::TestCase;

impl Judge {
    /// Runs the cases on up to `options.jobs` slots at once. The observer hears of them in
    /// order; a case whose time might decide its verdict (TLE, or within 20% of the limit) is
    /// held back and re-run alone once the parallel runs are over.
    pub(super) fn judge_parallel(
        &mut self,
        run: &mut Run,
        program: &Program,
        limits: &Limits,
    ) -> Result<Vec<CaseReport>> {
        let (problem, solution, cases, options) =
            (run.problem, run.solution, run.cases, run.options);
        let observer = &mut *run.observer;
        let limits = *limits;
        let jobs = options.jobs.min(cases.len());
        self.ensure_slots(jobs)?;
        let (env, slots) = self.parts();

        let n = cases.len();
        let next = AtomicUsize::new(0);
        // The first case whose failure ends the run (--stop-on-fail): no case after it starts.
        let stop_after = AtomicUsize::new(usize::MAX);
        let mut done: Vec<Option<CaseReport>> = vec![None; n];
        let mut out = Vec::new();
        let mut emitted = 0;
        let mut ended = false;
        let mut error = None;
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<CaseReport>)>();
        observer.case_started(&cases[0], 0, n);
        // Each slot claims the case after its own as it starts one, and sends it ahead.
        let ahead = super::ahead::sends_ahead(problem, options);
        std::thread::scope(|s| {
            for slot in slots.iter_mut().take(jobs) {
                let (tx, next, stop_after, limits) = (tx.clone(), &next, &stop_after, &limits);
                let mut claimed = None;
                s.spawn(move || loop {
                    let i = claimed
                        .take()
                        .unwrap_or_else(|| next.fetch_add(1, Ordering::SeqCst));
                    if i >= n || i > stop_after.load(Ordering::SeqCst) {
                        break;
                    }
                    if ahead {
                        claimed = Some(next.fetch_add(1, Ordering::SeqCst));
                    }
                    let case = &cases[i];
                    let following = claimed.and_then(|j| cases.get(j));
                    let result = slot
                        .run_case(env, problem, program, (case, following), limits)
                        .map(|mut c| {
                            c.parallel = true;
                            if c.verdict != Verdict::Ac {
                                c.saved_output = slot.keep_output(env, problem, solution, case);
                                c.input = shown_input(&case.input, c.verdict, options.show_input);
                            }
                            c
                        });
                    let final_end = match &result {
                        Ok(c) => options.ends_run(c) && !needs_rerun(c, limits),
                        Err(_) => true,
                    };
                    if final_end {
                        stop_after.fetch_min(i, Ordering::SeqCst);
                    }
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            for (i, result) in rx {
                match result {
                    Ok(c) => done[i] = Some(c),
                    Err(e) => {
                        error.get_or_insert(e);
                        stop_after.store(0, Ordering::SeqCst);
                    }
                }
                // Tell the observer in order, up to the first case that must wait for its re-run.
                while !ended && emitted < n {
                    match &done[emitted] {
                        Some(c) if !needs_rerun(c, &limits) => {
                            let c = done[emitted].take().expect("just matched");
                            ended = emit(observer, &mut out, c, &limits, options, cases);
                            emitted += 1;
                        }
                        _ => break,
                    }
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        // The rest, in order, re-running alone what must be: nothing else runs now.
        while !ended && emitted < n {
            let Some(mut c) = done[emitted].take() else {
                break;
            };
            if needs_rerun(&c, &limits) {
                let case = &cases[emitted];
                let before = Rerun {
                    verdict: c.verdict,
                    cpu: c.cpu,
                };
                c = self.run_case(problem, program, case, &limits)?;
                if c.verdict != Verdict::Ac {
                    c.saved_output = self.keep_output(problem, solution, case);
                    c.input = shown_input(&case.input, c.verdict, options.show_input);
                }
                c.rerun = Some(before);
            }
            ended = emit(observer, &mut out, c, &limits, options, cases);
            emitted += 1;
        }
        Ok(out)
    }
}

/// A case's time may decide its verdict: TLE, or within 20% of the limit.
pub fn needs_rerun(c: &CaseReport, limits: &Limits) -> bool {
    c.verdict == Verdict::Tle || c.cpu * 5 >= limits.time * 4
}

/// Hands a final case report to the observer; true when the run ends there.
fn emit(
    observer: &mut dyn Observer,
    out: &mut Vec<CaseReport>,
    c: CaseReport,
    limits: &Limits,
    options: &Options,
    cases: &[TestCase],
) -> bool {
    observer.case_finished(&c, limits);
    let ended = options.ends_run(&c);
    out.push(c);
    if !ended && out.len() < cases.len() {
        observer.case_started(&cases[out.len()], out.len(), cases.len());
    }
    ended
}
