//! `judge eval`'s flow: the data set read, the samples (or the data set's own solutions), the
//! results an earlier run left, then each sample without a result judged by the engine as
//! `judge run` judges a solution (the problem's limits in CPU time, the sandbox, the build
//! cache, so identical sources build once) and its line added at once; then the summary of
//! every result. A problem that cannot be judged is named with its reason and the others go on;
//! the judge failing stops the run, and the next run goes on where it stopped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use judge_core::model::SolutionReport;
use judge_core::reason::Reason;
use judge_core::session::{Judging, Options, Quiet};
use judge_core::verdict::Verdict;
use judge_core::workspace::{Problem, Solution, TestCase, Workspace};
use sha2::Digest;

use crate::against;
use crate::dataset::{self, DataProblem, Dataset, Format};
use crate::profile::{self, Profile};
use crate::results::{self, ResultsFile, SampleResult, TestRecord};
use crate::samples::{self, Sample};
use crate::summary::{self, FileRecord, Listed, Manifest, Summary, Toolchain};
use crate::{problem, Error};

/// What an evaluation asks for.
#[derive(Debug, Clone, Default)]
pub struct EvalOptions {
    pub dataset: PathBuf,
    /// open-r1's generated tests (its `test_cases` files, or their folder), judged after each
    /// problem's official ones; `None`: the official ones alone.
    pub tests: Option<PathBuf>,
    /// The data set's format; `None`: told from its fields.
    pub format: Option<Format>,
    /// The samples; `None`: the data set's own solutions.
    pub samples: Option<PathBuf>,
    /// Each sample's code is the last fenced block of its answer.
    pub extract: bool,
    /// The results file: resumable. `None`: the results are not kept.
    pub out: Option<PathBuf>,
    /// The k of pass@k.
    pub ks: Vec<u64>,
    /// Each sample's tests run this many at a time.
    pub jobs: usize,
    /// Every test runs, not only up to the first failure.
    pub all_tests: bool,
    /// Each problem judged on its `N` largest tests alone (by input length, ties to the
    /// earlier); `None`: every test.
    pub max_tests: Option<usize>,
    /// Another run's results file, to set this run's beside.
    pub against: Option<PathBuf>,
    /// The build's time limit.
    pub compile_time_limit: std::time::Duration,
    /// The `testlib.h` that data sets' testlib checkers and interactors are built with, where
    /// the data set ships none; `None`: one beside the data set, or the system's.
    pub testlib: Option<PathBuf>,
    /// The toolchains and limits samples are judged under: the workspace given to
    /// [`evaluate`] and its `Judging` are already the profile's ([`Profile::workspace`]).
    pub profile: Profile,
}

/// What an evaluation tells its front-end as it goes.
pub trait EvalObserver {
    /// The data set and samples are read: `todo` samples to judge, `done` had a result.
    fn started(&mut self, _dataset: &Dataset, _todo: usize, _done: usize) {}
    /// The problem `id` cannot be judged, for `why`; its samples are not.
    fn problem_error(&mut self, _id: &str, _why: &str) {}
    /// A sample is passed over: its problem cannot be judged (said once, by `problem_error`).
    fn sample_skipped(&mut self, _problem: &str) {}
    /// The `index`th of the `todo` samples is judged (and its line is in the results file:
    /// Ctrl-C waits for this call to end, and none comes after it).
    fn sample_done(&mut self, _index: usize, _todo: usize, _result: &SampleResult) {}
}

