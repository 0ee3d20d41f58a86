//! Judging: compile a solution, run it on each case under the limits, check, decide, collect the reports.
//!
//! [`Judge`] is the engine every command drives. Its parts each own one rule: [`slot`] runs one
//! program on one case and decides its verdict, [`checker`] checks an output, [`order`] runs
//! the cases one after another (with the shorter cap after a TLE), [`parallel`] schedules
//! cases over several slots, [`repeat`] runs a case several times.

mod ahead;
mod build;
mod checked;
mod checker;
mod decided;
mod explain;
mod finish;
mod grader;
mod interact;
mod multipass;
mod options;
mod order;
mod parallel;
mod repeat;
mod scratch;
mod slot;
mod statics;
mod terms;

use std::path::{Path, PathBuf};

pub use crate::model::AppliedRule;
pub use checker::Checked;
pub use finish::finish;
pub use options::{shorter_cap, AfterTle, Options, Settings, SHORTER_CAP_RULE};
pub use parallel::needs_rerun;
pub use slot::{runner_limits, ADDRESS_SPACE_SLACK};
pub use terms::refuse;

use crate::compile::{Cache, Program, Toolchains};
use crate::error::{Error, Result};
use crate::lang::Language;
use crate::model::{CaseReport, CompileReport, NotTimed, Partial, Skipped, SolutionReport};
use crate::verdict::{self, Decision, Limits, Measurement, Reason, Verdict};
use crate::workspace::{FileIo, InteractorProgram, Problem, Solution, TestCase, Workspace};
use build::BuildAs;
use judge_runner::{self as run, ExecutorFactory};
use scratch::Scratch;
use slot::{Role, Slot};

/// What judges a solution on a problem's cases: this machine's runner ([`Judge`]), or other
/// machines (a cluster's workers). Every command that judges whole solutions goes through it,
/// so that where the cases run changes nothing else.
pub trait Judging {
    /// The workspace the problems and solutions are in.
    fn workspace(&self) -> &Workspace;

    /// Judges `solution` on `cases`: compiled, run and checked, the report as `judge run`
    /// shows it.
    fn judge(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        cases: &[TestCase],
        options: &Options,
        observer: &mut dyn Observer,
    ) -> Result<SolutionReport>;

    /// Judges each solution in turn. A solution whose language is not installed is skipped,
    /// with the reason, never judged.
    fn judge_all(
        &mut self,
        problem: &Problem,
        solutions: &[Solution],
        cases: &[TestCase],
        options: &Options,
        observer: &mut dyn Observer,
    ) -> Result<(Vec<SolutionReport>, Vec<Skipped>)> {
        let mut reports = Vec::new();
        let mut skipped = Vec::new();
        for (i, s) in solutions.iter().enumerate() {
            observer.solution_started(s, i, solutions.len());
            match self.judge(problem, s, cases, options, observer) {
                Ok(r) => reports.push(r),
                Err(e) => match s.skipped_because(&e) {
                    Some(skip) => skipped.push(skip),
                    None => return Err(e),
                },
            }
        }
        Ok((reports, skipped))
    }
}

impl Judging for Judge {
    fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    fn judge(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        cases: &[TestCase],
        options: &Options,
        observer: &mut dyn Observer,
    ) -> Result<SolutionReport> {
        Judge::judge(self, problem, solution, cases, options, observer)
    }
}

/// What one run of a program produced: its measurements, and where its stdout and stderr are.
#[derive(Debug, Clone)]
pub struct Execution {
    pub measurement: Measurement,
    pub response: run::Response,
    pub stdout: PathBuf,
    pub stderr: PathBuf,
    /// Where the program's answer is: its stdout, or the problem's named output file (absent
    /// when the program wrote none).
    pub output: PathBuf,
}

impl Execution {
    /// What a run of `request` produced, by the runner's `response`.
    fn of(request: run::Request, response: run::Response) -> Execution {
        Execution {
            measurement: Measurement::of(&response),
            response,
            output: request
                .keep_file
                .map_or_else(|| request.stdout.clone(), |f| f.path),
            stdout: request.stdout,
            stderr: request.stderr,
        }
    }
}

