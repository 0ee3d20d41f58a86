//! An interactive case: the solution and the problem's interactor run together (one runner request), the interactor's word by its protocol, then the verdict.

use std::path::{Path, PathBuf};

use super::checker::Checked;
use super::slot::{empty_folder, Outcome, Role, Slot};
use super::{Env, Execution};
use crate::check::CheckOutcome;
use crate::compile::Program;
use crate::error::{Error, Result};
use crate::model::Interaction;
use crate::text;
use crate::verdict::{
    self, describe_stop, Decision, Evidence, InteractorSaid, Limits, Measurement, Reason, Verdict,
};
use crate::workspace::{Interactor, InteractorProgram, InteractorProtocol, Problem, TestCase};
use judge_runner::{self as run, Partner, RunError};

/// The largest file an interactor may write (its output for the checker, its feedback).
const INTERACTOR_FILE_SIZE: u64 = 16 << 20;
/// Lines of the transcript shown under a failed case: the end, where it failed.
const TRANSCRIPT_LINES: usize = 12;
/// How much of the transcript's end is read to find them.
const TRANSCRIPT_TAIL_BYTES: u64 = 64 << 10;

/// The files of an interactive run in the slot's folder.
const TRANSCRIPT: &str = "transcript";
const INTERACTOR_STDERR: &str = "interactor.stderr";
const INTERACTOR_BOX: &str = "interactor-box";
pub(super) const INTERACTOR_OUT: &str = "interactor-out";

/// What an interactive run decided, before the report.
pub(super) struct Decided {
    pub(super) outcome: Outcome,
    pub(super) execution: Execution,
    /// For a failed case only.
    pub(super) interaction: Option<Interaction>,
    /// What the interactor wrote in `judgemessage.txt`.
    pub(super) judge_message: Option<String>,
}

impl Slot {
    /// Runs the solution `program` against the problem's interactor on `case` and decides.
    pub(super) fn interact(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        interactor: &Interactor,
        (program, case, limits): (&Program, &TestCase, &Limits),
    ) -> Result<Decided> {
        let built = self.interactor_program(env, problem, &interactor.program)?;
        let solution_request = super::slot::for_case(
            self.request(&Role::default(), program, &[], None, limits, &problem.io),
            problem,
            case,
        );
        let (bin, args) = match built {
            Ok(built) => built,
            Err(why) => return Ok(not_started(solution_request, why)),
        };
        let files = self.interactor_files(case)?;
        let ilimits = interactor_limits(interactor, problem, limits);
        let transcript = self.dir.join(TRANSCRIPT);
        let partner = Partner {
            request: self.partner_request(interactor, (&bin, args), &files, &ilimits, case),
            transcript: env.transcript.then(|| transcript.clone()),
            accept_code: interactor.protocol.accept_code(),
        };
        let (execution, partner) = self.run_pair(solution_request, partner)?;
        let read = |p: &Path| std::fs::read(p).unwrap_or_default();
        let partner_stderr = read(&self.dir.join(INTERACTOR_STDERR));
        let said = interactor_said(
            &interactor.protocol,
            &partner.response,
            &ilimits,
            (
                &read(&files.out_dir.join("judgemessage.txt")),
                &partner_stderr,
            ),
        );
        let checker = problem.checker.program().is_some();
        let full_disk = super::scratch::full(&self.dir, execution.response.free_bytes_at_end);
        let evidence = Evidence {
            run: &execution.measurement,
            limits,
            full_disk: full_disk.as_ref(),
            harness: None,
        };
        let (decision, checked) =
            verdict::decide_interactive(evidence, (said, partner.exited_first), || {
                if !checker {
                    return Ok(Checked::judged(CheckOutcome::accepted()));
                }
                let checked = (
                    case.input.as_path(),
                    case.answer.as_path(),
                    files.output.as_path(),
                );
                self.check_output(env, problem, checked, &case.validator_flags)
            })?;
        let interaction = (decision.verdict != Verdict::Ac).then(|| {
            let transcript = env.transcript.then_some(transcript.as_path());
            failed_interaction(
                transcript,
                partner.transcript_cut,
                &partner_stderr,
                &decision,
            )
        });
        // The checker's hint only: an interactive case's output is not diffed, and a Kattis
        // interactor's own `judgemessage.txt` is read below.
        let hint = checked.and_then(|c| c.outcome.hint);
        Ok(Decided {
            outcome: Outcome {
                hint,
                ..Outcome::decided(decision)
            },
            execution,
            interaction,
            judge_message: std::fs::read(files.out_dir.join("judgemessage.txt"))
                .ok()
                .map(|m| String::from_utf8_lossy(&m).into_owned()),
        })
    }
}

