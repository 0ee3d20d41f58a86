//! One slot of a judge: an executor and the folder of its programs' files. Running a solution on a case, checking it, deciding.

use std::path::{Path, PathBuf};

use super::checked::Checked;
use super::explain;

use super::{Env, Execution};
use crate::check::CheckOutcome;
use crate::compile::Program;
use crate::error::{Error, Result};
use crate::function;
use crate::lang::Kind;
use crate::model::CaseReport;
use crate::text;
use crate::verdict::{self, Decision, Evidence, HarnessSaid, Limits, MemoryRule, Reason, Verdict};
use crate::workspace::{FileIo, Problem, Solution, TestCase};
use judge_runner::{self as run, Executor, NamedFile};

/// The note under a wrong answer that printed nothing at all.
const NOTHING_PRINTED: &str = "the program printed nothing: it must read the input from stdin and print the answer to stdout (a LeetCode-style function alone is never called)";

/// Where a program's named output file is kept after its run, in the slot's folder.
pub(super) const OUTPUT_FILE: &str = "output-file";

/// How much of stderr the runner keeps per case.
const STDERR_KEEP: u64 = 64 << 10;
/// Address space a program may reserve beyond its memory limit (RLIMIT_AS backstop).
pub const ADDRESS_SPACE_SLACK: u64 = 16 << 30;

/// An executor and the folder of its programs' files (`box/`, `stdout`, `stderr`): programs on
/// different slots run at once.
pub(super) struct Slot {
    pub(super) executor: Box<dyn Executor>,
    pub(super) dir: PathBuf,
    /// The files of the case last decided, for [`Slot::keep_output`]: a case sent ahead
    /// ([`super::ahead`]) writes to others.
    pub(super) decided: Option<CaseFiles>,
    /// The last case's output was small: the next may be sent ahead.
    pub(super) small_output: bool,
    /// A multi-pass case is running: the validator's feedback folder is kept from one pass
    /// to the next (the format guarantees it), emptied only when the case starts.
    pub(super) keep_feedback: bool,
}

impl Slot {
    pub(super) fn new(executor: Box<dyn Executor>, dir: PathBuf) -> Slot {
        Slot {
            executor,
            dir,
            decided: None,
            small_output: false,
            keep_feedback: false,
        }
    }

    /// Runs the binary on one case and decides its verdict; `next`, the case that follows,
    /// is sent ahead to run while this one is checked ([`super::ahead`]).
    pub(super) fn run_case(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        program: &Program,
        (case, next): (&TestCase, Option<&TestCase>),
        limits: &Limits,
    ) -> Result<CaseReport> {
        if let Some(args) = &case.static_validation {
            return self.static_case(env, problem, program, case, args);
        }
        if let Some(passes) = problem.terms.passes {
            return self.run_passes(env, problem, program, (case, passes), limits);
        }
        self.run_pass(env, problem, program, (case, next), limits)
    }

    /// One run of the solution on `case` (of a multi-pass case, one pass), decided.
    pub(super) fn run_pass(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        program: &Program,
        (case, next): (&TestCase, Option<&TestCase>),
        limits: &Limits,
    ) -> Result<CaseReport> {
        if let Some(interactor) = &problem.interactor {
            let decided = self.interact(env, problem, interactor, (program, case, limits))?;
            let mut report =
                self.report(problem, program, case, &decided.execution, decided.outcome);
            report.output_bytes = 0;
            report.interaction = decided.interaction.map(Box::new);
            report.judge_message = decided.judge_message;
            return Ok(report);
        }
        let execution = self.execute_case(program, case, limits, problem, next)?;
        let missing = problem
            .io
            .output
            .as_ref()
            .filter(|_| !execution.output.is_file());
        let full_disk = super::scratch::full(&self.dir, execution.response.free_bytes_at_end);
        let harness = harness_said(problem, program, &execution);
        let evidence = Evidence {
            run: &execution.measurement,
            limits,
            full_disk: full_disk.as_ref(),
            harness: harness.as_ref(),
        };
        let (decision, checked) = verdict::decide(evidence, || {
            if let Some(name) = missing {
                return Ok(Checked::judged(CheckOutcome::rejected(format!(
                    "the program wrote no {name}: this problem's output goes to the file {name} in its working folder, not to stdout"
                ))));
            }
            let files = (
                case.input.as_path(),
                case.answer.as_path(),
                execution.output.as_path(),
            );
            self.check_output(env, problem, files, &case.validator_flags)
        })?;
        let (outcome, judge_message) = Outcome::checked(decision, checked);
        let mut report = self.report(problem, program, case, &execution, outcome);
        report.judge_message = judge_message;
        Ok(report)
    }

