//! Judging one solution: compile it, run it on each case under the limits, check, decide, collect the reports.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;

use crate::check;
use crate::compile::{self, Cache, CompileOptions, Toolchain};
use crate::error::{Error, Result};
use crate::run::{self, Runner};
use crate::stats;
use crate::verdict::{self, Expectation, Limits, Measurement, Reason, Verdict};
use crate::workspace::{CheckerProgram, Problem, Solution, TestCase, Workspace};

/// How much of stderr the runner keeps per case.
const STDERR_KEEP: u64 = 64 << 10;
/// Address space a program may reserve beyond its memory limit (RLIMIT_AS backstop).
pub const ADDRESS_SPACE_SLACK: u64 = 16 << 30;
/// Lines of diff shown for a wrong answer.
const DIFF_LINES: usize = 20;
/// Lines of stderr shown for a failed case.
const STDERR_TAIL_LINES: usize = 12;
/// Lines of a custom checker's message (or of its compile errors) shown.
const CHECKER_MESSAGE_LINES: usize = 12;
/// The widest line of a custom checker's message shown (in characters).
const CHECKER_MESSAGE_WIDTH: usize = 300;
/// The largest file a custom checker may write (its stdout included).
const CHECKER_FILE_SIZE: u64 = 16 << 20;

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
    /// The limits a case of `problem` runs under. The wall cap is 2 x limit + 1 s (as CMS does).
    pub fn limits(&self, problem: &Problem) -> Limits {
        let time = self.time_limit.unwrap_or(problem.limits.time);
        Limits {
            time,
            wall: time * 2 + Duration::from_secs(1),
            memory_bytes: self.memory_limit.unwrap_or(problem.limits.memory_bytes),
            output_bytes: self.output_limit.unwrap_or(problem.limits.output_bytes),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct CompileReport {
    pub cached: bool,
    #[serde(rename = "ms", serialize_with = "ser_ms")]
    pub duration: Duration,
    pub compiler: String,
    /// rustc's messages when compilation failed (plain text).
    pub diagnostics: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CaseReport {
    pub name: String,
    pub sample: bool,
    pub verdict: Verdict,
    /// Why the verdict was given: "killed by SIGSEGV", "token 1 ...: expected `2`, received `3`".
    pub detail: Option<String>,
    pub hint: Option<String>,
    #[serde(rename = "time_ms", serialize_with = "ser_ms")]
    pub cpu: Duration,
    #[serde(rename = "wall_ms", serialize_with = "ser_ms")]
    pub wall: Duration,
    #[serde(rename = "memory_kb", serialize_with = "ser_kb")]
    pub memory_bytes: u64,
    pub output_bytes: u64,
    /// On a wrong answer: answer against output, from the first difference.
    pub diff: Option<String>,
    /// The end of stderr, for a case that failed.
    pub stderr: Option<String>,
    /// Who ended the program early: `wall_cap`, `cpu_limit`, `memory_limit` (the judge),
    /// or `output_limit`, `cpu_backstop` (the kernel's limits, seen as SIGXFSZ, SIGXCPU).
    pub killed_by: Option<&'static str>,
    /// Processes the program left running; the judge killed them.
    pub leftover_processes: u32,
    /// Where the output of a failed case was kept.
    pub saved_output: Option<PathBuf>,
    /// The case's input, shown for a failed case when short (or when asked for).
    pub input: Option<String>,
    /// Measured while other cases ran (`--jobs`): the time may be inflated.
    pub parallel: bool,
    /// Measured in parallel first, then re-run alone for its final verdict: what the parallel run saw.
    pub rerun: Option<String>,
    /// With `--repeat`: the CPU time of every run. `time_ms` is then their median.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
}

/// What one run of a program produced: its measurements, and where its stdout and stderr are.
#[derive(Debug, Clone)]
pub struct Execution {
    pub measurement: Measurement,
    pub response: run::Response,
    pub stdout: PathBuf,
    pub stderr: PathBuf,
}

/// The checker's finding on one output.
#[derive(Debug, Clone)]
pub struct Checked {
    pub outcome: check::CheckOutcome,
    /// Answer against output, from the first difference, when rejected.
    pub diff: Option<String>,
    /// The output could not be checked: the judge's or the problem's fault (IE).
    pub internal_error: Option<String>,
}

impl Checked {
    /// The checker could not decide: IE, never the solution's fault.
    pub fn failed(why: String) -> Checked {
        Checked {
            outcome: check::CheckOutcome {
                accepted: false,
                message: None,
                hint: None,
            },
            diff: None,
            internal_error: Some(why),
        }
    }

    fn judged(outcome: check::CheckOutcome) -> Checked {
        Checked {
            outcome,
            diff: None,
            internal_error: None,
        }
    }
}

impl CaseReport {
    /// CPU time of every run of the case (one run unless repeated).
    pub fn runs(&self) -> Vec<Duration> {
        match &self.timing {
            Some(t) => t.runs.clone(),
            None => vec![self.cpu],
        }
    }
}

/// The CPU times of a repeated case, and what they say.
#[derive(Debug, Clone)]
pub struct Timing {
    pub runs: Vec<Duration>,
    /// The verdicts of the runs were not all the same.
    pub verdict_changed: bool,
}

impl Timing {
    pub fn min(&self) -> Duration {
        self.runs.iter().copied().min().unwrap_or_default()
    }

    pub fn median(&self) -> Duration {
        stats::median(&self.runs)
    }

    /// (max - min) / median: 0 when every run took the same time.
    pub fn spread(&self) -> f64 {
        stats::spread(&self.runs)
    }

    pub fn wide(&self) -> bool {
        stats::wide_spread(&self.runs)
    }
}

impl Serialize for Timing {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let ms = |d: Duration| d.as_millis() as u64;
        let mut st = s.serialize_struct("Timing", 6)?;
        st.serialize_field(
            "runs_ms",
            &self.runs.iter().map(|d| ms(*d)).collect::<Vec<_>>(),
        )?;
        st.serialize_field("min_ms", &ms(self.min()))?;
        st.serialize_field("median_ms", &ms(self.median()))?;
        st.serialize_field("spread", &((self.spread() * 1000.0).round() / 1000.0))?;
        st.serialize_field("wide_spread", &self.wide())?;
        st.serialize_field("verdict_changed", &self.verdict_changed)?;
        st.end()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct SolutionReport {
    pub problem: String,
    pub solution: String,
    pub path: PathBuf,
    pub verdict: Verdict,
    pub expected: Option<String>,
    pub compile: CompileReport,
    #[serde(serialize_with = "ser_limits")]
    pub limits: Limits,
    pub passed: usize,
    pub total: usize,
    /// Cases run at once.
    pub jobs: usize,
    /// Whether any time was measured while other cases ran.
    pub parallel: bool,
    pub cases: Vec<CaseReport>,
}

impl SolutionReport {
    pub fn max_cpu(&self) -> Duration {
        self.cases.iter().map(|c| c.cpu).max().unwrap_or_default()
    }

    pub fn max_memory(&self) -> u64 {
        self.cases.iter().map(|c| c.memory_bytes).max().unwrap_or(0)
    }
}

/// Hears about progress, to show it live.
pub trait Observer {
    fn compiling(&mut self, _solution: &Solution) {}
    fn compiled(&mut self, _report: &CompileReport) {}
    fn case_started(&mut self, _case: &TestCase, _index: usize, _total: usize) {}
    fn case_finished(&mut self, _report: &CaseReport, _limits: &Limits) {}
}

/// Observes nothing.
pub struct Quiet;
impl Observer for Quiet {}

/// A judge bound to a workspace: its compiler, its cache, its runner and a private scratch dir.
pub struct Judge {
    pub workspace: Workspace,
    pub toolchain: Toolchain,
    cache: Cache,
    /// Slot 0 always exists; `--jobs N` adds more.
    slots: Vec<Slot>,
    scratch: tempfile::TempDir,
}

/// A runner and the folder of its programs' files (`box/`, `stdout`, `stderr`): programs on
/// different slots run at once.
struct Slot {
    runner: Runner,
    dir: PathBuf,
}

/// What running and checking need besides a slot: shared by every slot, read-only.
#[derive(Clone, Copy)]
struct Env<'a> {
    workspace: &'a Workspace,
    toolchain: &'a Toolchain,
    cache: &'a Cache,
}

impl Judge {
    pub fn new(workspace: Workspace) -> Result<Judge> {
        let runner = Runner::start()?;
        let cache = Cache::new(workspace.state_dir().join("cache"));
        let toolchain = Toolchain::detect_memoized(&workspace.root, &cache.dir.join("rustc"))?;
        let scratch = tempfile::Builder::new()
            .prefix("judge-")
            .tempdir()
            .map_err(|e| Error::io(&std::env::temp_dir(), e))?;
        run::interrupt::register_temp_dir(scratch.path());
        std::fs::create_dir_all(scratch.path().join("box"))
            .map_err(|e| Error::io(scratch.path(), e))?;
        let slots = vec![Slot {
            runner,
            dir: scratch.path().to_path_buf(),
        }];
        Ok(Judge {
            workspace,
            toolchain,
            cache,
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

    /// Starts runners until there are `n` slots.
    fn ensure_slots(&mut self, n: usize) -> Result<()> {
        while self.slots.len() < n {
            let dir = self.scratch.path().join(format!("job{}", self.slots.len()));
            std::fs::create_dir_all(dir.join("box")).map_err(|e| Error::io(&dir, e))?;
            self.slots.push(Slot {
                runner: Runner::start()?,
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
        let result = compile::compile(
            &solution.path,
            &self.toolchain,
            &self.cache,
            &mut self.slots[0].runner,
            &CompileOptions {
                time_limit: options.compile_time_limit,
                cwd: self.workspace.root.clone(),
            },
        )?;
        let compiler = self.toolchain.version().to_string();
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

    /// Judges `solution` on `cases`.
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
        let limits = options.limits(problem);
        let mut report = SolutionReport {
            problem: problem.id.clone(),
            solution: solution.name.clone(),
            path: solution.path.clone(),
            verdict: Verdict::Ce,
            expected: problem
                .expected
                .get(&solution.name)
                .map(Expectation::to_string),
            compile,
            limits,
            passed: 0,
            total: cases.len(),
            jobs: options.jobs.max(1),
            parallel: false,
            cases: Vec::new(),
        };
        let Some(binary) = binary else {
            return Ok(report);
        };
        // Repeated timing is never done in parallel: runs would slow each other down.
        if options.jobs > 1 && options.repeat <= 1 && cases.len() > 1 {
            report.cases =
                self.judge_parallel(problem, solution, &binary, cases, options, observer)?;
            report.parallel = report.cases.iter().any(|c| c.parallel || c.rerun.is_some());
        } else {
            report.jobs = 1;
            for (i, case) in cases.iter().enumerate() {
                observer.case_started(case, i, cases.len());
                let case_report =
                    self.run_repeated(problem, solution, &binary, case, &limits, options)?;
                observer.case_finished(&case_report, &limits);
                let ended = ends_run(&case_report, options);
                report.cases.push(case_report);
                if ended {
                    break;
                }
            }
        }
        report.passed = report
            .cases
            .iter()
            .filter(|c| c.verdict == Verdict::Ac)
            .count();
        report.verdict = verdict::overall(report.cases.iter().map(|c| &c.verdict));
        Ok(report)
    }

    /// Runs the cases on up to `options.jobs` runners at once. The observer hears of them in
    /// order; a case whose time might decide its verdict (TLE, or within 20% of the limit) is
    /// held back and re-run alone once the parallel runs are over.
    fn judge_parallel(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        binary: &Path,
        cases: &[TestCase],
        options: &Options,
        observer: &mut dyn Observer,
    ) -> Result<Vec<CaseReport>> {
        let limits = options.limits(problem);
        let jobs = options.jobs.min(cases.len());
        self.ensure_slots(jobs)?;
        let (env, slots) = self.parts();

        let n = cases.len();
        let next = AtomicUsize::new(0);
        // The first case whose failure ends the run (--stop-on-fail): no case after it starts.
        let stop_after = AtomicUsize::new(usize::MAX);
        let mut done: Vec<Option<CaseReport>> = vec![None; n];
        let mut out = Vec::new();
        let mut emitted = 0;
        let mut ended = false;
        let mut error = None;
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<CaseReport>)>();
        observer.case_started(&cases[0], 0, n);
        std::thread::scope(|s| {
            for slot in slots.iter_mut().take(jobs) {
                let (tx, next, stop_after, limits) = (tx.clone(), &next, &stop_after, &limits);
                s.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= n || i > stop_after.load(Ordering::SeqCst) {
                        break;
                    }
                    let case = &cases[i];
                    let result = slot
                        .run_case(env, problem, binary, case, limits)
                        .map(|mut c| {
                            c.parallel = true;
                            if c.verdict != Verdict::Ac {
                                c.saved_output = slot.keep_output(env, problem, solution, case);
                                c.input = shown_input(&case.input, c.verdict, options.show_input);
                            }
                            c
                        });
                    let final_end = match &result {
                        Ok(c) => ends_run(c, options) && !needs_rerun(c, limits),
                        Err(_) => true,
                    };
                    if final_end {
                        stop_after.fetch_min(i, Ordering::SeqCst);
                    }
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            for (i, result) in rx {
                match result {
                    Ok(c) => done[i] = Some(c),
                    Err(e) => {
                        error.get_or_insert(e);
                        stop_after.store(0, Ordering::SeqCst);
                    }
                }
                // Tell the observer in order, up to the first case that must wait for its re-run.
                while !ended && emitted < n {
                    match &done[emitted] {
                        Some(c) if !needs_rerun(c, &limits) => {
                            let c = done[emitted].take().expect("just matched");
                            ended = emit(observer, &mut out, c, &limits, options, cases);
                            emitted += 1;
                        }
                        _ => break,
                    }
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        // The rest, in order, re-running alone what must be: nothing else runs now.
        while !ended && emitted < n {
            let Some(mut c) = done[emitted].take() else {
                break;
            };
            if needs_rerun(&c, &limits) {
                let case = &cases[emitted];
                let before = format!(
                    "re-run alone; in parallel: {} in {}",
                    c.verdict.code(),
                    crate::report::format_duration(c.cpu)
                );
                c = self.run_case(problem, binary, case, &limits)?;
                if c.verdict != Verdict::Ac {
                    c.saved_output = self.keep_output(problem, solution, case);
                    c.input = shown_input(&case.input, c.verdict, options.show_input);
                }
                c.rerun = Some(before);
            }
            ended = emit(observer, &mut out, c, &limits, options, cases);
            emitted += 1;
        }
        Ok(out)
    }

    /// Runs one case `repeat` times. The report is that of the first run that failed (a
    /// solution that fails once is not reliably accepted), otherwise of the first run, with
    /// the median CPU time of the runs and the largest memory. A run over the time limit
    /// ends the repeats: each one would cost the whole limit again.
    fn run_repeated(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        binary: &Path,
        case: &TestCase,
        limits: &Limits,
        options: &Options,
    ) -> Result<CaseReport> {
        let repeat = options.repeat;
        let mut report: Option<CaseReport> = None;
        let mut runs = Vec::new();
        let mut verdicts = Vec::new();
        let mut memory = 0;
        for _ in 0..repeat.max(1) {
            let mut this = self.run_case(problem, binary, case, limits)?;
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

    /// Runs a program whose output is not checked (a generator, a reference making an answer):
    /// AC when it ran cleanly within `limits`, otherwise the verdict and reason that say why not.
    pub fn run_unchecked(
        &mut self,
        binary: &Path,
        args: &[String],
        input: Option<&Path>,
        limits: &Limits,
    ) -> Result<(Verdict, Reason, Execution)> {
        let execution = self.execute(binary, args, input, limits)?;
        let (verdict, reason, _) =
            verdict::decide(&execution.measurement, limits, || check::CheckOutcome {
                accepted: true,
                message: None,
                hint: None,
            });
        Ok((verdict, reason, execution))
    }

    /// Runs `binary` alone on `input` under `limits` and returns what was measured, without
    /// checking the output: for measurements such as `judge scale`.
    pub fn measure(
        &mut self,
        binary: &Path,
        input: &Path,
        limits: &Limits,
    ) -> Result<run::Response> {
        Ok(self.execute(binary, &[], Some(input), limits)?.response)
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

impl Slot {
    /// Runs the binary on one case and decides its verdict.
    fn run_case(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        binary: &Path,
        case: &TestCase,
        limits: &Limits,
    ) -> Result<CaseReport> {
        let execution = self.execute(binary, &[], Some(&case.input), limits)?;
        let measurement = &execution.measurement;
        let mut internal_error = None;
        let mut diff = None;
        let mut judge_error = None;
        let (mut verdict, reason, hint) = verdict::decide(measurement, limits, || {
            match self.check_output(env, problem, &case.input, &case.answer, &execution.stdout) {
                Ok(checked) => {
                    internal_error = checked.internal_error;
                    diff = checked.diff;
                    checked.outcome
                }
                Err(e) => {
                    judge_error = Some(e);
                    check::CheckOutcome {
                        accepted: false,
                        message: None,
                        hint: None,
                    }
                }
            }
        });
        if let Some(e) = judge_error {
            return Err(e);
        }
        let mut detail = match &reason {
            Reason::Accepted => None,
            r => Some(r.to_string()),
        };
        if let Some(ie) = internal_error {
            verdict = Verdict::Ie;
            detail = Some(ie);
            diff = None;
        }
        // Most programs write nothing there, and then the runner makes no file to read.
        let stderr = if execution.response.stderr_bytes > 0 {
            std::fs::read(&execution.stderr).unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut hint = hint;
        if verdict == Verdict::Re && stack_overflow(&reason, &stderr) {
            hint = Some("likely a stack overflow".into());
        }
        Ok(CaseReport {
            name: case.name.clone(),
            sample: case.sample,
            verdict,
            detail,
            hint,
            cpu: measurement.cpu,
            wall: measurement.wall,
            memory_bytes: measurement.peak_memory_bytes,
            output_bytes: execution.response.stdout_bytes,
            diff,
            stderr: (verdict != Verdict::Ac).then(|| tail(&stderr)).flatten(),
            killed_by: killed_by(&execution.response),
            parallel: false,
            rerun: None,
            leftover_processes: execution.response.leftover_processes,
            saved_output: None,
            input: None,
            timing: None,
        })
    }

    /// Runs `binary` with `args`, `input` on stdin (empty when `None`), under `limits`.
    /// Its stdout and stderr go to the scratch dir and stay there until the next run.
    fn execute(
        &mut self,
        binary: &Path,
        args: &[String],
        input: Option<&Path>,
        limits: &Limits,
    ) -> Result<Execution> {
        let mut request = self.request(binary, input, limits);
        request.args = args.to_vec();
        let response = self.runner.run(&request)?;
        let measurement = Measurement {
            outcome: response.outcome.clone(),
            cpu: Duration::from_micros(response.cpu_us()),
            wall: Duration::from_micros(response.wall_us),
            peak_memory_bytes: response.max_rss_kb * 1024,
            killed_by: response.killed_by,
            stdout_bytes: response.stdout_bytes,
            leftover_processes: response.leftover_processes,
        };
        Ok(Execution {
            measurement,
            response,
            stdout: request.stdout,
            stderr: request.stderr,
        })
    }

    /// Checks `output` against `answer` (for the case whose input is `input`) with the problem's
    /// checker: a built-in mode, or the custom checker program. Every comparison of an output
    /// with an answer (test cases, stress testing) goes through here.
    fn check_output(
        &mut self,
        env: Env<'_>,
        problem: &Problem,
        input: &Path,
        answer: &Path,
        output: &Path,
    ) -> Result<Checked> {
        if let Some(program) = &problem.checker_program {
            return self.run_checker(env, program, input, answer, output);
        }
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
        let outcome = check::compare(problem.checker, &problem.compare, &answer, &output);
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
        program: &CheckerProgram,
        input: &Path,
        answer: &Path,
        output: &Path,
    ) -> Result<Checked> {
        let shown = env.workspace.show(&program.source);
        let built = compile::compile(
            &program.source,
            env.toolchain,
            env.cache,
            &mut self.runner,
            &CompileOptions {
                time_limit: compile::DEFAULT_COMPILE_TIME,
                cwd: env.workspace.root.clone(),
            },
        )?;
        let binary = match built {
            Ok(b) => b.path,
            Err(ce) => {
                let diagnostics = anstream::adapter::strip_str(&ce.diagnostics).to_string();
                return Ok(Checked::failed(format!(
                    "the checker {shown} does not compile:\n{}",
                    first_lines(&diagnostics, CHECKER_MESSAGE_LINES)
                )));
            }
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
        let scratch = self.dir.as_path();
        let limits = Limits {
            time: program.time,
            wall: program.time * 2 + Duration::from_secs(1),
            memory_bytes: program.memory_bytes,
            output_bytes: CHECKER_FILE_SIZE,
        };
        let request = run::Request {
            program: binary,
            args,
            env: Some(Vec::new()),
            cwd: scratch.join("box"),
            clean_cwd: true,
            stdin: None,
            stdout: scratch.join("checker.stdout"),
            stderr: scratch.join("checker.stderr"),
            limits: runner_limits(&limits),
        };
        let response = self.runner.run(&request)?;
        // testlib writes its message to stderr; a checker that prints it is heard too.
        let stderr = std::fs::read(&request.stderr).unwrap_or_default();
        let message = match checker_message(&stderr) {
            Some(m) => Some(m),
            None => checker_message(&std::fs::read(&request.stdout).unwrap_or_default()),
        };
        let with_message = |what: String| match &message {
            Some(m) => format!("{what}: {m}"),
            None => what,
        };
        let cpu = Duration::from_micros(response.cpu_us());
        let failed = |why: String| {
            Ok(Checked::failed(with_message(format!(
                "checker failed: {why}"
            ))))
        };
        let time = crate::report::format_duration(program.time);
        let memory = crate::report::format_bytes(program.memory_bytes);
        match (&response.killed_by, &response.outcome) {
            (Some(run::KilledBy::WallCap), _) => {
                return failed(format!(
                    "it did not finish within its wall-clock cap ({})",
                    crate::report::format_duration(limits.wall)
                ))
            }
            (Some(run::KilledBy::CpuLimit), _) => {
                return failed(format!("it used more than its {time} of CPU time"))
            }
            (Some(run::KilledBy::MemoryLimit), _) => {
                return failed(format!("it used more than its {memory} of memory"))
            }
            (_, run::Outcome::SpawnFailed(why)) => {
                return failed(format!("it could not be started: {why}"))
            }
            (_, run::Outcome::Signaled(sig)) => {
                return failed(format!("it was killed by {}", run::signal_name(*sig)))
            }
            _ => {}
        }
        if cpu > program.time {
            return failed(format!("it used more than its {time} of CPU time"));
        }
        if response.max_rss_kb * 1024 > program.memory_bytes {
            return failed(format!("it used more than its {memory} of memory"));
        }
        let rejected = |message: String| {
            Ok(Checked::judged(check::CheckOutcome {
                accepted: false,
                message: Some(message),
                hint: None,
            }))
        };
        match response.outcome {
            run::Outcome::Exited(0) => Ok(Checked::judged(check::CheckOutcome {
                accepted: true,
                message: None,
                hint: None,
            })),
            run::Outcome::Exited(1) => {
                rejected(message.unwrap_or_else(|| {
                    "the checker rejected the output (it gave no reason)".into()
                }))
            }
            run::Outcome::Exited(2) => rejected(with_message("presentation error".into())),
            run::Outcome::Exited(code) => failed(format!("exit code {code}")),
            _ => unreachable!("signals and spawn failures are handled above"),
        }
    }

    fn request(&self, binary: &Path, input: Option<&Path>, limits: &Limits) -> run::Request {
        let scratch = self.dir.as_path();
        run::Request {
            program: binary.to_path_buf(),
            args: Vec::new(),
            env: Some(Vec::new()),
            cwd: scratch.join("box"),
            clean_cwd: true,
            stdin: input.map(Path::to_path_buf),
            stdout: scratch.join("stdout"),
            stderr: scratch.join("stderr"),
            limits: runner_limits(limits),
        }
    }

    /// Keeps a failed case's output and stderr in `.judge/last/` for a look afterwards.
    fn keep_output(
        &self,
        env: Env<'_>,
        problem: &Problem,
        solution: &Solution,
        case: &TestCase,
    ) -> Option<PathBuf> {
        let dir = env
            .workspace
            .state_dir()
            .join("last")
            .join(&problem.id)
            .join(&solution.name);
        std::fs::create_dir_all(&dir).ok()?;
        let out = dir.join(format!("{}.out", case.name));
        std::fs::copy(self.dir.join("stdout"), &out).ok()?;
        let err = dir.join(format!("{}.err", case.name));
        if std::fs::copy(self.dir.join("stderr"), &err).is_err() {
            // The program wrote nothing to stderr: the runner made no file.
            let _ = std::fs::write(&err, b"");
        }
        Some(out)
    }
}

impl Drop for Judge {
    fn drop(&mut self) {
        run::interrupt::unregister_temp_dir(self.scratch.path());
    }
}

/// Whether the run ends after this case: `--stop-on-fail` after a failure, `--skip-after-tle`
/// after a TLE.
fn ends_run(c: &CaseReport, options: &Options) -> bool {
    c.verdict != Verdict::Ac && options.stop_on_fail
        || c.verdict == Verdict::Tle && options.skip_after_tle
}

/// A case's time may decide its verdict: TLE, or within 20% of the limit.
fn needs_rerun(c: &CaseReport, limits: &Limits) -> bool {
    c.verdict == Verdict::Tle || c.cpu * 5 >= limits.time * 4
}

/// Hands a final case report to the observer; true when the run ends there.
fn emit(
    observer: &mut dyn Observer,
    out: &mut Vec<CaseReport>,
    c: CaseReport,
    limits: &Limits,
    options: &Options,
    cases: &[TestCase],
) -> bool {
    observer.case_finished(&c, limits);
    let ended = ends_run(&c, options);
    out.push(c);
    if !ended && out.len() < cases.len() {
        observer.case_started(&cases[out.len()], out.len(), cases.len());
    }
    ended
}

/// The runner's limits for a solution under `limits`.
pub fn runner_limits(limits: &Limits) -> run::Limits {
    run::Limits {
        cpu_ms: Some(limits.time.as_millis().max(1) as u64),
        wall_ms: limits.wall.as_millis() as u64,
        memory_bytes: Some(limits.memory_bytes),
        // A backstop only, against a runaway the sampling could miss: resident memory is
        // what is limited and measured, so memory a program reserves but never touches is
        // free, as under cgroup-based judges.
        address_space_bytes: Some(limits.memory_bytes.saturating_add(ADDRESS_SPACE_SLACK)),
        // The stack may grow as far as memory allows, as on Codeforces.
        stack_bytes: Some(limits.memory_bytes),
        file_size_bytes: Some(limits.output_bytes + 1),
        open_files: Some(256),
        stderr_keep_bytes: STDERR_KEEP,
    }
}

fn killed_by(r: &run::Response) -> Option<&'static str> {
    match (r.killed_by, &r.outcome) {
        (Some(run::KilledBy::WallCap), _) => Some("wall_cap"),
        (Some(run::KilledBy::CpuLimit), _) => Some("cpu_limit"),
        (Some(run::KilledBy::MemoryLimit), _) => Some("memory_limit"),
        (None, run::Outcome::Signaled(s)) if *s == run::SIGXFSZ => Some("output_limit"),
        (None, run::Outcome::Signaled(s)) if *s == run::SIGXCPU => Some("cpu_backstop"),
        _ => None,
    }
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
fn shown_input(path: &Path, verdict: Verdict, force: bool) -> Option<String> {
    if !force && verdict != Verdict::Wa {
        return None;
    }
    let data = std::fs::read(path).ok()?;
    let lines = data.iter().filter(|&&b| b == b'\n').count() + usize::from(!data.ends_with(b"\n"));
    if !force && (data.len() > SHORT_INPUT_BYTES || lines > SHORT_INPUT_LINES) {
        return None;
    }
    Some(printable_text(&data, SHOWN_INPUT_MAX_BYTES))
}

/// Text safe for a terminal, line by line, cut after `max` bytes with a note saying how much more there is.
pub fn printable_text(data: &[u8], max: usize) -> String {
    let shown = &data[..data.len().min(max)];
    let body = shown
        .strip_suffix(b"\n")
        .unwrap_or(shown)
        .split(|&b| b == b'\n')
        .map(check::escape)
        .collect::<Vec<_>>()
        .join("\n");
    if data.len() > max {
        format!("{body}…\n({} more bytes)", data.len() - max)
    } else {
        body
    }
}

/// The end of a program's stderr, for a report.
pub fn stderr_tail(stderr: &[u8]) -> Option<String> {
    tail(stderr)
}

fn tail(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.trim_end().lines().collect();
    if lines.is_empty() {
        return None;
    }
    let from = lines.len().saturating_sub(STDERR_TAIL_LINES);
    Some(
        lines[from..]
            .iter()
            .map(|l| check::escape(l.as_bytes()))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// A checker's message: its text, trimmed, escaped, at most a few lines. `None` when blank.
fn checker_message(data: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(data);
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let escaped: Vec<String> = text
        .lines()
        .map(|l| {
            let l = l.trim_end();
            match l.char_indices().nth(CHECKER_MESSAGE_WIDTH) {
                Some((cut, _)) => format!("{}…", check::escape(&l.as_bytes()[..cut])),
                None => check::escape(l.as_bytes()),
            }
        })
        .collect();
    Some(first_lines(&escaped.join("\n"), CHECKER_MESSAGE_LINES))
}

/// At most `n` lines of `text`, saying how many were left out.
fn first_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    if lines.len() <= n {
        return lines.join("\n");
    }
    format!(
        "{}\n… ({} more lines)",
        lines[..n].join("\n"),
        lines.len() - n
    )
}

pub(crate) fn ser_ms<S: serde::Serializer>(
    d: &Duration,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis() as u64)
}

fn ser_kb<S: serde::Serializer>(b: &u64, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_u64(b / 1024)
}

pub(crate) fn ser_limits<S: serde::Serializer>(
    l: &Limits,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut st = s.serialize_struct("Limits", 4)?;
    st.serialize_field("time_ms", &(l.time.as_millis() as u64))?;
    st.serialize_field("wall_ms", &(l.wall.as_millis() as u64))?;
    st.serialize_field("memory_kb", &(l.memory_bytes / 1024))?;
    st.serialize_field("output_kb", &(l.output_bytes / 1024))?;
    st.end()
}
