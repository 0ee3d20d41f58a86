//! Judging: compile a solution, run it on each case under the limits, check, decide, collect the reports.
//!
//! [`Judge`] is the engine every command drives. Its parts each own one rule: [`slot`] runs one
//! program on one case and decides its verdict, [`checker`] checks an output, [`parallel`]
//! schedules cases over several slots, [`repeat`] runs a case several times.

mod checker;
mod parallel;
mod repeat;
mod slot;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

pub use checker::Checked;
pub use slot::{runner_limits, ADDRESS_SPACE_SLACK};

use crate::check::CheckOutcome;
use crate::compile::{self, Cache, CompileOptions, Toolchain};
use crate::error::{Error, Result};
use crate::model::{CaseReport, CompileReport, SolutionReport};
use crate::run::{self, ExecutorFactory};
use crate::verdict::{self, Limits, Measurement, Reason, Verdict};
use crate::workspace::{Problem, Solution, TestCase, Workspace};
use slot::Slot;

/// Settings of a run that the user can change on the command line.
#[derive(Debug, Clone)]
pub struct Options {
    pub time_limit: Option<Duration>,
    pub memory_limit: Option<u64>,
    pub output_limit: Option<u64>,
    pub stop_on_fail: bool,
    pub compile_time_limit: Duration,
    /// Show the input of every failed case, however long (by default only a short WA input).
    pub show_input: bool,
    /// Runs of each case (at least 1). A case that goes over the time limit is not run again.
    pub repeat: u32,
    /// After a case goes over the time limit, the remaining cases are not run.
    pub skip_after_tle: bool,
    /// Cases run at once (1: one at a time). Above 1, times are measured in parallel, and TLE
    /// cases and cases within 20% of the time limit are re-run alone before their verdict is final.
    pub jobs: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            time_limit: None,
            memory_limit: None,
            output_limit: None,
            stop_on_fail: false,
            compile_time_limit: compile::DEFAULT_COMPILE_TIME,
            show_input: false,
            repeat: 1,
            skip_after_tle: false,
            jobs: 1,
        }
    }
}

impl Options {
    /// The limits a case of `problem` runs under.
    pub fn limits(&self, problem: &Problem) -> Limits {
        Limits::new(
            self.time_limit.unwrap_or(problem.limits.time),
            self.memory_limit.unwrap_or(problem.limits.memory_bytes),
            self.output_limit.unwrap_or(problem.limits.output_bytes),
        )
    }

    /// Whether the run ends after this case: `--stop-on-fail` after a failure, `--skip-after-tle`
    /// after a TLE.
    fn ends_run(&self, c: &CaseReport) -> bool {
        c.verdict != Verdict::Ac && self.stop_on_fail
            || c.verdict == Verdict::Tle && self.skip_after_tle
    }
}

/// What one run of a program produced: its measurements, and where its stdout and stderr are.
#[derive(Debug, Clone)]
pub struct Execution {
    pub measurement: Measurement,
    pub response: run::Response,
    pub stdout: PathBuf,
    pub stderr: PathBuf,
}

/// Hears about progress, to show it live.
pub trait Observer {
    /// `judge_all` starts the `index`th of `total` solutions.
    fn solution_started(&mut self, _solution: &Solution, _index: usize, _total: usize) {}
    fn compiling(&mut self, _solution: &Solution) {}
    fn compiled(&mut self, _report: &CompileReport) {}
    fn case_started(&mut self, _case: &TestCase, _index: usize, _total: usize) {}
    fn case_finished(&mut self, _report: &CaseReport, _limits: &Limits) {}
}

/// Observes nothing.
pub struct Quiet;
impl Observer for Quiet {}

/// A judge bound to a workspace: its compiler, its cache, its executors and a private scratch dir.
pub struct Judge {
    pub workspace: Workspace,
    /// Detected on first use: a command that compiles nothing never runs the compiler.
    toolchain: OnceLock<Toolchain>,
    cache: Cache,
    executors: ExecutorFactory,
    /// Slot 0 always exists; `--jobs N` adds more.
    slots: Vec<Slot>,
    scratch: tempfile::TempDir,
}

/// What running and checking need besides a slot: shared by every slot, read-only.
#[derive(Clone, Copy)]
struct Env<'a> {
    workspace: &'a Workspace,
    toolchain: &'a OnceLock<Toolchain>,
    cache: &'a Cache,
}