/// Hears about progress, to show it live.
pub trait Observer {
    /// `judge_all` starts the `index`th of `total` solutions.
    fn solution_started(&mut self, _solution: &Solution, _index: usize, _total: usize) {}
    /// About to build `solution`; `report` holds what is known before: its language and limits.
    fn compiling(&mut self, _solution: &Solution, _report: &SolutionReport) {}
    fn compiled(&mut self, _report: &CompileReport) {}
    fn case_started(&mut self, _case: &TestCase, _index: usize, _total: usize) {}
    fn case_finished(&mut self, _report: &CaseReport, _limits: &Limits) {}
    /// What the user should know while the run waits (a cluster with no worker, say).
    fn note(&mut self, _text: &str) {}
    /// A case under the shorter cap after a TLE did not finish; `limits` are the run's own.
    fn case_not_timed(&mut self, _case: &NotTimed, _limits: &Limits) {}
}

/// Observes nothing.
pub struct Quiet;
impl Observer for Quiet {}

/// One solution's run as it travels from the door that was asked (a judge here, a cluster)
/// to the loops over its cases: what is judged, on which cases, how, and who hears of it.
pub struct Run<'a> {
    pub problem: &'a Problem,
    pub solution: &'a Solution,
    pub cases: &'a [TestCase],
    pub options: &'a Options,
    pub observer: &'a mut dyn Observer,
}

/// A solution's report before anything is built or judged: its language, its limits (the
/// options' over the problem's, with the language's time rule), its expectation, and a CE
/// until a build says otherwise. A run here and a run through a cluster start from it.
pub fn unjudged(
    problem: &Problem,
    solution: &Solution,
    language: &Language,
    cases: usize,
    options: &Options,
) -> SolutionReport {
    let (limits, time_rule) = options.limits_for(problem, &language.id);
    SolutionReport {
        problem: problem.id.clone(),
        solution: solution.name.clone(),
        path: solution.path.clone(),
        language: language.id.clone(),
        language_name: language.name.clone(),
        verdict: Verdict::Ce,
        expected: problem.expected.get(&solution.name).cloned(),
        compile: CompileReport::default(),
        sandbox: Default::default(),
        limits,
        time_rule,
        passed: 0,
        total: cases,
        jobs: options.jobs.max(1),
        parallel: false,
        cases: Vec::new(),
        groups: None,
        scoring: problem.scoring,
        replay: problem
            .interactor
            .as_ref()
            .is_some_and(|i| i.program == InteractorProgram::Replay),
        partial: Partial::of(options.selection.as_ref(), cases, (0, 0), false),
        workers: Vec::new(),
        key: None,
        not_timed: Vec::new(),
        graded_at: Vec::new(),
    }
}

/// A judge bound to a workspace: its compilers, its cache, its executors and a private scratch dir.
pub struct Judge {
    pub workspace: Workspace,
    /// Found on first use: a command that compiles nothing never runs a compiler.
    toolchains: Toolchains,
    cache: Cache,
    executors: ExecutorFactory,
    /// Slot 0 always exists; `--jobs N` adds more.
    slots: Vec<Slot>,
    scratch: Scratch,
    /// Interactive cases record their conversation (on unless turned off).
    transcript: bool,
}

/// What running and checking need besides a slot: shared by every slot, read-only.
#[derive(Clone, Copy)]
struct Env<'a> {
    workspace: &'a Workspace,
    toolchains: &'a Toolchains,
    cache: &'a Cache,
    /// Interactive cases record their conversation.
    transcript: bool,
}

impl Judge {
    /// A judge whose programs run on real runner processes.
    pub fn new(workspace: Workspace, settings: Settings) -> Result<Judge> {
        Judge::with_executors(workspace, run::runners(settings.sandbox), settings)
    }