/// Judges the samples of `options` that have no result, and summarises every result.
pub fn evaluate(
    ws: &Workspace,
    judging: &mut dyn Judging,
    options: &EvalOptions,
    observer: &mut dyn EvalObserver,
) -> Result<Summary, Error> {
    let data =
        dataset::read_with_tests(&options.dataset, options.format, options.tests.as_deref())?;
    // Read first: a file that is not a results file stops the run before anything is judged.
    let other = options.against.as_deref().map(against::read).transpose()?;
    let (samples, samples_record) = match &options.samples {
        Some(path) => {
            let read = samples::read(path, options.extract)?;
            let record = FileRecord {
                path: path.display().to_string(),
                sha256: read.sha256,
            };
            (read.samples, Some(record))
        }
        None => (samples::references(&data), None),
    };
    let mut results = match &options.out {
        Some(out) => results::earlier(out)?,
        None => Vec::new(),
    };
    if let Some(out) = &options.out {
        same_tests(out, &data, &results, options.max_tests)?;
        same_profile(out, &results, options.profile)?;
    }
    options.profile.check(
        samples.iter().map(|s| s.language.as_str()),
        profile::on_path,
    )?;
    let done = results::keys(&results);
    let todo: Vec<&Sample> = samples
        .iter()
        .filter(|s| !done.contains(&(s.problem.clone(), s.index)))
        .collect();
    observer.started(&data, todo.len(), samples.len() - todo.len());
    let mut file = options.out.as_deref().map(ResultsFile::open).transpose()?;
    let mut run = Evaluation {
        ws,
        judging,
        data: &data,
        options,
        loaded: BTreeMap::new(),
    };
    for (i, sample) in todo.iter().enumerate() {
        let Some((problem, cases)) = run.problem(&sample.problem, observer) else {
            observer.sample_skipped(&sample.problem);
            continue;
        };
        let result = match run.judge(sample, &problem, &cases)? {
            Judged::Sample(r, _) => r,
            Judged::ProblemError(why) => {
                observer.problem_error(&sample.problem, &why);
                observer.sample_skipped(&sample.problem);
                run.loaded.insert(sample.problem.clone(), Err(why));
                continue;
            }
        };
        // Ctrl-C keeps every line written whole: the line and what is told of it are written
        // before its handler goes on, and a sample judged while it stopped the programs is
        // never written (its verdict could be the stop's).
        let kept = judge_runner::interrupt::uninterruptible(|| -> Result<bool, Error> {
            if judge_runner::interrupt::interrupted() {
                return Ok(false);
            }
            if let Some(f) = &mut file {
                f.add(&result)?;
            }
            observer.sample_done(i, todo.len(), &result);
            Ok(true)
        })?;
        if !kept {
            judge_runner::interrupt::wait_if_interrupted();
        }
        results.push(result);
    }
    let listed = run.listed(&samples);
    let manifest = manifest(ws, &data, options, samples_record, &results);
    let mut summary = summary::summarise(listed, &results, &options.ks, manifest);
    if let (Some(path), Some(other)) = (&options.against, &other) {
        let name = path.display().to_string();
        summary.against = Some(against::compare(&name, &results, other));
    }
    Ok(summary)
}

/// A problem made for the engine, or why it cannot be.
type Loaded = Result<(Problem, Vec<TestCase>), String>;

/// What judging the samples needs, and what it gathers.
struct Evaluation<'a> {
    ws: &'a Workspace,
    judging: &'a mut dyn Judging,
    data: &'a Dataset,
    options: &'a EvalOptions,
    /// Each problem made once, by its data set id.
    loaded: BTreeMap<String, Loaded>,
}

/// A sample judged (with the engine's report when it ran), or found to belong to a problem
/// that cannot be judged.
pub(crate) enum Judged {
    Sample(SampleResult, Option<Box<SolutionReport>>),
    ProblemError(String),
}

