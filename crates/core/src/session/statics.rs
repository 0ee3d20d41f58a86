//! A package's static validation case: its static validator judges the submission's files,
//! and the submission does not run.
//!
//! The format's invocation: `static_validator LANGUAGE ENTRY_POINT FEEDBACK_DIR [ARGS]`, in a
//! working folder holding the submission's files (its build folder here, read only); the
//! language is the code of the format's table (`cpp`, `python3`), the entry point the file
//! that starts the program (Java: its class). It reports as an output validator does: exit
//! 42 accepts (with its `score.txt`), 43 rejects (with its `judgemessage.txt`), anything else
//! is its failure, never the submission's. The case takes no time of the submission's.

use std::path::Path;

use super::slot::{empty_folder, Role, Slot};
use super::Env;
use crate::compile::Program;
use crate::error::Result;
use crate::model::CaseReport;
use crate::text;
use crate::verdict::{describe_stop, Limits, Measurement, Reason, Verdict};
use crate::workspace::{FileIo, Problem, TestCase, DEFAULT_CHECKER_MEMORY, DEFAULT_CHECKER_TIME};
use judge_runner::{self as run, Outcome};

/// The largest file the static validator may write.
const FILE_SIZE: u64 = 16 << 20;

impl Slot {
    /// Judges the submission `program` on the static validation `case` (with `args`).
    pub(super) fn static_case(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        program: &Program,
        case: &TestCase,
        args: &[String],
    ) -> Result<CaseReport> {
        let decided = |verdict: Verdict, reason: Option<Reason>, score: Option<f64>| CaseReport {
            score,
            ..CaseReport::unrun(&case.name, case.sample, verdict, reason)
        };
        let Some(source) = &problem.package.static_validator else {
            let reason = Reason::NoStaticValidator;
            return Ok(decided(Verdict::Ie, Some(reason), None));
        };
        let shown = env.workspace.show(source);
        let (compiled, built) = env.build_helper(self.executor.as_mut(), source, problem)?;
        let Some(validator) = built else {
            let diagnostics = compiled.diagnostics.as_deref().unwrap_or("");
            let why = format!(
                "the static validator {shown} does not compile:\n{}",
                text::diagnostics_excerpt(diagnostics)
            );
            return Ok(decided(
                Verdict::Ie,
                Some(Reason::StaticValidator(why)),
                None,
            ));
        };
        let feedback = self.dir.join("feedback");
        empty_folder(&feedback)?;
        let (language, entry) = program.entry_point();
        let mut argv = vec![language, entry, format!("{}/", feedback.display())];
        argv.extend(args.iter().cloned());
        let limits = Limits::new(DEFAULT_CHECKER_TIME, DEFAULT_CHECKER_MEMORY, FILE_SIZE);
        let role = Role {
            prefix: "static.",
            access: run::Access {
                read: vec![program.dir.clone()],
                write: vec![feedback.clone()],
            },
            folder: None,
        };
        let mut request = self.request(&role, &validator, &argv, None, &limits, &FileIo::default());
        // Among the submission's files, as the format says, which it may read, not change.
        request.cwd = program.dir.clone();
        request.clean_cwd = false;
        let response = self.executor.run(&request)?;
        let read = |p: &Path| std::fs::read(p).unwrap_or_default();
        let message = text::message(&read(&feedback.join("judgemessage.txt")))
            .or_else(|| text::message(&read(&request.stderr)));
        let failed = |why: String| {
            let why = match &message {
                Some(m) => format!("the static validator failed: {why}: {m} ({shown})"),
                None => format!("the static validator failed: {why} ({shown})"),
            };
            decided(Verdict::Ie, Some(Reason::StaticValidator(why)), None)
        };
        if let Some(why) = describe_stop(&Measurement::of(&response), &limits) {
            return Ok(failed(why));
        }
        let judge_message = text::message(&read(&feedback.join("judgemessage.txt")));
        let mut report = match response.outcome {
            Outcome::Exited(42) => {
                let score = String::from_utf8_lossy(&read(&feedback.join("score.txt")))
                    .trim()
                    .parse()
                    .ok();
                decided(Verdict::Ac, None, score)
            }
            Outcome::Exited(43) => {
                decided(Verdict::Wa, Some(Reason::StaticRejected(message)), None)
            }
            Outcome::Exited(code) => return Ok(failed(format!("exit code {code}"))),
            _ => unreachable!("describe_stop names every signal and spawn failure"),
        };
        // What it wrote in `judgemessage.txt`, as an output validator's (a package's
        // expectations may ask for a message).
        report.judge_message = judge_message;
        Ok(report)
    }
}