impl Slot {
    /// The interactor's request: its program with the case's files as its protocol gives
    /// them, its role and its own limits.
    fn partner_request(
        &self,
        interactor: &Interactor,
        (bin, mut args): (&Program, Vec<String>),
        files: &InteractorFiles,
        ilimits: &Limits,
        case: &TestCase,
    ) -> run::Request {
        args.extend(interactor_args(
            &interactor.protocol,
            (&files.input, &files.answer),
            (&files.out_dir, &files.output),
            case,
        ));
        self.request(
            &files.role(),
            bin,
            &args,
            None,
            ilimits,
            &Default::default(),
        )
    }

    /// Runs the solution's request with its partner, the interactor, after the last
    /// transcript is removed: the run, and what became of the interactor.
    fn run_pair(
        &mut self,
        mut request: run::Request,
        partner: Partner,
    ) -> Result<(Execution, Box<run::PartnerResponse>)> {
        let _ = std::fs::remove_file(self.dir.join(TRANSCRIPT));
        request.partner = Some(Box::new(partner));
        let mut response = self.executor.run(&request)?;
        let Some(partner) = response.partner.take() else {
            return Err(
                RunError::Broken("the runner said nothing of the interactor".into()).into(),
            );
        };
        Ok((Execution::of(request, response), partner))
    }

    /// The case's files as the interactor is given them (absolute), and its own folders made
    /// ready: its box, and its output folder emptied unless feedback is kept.
    fn interactor_files(&self, case: &TestCase) -> Result<InteractorFiles> {
        let paths = |p: &Path| -> Result<String> {
            let p = p.canonicalize().map_err(|e| Error::read(p, e))?;
            Ok(p.display().to_string())
        };
        let (input, answer) = (paths(&case.input)?, paths(&case.answer)?);
        let out_dir = self.dir.join(INTERACTOR_OUT);
        let interactor_box = self.dir.join(INTERACTOR_BOX);
        std::fs::create_dir_all(&interactor_box).map_err(|e| Error::create(&interactor_box, e))?;
        if !self.keep_feedback {
            empty_folder(&out_dir)?;
        }
        let output = out_dir.join("output");
        Ok(InteractorFiles {
            input,
            answer,
            out_dir,
            output,
        })
    }
}

/// The files of one interactive run that the interactor reads and writes.
struct InteractorFiles {
    input: String,
    answer: String,
    /// Its feedback folder (Kattis), where testlib's output file is too.
    out_dir: PathBuf,
    output: PathBuf,
}

impl InteractorFiles {
    /// The interactor's role: it reads the case, writes its folder, runs in its own box.
    fn role(&self) -> Role {
        Role {
            prefix: "interactor.",
            access: run::Access {
                read: vec![PathBuf::from(&self.input), PathBuf::from(&self.answer)],
                write: vec![self.out_dir.clone()],
            },
            folder: Some(INTERACTOR_BOX),
        }
    }
}