impl Evaluation<'_> {
    fn find(&self, id: &str) -> Option<&DataProblem> {
        self.data.problems.iter().find(|p| p.id == id)
    }

    /// The problem `id`, made on first use; `None` (told once) when it cannot be judged.
    fn problem(
        &mut self,
        id: &str,
        observer: &mut dyn EvalObserver,
    ) -> Option<(Problem, Vec<TestCase>)> {
        if !self.loaded.contains_key(id) {
            let loaded = match self.find(id) {
                None => Err(format!("the data set has no problem `{id}`")),
                Some(p) => p.spec.clone().and_then(|spec| {
                    let dir = problem::folder(&self.ws.cache_dir(), &self.data.sha256, id);
                    let setup = problem::Setup {
                        testlib: self.options.testlib.as_deref(),
                        dataset: Some(&self.data.path),
                    };
                    let (problem, cases) = problem::materialise(self.ws, &dir, id, &spec, setup)?;
                    Ok((problem, self.subset(&spec, cases)))
                }),
            };
            if let Err(why) = &loaded {
                observer.problem_error(id, why);
            }
            self.loaded.insert(id.to_string(), loaded);
        }
        self.loaded.get(id)?.as_ref().ok().cloned()
    }

    /// The cases `--max-tests` keeps: the largest inputs, in the tests' order; all without it.
    fn subset(&self, spec: &dataset::Spec, cases: Vec<TestCase>) -> Vec<TestCase> {
        let Some(n) = self.options.max_tests else {
            return cases;
        };
        let lengths: Vec<usize> = spec.tests.iter().map(|t| t.input.len()).collect();
        let keep = problem::largest(&lengths, n);
        cases
            .into_iter()
            .enumerate()
            .filter(|(i, _)| keep.binary_search(i).is_ok())
            .map(|(_, c)| c)
            .collect()
    }

    /// Judges one sample of `problem`.
    fn judge(
        &mut self,
        sample: &Sample,
        problem: &Problem,
        cases: &[TestCase],
    ) -> Result<Judged, Error> {
        let limits = self.options.profile.limits();
        let options = Options {
            jobs: self.options.jobs.max(1),
            stop_on_fail: !self.options.all_tests,
            compile_time_limit: self.options.compile_time_limit,
            time_limit: limits.map(|l| l.time),
            memory_limit: limits.map(|l| l.memory_bytes),
            ..Options::default()
        };
        let sample = self.prepared(sample);
        judge_sample(
            self.judging,
            &sample,
            problem,
            cases,
            &options,
            self.options.profile,
        )
    }

    /// The sample as it is built: an APPS call-based sample's function made the method the
    /// judge calls, then what the profile puts before it.
    fn prepared(&self, sample: &Sample) -> Sample {
        let mut prepared = sample.clone();
        let Ok(code) = &sample.code else {
            return prepared;
        };
        let function = self
            .find(&sample.problem)
            .and_then(|p| p.spec.as_ref().ok())
            .and_then(|s| s.function.as_ref());
        let code = match function {
            Some(f) if self.data.format == Format::Apps && sample.language == "python" => {
                dataset::as_method(code, f)
            }
            _ => code.clone(),
        };
        prepared.code = Ok(self.options.profile.source(&sample.language, &code));
        prepared
    }

    /// The problems the summary lists: those the samples name, in the data set's order (and
    /// those it lacks after), each with its tests or its error.
    fn listed(&self, samples: &[Sample]) -> Vec<Listed> {
        let verifying = self.options.samples.is_none();
        let named: std::collections::BTreeSet<&str> =
            samples.iter().map(|s| s.problem.as_str()).collect();
        let mut listed: Vec<Listed> = self
            .data
            .problems
            .iter()
            .filter(|p| verifying || named.contains(p.id.as_str()))
            .map(|p| {
                let all = p.spec.as_ref().map_or(0, |s| s.tests.len());
                Listed {
                    id: p.id.clone(),
                    tests: self.options.max_tests.map_or(all, |n| all.min(n)),
                    tests_total: self.options.max_tests.map(|_| all),
                    error: match self.loaded.get(&p.id) {
                        Some(Err(why)) => Some(why.clone()),
                        _ => p.spec.as_ref().err().cloned(),
                    },
                }
            })
            .collect();
        for id in named {
            if self.find(id).is_none() {
                listed.push(Listed {
                    id: id.to_string(),
                    tests: 0,
                    tests_total: None,
                    error: Some(format!("the data set has no problem `{id}`")),
                });
            }
        }
        listed
    }
}