    /// The report of a case from its run and what was decided.
    fn report(
        &self,
        problem: &Problem,
        program: &Program,
        case: &TestCase,
        execution: &Execution,
        outcome: Outcome,
    ) -> CaseReport {
        let Outcome {
            decision: Decision { verdict, reason },
            hint,
            diff,
            score,
        } = outcome;
        let measurement = &execution.measurement;
        // Most programs write nothing there, and then the runner makes no file to read.
        let stderr = if execution.response.stderr_bytes > 0 {
            std::fs::read(&execution.stderr).unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut hint = hint;
        if verdict == Verdict::Re && stack_overflow(&reason, &stderr) {
            hint = Some("likely a stack overflow".into());
        } else if verdict == Verdict::Re && program.language.kind == Kind::Rust {
            hint = explain::rust_panic(&stderr, &program.source).or(hint);
        }
        let output_bytes = match &problem.io.output {
            Some(_) => std::fs::metadata(&execution.output).map_or(0, |m| m.len()),
            None => execution.response.stdout_bytes,
        };
        if verdict == Verdict::Wa
            && output_bytes == 0
            && problem.io.output.is_none()
            && problem.interactor.is_none()
        {
            hint = Some(NOTHING_PRINTED.into());
        }
        CaseReport {
            name: case.name.clone(),
            sample: case.sample,
            verdict,
            reason: (reason != Reason::Accepted).then_some(reason),
            hint,
            cpu: measurement.cpu,
            wall: measurement.wall,
            memory_bytes: measurement.peak_memory_bytes,
            output_bytes,
            diff,
            stderr: (verdict != Verdict::Ac)
                .then(|| text::stderr_tail(&stderr))
                .flatten()
                // An interpreter names the script by its path in the build cache: the file's
                // name alone says as much.
                .map(|t| t.replace(&format!("{}/", program.dir.display()), "")),
            killed_by: measurement.stopped_by(),
            parallel: false,
            rerun: None,
            leftover_processes: execution.response.leftover_processes,
            saved_output: None,
            input: None,
            timing: None,
            score,
            interaction: None,
            judge_message: None,
            passes: None,
            worker: None,
            attempt: None,
        }
    }

    /// Runs `program` with `args`, `input` on stdin (empty when `None`), under `limits`; for a
    /// problem that reads and writes named files (`io`), the input goes in its working folder
    /// instead, and the output file is taken out. Its stdout, stderr and output file go to the
    /// slot's folder and stay there until the next run.
    pub(super) fn execute(
        &mut self,
        program: &Program,
        args: &[String],
        input: Option<&Path>,
        limits: &Limits,
        io: &FileIo,
    ) -> Result<Execution> {
        self.execute_as(&Role::default(), program, args, input, limits, io)
    }

    /// Like [`Slot::execute`], for a program in another `role` than the solution's.
    pub(super) fn execute_as(
        &mut self,
        role: &Role,
        program: &Program,
        args: &[String],
        input: Option<&Path>,
        limits: &Limits,
        io: &FileIo,
    ) -> Result<Execution> {
        let request = self.request(role, program, args, input, limits, io);
        let response = self.executor.run(&request)?;
        Ok(Execution::of(request, response))
    }

    /// The runner's request that runs `program` in `role` (see [`Slot::execute_as`]).
    pub(super) fn request(
        &self,
        role: &Role,
        program: &Program,
        args: &[String],
        input: Option<&Path>,
        limits: &Limits,
        io: &FileIo,
    ) -> run::Request {
        let prefix = role.prefix;
        let extra = role.access.clone();
        let limits = &if program.language.reserves_address_space() {
            limits.with_memory_rule(MemoryRule::Resident)
        } else {
            *limits
        };
        let (path, mut argv) = program.command(limits.memory_bytes);
        argv.extend(args.iter().cloned());
        let input_file = io.input.as_ref().zip(input).map(|(name, path)| NamedFile {
            name: name.clone(),
            path: path.to_path_buf(),
        });
        let keep_file = io.output.as_ref().map(|name| NamedFile {
            name: name.clone(),
            path: self.dir.join(format!("{prefix}{OUTPUT_FILE}")),
        });
        // A program of a folder runs among its files, as the package format says, which it
        // may read but not change; any other in its own empty folder.
        let in_folder = program.in_folder && io.input.is_none() && io.output.is_none();
        let cwd = match in_folder {
            true => program.dir.clone(),
            false => self.dir.join(role.folder.unwrap_or("box")),
        };
        let own = match in_folder {
            true => Vec::new(),
            false => vec![cwd.clone()],
        };
        run::Request {
            program: path,
            args: argv,
            env: Some(Vec::new()),
            cwd: cwd.clone(),
            clean_cwd: !in_folder,
            // A program that reads a named file has an empty stdin, as on the judges.
            stdin: input
                .filter(|_| input_file.is_none())
                .map(Path::to_path_buf),
            stdout: self.dir.join(format!("{prefix}stdout")),
            stderr: self.dir.join(format!("{prefix}stderr")),
            limits: runner_limits(limits),
            input_file,
            files: None,
            keep_file,
            partner: None,
            // Sandboxed, it sees only its build, its runtime and its own folder.
            access: run::Access {
                read: [program.read_access(), extra.read].concat(),
                write: [own, extra.write].concat(),
            },
        }
    }

    /// Keeps a failed case's output and stderr in `.judge/last/` for a look afterwards.
    pub(super) fn keep_output(
        &self,
        env: Env<'_>,
        problem: &Problem,
        solution: &Solution,
        case: &TestCase,
    ) -> Option<PathBuf> {
        let dir = crate::paths::last(&env.workspace.state_dir())
            .join(&problem.id)
            .join(&solution.name);
        std::fs::create_dir_all(&dir).ok()?;
        if problem.interactor.is_some() {
            return self.keep_interaction(&dir, &case.name);
        }
        let out = dir.join(format!("{}.out", case.name));
        let files = self.decided.as_ref()?;
        crate::atomic::copy(&files.output, &out).ok()?;
        let err = dir.join(format!("{}.err", case.name));
        if crate::atomic::copy(&files.stderr, &err).is_err() {
            // The program wrote nothing to stderr: the runner made no file.
            let _ = crate::atomic::replace(&err, b"");
        }
        Some(out)
    }
}

/// A solution's request on `case` of `problem`: the case's files put in its working folder
/// first, and that folder only to read when the package does not allow writing files.
pub(super) fn for_case(
    mut request: run::Request,
    problem: &Problem,
    case: &TestCase,
) -> run::Request {
    request.files = case.files.clone();
    if problem.terms.read_only {
        let cwd = request.cwd.clone();
        request.access.write.retain(|w| *w != cwd);
        request.access.read.push(cwd);
    }
    request
}

/// Where the case last decided on a slot left its output and its stderr.
#[derive(Debug, Clone)]
pub(super) struct CaseFiles {
    pub(super) output: PathBuf,
    pub(super) stderr: PathBuf,
}

/// What a case's run decided, before its report is made.
pub(super) struct Outcome {
    pub(super) decision: Decision,
    pub(super) hint: Option<String>,
    /// Answer against output, on a wrong answer.
    pub(super) diff: Option<String>,
    pub(super) score: Option<f64>,
}

impl Outcome {
    /// A decision with nothing checked beside it.
    pub(super) fn decided(decision: Decision) -> Outcome {
        Outcome {
            decision,
            hint: None,
            diff: None,
            score: None,
        }
    }

