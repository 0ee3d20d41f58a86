//! Checking an output: the built-in comparison, or the problem's checker program run under its own limits.

use std::path::{Path, PathBuf};

use super::slot::{empty_folder, Role, Slot};
use super::{Env, Execution};
use crate::check::{self, CheckOutcome};
use crate::error::Result;
use crate::text;
use crate::verdict::{describe_stop, CheckerEnd, CheckerFailed, Limits, Measurement};
use crate::workspace::{Checker, CheckerProgram, CheckerProtocol, FileIo, Problem};
use judge_runner::{self as run, Outcome};

/// The folder of a Kattis output validator's feedback, in the slot's.
pub(super) const FEEDBACK: &str = "feedback";

/// Lines of diff shown for a wrong answer.
const DIFF_LINES: usize = 20;
/// The largest file a custom checker may write (its stdout included).
const CHECKER_FILE_SIZE: u64 = 16 << 20;

pub use super::checked::Checked;

impl Slot {
    /// Checks `output` against `answer` (for the case whose input is `input`) with the problem's
    /// checker: a built-in mode, or the custom checker program. Every comparison of an output
    /// with an answer (test cases, stress testing) goes through here.
    pub(super) fn check_output(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        (input, answer, output): (&Path, &Path, &Path),
        flags: &[String],
    ) -> Result<Checked> {
        if let Checker::Program(program) = &problem.checker {
            return self.run_checker(env, problem, program, (input, answer, output), flags);
        }
        let output = match std::fs::read(output) {
            Ok(o) => o,
            Err(e) => {
                return Ok(Checked::failed(CheckerFailed::Setup(format!(
                    "cannot read the program's output: {e}"
                ))))
            }
        };
        let answer_path = answer;
        let answer = match std::fs::read(answer) {
            Ok(a) => a,
            Err(e) => {
                return Ok(Checked::failed(CheckerFailed::Setup(format!(
                    "cannot read the answer {}: {e}",
                    env.workspace.show(answer)
                ))))
            }
        };
        let outcome = match &problem.checker {
            Checker::Builtin {
                mode: check::CheckerMode::Json,
                options,
            } => match check::json::compare(options, &answer, &output) {
                Ok(outcome) => outcome,
                Err(why) => {
                    return Ok(Checked::failed(CheckerFailed::Setup(format!(
                        "{}: {why}",
                        env.workspace.show(answer_path)
                    ))))
                }
            },
            Checker::Builtin { mode, options } => check::compare(*mode, options, &answer, &output),
            Checker::Kattis(base) => match base.with(flags) {
                Ok(flags) => check::kattis::compare(&flags, &answer, &output),
                Err(e) => {
                    return Ok(Checked::failed(CheckerFailed::Setup(format!(
                        "the test group's validator flags: {e}"
                    ))))
                }
            },
            Checker::Program(_) => unreachable!("checker programs are run above"),
        };
        let diff = if outcome.accepted {
            None
        } else {
            check::diff(&answer, &output, DIFF_LINES)
        };
        Ok(Checked {
            outcome,
            diff,
            internal_error: None,
            score: None,
            judge_message: None,
        })
    }

    /// Compiles the checker (or takes it from the cache) and runs it by its protocol: testlib's
    /// `checker INPUT OUTPUT ANSWER` (exit 0 accepts, 1 rejects, 2 is a presentation error, a
    /// rejection too, 7 gives points) or a Kattis output validator's `validator INPUT ANSWER FEEDBACK_DIR FLAGS
    /// < OUTPUT` (42 accepts, 43 rejects); anything else is the checker's failure.
    fn run_checker(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        program: &CheckerProgram,
        (input, answer, output): (&Path, &Path, &Path),
        case_flags: &[String],
    ) -> Result<Checked> {
        let shown = env.workspace.show(&program.source);
        let (compiled, built) =
            env.build_helper(self.executor.as_mut(), &program.source, problem)?;
        let Some(checker) = built else {
            return Ok(Checked::failed(CheckerFailed::NotCompiled {
                checker: shown,
                diagnostics: text::diagnostics_excerpt(
                    compiled.diagnostics.as_deref().unwrap_or(""),
                ),
            }));
        };
        let paths = match absolute_paths(
            env,
            [("input", input), ("output", output), ("answer", answer)],
        ) {
            Ok(paths) => paths,
            Err(failed) => return Ok(Checked::failed(failed)),
        };
        let given: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
        let [input, output, answer] = paths;
        let feedback = self.dir.join(FEEDBACK);
        let (args, stdin, accept, reject) = match &program.protocol {
            CheckerProtocol::Testlib => (vec![input, output, answer], None, 0, 1),
            CheckerProtocol::Kattis { flags } => {
                if !self.keep_feedback {
                    empty_folder(&feedback)?;
                }
                let mut args = vec![input, answer, format!("{}/", feedback.display())];
                args.extend(flags.iter().chain(case_flags).cloned());
                (args, Some(Path::new(&output).to_path_buf()), 42, 43)
            }
        };
        let limits = Limits::new(
            program.time,
            program.memory_bytes,
            problem.terms.validation_output.unwrap_or(CHECKER_FILE_SIZE),
        );
        let role = Role {
            prefix: "checker.",
            access: run::Access {
                read: given,
                write: match program.protocol {
                    CheckerProtocol::Kattis { .. } => vec![feedback.clone()],
                    CheckerProtocol::Testlib => Vec::new(),
                },
            },
            folder: None,
        };
        let execution = self.execute_as(
            &role,
            &checker,
            &args,
            stdin.as_deref(),
            &limits,
            &FileIo::default(),
        )?;
        let kattis = matches!(program.protocol, CheckerProtocol::Kattis { .. });
        let heard = Heard::read(shown, kattis, &feedback, &execution);
        let decided = heard.decide(&execution.response, &limits, (accept, reject));
        Ok(Checked {
            judge_message: heard.judge_message,
            ..decided
        })
    }
}

