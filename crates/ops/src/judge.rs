//! One submission judged for a service (`judge api`'s `/v1/judge` and `/v1/batch`): on a
//! problem of the workspace, as `judge run` judges it (its cases, its checker, its limits), or
//! on tests sent with it, made a problem of its own (a `problem.toml` of the checker asked
//! for, the tests its cases) in a folder removed afterwards. The source is written under a
//! fixed name, so that the build cache keys it by its bytes: a sample judged again, on other
//! tests or by another request, is never built again. The request and the answer are
//! documents: the answer is the report `judge run --json` prints, with the score and a record
//! per test (the record each streamed line carries).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use judge_core::model::{CaseReport, SolutionReport};
use judge_core::schema::{Document, Format};
use judge_core::session::{AfterTle, Judge, Observer, Options, Quiet};
use judge_core::verdict::{Limits, Verdict};
use judge_core::workspace::{Problem, Solution, TestCase};

pub use crate::error::RequestError;
use crate::run::{RunObserver, RunOptions};
use crate::Error;

/// The CPU time per test of tests sent with a request that says none.
pub const DEFAULT_TIME: Duration = Duration::from_secs(2);
/// The memory of tests sent with a request that says none.
pub const DEFAULT_MEMORY: u64 = 256 << 20;

/// What `/v1/judge` reads: a problem of the workspace or tests, and the code.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// A problem of the workspace the service runs in, by its id (instead of `tests`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The tests, in order (instead of `problem`); at least one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests: Option<Vec<InlineTest>>,
    /// How an output of `tests` is checked; `tokens` when not said. A problem of the workspace
    /// has its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checker: Option<Checker>,
    /// The judge's key of the language: `cpp`, `python`, `java`, `rust`...
    pub language: String,
    /// The source.
    pub code: String,
    /// The CPU time of each test, in milliseconds: the problem's own for a problem of the
    /// workspace, 2000 for tests sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_ms: Option<u64>,
    /// The memory, in MiB: the problem's own, 256 for tests sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_limit_mb: Option<u64>,
    /// Stop at the first test that fails; the tests after it are not run (nor passed).
    #[serde(default)]
    pub stop_on_fail: bool,
}

/// A test sent with a request.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InlineTest {
    pub input: String,
    /// The expected output (for a function: the JSON of the return value).
    pub output: String,
}

/// How the outputs of tests sent with a request are checked (the checker modes of
/// `problem.toml`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Checker {
    /// The whitespace-separated tokens must be the same.
    Tokens,
    /// The bytes must be the same.
    Exact,
    /// Line by line; trailing spaces and blank lines at the end do not count.
    Lines,
    /// Tokens, a number within either tolerance of the answer's.
    Float {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        absolute: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        relative: Option<f64>,
    },
    /// A function problem (LeetCode's form): the code is the function, each input one JSON
    /// value per parameter a line, each output the JSON of the return value.
    Function {
        /// `twoSum`.
        name: String,
        /// `["nums: int[]", "target: int"]`.
        params: Vec<String>,
        /// `int[]`.
        returns: String,
        /// The returned array's order is free.
        #[serde(default)]
        any_order: bool,
    },
    /// A checker program in testlib's convention (`checker INPUT OUTPUT ANSWER`; exit 0
    /// accepts, 1 rejects, 2 is a presentation error, 7 gives points), built with the header
    /// files sent beside it (`testlib.h`).
    Testlib {
        /// Its language; `cpp` when not said.
        #[serde(default = "cpp")]
        language: String,
        code: String,
        /// Header files by name (`testlib.h`), their text.
        #[serde(default)]
        files: BTreeMap<String, String>,
    },
}

fn cpp() -> String {
    "cpp".into()
}

/// A test's record: what a streamed line says when the test is decided, and each of the
/// answer's `tests`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TestRecord {
    /// Its place among the tests, from 1.
    pub test: usize,
    pub total: usize,
    /// The case's name (`01`, or the workspace's).
    pub name: String,
    pub verdict: Verdict,
    /// Why, for a verdict other than AC.
    pub detail: Option<String>,
    /// CPU time.
    pub time_ms: u64,
    pub wall_ms: u64,
    /// Peak memory.
    pub memory_kb: u64,
    /// The share of the time limit left: 1 - time / limit (0.9: a tenth used; below 0: over).
    pub margin: f64,
}

impl Document for TestRecord {
    const SCHEMA: &'static str = "judge.api.test/1";
}

