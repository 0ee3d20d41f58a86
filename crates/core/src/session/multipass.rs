//! A multi-pass case: the solution runs again on the input its output validator writes
//! (`nextpass.in` in the feedback folder), pass after pass, each under the limits, until the
//! validator writes none, rejects, or the passes run out. Each pass is decided as a case of its
//! own (interactive or not), in the same order; the first that fails is the case's verdict.
//!
//! The validator's feedback folder lasts the whole case (the format guarantees it, so that a
//! validator can keep what it needs between passes); `nextpass.in` is taken out of it before
//! the next pass. Writing `nextpass.in` and rejecting, or asking for more passes than
//! `limits.validation_passes`, is the package's fault: IE, never the solution's.

use std::time::Duration;

use super::checker::FEEDBACK;
use super::interact::INTERACTOR_OUT;
use super::slot::{empty_folder, Slot};
use super::Env;
use crate::compile::Program;
use crate::error::{Error, Result};
use crate::model::CaseReport;
use crate::reason::NEXT_PASS;
use crate::verdict::{self, Decision, Limits, Pass, Reason, Verdict};
use crate::workspace::{Problem, TestCase};

/// Where each pass's input is kept, in the slot's folder.
const PASSES: &str = "passes";

impl Slot {
    /// Runs the passes of `case`, at most `max`, and decides the case.
    pub(super) fn run_passes(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        program: &Program,
        (case, max): (&TestCase, u32),
        limits: &Limits,
    ) -> Result<CaseReport> {
        let feedback = self.dir.join(if problem.interactor.is_some() {
            INTERACTOR_OUT
        } else {
            FEEDBACK
        });
        empty_folder(&feedback)?;
        let inputs = self.dir.join(PASSES);
        empty_folder(&inputs)?;
        self.keep_feedback = true;
        let decided = self.passes(env, problem, program, (case, max), limits, &feedback);
        self.keep_feedback = false;
        decided
    }

    fn passes(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        program: &Program,
        (case, max): (&TestCase, u32),
        limits: &Limits,
        feedback: &std::path::Path,
    ) -> Result<CaseReport> {
        let mut this = case.clone();
        // The slowest pass is the case's time: the limits hold each pass alone.
        let (mut cpu, mut wall, mut memory) = (Duration::ZERO, Duration::ZERO, 0);
        for pass in 1..=max {
            let mut report = self.run_pass(env, problem, program, (&this, None), limits)?;
            report.name = case.name.clone();
            cpu = cpu.max(report.cpu);
            wall = wall.max(report.wall);
            memory = memory.max(report.memory_bytes);
            (report.cpu, report.wall, report.memory_bytes) = (cpu, wall, memory);
            report.passes = Some(pass);
            let next = feedback.join(NEXT_PASS);
            // After the first, the input the validator gave the pass, shown beside a failure.
            let input = (pass > 1 && report.verdict != Verdict::Ac)
                .then(|| super::slot::shown_input(&this.input, Verdict::Wa, false))
                .flatten()
                .map(|shown| shown.trim_end().replace('\n', " / "));
            let decision = Decision::new(
                report.verdict,
                report.reason.take().unwrap_or(Reason::Accepted),
            );
            match verdict::decide_pass(decision, (pass, max), next.is_file(), input) {
                Pass::Next => {}
                Pass::Ends(Decision { verdict, reason }) => {
                    if verdict == Verdict::Ie {
                        // The package's fault: the diff of a rejection explains nothing.
                        report.diff = None;
                    }
                    report.verdict = verdict;
                    report.reason = (reason != Reason::Accepted).then_some(reason);
                    return Ok(report);
                }
            }
            let input = self.dir.join(PASSES).join(format!("pass{}.in", pass + 1));
            std::fs::rename(&next, &input).map_err(|e| Error::write(&input, e))?;
            this.input = input;
        }
        unreachable!("the last pass returns")
    }
}