/// The paths of a checker's files, absolute (it runs in an empty folder of its own); `Err` is
/// the checker's failure to set up, for a path that is missing or not UTF-8.
fn absolute_paths(
    env: Env<'_>,
    files: [(&str, &Path); 3],
) -> std::result::Result<[String; 3], CheckerFailed> {
    let mut paths = Vec::new();
    for (what, path) in files {
        match path.canonicalize().map(|p| p.to_str().map(str::to_string)) {
            Ok(Some(p)) => paths.push(p),
            Ok(None) => {
                return Err(CheckerFailed::Setup(format!(
                    "the path of the {what} is not UTF-8: {}",
                    path.display()
                )))
            }
            Err(e) => {
                return Err(CheckerFailed::Setup(format!(
                    "cannot read the {what} {}: {e}",
                    env.workspace.show(path)
                )))
            }
        }
    }
    Ok(<[String; 3]>::try_from(paths).expect("three paths"))
}

/// What a checker program said besides its exit code.
struct Heard<'a> {
    /// The checker, as shown: a package's is not the workspace's one checker.rs.
    shown: String,
    kattis: bool,
    feedback: &'a Path,
    /// A Kattis validator's `judgemessage.txt`, whole.
    judge_message: Option<String>,
    /// Its reason: a Kattis validator explains itself in judgemessage.txt; testlib writes its
    /// message to stderr; a checker that prints it is heard too.
    message: Option<String>,
}

impl<'a> Heard<'a> {
    fn read(shown: String, kattis: bool, feedback: &'a Path, execution: &Execution) -> Self {
        let read = |p: &Path| std::fs::read(p).unwrap_or_default();
        let judge_message = kattis
            .then(|| std::fs::read(feedback.join("judgemessage.txt")).ok())
            .flatten()
            .map(|m| String::from_utf8_lossy(&m).into_owned());
        let message = kattis
            .then(|| text::message(&read(&feedback.join("judgemessage.txt"))))
            .flatten()
            .or_else(|| text::message(&read(&execution.stderr)))
            .or_else(|| text::message(&read(&execution.stdout)));
        Heard {
            shown,
            kattis,
            feedback,
            judge_message,
            message,
        }
    }

    /// The checker's failure, named with its message.
    fn failed(&self, end: CheckerEnd) -> Checked {
        Checked::failed(CheckerFailed::Ended {
            checker: self.shown.clone(),
            end,
            message: self.message.clone(),
        })
    }

    /// The check, by how the checker ended and its protocol's `accept` and `reject` codes.
    fn decide(
        &self,
        response: &run::Response,
        limits: &Limits,
        (accept, reject): (i32, i32),
    ) -> Checked {
        if let Some(why) = describe_stop(&Measurement::of(response), limits) {
            return self.failed(CheckerEnd::Stopped(why));
        }
        let Outcome::Exited(code) = response.outcome else {
            unreachable!("describe_stop names every signal and spawn failure")
        };
        let with_message = |what: String| match &self.message {
            Some(m) => format!("{what}: {m}"),
            None => what,
        };
        match code {
            c if c == accept => {
                let mut checked = Checked::judged(CheckOutcome::accepted());
                if self.kattis {
                    let score = std::fs::read(self.feedback.join("score.txt")).unwrap_or_default();
                    checked.score = check::feedback::score(&score);
                }
                checked
            }
            c if c == reject => {
                Checked::judged(CheckOutcome::rejected(self.message.clone().unwrap_or_else(
                    || "the checker rejected the output (it gave no reason)".into(),
                )))
            }
            2 if !self.kattis => Checked::judged(CheckOutcome::rejected(with_message(
                "presentation error".into(),
            ))),
            // testlib's `quitp`: the output earns the points its message starts with.
            7 if !self.kattis => match self.message.as_deref().and_then(check::feedback::points) {
                Some(points) => Checked {
                    score: Some(points),
                    ..Checked::judged(CheckOutcome::accepted())
                },
                None => self.failed(CheckerEnd::NoPoints),
            },
            code => self.failed(CheckerEnd::ExitCode(code)),
        }
    }
}