impl TestRecord {
    /// The record of `case`, the `test`th of `total`, run under `limits`.
    pub fn of(test: usize, total: usize, case: &CaseReport, limits: &Limits) -> TestRecord {
        let limit = limits.time.as_secs_f64();
        TestRecord {
            test,
            total,
            name: case.name.clone(),
            verdict: case.verdict,
            detail: case.reason.as_ref().map(|r| r.to_string()),
            time_ms: case.cpu.as_millis() as u64,
            wall_ms: case.wall.as_millis() as u64,
            memory_kb: case.memory_bytes / 1024,
            margin: match limit > 0.0 {
                true => 1.0 - case.cpu.as_secs_f64() / limit,
                false => 0.0,
            },
        }
    }
}

/// The answer: `judge run --json`'s report, its score (the share of tests passed: partial
/// credit) and a record per test.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Judged {
    #[serde(flatten)]
    pub report: SolutionReport,
    /// `passed / total`: 0 when nothing passed (a compile error), 1 when every test did.
    pub score: f64,
    pub tests: Vec<TestRecord>,
}

impl Document for Judged {
    const SCHEMA: &'static str = "judge.api.judge/1";
}

impl Judged {
    fn of(report: SolutionReport) -> Judged {
        let total = report.total;
        let tests = report
            .cases
            .iter()
            .enumerate()
            .map(|(i, c)| TestRecord::of(i + 1, total, c, &report.limits))
            .collect();
        Judged {
            score: match total {
                0 => 0.0,
                n => report.passed as f64 / n as f64,
            },
            tests,
            report,
        }
    }
}

/// What `/v1/batch` reads: requests answered in their order.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest {
    pub requests: Vec<Request>,
}

/// `/v1/batch`'s answer: one per request, in their order.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BatchAnswer {
    pub answers: Vec<BatchItem>,
}

impl Document for BatchAnswer {
    const SCHEMA: &'static str = "judge.api.batch/1";
}

/// A request's answer in a batch: judged, or refused as it would have been alone.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum BatchItem {
    Judged(Box<Judged>),
    Refused(Refused),
}

/// A request refused: the HTTP status it gets alone, and why.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Refused {
    pub status: u16,
    pub message: String,
}

/// The documents of `judge api`'s own door, as the guide publishes them.
pub fn formats() -> Vec<Format> {
    vec![
        Format {
            name: "judge.api.request/1",
            written_by: "`judge api`: what `POST /v1/judge` reads",
            schema: read_schema::<Request>,
        },
        Format::one::<TestRecord>("`judge api`: a line of `POST /v1/judge?stream=1`"),
        Format::one::<Judged>("`judge api`: the answer of `POST /v1/judge`"),
        Format {
            name: "judge.api.batch.request/1",
            written_by: "`judge api`: what `POST /v1/batch` reads",
            schema: read_schema::<BatchRequest>,
        },
        Format::one::<BatchAnswer>("`judge api`: the answer of `POST /v1/batch`"),
    ]
}