/// A case whose interactor could not be started (`why`): an internal error, never the
/// solution's.
fn not_started(solution_request: run::Request, why: String) -> Decided {
    let response = run::Response::not_started(why.clone());
    let decision = Decision::new(Verdict::Ie, Reason::Interactor(why));
    Decided {
        outcome: Outcome::decided(decision),
        execution: Execution::of(solution_request, response),
        interaction: None,
        judge_message: None,
    }
}

/// The interactor's arguments after its program's own, by its protocol: the case's input and
/// answer, and where it writes (Kattis: the feedback folder; testlib: the output file).
fn interactor_args(
    protocol: &InteractorProtocol,
    (input, answer): (&str, &str),
    (out_dir, output): (&Path, &Path),
    case: &TestCase,
) -> Vec<String> {
    match protocol {
        InteractorProtocol::Kattis { flags } => {
            let mut args = vec![
                input.to_string(),
                answer.to_string(),
                format!("{}/", out_dir.display()),
            ];
            args.extend(flags.iter().chain(&case.validator_flags).cloned());
            args
        }
        InteractorProtocol::Testlib => {
            vec![
                input.to_string(),
                output.display().to_string(),
                answer.to_string(),
            ]
        }
    }
}

/// The interactor's own limits, generous, and never a wall-clock cap below the solution's: it
/// must outlive the solution to say what became of it.
fn interactor_limits(interactor: &Interactor, problem: &Problem, limits: &Limits) -> Limits {
    let mut ilimits = Limits::new(
        interactor.time,
        interactor.memory_bytes,
        problem
            .terms
            .validation_output
            .unwrap_or(INTERACTOR_FILE_SIZE),
    );
    ilimits.wall = ilimits
        .wall
        .max(limits.wall + std::time::Duration::from_secs(1));
    ilimits
}

/// What a failed case shows of its conversation: the transcript's end (when one was recorded
/// at `transcript`) and the interactor's stderr, unless it is all the message already shown.
fn failed_interaction(
    transcript: Option<&Path>,
    cut: bool,
    partner_stderr: &[u8],
    decision: &Decision,
) -> Interaction {
    let (mut transcript, before) = match transcript {
        Some(path) => transcript_end(path),
        None => (None, 0),
    };
    if cut {
        if let Some(t) = transcript.as_mut() {
            t.push_str("\n(cut here: the rest of the conversation was not recorded, past the transcript's size cap)");
        }
    }
    Interaction {
        transcript,
        transcript_lines_before: before,
        interactor_stderr: text::stderr_tail(partner_stderr).filter(|_| {
            text::message(partner_stderr).is_none_or(|m| !decision.reason.to_string().contains(&m))
        }),
    }
}

impl Slot {
    /// The program that plays the judge's side, and its first arguments: the problem's
    /// interactor, built (or from the cache), or the judge itself replaying a sample. `Err` is
    /// why it cannot run (it does not compile): an internal error, never the solution's.
    fn interactor_program(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        program: &InteractorProgram,
    ) -> Result<std::result::Result<(Program, Vec<String>), String>> {
        let source = match program {
            InteractorProgram::Source(source) => source,
            InteractorProgram::Replay => {
                let judge =
                    std::env::current_exe().map_err(|e| Error::read(Path::new("judge"), e))?;
                return Ok(Ok((
                    Program::native(&judge),
                    vec![crate::replay::REPLAY_ARG.to_string()],
                )));
            }
        };
        let (compiled, built) = env.build_helper(self.executor.as_mut(), source, problem)?;
        Ok(built.map(|bin| (bin, Vec::new())).ok_or_else(|| {
            format!(
                "{} does not compile:\n{}",
                env.workspace.show(source),
                text::diagnostics_excerpt(compiled.diagnostics.as_deref().unwrap_or(""))
            )
        }))
    }