    /// A judge whose programs run on the executors `executors` makes (one per slot).
    pub fn with_executors(
        workspace: Workspace,
        executors: ExecutorFactory,
        settings: Settings,
    ) -> Result<Judge> {
        let scratch = Scratch::new()?;
        let cache = Cache::new(workspace.cache_dir()).with_spare(scratch.path().join("cache"));
        run::interrupt::register_temp_dir(scratch.path());
        std::fs::create_dir_all(scratch.path().join("box"))
            .map_err(|e| Error::create(scratch.path(), e))?;
        let slots = vec![Slot::new(executors()?, scratch.path().to_path_buf())];
        let toolchains =
            Toolchains::new(&workspace.root, cache.identities()).with_rustc(workspace.rustc());
        Ok(Judge {
            workspace,
            toolchains,
            cache,
            executors,
            slots,
            scratch,
            transcript: settings.transcripts,
        })
    }

    /// The shared part and the slots, borrowed apart so that slots can run at once.
    fn parts(&mut self) -> (Env<'_>, &mut [Slot]) {
        let Judge {
            workspace,
            toolchains,
            cache,
            slots,
            transcript,
            ..
        } = self;
        (
            Env {
                workspace,
                toolchains,
                cache,
                transcript: *transcript,
            },
            slots,
        )
    }

    /// Starts executors until there are `n` slots.
    fn ensure_slots(&mut self, n: usize) -> Result<()> {
        while self.slots.len() < n {
            let dir = self.scratch.path().join(format!("job{}", self.slots.len()));
            std::fs::create_dir_all(dir.join("box")).map_err(|e| Error::create(&dir, e))?;
            self.slots.push(Slot::new((self.executors)()?, dir));
        }
        Ok(())
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
        // A missing compiler is an error before anything is shown, never a CE.
        let (env, _) = self.parts();
        let toolchain = env.toolchain(
            &solution.path,
            options.build_settings(problem, env.workspace),
            &problem.package,
        )?;
        let language = &toolchain.language;
        terms::refuse(problem, solution, &language.id)?;
        let mut report = SolutionReport {
            sandbox: self.sandbox(),
            ..unjudged(problem, solution, language, cases.len(), options)
        };
        observer.compiling(solution, &report);
        let (compile, program) =
            self.build_with(&solution.path, &toolchain, BuildAs::Solution(problem))?;
        report.compile = compile;
        observer.compiled(&report.compile);
        let Some(program) = program else {
            return Ok(report);
        };
        let mut run = Run {
            problem,
            solution,
            cases,
            options,
            observer,
        };
        self.judge_program(&mut run, &program, &mut report)?;
        self.grade_by_package(problem, &mut report, &[]);
        Ok(report)
    }

    /// Runs and checks every case with an already built program, filling in `report`.
    fn judge_program(
        &mut self,
        run: &mut Run,
        program: &Program,
        report: &mut SolutionReport,
    ) -> Result<()> {
        let limits = report.limits;
        let (cases, options) = (run.cases, run.options);
        // Repeated timing is never done in parallel: runs would slow each other down.
        if options.jobs > 1 && options.repeat <= 1 && cases.len() > 1 {
            report.cases = self.judge_parallel(run, program, &limits)?;
            report.parallel = report.cases.iter().any(|c| c.parallel || c.rerun.is_some());
        } else {
            report.jobs = 1;
            self.judge_in_order(run, program, report)?;
        }
        finish(run.problem, cases, options, report);
        Ok(())
    }

    /// What isolates the programs this judge runs.
    pub fn sandbox(&self) -> run::Sandbox {
        self.slots[0].executor.sandbox()
    }

    /// Judges one case of a built solution as a run does: its verdict, and for a case that
    /// failed, its output kept and its input shown (a worker judging for others, one case
    /// at a time).
    pub fn judge_case(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        program: &Program,
        case: &TestCase,
        limits: &Limits,
        options: &Options,
    ) -> Result<CaseReport> {
        self.run_repeated(problem, solution, program, (case, None), limits, options)
    }