/// The JSON Schema (draft 2020-12) of `T` as it is read: a field with a default may be left
/// out.
fn read_schema<T: JsonSchema>() -> serde_json::Value {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// Whether `request` can be judged as it is (nothing else read or run).
pub fn check(request: &Request) -> Result<(), RequestError> {
    match (&request.problem, &request.tests) {
        (Some(_), Some(_)) => return Err(RequestError::Both),
        (None, None) => return Err(RequestError::Neither),
        (None, Some(tests)) if tests.is_empty() => return Err(RequestError::NoTests),
        (Some(_), None) if request.checker.is_some() => {
            return Err(RequestError::CheckerWithProblem)
        }
        _ => {}
    }
    if request.time_limit_ms == Some(0) {
        return Err(RequestError::ZeroLimit("time_limit_ms"));
    }
    if request.memory_limit_mb == Some(0) {
        return Err(RequestError::ZeroLimit("memory_limit_mb"));
    }
    if let Some(Checker::Testlib { files, .. }) = &request.checker {
        if let Some(bad) = files.keys().find(|name| !header_name(name)) {
            return Err(RequestError::CheckerFile(bad.clone()));
        }
    }
    Ok(())
}

/// A header file's plain name: `testlib.h`, never a path.
fn header_name(name: &str) -> bool {
    let path = Path::new(name);
    path.file_name().and_then(|f| f.to_str()) == Some(name)
        && path
            .extension()
            .is_some_and(|e| ["h", "hpp", "hh", "hxx"].iter().any(|x| e == *x))
}

/// Judges `request` with `judge` (this machine's), telling `observer` each test as it is
/// decided (after `compiling`: the request was read, its language found).
pub fn judge_request(
    judge: &mut Judge,
    request: &Request,
    observer: &mut dyn Observer,
) -> Result<Judged, Error> {
    check(request).map_err(Error::Request)?;
    let language = crate::execute::language(judge, &request.language)?;
    let place = crate::execute::place(judge)?;
    let source = crate::execute::write_source(place.path(), &request.code, None, &language)?;
    let options = Options {
        time_limit: request.time_limit_ms.map(Duration::from_millis),
        memory_limit: request.memory_limit_mb.map(|mb| mb << 20),
        stop_on_fail: request.stop_on_fail,
        // A reward wants every test's verdict: none is left "not timed" after a TLE.
        after_tle: AfterTle::WholeLimit,
        ..Options::default()
    };
    let mut report = match (&request.problem, &request.tests) {
        (Some(id), _) => on_workspace(judge, id, source.clone(), options, observer)?,
        (None, tests) => {
            let tests = tests.as_deref().unwrap_or_default();
            let checker = request.checker.as_ref().unwrap_or(&Checker::Tokens);
            let (problem, cases) = inline(judge, place.path(), tests, checker, request)?;
            let solution = solution(&problem.id, source.clone());
            judge.judge(&problem, &solution, &cases, &options, observer)?
        }
    };
    // The service's folders are nothing to its client: the source is named as it was written,
    // and no output is kept where the client could look.
    report.path = source.file_name().map(PathBuf::from).unwrap_or_default();
    for case in &mut report.cases {
        case.saved_output = None;
    }
    Ok(Judged::of(report))
}

/// The name of every request's solution: the same, so that the outputs a failure keeps in the
/// workspace's state are one set, overwritten, not one per request.
const SOLUTION: &str = "submission";

fn solution(problem: &str, path: PathBuf) -> Solution {
    Solution {
        name: SOLUTION.into(),
        problem: problem.to_string(),
        path,
    }
}

/// `judge run`'s judging of the workspace's problem `id`, with nothing recorded.
fn on_workspace(
    judge: &mut Judge,
    id: &str,
    source: PathBuf,
    options: Options,
    observer: &mut dyn Observer,
) -> Result<SolutionReport, Error> {
    let ws = judge.workspace.clone();
    let options = RunOptions {
        judging: options,
        ..RunOptions::default()
    };
    let mut told = Told {
        settling: Quiet,
        judging: observer,
    };
    let ran = crate::run::run(&ws, judge, &solution(id, source), &options, &mut told)?;
    Ok(ran.report)
}

/// Hears the judging of a request's tests, not that of a package's accepted submissions that
/// derives its time limit first.
struct Told<'a> {
    settling: Quiet,
    judging: &'a mut dyn Observer,
}

impl RunObserver for Told<'_> {
    fn settling(&mut self) -> &mut dyn Observer {
        &mut self.settling
    }

    fn judging(&mut self, _cases: &[TestCase], _options: &Options) -> &mut dyn Observer {
        &mut *self.judging
    }
}

/// The tests of a request made a problem in `place`: `problem.toml` of its limits and checker,
/// the tests as `tests/NN.in` and `.ans`, a testlib checker and its headers beside.
fn inline(
    judge: &Judge,
    place: &Path,
    tests: &[InlineTest],
    checker: &Checker,
    request: &Request,
) -> Result<(Problem, Vec<TestCase>), Error> {
    let dir = place.join("problem");
    let folder = dir.join("tests");
    let width = tests.len().to_string().len().max(2);
    let mut cases = Vec::with_capacity(tests.len());
    for (i, test) in tests.iter().enumerate() {
        let name = format!("{:0width$}", i + 1);
        let case = TestCase {
            input: folder.join(format!("{name}.in")),
            answer: folder.join(format!("{name}.ans")),
            name,
            ..TestCase::default()
        };
        crate::execute::write(&case.input, test.input.as_bytes())?;
        crate::execute::write(&case.answer, test.output.as_bytes())?;
        cases.push(case);
    }
    let time = request
        .time_limit_ms
        .map_or(DEFAULT_TIME, Duration::from_millis);
    let memory = request
        .memory_limit_mb
        .map_or(DEFAULT_MEMORY, |mb| mb << 20);
    let mut toml = format!(
        "title = \"tests\"\ntime_limit = \"{}ms\"\nmemory_limit = \"{}KiB\"\n",
        time.as_millis().max(1),
        (memory / 1024).max(1)
    );
    toml += &checker_keys(judge, &dir, checker)?;
    let problem = judge.workspace.problem_from_text("tests", &dir, &toml)?;
    Ok((problem, cases))
}