    /// Keeps a failed interactive case's transcript (`NAME.transcript`, what is returned) and
    /// both programs' stderr (`NAME.err`, `NAME.interactor.err`) in `dir`.
    pub(super) fn keep_interaction(&self, dir: &Path, case: &str) -> Option<PathBuf> {
        for (from, to) in [("stderr", "err"), (INTERACTOR_STDERR, "interactor.err")] {
            let to = dir.join(format!("{case}.{to}"));
            if crate::atomic::copy(&self.dir.join(from), &to).is_err() {
                // Nothing was written there: the runner made no file.
                let _ = crate::atomic::replace(&to, b"");
            }
        }
        let kept = dir.join(format!("{case}.transcript"));
        let _ = std::fs::remove_file(&kept);
        crate::atomic::copy(&self.dir.join(TRANSCRIPT), &kept).ok()?;
        Some(kept)
    }
}

/// What the interactor said, by its protocol: its exit code, and its message (a Kattis
/// interactor's `judgemessage.txt`, else its stderr).
fn interactor_said(
    protocol: &InteractorProtocol,
    response: &run::Response,
    limits: &Limits,
    (judgemessage, stderr): (&[u8], &[u8]),
) -> InteractorSaid {
    let message = text::message(judgemessage).or_else(|| text::message(stderr));
    let with_message = |what: String| match &message {
        Some(m) => format!("{what}: {m}"),
        None => what,
    };
    if let Some(why) = describe_stop(&Measurement::of(response), limits) {
        return InteractorSaid::Failed(with_message(why));
    }
    let run::Outcome::Exited(code) = response.outcome else {
        unreachable!("describe_stop names every signal and spawn failure")
    };
    let kattis = matches!(protocol, InteractorProtocol::Kattis { .. });
    match code {
        c if c == protocol.accept_code() => InteractorSaid::Accepted,
        43 if kattis => InteractorSaid::Rejected(message),
        1 if !kattis => InteractorSaid::Rejected(message),
        2 if !kattis => InteractorSaid::Rejected(Some(with_message("presentation error".into()))),
        code => InteractorSaid::Failed(with_message(format!("exit code {code}"))),
    }
}

/// The last lines of a transcript, made safe to show, and how many lines came before them
/// (counted in the part read; more when the transcript is longer).
fn transcript_end(path: &Path) -> (Option<String>, usize) {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return (None, 0);
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let from = len.saturating_sub(TRANSCRIPT_TAIL_BYTES);
    let mut data = Vec::new();
    if file.seek(SeekFrom::Start(from)).is_err() || file.read_to_end(&mut data).is_err() {
        return (None, 0);
    }
    let text = String::from_utf8_lossy(&data);
    let mut lines: Vec<&str> = text.lines().collect();
    if from > 0 && !lines.is_empty() {
        // The first line read is likely a part of one.
        lines.remove(0);
    }
    if lines.is_empty() {
        return (Some("(nothing was said)".into()), 0);
    }
    let start = lines.len().saturating_sub(TRANSCRIPT_LINES);
    let shown: Vec<String> = lines[start..]
        .iter()
        .map(|l| text::printable(l.as_bytes(), 200))
        .collect();
    (Some(shown.join("\n")), start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interactor_is_given_the_case_by_its_protocol() {
        let case = TestCase {
            validator_flags: vec!["case_sensitive".into()],
            ..TestCase::default()
        };
        let (out_dir, output) = (Path::new("/box/out"), Path::new("/box/out/output"));
        let kattis = InteractorProtocol::Kattis {
            flags: vec!["float_tolerance".into(), "1e-6".into()],
        };
        assert_eq!(
            interactor_args(&kattis, ("/c/1.in", "/c/1.out"), (out_dir, output), &case),
            [
                "/c/1.in",
                "/c/1.out",
                "/box/out/",
                "float_tolerance",
                "1e-6",
                "case_sensitive"
            ]
        );
        assert_eq!(
            interactor_args(
                &InteractorProtocol::Testlib,
                ("/c/1.in", "/c/1.out"),
                (out_dir, output),
                &case
            ),
            ["/c/1.in", "/box/out/output", "/c/1.out"]
        );
    }
}