    /// Runs the program on one case and decides its verdict.
    pub fn run_case(
        &mut self,
        problem: &Problem,
        program: &Program,
        case: &TestCase,
        limits: &Limits,
    ) -> Result<CaseReport> {
        let (env, slots) = self.parts();
        slots[0].run_case(env, problem, program, (case, None), limits)
    }

    /// Runs `program` with `args`, `input` on stdin (empty when `None`), under `limits`; for a
    /// problem's program that reads and writes named files (`io`), the input goes in its
    /// working folder instead and the output file is taken out (`Execution::output`). Its
    /// files go to the scratch dir and stay there until the next run.
    pub fn execute(
        &mut self,
        program: &Program,
        args: &[String],
        input: Option<&Path>,
        limits: &Limits,
        io: &FileIo,
    ) -> Result<Execution> {
        self.slots[0].execute(program, args, input, limits, io)
    }

    /// Runs a helper program of the problem's (an input validator, a tool such as
    /// checktestdata) with `args` and `input` on stdin, allowed to read `read` besides its
    /// build; its files are named apart from a solution's.
    pub fn execute_helper(
        &mut self,
        program: &Program,
        args: &[String],
        input: &Path,
        limits: &Limits,
        read: Vec<PathBuf>,
    ) -> Result<Execution> {
        let role = Role {
            prefix: "helper.",
            access: run::Access {
                read,
                write: Vec::new(),
            },
            folder: None,
        };
        self.slots[0].execute_as(
            &role,
            program,
            args,
            Some(input),
            limits,
            &FileIo::default(),
        )
    }

    /// Runs a program whose output is not checked (a generator, a reference making an answer,
    /// a size of `judge scale`): AC when it ran cleanly within `limits`, otherwise the verdict
    /// and reason that say why not.
    pub fn run_unchecked(
        &mut self,
        program: &Program,
        args: &[String],
        input: Option<&Path>,
        limits: &Limits,
        io: &FileIo,
    ) -> Result<(Verdict, Reason, Execution)> {
        let execution = self.execute(program, args, input, limits, io)?;
        let Decision { verdict, reason } =
            verdict::decide_unchecked(&execution.measurement, limits);
        Ok((verdict, reason, execution))
    }

    /// Runs a package's generator with `args`, `input` on stdin (empty when `None`), in `dir`:
    /// its working folder, the one place it may write, kept after the run (what it wrote
    /// there is the case's). AC when it ran cleanly within `limits`, otherwise the verdict and
    /// reason that say why not.
    pub fn run_in(
        &mut self,
        program: &Program,
        args: &[String],
        input: Option<&Path>,
        dir: &Path,
        limits: &Limits,
    ) -> Result<(Verdict, Reason, Execution)> {
        let slot = &mut self.slots[0];
        let role = slot::Role {
            prefix: "generator.",
            ..Default::default()
        };
        let mut request = slot.request(&role, program, args, input, limits, &FileIo::default());
        let own = request.cwd.clone();
        request.cwd = dir.to_path_buf();
        request.clean_cwd = false;
        request.access.write.retain(|w| *w != own);
        request.access.write.push(dir.to_path_buf());
        let response = slot.executor.run(&request)?;
        let execution = Execution::of(request, response);
        let Decision { verdict, reason } =
            verdict::decide_unchecked(&execution.measurement, limits);
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
        self.check_output_with(problem, (input, answer, output), &[])
    }

    /// [`Judge::check_output`] with a case's validator flags.
    pub fn check_output_with(
        &mut self,
        problem: &Problem,
        files: (&Path, &Path, &Path),
        flags: &[String],
    ) -> Result<Checked> {
        let (env, slots) = self.parts();
        slots[0].check_output(env, problem, files, flags)
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

    /// Where the output of the last program run is, until the next run: its stdout, or the
    /// named output file of a problem that has one (`io`).
    pub fn last_output(&self, io: &FileIo) -> PathBuf {
        match io.output {
            Some(_) => self.scratch.path().join(slot::OUTPUT_FILE),
            None => self.scratch.path().join("stdout"),
        }
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