/// The keys of `problem.toml` for `checker`, its program written in `dir`.
fn checker_keys(judge: &Judge, dir: &Path, checker: &Checker) -> Result<String, Error> {
    let number =
        |key: &str, v: &Option<f64>| v.map_or(String::new(), |v| format!("{key} = {v:e}\n"));
    Ok(match checker {
        Checker::Tokens => "checker = \"tokens\"\n".into(),
        Checker::Exact => "checker = \"exact\"\n".into(),
        Checker::Lines => "checker = \"lines\"\n".into(),
        Checker::Float { absolute, relative } => format!(
            "checker = \"float\"\n{}{}",
            number("float_absolute", absolute),
            number("float_relative", relative)
        ),
        Checker::Function {
            name,
            params,
            returns,
            any_order,
        } => {
            let params: Vec<String> = params.iter().map(|p| quoted(p)).collect();
            format!(
                "\n[function]\nname = {}\nparams = [{}]\nreturns = {}\norder = \"{}\"\n",
                quoted(name),
                params.join(", "),
                quoted(returns),
                if *any_order { "any" } else { "given" }
            )
        }
        Checker::Testlib {
            language,
            code,
            files,
        } => {
            let language = crate::execute::language(judge, language)?;
            let name = format!("checker.{}", language.extensions[0]);
            crate::execute::write(&dir.join(&name), code.as_bytes())?;
            for (file, text) in files {
                crate::execute::write(&dir.join(file), text.as_bytes())?;
            }
            format!(
                "checker = \"custom\"\nchecker_program = {}\n",
                quoted(&name)
            )
        }
    })
}

/// A TOML basic string of `s` (JSON's escapes are TOML's).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: serde_json::Value) -> Request {
        serde_json::from_value(json).expect("a request")
    }

    #[test]
    fn a_request_names_a_problem_or_sends_tests_never_both_nor_none() {
        let code = serde_json::json!({"language": "python", "code": "print(1)"});
        let with = |extra: serde_json::Value| {
            let mut r = code.clone();
            r.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            check(&request(r))
        };
        assert_eq!(with(serde_json::json!({})), Err(RequestError::Neither));
        assert_eq!(
            with(serde_json::json!({"problem": "p", "tests": []})),
            Err(RequestError::Both)
        );
        assert_eq!(
            with(serde_json::json!({"tests": []})),
            Err(RequestError::NoTests)
        );
        assert_eq!(
            with(serde_json::json!({"problem": "p", "checker": "exact"})),
            Err(RequestError::CheckerWithProblem)
        );
        assert_eq!(
            with(serde_json::json!({"problem": "p", "time_limit_ms": 0})),
            Err(RequestError::ZeroLimit("time_limit_ms"))
        );
        let testlib = serde_json::json!({"tests": [{"input": "", "output": ""}],
            "checker": {"testlib": {"code": "", "files": {"../x.h": ""}}}});
        assert_eq!(
            with(testlib),
            Err(RequestError::CheckerFile("../x.h".into()))
        );
        assert_eq!(
            with(serde_json::json!({"tests": [{"input": "1", "output": "1"}]})),
            Ok(())
        );
    }

    #[test]
    fn a_checker_is_a_mode_name_or_an_object_of_one_kind() {
        let r = request(
            serde_json::json!({"language": "cpp", "code": "", "tests": [],
            "checker": {"float": {"absolute": 1e-6}}}),
        );
        assert!(matches!(
            r.checker,
            Some(Checker::Float {
                absolute: Some(_),
                relative: None
            })
        ));
        let e = serde_json::from_value::<Request>(
            serde_json::json!({"language": "cpp", "code": "", "checker": "fuzzy"}),
        )
        .unwrap_err();
        assert!(e.to_string().contains("unknown variant `fuzzy`"), "{e}");
    }

    #[test]
    fn a_tests_margin_is_the_share_of_the_limit_left() {
        let mut case = judge_core::fixtures::case("1", Verdict::Ac, 250);
        case.cpu = Duration::from_millis(250);
        let limits = Limits::new(Duration::from_secs(1), 1 << 30, 1 << 20);
        let r = TestRecord::of(1, 2, &case, &limits);
        assert!((r.margin - 0.75).abs() < 1e-9, "{r:?}");
        assert_eq!((r.test, r.total, r.time_ms), (1, 2, 250));
    }
}
