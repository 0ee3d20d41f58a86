//! Checking an output: the built-in comparison, or the problem's checker program run under its own limits.

use std::path::Path;

use super::slot::Slot;
use super::Env;
use crate::check::{self, CheckOutcome};
use crate::compile::{self, BuildSettings, Source};
use crate::error::Result;
use crate::run::Outcome;
use crate::text;
use crate::verdict::{describe_stop, Limits, Measurement};
use crate::workspace::{Checker, CheckerProgram, FileIo, Problem};

/// Lines of diff shown for a wrong answer.
const DIFF_LINES: usize = 20;
/// The largest file a custom checker may write (its stdout included).
const CHECKER_FILE_SIZE: u64 = 16 << 20;

/// The checker's finding on one output.
#[derive(Debug, Clone)]
pub struct Checked {
    pub outcome: CheckOutcome,
    /// Answer against output, from the first difference, when rejected.
    pub diff: Option<String>,
    /// The output could not be checked: the judge's or the problem's fault (IE).
    pub internal_error: Option<String>,
}

impl Checked {
    /// The checker could not decide: IE, never the solution's fault.
    pub fn failed(why: String) -> Checked {
        Checked {
            outcome: CheckOutcome::unexplained(),
            diff: None,
            internal_error: Some(why),
        }
    }

    fn judged(outcome: CheckOutcome) -> Checked {
        Checked {
            outcome,
            diff: None,
            internal_error: None,
        }
    }
}

impl Slot {
    /// Checks `output` against `answer` (for the case whose input is `input`) with the problem's
    /// checker: a built-in mode, or the custom checker program. Every comparison of an output
    /// with an answer (test cases, stress testing) goes through here.
    pub(super) fn check_output(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        input: &Path,
        answer: &Path,
        output: &Path,
    ) -> Result<Checked> {
        let (mode, options) = match &problem.checker {
            Checker::Program(program) => {
                return self.run_checker(env, problem, program, input, answer, output)
            }
            Checker::Builtin { mode, options } => (*mode, options),
        };
        let output = match std::fs::read(output) {
            Ok(o) => o,
            Err(e) => {
                return Ok(Checked::failed(format!(
                    "cannot read the program's output: {e}"
                )))
            }
        };
        let answer = match std::fs::read(answer) {
            Ok(a) => a,
            Err(e) => {
                return Ok(Checked::failed(format!(
                    "cannot read the answer {}: {e}",
                    env.workspace.show(answer)
                )))
            }
        };
        let outcome = check::compare(mode, options, &answer, &output);
        let diff = if outcome.accepted {
            None
        } else {
            check::diff(&answer, &output, DIFF_LINES)
        };
        Ok(Checked {
            outcome,
            diff,
            internal_error: None,
        })
    }

    /// Compiles the checker (or takes it from the cache) and runs it as
    /// `checker INPUT OUTPUT ANSWER`: exit 0 accepts, 1 rejects, 2 is a presentation error
    /// (a rejection too); anything else is the checker's failure.
    fn run_checker(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        program: &CheckerProgram,
        input: &Path,
        answer: &Path,
        output: &Path,
    ) -> Result<Checked> {
        let shown = env.workspace.show(&program.source);
        let language = env.workspace.language_of(&program.source)?;
        let settings = BuildSettings {
            rust: env.workspace.config.rust.with(&problem.rust),
            checks: false,
            time_limit: compile::DEFAULT_COMPILE_TIME,
        };
        let source = Source::with_headers(&program.source);
        let (compiled, built) = env.build(self.executor.as_mut(), &source, &language, &settings)?;
        let Some(checker) = built else {
            return Ok(Checked::failed(format!(
                "the checker {shown} does not compile:\n{}",
                text::diagnostics_excerpt(compiled.diagnostics.as_deref().unwrap_or(""))
            )));
        };
        // The checker runs in an empty folder of its own: it gets absolute paths.
        let mut args = Vec::new();
        for (what, path) in [("input", input), ("output", output), ("answer", answer)] {
            match path.canonicalize().map(|p| p.to_str().map(str::to_string)) {
                Ok(Some(p)) => args.push(p),
                Ok(None) => {
                    return Ok(Checked::failed(format!(
                        "the path of the {what} is not UTF-8: {}",
                        path.display()
                    )))
                }
                Err(e) => {
                    return Ok(Checked::failed(format!(
                        "cannot read the {what} {}: {e}",
                        env.workspace.show(path)
                    )))
                }
            }
        }
        let limits = Limits::new(program.time, program.memory_bytes, CHECKER_FILE_SIZE);
        let execution = self.execute_as(
            "checker.",
            &checker,
            &args,
            None,
            &limits,
            &FileIo::default(),
        )?;
        let response = execution.response;
        // testlib writes its message to stderr; a checker that prints it is heard too.
        let stderr = std::fs::read(&execution.stderr).unwrap_or_default();
        let message = text::message(&stderr)
            .or_else(|| text::message(&std::fs::read(&execution.stdout).unwrap_or_default()));
        let with_message = |what: String| match &message {
            Some(m) => format!("{what}: {m}"),
            None => what,
        };
        let failed = |why: String| Checked::failed(with_message(format!("checker failed: {why}")));
        if let Some(why) = describe_stop(&Measurement::of(&response), &limits) {
            return Ok(failed(why));
        }
        Ok(match response.outcome {
            Outcome::Exited(0) => Checked::judged(CheckOutcome::accepted()),
            Outcome::Exited(1) => {
                Checked::judged(CheckOutcome::rejected(message.unwrap_or_else(|| {
                    "the checker rejected the output (it gave no reason)".into()
                })))
            }
            Outcome::Exited(2) => Checked::judged(CheckOutcome::rejected(with_message(
                "presentation error".into(),
            ))),
            Outcome::Exited(code) => failed(format!("exit code {code}")),
            Outcome::Signaled(_) | Outcome::SpawnFailed(_) => {
                unreachable!("describe_stop names every signal and spawn failure")
            }
        })
    }
}