impl Env<'_> {
    /// The compiler, detected the first time it is needed.
    fn toolchain(&self) -> Result<&Toolchain> {
        if let Some(t) = self.toolchain.get() {
            return Ok(t);
        }
        let detected =
            Toolchain::detect_memoized(&self.workspace.root, &self.cache.dir.join("rustc"))?;
        Ok(self.toolchain.get_or_init(|| detected))
    }
}

impl Judge {
    /// A judge whose programs run on real runner processes.
    pub fn new(workspace: Workspace) -> Result<Judge> {
        Judge::with_executors(workspace, run::runners())
    }

    /// A judge whose programs run on the executors `executors` makes (one per slot).
    pub fn with_executors(workspace: Workspace, executors: ExecutorFactory) -> Result<Judge> {
        let cache = Cache::new(workspace.state_dir().join("cache"));
        let scratch = tempfile::Builder::new()
            .prefix("judge-")
            .tempdir()
            .map_err(|e| Error::io(&std::env::temp_dir(), e))?;
        run::interrupt::register_temp_dir(scratch.path());
        std::fs::create_dir_all(scratch.path().join("box"))
            .map_err(|e| Error::io(scratch.path(), e))?;
        let slots = vec![Slot {
            executor: executors()?,
            dir: scratch.path().to_path_buf(),
        }];
        Ok(Judge {
            workspace,
            toolchain: OnceLock::new(),
            cache,
            executors,
            slots,
            scratch,
        })
    }

    /// The shared part and the slots, borrowed apart so that slots can run at once.
    fn parts(&mut self) -> (Env<'_>, &mut [Slot]) {
        let Judge {
            workspace,
            toolchain,
            cache,
            slots,
            ..
        } = self;
        (
            Env {
                workspace,
                toolchain,
                cache,
            },
            slots,
        )
    }

    /// Starts executors until there are `n` slots.
    fn ensure_slots(&mut self, n: usize) -> Result<()> {
        while self.slots.len() < n {
            let dir = self.scratch.path().join(format!("job{}", self.slots.len()));
            std::fs::create_dir_all(dir.join("box")).map_err(|e| Error::io(&dir, e))?;
            self.slots.push(Slot {
                executor: (self.executors)()?,
                dir,
            });
        }
        Ok(())
    }

    /// Compiles (or takes from the cache) and returns the binary, or the compile error.
    pub fn build(
        &mut self,
        solution: &Solution,
        options: &Options,
    ) -> Result<(CompileReport, Option<PathBuf>)> {
        let (env, slots) = self.parts();
        let toolchain = env.toolchain()?;
        let result = compile::compile(
            &solution.path,
            toolchain,
            env.cache,
            slots[0].executor.as_mut(),
            &CompileOptions {
                time_limit: options.compile_time_limit,
                cwd: env.workspace.root.clone(),
            },
        )?;
        let compiler = toolchain.version().to_string();
        Ok(match result {
            Ok(bin) => (
                CompileReport {
                    cached: bin.cached,
                    duration: bin.duration,
                    compiler,
                    diagnostics: None,
                },
                Some(bin.path),
            ),
            Err(ce) => (
                CompileReport {
                    cached: ce.cached,
                    duration: ce.duration,
                    compiler,
                    diagnostics: Some(ce.diagnostics),
                },
                None,
            ),
        })
    }

    /// Judges `solution` on `cases`: compiles it, then runs and checks every case.
    pub fn judge(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        cases: &[TestCase],
        options: &Options,
        observer: &mut dyn Observer,
    ) -> Result<SolutionReport> {
        observer.compiling(solution);
        let (compile, binary) = self.build(solution, options)?;
        observer.compiled(&compile);
        let mut report = SolutionReport {
            problem: problem.id.clone(),
            solution: solution.name.clone(),
            path: solution.path.clone(),
            verdict: Verdict::Ce,
            expected: problem.expected.get(&solution.name).cloned(),
            compile,
            limits: options.limits(problem),
            passed: 0,
            total: cases.len(),
            jobs: options.jobs.max(1),
            parallel: false,
            cases: Vec::new(),
        };
        let Some(binary) = binary else {
            return Ok(report);
        };
        self.judge_binary(
            problem,
            solution,
            &binary,
            cases,
            options,
            observer,
            &mut report,
        )?;
        Ok(report)
    }