/// Judges `sample` on `problem`'s `cases` with `options`: a sample without code, or in a
/// language the judge has not, is a result that says why (a data set's solution in a language
/// not installed is not counted); the problem's own fault is its error.
pub(crate) fn judge_sample(
    judging: &mut dyn Judging,
    sample: &Sample,
    problem: &Problem,
    cases: &[TestCase],
    options: &Options,
    profile: Profile,
) -> Result<Judged, Error> {
    let unrun = |why: String, counted: bool| {
        Judged::Sample(
            SampleResult {
                problem: sample.problem.clone(),
                sample: sample.index,
                language: sample.language.clone(),
                correct: sample.correct,
                verdict: None,
                passed: 0,
                total: cases.len(),
                reason: Some(why),
                compiler: None,
                profile: profile.name().into(),
                counted,
                tests: Vec::new(),
            },
            None,
        )
    };
    let code = match &sample.code {
        Ok(code) => code,
        // A data set's solution in a language the judge does not run is not counted.
        Err(why) => return Ok(unrun(why.clone(), sample.correct.is_none())),
    };
    let languages = &judging.workspace().config.languages;
    let Some(language) = languages.get(&sample.language) else {
        let why = format!(
            "no language `{}`; the languages are {}",
            sample.language,
            languages.known()
        );
        return Ok(unrun(why, sample.correct.is_none()));
    };
    let solution = source_file(
        problem,
        sample,
        code,
        language.extensions.first().map_or("txt", String::as_str),
    )?;
    match judging.judge(problem, &solution, cases, options, &mut Quiet) {
        // A checker or interactor of the data set's that does not build is the problem's.
        Ok(report) => Ok(match problem::own_program_broken(&report) {
            Some(why) => Judged::ProblemError(why),
            None => Judged::Sample(
                result_of(sample, &report, cases.len(), profile),
                Some(Box::new(report)),
            ),
        }),
        Err(e) => match solution.skipped_because(&e) {
            Some(skip) => Ok(unrun(skip.skipped, false)),
            None => match e {
                // The problem's own fault (its tests against its function, its files).
                judge_core::Error::Config { .. }
                | judge_core::Error::TestData { .. }
                | judge_core::Error::Unsupported { .. } => Ok(Judged::ProblemError(e.to_string())),
                e => Err(e.into()),
            },
        },
    }
}

/// Writes the sample's source where it is judged from: in a folder beside its problem's (not
/// in it: the problem's folder is what a cluster's workers are sent, the same for every
/// sample), under the hash of its language and code, so identical sources are one file and
/// one build.
fn source_file(
    problem: &Problem,
    sample: &Sample,
    code: &str,
    extension: &str,
) -> Result<Solution, Error> {
    let mut hash = sha2::Sha256::new();
    hash.update(sample.language.as_bytes());
    hash.update([0]);
    hash.update(code.as_bytes());
    let stem = format!("s{}", &dataset::hex(&hash.finalize())[..16]);
    let mut samples = problem.dir.clone().into_os_string();
    samples.push(".samples");
    let path = PathBuf::from(samples)
        .join(&stem)
        .join(format!("{stem}.{extension}"));
    if !path.is_file() {
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
        judge_core::atomic::replace(&path, code.as_bytes())?;
    }
    Ok(Solution {
        name: format!("sample-{}", sample.index),
        problem: problem.id.clone(),
        path,
    })
}

/// Refuses to add to a results file whose lines were judged on other tests than this run's
/// (another `--max-tests`, or a data set changed under it): their figures cannot be mixed.
fn same_tests(
    out: &Path,
    data: &Dataset,
    results: &[SampleResult],
    max_tests: Option<usize>,
) -> Result<(), Error> {
    for r in results {
        let Some(Ok(spec)) = data
            .problems
            .iter()
            .find(|p| p.id == r.problem)
            .map(|p| &p.spec)
        else {
            continue;
        };
        let now = max_tests.map_or(spec.tests.len(), |n| spec.tests.len().min(n));
        if r.total != now {
            return Err(Error::Results {
                at: judge_core::error::Location::file(out),
                message: format!(
                    "sample {} of `{}` was judged on {} tests, and this run judges the problem on {now} (another --max-tests, or another data set)",
                    r.sample, r.problem, r.total
                ),
            });
        }
    }
    Ok(())
}

/// Refuses to add to a results file whose lines were judged under another profile: their
/// figures cannot be mixed.
fn same_profile(out: &Path, results: &[SampleResult], now: Profile) -> Result<(), Error> {
    match results.iter().find(|r| r.profile != now.name()) {
        None => Ok(()),
        Some(r) => Err(Error::Results {
            at: judge_core::error::Location::file(out),
            message: format!(
                "sample {} of `{}` was judged under the profile `{}`, and this run judges under `{}`",
                r.sample,
                r.problem,
                r.profile,
                now.name()
            ),
        }),
    }
}

