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
use crate::verdict::{Limits, Verdict};
use crate::workspace::{Problem, TestCase};

/// The validator's word for another pass.
const NEXT_PASS: &str = "nextpass.in";
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
            let asked = next.is_file();
            if report.verdict != Verdict::Ac {
                if asked && report.verdict == Verdict::Wa {
                    return Ok(internal(
                        report,
                        format!("pass {pass}: the output validator wrote {NEXT_PASS} and rejected the output; it may ask for another pass only when it accepts"),
                    ));
                }
                // Which pass, and (after the first) the input the validator gave it.
                let mut which = format!("in pass {pass}");
                if pass > 1 {
                    if let Some(shown) = super::slot::shown_input(&this.input, Verdict::Wa, false) {
                        which.push_str(&format!(
                            " (its input: {})",
                            shown.trim_end().replace('\n', " / ")
                        ));
                    }
                }
                report.detail = Some(match report.detail.take() {
                    Some(d) => format!("{which}: {d}"),
                    None => which,
                });
                return Ok(report);
            }
            if !asked {
                return Ok(report);
            }
            if pass == max {
                return Ok(internal(
                    report,
                    format!("the output validator asked for pass {} after pass {pass}, and limits.validation_passes allows {max}", pass + 1),
                ));
            }
            let input = self.dir.join(PASSES).join(format!("pass{}.in", pass + 1));
            std::fs::rename(&next, &input).map_err(|e| Error::write(&input, e))?;
            this.input = input;
        }
        unreachable!("the last pass returns")
    }
}

/// The case as the package's fault: IE, with why.
fn internal(mut report: CaseReport, why: String) -> CaseReport {
    report.verdict = Verdict::Ie;
    report.detail = Some(why);
    report.diff = None;
    report
}