    /// Runs and checks every case with an already built binary, filling in `report`.
    #[allow(clippy::too_many_arguments)]
    fn judge_binary(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        binary: &Path,
        cases: &[TestCase],
        options: &Options,
        observer: &mut dyn Observer,
        report: &mut SolutionReport,
    ) -> Result<()> {
        let limits = options.limits(problem);
        // Repeated timing is never done in parallel: runs would slow each other down.
        if options.jobs > 1 && options.repeat <= 1 && cases.len() > 1 {
            report.cases =
                self.judge_parallel(problem, solution, binary, cases, options, observer)?;
            report.parallel = report.cases.iter().any(|c| c.parallel || c.rerun.is_some());
        } else {
            report.jobs = 1;
            for (i, case) in cases.iter().enumerate() {
                observer.case_started(case, i, cases.len());
                let case_report =
                    self.run_repeated(problem, solution, binary, case, &limits, options)?;
                observer.case_finished(&case_report, &limits);
                let ended = options.ends_run(&case_report);
                report.cases.push(case_report);
                if ended {
                    break;
                }
            }
        }
        report.conclude();
        Ok(())
    }

    /// Judges each solution in turn with this judge (one runner, one cache), one case at a
    /// time: nothing runs in parallel, so the times are not inflated by each other.
    pub fn judge_all(
        &mut self,
        problem: &Problem,
        solutions: &[Solution],
        cases: &[TestCase],
        options: &Options,
        observer: &mut dyn Observer,
    ) -> Result<Vec<SolutionReport>> {
        let mut reports = Vec::new();
        for (i, s) in solutions.iter().enumerate() {
            observer.solution_started(s, i, solutions.len());
            reports.push(self.judge(problem, s, cases, options, observer)?);
        }
        Ok(reports)
    }

    /// Runs the binary on one case and decides its verdict.
    pub fn run_case(
        &mut self,
        problem: &Problem,
        binary: &Path,
        case: &TestCase,
        limits: &Limits,
    ) -> Result<CaseReport> {
        let (env, slots) = self.parts();
        slots[0].run_case(env, problem, binary, case, limits)
    }

    /// Runs `binary` with `args`, `input` on stdin (empty when `None`), under `limits`.
    /// Its stdout and stderr go to the scratch dir and stay there until the next run.
    pub fn execute(
        &mut self,
        binary: &Path,
        args: &[String],
        input: Option<&Path>,
        limits: &Limits,
    ) -> Result<Execution> {
        self.slots[0].execute(binary, args, input, limits)
    }

    /// Runs a program whose output is not checked (a generator, a reference making an answer,
    /// a size of `judge scale`): AC when it ran cleanly within `limits`, otherwise the verdict
    /// and reason that say why not.
    pub fn run_unchecked(
        &mut self,
        binary: &Path,
        args: &[String],
        input: Option<&Path>,
        limits: &Limits,
    ) -> Result<(Verdict, Reason, Execution)> {
        let execution = self.execute(binary, args, input, limits)?;
        let (verdict, reason, _) =
            verdict::decide(&execution.measurement, limits, CheckOutcome::accepted);
        Ok((verdict, reason, execution))
    }

    /// Checks `output` against `answer` (for the case whose input is `input`) with the problem's
    /// checker: a built-in mode, or the custom checker program. Every comparison of an output
    /// with an answer (test cases, stress testing) goes through here.
    pub fn check_output(
        &mut self,
        problem: &Problem,
        input: &Path,
        answer: &Path,
        output: &Path,
    ) -> Result<Checked> {
        let (env, slots) = self.parts();
        slots[0].check_output(env, problem, input, answer, output)
    }

    fn keep_output(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        case: &TestCase,
    ) -> Option<PathBuf> {
        let (env, slots) = self.parts();
        slots[0].keep_output(env, problem, solution, case)
    }

    /// Where the stdout of the last program run is, until the next run.
    pub fn last_stdout(&self) -> PathBuf {
        self.scratch.path().join("stdout")
    }

    /// A private folder for files of this judge's runs (removed on drop and on Ctrl-C).
    pub fn scratch_dir(&self) -> &Path {
        self.scratch.path()
    }
}

impl Drop for Judge {
    fn drop(&mut self) {
        run::interrupt::unregister_temp_dir(self.scratch.path());
    }
}

#[cfg(test)]
mod tests;
