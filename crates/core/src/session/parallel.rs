//! `--jobs N`: cases on several slots at once, reported in order; a case whose time could decide its verdict is re-run alone.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;

use super::slot::{shown_input, Slot};
use super::{Env, Judge, Observer, Options, Run};
use crate::compile::Program;
use crate::error::Result;
use crate::model::{CaseReport, Rerun};
use crate::verdict::{Limits, Verdict};
use crate::workspace::{Problem, Solution, TestCase};

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
        let limits = *limits;
        let jobs = options.jobs.min(cases.len());
        self.ensure_slots(jobs)?;
        let (env, slots) = self.parts();
        let n = cases.len();
        let queue = Queue {
            cases,
            next: AtomicUsize::new(0),
            stop_after: AtomicUsize::new(usize::MAX),
            // Each slot claims the case after its own as it starts one, and sends it ahead.
            ahead: super::ahead::sends_ahead(problem, options),
        };
        let mut order = InOrder {
            done: vec![None; n],
            out: Vec::new(),
            emitted: 0,
            ended: false,
        };
        let mut error = None;
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<CaseReport>)>();
        run.observer.case_started(&cases[0], 0, n);
        std::thread::scope(|s| {
            for slot in slots.iter_mut().take(jobs) {
                let (tx, queue, limits) = (tx.clone(), &queue, &limits);
                let job = (problem, solution, options);
                s.spawn(move || queue.work(slot, env, (job, program, limits), tx));
            }
            drop(tx);
            for (i, result) in rx {
                match result {
                    Ok(c) => order.done[i] = Some(c),
                    Err(e) => {
                        error.get_or_insert(e);
                        queue.stop_after.store(0, Ordering::SeqCst);
                    }
                }
                order.tell_ready(run, &limits);
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        self.rerun_alone(run, program, &limits, order)
    }

    /// The rest, in order, re-running alone what must be: nothing else runs now.
    fn rerun_alone(
        &mut self,
        run: &mut Run,
        program: &Program,
        limits: &Limits,
        mut order: InOrder,
    ) -> Result<Vec<CaseReport>> {
        let (problem, solution, cases, options) =
            (run.problem, run.solution, run.cases, run.options);
        while !order.ended && order.emitted < cases.len() {
            let Some(mut c) = order.done[order.emitted].take() else {
                break;
            };
            if needs_rerun(&c, limits) {
                let case = &cases[order.emitted];
                let before = Rerun {
                    verdict: c.verdict,
                    cpu: c.cpu,
                };
                c = self.run_case(problem, program, case, limits)?;
                if c.verdict != Verdict::Ac {
                    c.saved_output = self.keep_output(problem, solution, case);
                    c.input = shown_input(&case.input, c.verdict, options.show_input);
                }
                c.rerun = Some(before);
            }
            order.ended = emit(
                &mut *run.observer,
                &mut order.out,
                c,
                limits,
                options,
                cases,
            );
            order.emitted += 1;
        }
        Ok(order.out)
    }
}

/// What every case of a run is judged as: the problem, the solution, the options.
type Job<'a> = (&'a Problem, &'a Solution, &'a Options);

/// The cases of a parallel run, claimed by the slots one by one.
struct Queue<'a> {
    cases: &'a [TestCase],
    next: AtomicUsize,
    /// The first case whose failure ends the run (--stop-on-fail): no case after it starts.
    stop_after: AtomicUsize,
    ahead: bool,
}

impl Queue<'_> {
    /// One slot's work: the cases it claims, each run and sent back with its index, until
    /// none is left or the run has ended.
    fn work(
        &self,
        slot: &mut Slot,
        env: Env,
        ((problem, solution, options), program, limits): (Job, &Program, &Limits),
        tx: Sender<(usize, Result<CaseReport>)>,
    ) {
        let cases = self.cases;
        let mut claimed = None;
        loop {
            let i = claimed
                .take()
                .unwrap_or_else(|| self.next.fetch_add(1, Ordering::SeqCst));
            if i >= cases.len() || i > self.stop_after.load(Ordering::SeqCst) {
                break;
            }
            if self.ahead {
                claimed = Some(self.next.fetch_add(1, Ordering::SeqCst));
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
                self.stop_after.fetch_min(i, Ordering::SeqCst);
            }
            if tx.send((i, result)).is_err() {
                break;
            }
        }
    }
}

/// The reports of a parallel run as they come, told to the observer in case order.
struct InOrder {
    done: Vec<Option<CaseReport>>,
    out: Vec<CaseReport>,
    emitted: usize,
    ended: bool,
}

impl InOrder {
    /// Tells the observer of the cases done, in order, up to the first that must wait for
    /// its re-run.
    fn tell_ready(&mut self, run: &mut Run, limits: &Limits) {
        while !self.ended && self.emitted < self.done.len() {
            match &self.done[self.emitted] {
                Some(c) if !needs_rerun(c, limits) => {
                    let c = self.done[self.emitted].take().expect("just matched");
                    let (options, cases) = (run.options, run.cases);
                    self.ended = emit(&mut *run.observer, &mut self.out, c, limits, options, cases);
                    self.emitted += 1;
                }
                _ => break,
            }
        }
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