    /// A decision and what the checker found, when it was asked; and what a Kattis
    /// validator wrote in `judgemessage.txt`.
    pub(super) fn checked(
        decision: Decision,
        checked: Option<Checked>,
    ) -> (Outcome, Option<String>) {
        let Some(c) = checked else {
            return (Outcome::decided(decision), None);
        };
        // The diff explains a wrong answer only: not one the disk or the checker made IE.
        let diff = c.diff.filter(|_| decision.verdict == Verdict::Wa);
        let outcome = Outcome {
            decision,
            hint: c.outcome.hint,
            diff,
            score: c.score,
        };
        (outcome, c.judge_message)
    }
}

/// What sets a helper program's run apart from the solution's in the same slot.
#[derive(Debug, Default)]
pub(super) struct Role {
    /// Its files' names begin with this: a checker must not overwrite the output it checks.
    pub prefix: &'static str,
    /// What it may touch besides its own folder: a checker is given the input, the output and
    /// the answer to read, a Kattis validator its feedback folder to write.
    pub access: run::Access,
    /// Its working folder in the slot's, when not `box` (the solution's): an interactor runs
    /// while the solution does.
    pub folder: Option<&'static str>,
}

/// Makes `dir` an empty folder, so what it holds after a run is that run's (a validator's
/// feedback, an interactor's output). The folder itself is kept, not made again: the runner
/// keeps a folder it grants open, and one made anew would have to be opened again.
pub(super) fn empty_folder(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::create(dir, e))?;
    for entry in std::fs::read_dir(dir).map_err(|e| Error::list(dir, e))? {
        let path = entry.map_err(|e| Error::list(dir, e))?.path();
        let removed = if path.is_dir() && !path.is_symlink() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        removed.map_err(|e| Error::remove(&path, e))?;
    }
    Ok(())
}