/// What makes the figures what they are: the judge, the profile, the files read with their
/// hashes, the rules, and the toolchains that built the results.
fn manifest(
    ws: &Workspace,
    data: &Dataset,
    options: &EvalOptions,
    samples: Option<FileRecord>,
    results: &[SampleResult],
) -> Manifest {
    Manifest {
        judge: env!("CARGO_PKG_VERSION").to_string(),
        profile: options.profile.name().into(),
        dataset: FileRecord {
            path: data.path.display().to_string(),
            sha256: data.sha256.clone(),
        },
        shards: if data.path.is_dir() {
            records(&data.files)
        } else {
            Vec::new()
        },
        tests: records(&data.tests),
        format: data.format.name().into(),
        samples,
        limits: options
            .profile
            .limits_source()
            .unwrap_or(data.format.limits_source())
            .into(),
        comparison: data.format.comparison().into(),
        all_tests: options.all_tests,
        max_tests: options.max_tests,
        toolchains: toolchains(ws, results),
    }
}

/// The manifest's record of each file read.
fn records(files: &[dataset::DataFile]) -> Vec<FileRecord> {
    files
        .iter()
        .map(|f| FileRecord {
            path: f.path.display().to_string(),
            sha256: f.sha256.clone(),
        })
        .collect()
}

/// The toolchain of each language the results were built in, the first identity found.
fn toolchains(ws: &Workspace, results: &[SampleResult]) -> Vec<Toolchain> {
    let mut found: Vec<Toolchain> = Vec::new();
    for r in results {
        let Some(version) = &r.compiler else { continue };
        if found.iter().any(|t| t.language == r.language) {
            continue;
        }
        let Some(language) = ws.config.languages.get(&r.language) else {
            continue;
        };
        found.push(Toolchain {
            language: r.language.clone(),
            version: version.clone(),
            build: language.compile.as_ref().map(ToString::to_string),
            run: language.run.to_string(),
        });
    }
    found
}

/// A judged sample's line: its verdict, tests passed, and each test as it ran.
fn result_of(
    sample: &Sample,
    report: &SolutionReport,
    total: usize,
    profile: Profile,
) -> SampleResult {
    let failing = report.cases.iter().find(|c| c.verdict != Verdict::Ac);
    let reason = match report.verdict {
        Verdict::Ce => report.compile.diagnostics.clone().map(|d| tail(&d)),
        _ => failing.and_then(|c| c.reason.as_ref().map(ToString::to_string)),
    };
    SampleResult {
        problem: sample.problem.clone(),
        sample: sample.index,
        language: report.language.clone(),
        correct: sample.correct,
        verdict: Some(report.verdict),
        passed: report.passed,
        total,
        reason,
        compiler: Some(report.compile.compiler.clone()).filter(|c| !c.is_empty()),
        profile: profile.name().into(),
        counted: counts(report),
        tests: report
            .cases
            .iter()
            .map(|c| TestRecord {
                test: c.name.clone(),
                verdict: c.verdict,
                time_ms: c.cpu.as_millis() as u64,
                memory_kb: c.memory_bytes / 1024,
                reason: c.reason.as_ref().map(ToString::to_string),
            })
            .collect(),
    }
}

/// Whether a judged sample counts in pass@k. An internal error is the judge's or the problem's,
/// never the sample's, and is kept apart; but a function harness's word (a value JSON cannot
/// write) is said from inside the sample's own process, which could say it itself to have a
/// failure left out: such an IE counts, as the sample's failure.
fn counts(report: &SolutionReport) -> bool {
    report.verdict != Verdict::Ie
        || report
            .cases
            .iter()
            .any(|c| c.verdict == Verdict::Ie && matches!(c.reason, Some(Reason::Harness(_))))
}

/// The end of a compiler's log: enough to see why, short enough for a line of results.
fn tail(log: &str) -> String {
    const KEEP: usize = 2000;
    match log.char_indices().nth_back(KEEP) {
        Some((i, _)) => format!("...{}", &log[i..]),
        None => log.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::fixtures;

    #[test]
    fn an_internal_error_is_left_out_unless_the_samples_own_process_said_it() {
        let mut judge_fault = fixtures::case("1", Verdict::Ie, 5);
        judge_fault.reason = Some(Reason::NotStarted("no such file".into()));
        assert!(!counts(&fixtures::report("s", vec![judge_fault])));

        let mut harness = fixtures::case("1", Verdict::Ie, 5);
        harness.reason = Some(Reason::Harness("a double NaN".into()));
        assert!(counts(&fixtures::report("s", vec![harness])));

        let wrong = fixtures::case("1", Verdict::Wa, 5);
        assert!(counts(&fixtures::report("s", vec![wrong])));
    }
}
