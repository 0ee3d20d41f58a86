//! The cases of a run one after another, and the shorter cap after the first TLE: each case
//! that finishes within it gets its verdict, each that does not is [`NotTimed`].

use super::finish::runs;
use super::{ahead, decided, Judge, Run};
use crate::compile::Program;
use crate::error::Result;
use crate::model::{NotTimed, SolutionReport};
use crate::verdict::{Limits, Verdict};

impl Judge {
    /// Runs and checks the cases one after another. After the first TLE, with a shorter cap
    /// ([`super::AfterTle::ShorterCap`]), the cases that follow run under it: each that finishes
    /// within it gets its verdict, each that does not is [`NotTimed`].
    pub(super) fn judge_in_order(
        &mut self,
        run: &mut Run,
        program: &Program,
        report: &mut SolutionReport,
    ) -> Result<()> {
        let (problem, solution, cases, options) =
            (run.problem, run.solution, run.cases, run.options);
        let observer = &mut *run.observer;
        let limits = report.limits;
        let shorter = options.shorter_cap(problem, limits.time);
        // Set once a case went over the whole limit, when there is a shorter cap.
        let mut capped: Option<Limits> = None;
        let ahead = ahead::sends_ahead(problem, options);
        for (i, case) in cases.iter().enumerate() {
            // A package's group that breaks on a rejection runs no more of its cases.
            if let (Some(g), false) = (&problem.grading, options.every_case) {
                if !runs(g, &report.cases, &case.name) {
                    continue;
                }
            }
            observer.case_started(case, i, cases.len());
            let next = cases.get(i + 1).filter(|_| ahead);
            let case_limits = capped.unwrap_or(limits);
            let case_report = self.run_repeated(
                problem,
                solution,
                program,
                (case, next),
                &case_limits,
                options,
            )?;
            if let (Some(cap), Verdict::Tle) = (capped, case_report.verdict) {
                let not_timed = NotTimed {
                    name: case_report.name,
                    sample: case_report.sample,
                    cap: cap.time,
                    cpu: case_report.cpu,
                    wall: case_report.wall,
                };
                observer.case_not_timed(&not_timed, &limits);
                report.not_timed.push(not_timed);
                continue;
            }
            observer.case_finished(&case_report, &limits);
            let ended = options.ends_run(&case_report);
            if let (None, Some(cap), Verdict::Tle) = (capped, shorter, case_report.verdict) {
                capped = Some(limits.with_time(cap));
                // The next case went ahead under the whole limit, before this one's verdict
                // was known: its runner is replaced rather than waited for.
                self.drop_sent_ahead()?;
            }
            report.cases.push(case_report);
            if ended || decided::stops(problem, &solution.name, options, report) {
                break;
            }
        }
        Ok(())
    }

    /// Stops whatever slot 0's runner was sent ahead, by replacing the runner: a run sent
    /// under other limits must not be waited for.
    fn drop_sent_ahead(&mut self) -> Result<()> {
        if !self.slots[0].executor.pending().is_empty() {
            self.slots[0].executor = (self.executors)()?;
        }
        Ok(())
    }
}