/// The runner's limits for a program held to `limits`.
pub fn runner_limits(limits: &Limits) -> run::Limits {
    run::Limits {
        cpu_ms: Some(limits.time.as_millis().max(1) as u64),
        wall_ms: limits.wall.as_millis() as u64,
        memory_bytes: Some(limits.memory_bytes),
        address_space_bytes: Some(match limits.memory_rule {
            // A backstop only, against a runaway the sampling could miss: resident memory is
            // what is limited and measured.
            MemoryRule::Resident => limits.memory_bytes.saturating_add(ADDRESS_SPACE_SLACK),
            MemoryRule::AddressSpace => limits.memory_bytes,
        }),
        stack_bytes: Some(match limits.memory_rule {
            // The stack may grow as far as memory allows, as on Codeforces.
            MemoryRule::Resident => limits.memory_bytes,
            // problemtools leaves the stack unlimited under its address-space cap: a stack
            // limit as large as the cap leaves a runtime that reserves by it (Ruby) no room.
            MemoryRule::AddressSpace => u64::MAX,
        }),
        file_size_bytes: Some(limits.output_bytes + 1),
        open_files: Some(256),
        // Files in its folder count against the output limit too: together, not only each.
        folder_bytes: Some(limits.output_bytes),
        stderr_keep_bytes: STDERR_KEEP,
    }
}

/// What a function problem's harness said of a run that ended with its exit status (see
/// [`function::harness::said`]); `None` for any other run or program.
fn harness_said(
    problem: &Problem,
    program: &Program,
    execution: &Execution,
) -> Option<HarnessSaid> {
    let sig = &problem.function.as_ref()?.signature;
    let run::Outcome::Exited(code) = execution.measurement.outcome else {
        return None;
    };
    if !program.harness || code != verdict::HARNESS_EXIT {
        return None;
    }
    let stderr = std::fs::read(&execution.stderr).unwrap_or_default();
    function::harness::said(code, &stderr, sig, &problem.id)
}

fn stack_overflow(reason: &Reason, stderr: &[u8]) -> bool {
    // A hint only, never a verdict: Rust's runtime says so before it aborts.
    matches!(reason, Reason::Signal(s) if [run::SIGSEGV, run::SIGABRT, run::SIGBUS].contains(s))
        && String::from_utf8_lossy(stderr).contains("overflowed its stack")
}

/// A WA's input is shown when it is at most this many bytes and lines.
const SHORT_INPUT_BYTES: usize = 256;
const SHORT_INPUT_LINES: usize = 8;
/// Even when forced, no more than this is shown.
const SHOWN_INPUT_MAX_BYTES: usize = 16 << 10;

/// The input to show under a failed case: a short one on WA, any one when `force`d.
pub(super) fn shown_input(path: &Path, verdict: Verdict, force: bool) -> Option<String> {
    if !force && verdict != Verdict::Wa {
        return None;
    }
    let data = std::fs::read(path).ok()?;
    let lines = data.iter().filter(|&&b| b == b'\n').count() + usize::from(!data.ends_with(b"\n"));
    if !force && (data.len() > SHORT_INPUT_BYTES || lines > SHORT_INPUT_LINES) {
        return None;
    }
    Some(text::printable(&data, SHOWN_INPUT_MAX_BYTES))
}
