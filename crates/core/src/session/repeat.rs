//! `--repeat N`: one case run several times, and which run's report stands for them all.

use super::slot::shown_input;
use super::{Judge, Options};
use crate::compile::Program;
use crate::error::Result;
use crate::model::{CaseReport, Timing};
use crate::stats;
use crate::verdict::{Limits, Verdict};
use crate::workspace::{Problem, Solution, TestCase};

impl Judge {
    /// Runs one case `repeat` times. The report is that of the first run that failed (a
    /// solution that fails once is not reliably accepted), otherwise of the first run, with
    /// the median CPU time of the runs and the largest memory. A run over the time limit
    /// ends the repeats: each one would cost the whole limit again.
    pub(super) fn run_repeated(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        program: &Program,
        (case, next): (&TestCase, Option<&TestCase>),
        limits: &Limits,
        options: &Options,
    ) -> Result<CaseReport> {
        let repeat = options.repeat;
        // Only a single run can have the next case sent behind it.
        let next = next.filter(|_| repeat <= 1);
        let mut report: Option<CaseReport> = None;
        let mut runs = Vec::new();
        let mut verdicts = Vec::new();
        let mut memory = 0;
        for _ in 0..repeat.max(1) {
            let (env, slots) = self.parts();
            let mut this = slots[0].run_case(env, problem, program, (case, next), limits)?;
            runs.push(this.cpu);
            verdicts.push(this.verdict);
            memory = memory.max(this.memory_bytes);
            let failed = this.verdict != Verdict::Ac;
            if failed && report.as_ref().is_none_or(|r| r.verdict == Verdict::Ac) {
                this.saved_output = self.keep_output(problem, solution, case);
                this.input = shown_input(&case.input, this.verdict, options.show_input);
                report = Some(this);
            } else if report.is_none() {
                report = Some(this);
            }
            if verdicts.last() == Some(&Verdict::Tle) {
                break;
            }
        }
        let mut report = report.expect("at least one run");
        if repeat > 1 {
            let verdict_changed = verdicts.iter().any(|v| *v != verdicts[0]);
            if verdict_changed {
                let seen: Vec<&str> = verdicts.iter().map(|v| v.code()).collect();
                let note = format!("verdict changed between repeats: {}", seen.join(", "));
                report.hint = Some(match report.hint.take() {
                    Some(h) => format!("{h}; {note}"),
                    None => note,
                });
            }
            report.cpu = stats::median(&runs);
            report.memory_bytes = memory;
            report.timing = Some(Timing {
                runs,
                verdict_changed,
            });
        }
        Ok(report)
    }
}
