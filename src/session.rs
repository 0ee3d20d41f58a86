//! Judging one solution: compile it, run it on each case under the limits, check, decide, collect the reports.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;

use crate::check;
use crate::compile::{self, Cache, CompileOptions, Toolchain};
use crate::error::{Error, Result};
use crate::run::{self, Runner};
use crate::verdict::{self, Expectation, Limits, Measurement, Reason, Verdict};
use crate::workspace::{Problem, Solution, TestCase, Workspace};

/// How much of stderr the runner keeps per case.
const STDERR_KEEP: u64 = 64 << 10;
/// Address space a program may reserve beyond its memory limit (RLIMIT_AS backstop).
pub const ADDRESS_SPACE_SLACK: u64 = 16 << 30;
/// Lines of diff shown for a wrong answer.
const DIFF_LINES: usize = 20;
/// Lines of stderr shown for a failed case.
const STDERR_TAIL_LINES: usize = 12;

/// Settings of a run that the user can change on the command line.
#[derive(Debug, Clone)]
pub struct Options {
    pub time_limit: Option<Duration>,
    pub memory_limit: Option<u64>,
    pub output_limit: Option<u64>,
    pub stop_on_fail: bool,
    pub compile_time_limit: Duration,
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
    /// Measured while other cases ran (`--jobs`): the time may be inflated.
    pub parallel: bool,
    /// Measured in parallel first, then re-run alone for its final verdict: what the parallel run saw.
    pub rerun: Option<String>,
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
    runner: Runner,
    scratch: tempfile::TempDir,
    /// More runners for `--jobs`, each with its own folder for a case's files; started on demand.
    extra: Vec<(Runner, PathBuf)>,
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
        Ok(Judge {
            workspace,
            toolchain,
            cache,
            runner,
            scratch,
            extra: Vec::new(),
        })
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
            &mut self.runner,
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
        if options.jobs > 1 && cases.len() > 1 {
            report.cases =
                self.judge_parallel(problem, solution, &binary, cases, options, observer)?;
            report.parallel = report.cases.iter().any(|c| c.parallel || c.rerun.is_some());
        } else {
            for (i, case) in cases.iter().enumerate() {
                observer.case_started(case, i, cases.len());
                let mut case_report = self.run_case(problem, &binary, case, &limits)?;
                if case_report.verdict != Verdict::Ac {
                    case_report.saved_output = Self::keep_output(
                        &self.workspace,
                        self.scratch.path(),
                        problem,
                        solution,
                        case,
                    );
                }
                observer.case_finished(&case_report, &limits);
                let failed = case_report.verdict != Verdict::Ac;
                report.cases.push(case_report);
                if failed && options.stop_on_fail {
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
        while self.extra.len() + 1 < jobs {
            let dir = self
                .scratch
                .path()
                .join(format!("job{}", self.extra.len() + 1));
            std::fs::create_dir_all(dir.join("box")).map_err(|e| Error::io(&dir, e))?;
            self.extra.push((Runner::start()?, dir));
        }
        let Judge {
            workspace,
            runner,
            scratch,
            extra,
            ..
        } = self;
        let workspace = &*workspace;
        let slots: Vec<(&mut Runner, &Path)> = std::iter::once((runner, scratch.path()))
            .chain(extra.iter_mut().map(|(r, d)| (r, d.as_path())))
            .take(jobs)
            .collect();

        let n = cases.len();
        let next = AtomicUsize::new(0);
        // With --stop-on-fail: the first case whose failure is final; no case after it starts.
        let stop_after = AtomicUsize::new(usize::MAX);
        let mut done: Vec<Option<CaseReport>> = vec![None; n];
        let mut out = Vec::new();
        let mut emitted = 0;
        let mut ended = false;
        let mut error = None;
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<CaseReport>)>();
        observer.case_started(&cases[0], 0, n);
        std::thread::scope(|s| {
            for (runner, dir) in slots {
                let (tx, next, stop_after, limits) = (tx.clone(), &next, &stop_after, &limits);
                s.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= n || i > stop_after.load(Ordering::SeqCst) {
                        break;
                    }
                    let case = &cases[i];
                    let result =
                        Judge::run_case_in(workspace, runner, dir, problem, binary, case, limits)
                            .map(|mut c| {
                                c.parallel = true;
                                if c.verdict != Verdict::Ac {
                                    c.saved_output =
                                        Judge::keep_output(workspace, dir, problem, solution, case);
                                }
                                c
                            });
                    let final_failure = match &result {
                        Ok(c) => {
                            options.stop_on_fail
                                && c.verdict != Verdict::Ac
                                && !needs_rerun(c, limits)
                        }
                        Err(_) => true,
                    };
                    if final_failure {
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
                    c.saved_output = Self::keep_output(
                        &self.workspace,
                        self.scratch.path(),
                        problem,
                        solution,
                        case,
                    );
                }
                c.rerun = Some(before);
            }
            ended = emit(observer, &mut out, c, &limits, options, cases);
            emitted += 1;
        }
        Ok(out)
    }

    /// Runs `binary` alone on `input` under `limits` and returns what was measured, without
    /// checking the output: for measurements such as `judge scale`.
    pub fn measure(
        &mut self,
        binary: &Path,
        input: &Path,
        limits: &Limits,
    ) -> Result<run::Response> {
        let request = Self::request(self.scratch.path(), binary, input, limits);
        Ok(self.runner.run(&request)?)
    }

    /// Runs the binary on one case and decides its verdict.
    pub fn run_case(
        &mut self,
        problem: &Problem,
        binary: &Path,
        case: &TestCase,
        limits: &Limits,
    ) -> Result<CaseReport> {
        Self::run_case_in(
            &self.workspace,
            &mut self.runner,
            self.scratch.path(),
            problem,
            binary,
            case,
            limits,
        )
    }

    /// Runs the binary on one case with `runner`, its files in `slot`, and decides its verdict.
    fn run_case_in(
        workspace: &Workspace,
        runner: &mut Runner,
        slot: &Path,
        problem: &Problem,
        binary: &Path,
        case: &TestCase,
        limits: &Limits,
    ) -> Result<CaseReport> {
        let request = Self::request(slot, binary, &case.input, limits);
        let response = runner.run(&request)?;
        let measurement = Measurement {
            outcome: response.outcome.clone(),
            cpu: Duration::from_micros(response.cpu_us()),
            wall: Duration::from_micros(response.wall_us),
            peak_memory_bytes: response.max_rss_kb * 1024,
            killed_by: response.killed_by,
            stdout_bytes: response.stdout_bytes,
        };
        let mut internal_error = None;
        let mut diff = None;
        let (mut verdict, reason, hint) = verdict::decide(&measurement, limits, || {
            let output = match std::fs::read(&request.stdout) {
                Ok(o) => o,
                Err(e) => {
                    internal_error = Some(format!("cannot read the program's output: {e}"));
                    return check::CheckOutcome {
                        accepted: false,
                        message: None,
                        hint: None,
                    };
                }
            };
            let answer = match std::fs::read(&case.answer) {
                Ok(a) => a,
                Err(e) => {
                    internal_error = Some(format!(
                        "cannot read the answer {}: {e}",
                        workspace.show(&case.answer)
                    ));
                    return check::CheckOutcome {
                        accepted: false,
                        message: None,
                        hint: None,
                    };
                }
            };
            let outcome = check::check(problem.checker, &answer, &output);
            if !outcome.accepted {
                diff = check::diff(&answer, &output, DIFF_LINES);
            }
            outcome
        });
        let mut detail = match &reason {
            Reason::Accepted => None,
            r => Some(r.to_string()),
        };
        if let Some(ie) = internal_error {
            verdict = Verdict::Ie;
            detail = Some(ie);
            diff = None;
        }
        let stderr = if response.stderr_bytes > 0 {
            std::fs::read(&request.stderr).unwrap_or_default()
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
            output_bytes: response.stdout_bytes,
            diff,
            stderr: (verdict != Verdict::Ac).then(|| tail(&stderr)).flatten(),
            killed_by: killed_by(&response),
            leftover_processes: response.leftover_processes,
            saved_output: None,
            parallel: false,
            rerun: None,
        })
    }

    fn request(scratch: &Path, binary: &Path, input: &Path, limits: &Limits) -> run::Request {
        run::Request {
            program: binary.to_path_buf(),
            args: Vec::new(),
            env: Some(Vec::new()),
            cwd: scratch.join("box"),
            clean_cwd: true,
            stdin: Some(input.to_path_buf()),
            stdout: scratch.join("stdout"),
            stderr: scratch.join("stderr"),
            limits: runner_limits(limits),
        }
    }

    /// Keeps a failed case's output and stderr (from the folder `slot`) in `.judge/last/` for a look afterwards.
    fn keep_output(
        workspace: &Workspace,
        slot: &Path,
        problem: &Problem,
        solution: &Solution,
        case: &TestCase,
    ) -> Option<PathBuf> {
        let dir = workspace
            .state_dir()
            .join("last")
            .join(&problem.id)
            .join(&solution.name);
        std::fs::create_dir_all(&dir).ok()?;
        let out = dir.join(format!("{}.out", case.name));
        std::fs::copy(slot.join("stdout"), &out).ok()?;
        let err = dir.join(format!("{}.err", case.name));
        if std::fs::copy(slot.join("stderr"), &err).is_err() {
            // The program wrote nothing to stderr: the runner made no file.
            let _ = std::fs::write(&err, b"");
        }
        Some(out)
    }
}

/// A case's time may decide its verdict: TLE, or within 20% of the limit.
fn needs_rerun(c: &CaseReport, limits: &Limits) -> bool {
    c.verdict == Verdict::Tle || c.cpu * 5 >= limits.time * 4
}

/// Hands a final case report to the observer; true when the run ends there (--stop-on-fail).
fn emit(
    observer: &mut dyn Observer,
    out: &mut Vec<CaseReport>,
    c: CaseReport,
    limits: &Limits,
    options: &Options,
    cases: &[TestCase],
) -> bool {
    observer.case_finished(&c, limits);
    let failed = c.verdict != Verdict::Ac;
    out.push(c);
    let ended = failed && options.stop_on_fail;
    if !ended && out.len() < cases.len() {
        observer.case_started(&cases[out.len()], out.len(), cases.len());
    }
    ended
}

impl Drop for Judge {
    fn drop(&mut self) {
        run::interrupt::unregister_temp_dir(self.scratch.path());
    }
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

fn ser_ms<S: serde::Serializer>(d: &Duration, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis() as u64)
}

fn ser_kb<S: serde::Serializer>(b: &u64, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_u64(b / 1024)
}

fn ser_limits<S: serde::Serializer>(l: &Limits, s: S) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut st = s.serialize_struct("Limits", 4)?;
    st.serialize_field("time_ms", &(l.time.as_millis() as u64))?;
    st.serialize_field("wall_ms", &(l.wall.as_millis() as u64))?;
    st.serialize_field("memory_kb", &(l.memory_bytes / 1024))?;
    st.serialize_field("output_kb", &(l.output_bytes / 1024))?;
    st.end()
}
