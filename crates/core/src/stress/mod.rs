//! Stress testing: generator -> reference -> attempt over many seeds, stopping at the first disagreement.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::compile::Program;
use crate::error::{Error, Location, Result};
use crate::model::CaseReport;
use crate::session::{Judge, Options};
use crate::text;
use crate::units::serde_as;
use crate::verdict::{Limits, Reason, Verdict};
use crate::workspace::{FileIo, Problem, Solution, TestCase};

mod seeds;
use seeds::Rig;

/// Seeds tried when neither a count nor a duration is given.
pub const DEFAULT_COUNT: u64 = 100;
/// Bytes of a generator's or reference's stderr quoted in an internal error.
const OUTPUT_SHOWN: usize = 4 << 10;

/// How long a stress run goes on and what it feeds the generator.
#[derive(Debug, Clone)]
pub struct StressOptions {
    /// Stop after this many seeds.
    pub count: Option<u64>,
    /// Stop after this long.
    pub duration: Option<Duration>,
    pub first_seed: u64,
    /// Passed to the generator after the seed.
    pub size: Option<u64>,
    /// Limits of the reference and the attempt (the problem's, or overridden).
    pub run: Options,
}

/// Who is at fault when a stress run cannot go on: never the attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Culprit {
    Generator,
    Reference,
    Checker,
}

impl std::fmt::Display for Culprit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Culprit::Generator => "generator",
            Culprit::Reference => "reference",
            Culprit::Checker => "checker",
        })
    }
}

/// A stress run stopped by the generator, the reference or the checker (verdict IE).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct InternalError {
    pub culprit: Culprit,
    /// The seed it happened on (none when it did not compile).
    pub seed: Option<u64>,
    pub message: String,
    /// Compiler diagnostics or the end of stderr.
    pub details: Option<String>,
}

/// The first seed on which the attempt and the reference disagree.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Disagreement {
    pub seed: u64,
    #[serde(serialize_with = "ser_text")]
    #[schemars(with = "String")]
    pub input: Vec<u8>,
    #[serde(serialize_with = "ser_text")]
    #[schemars(with = "String")]
    pub reference_output: Vec<u8>,
    #[serde(serialize_with = "ser_text")]
    #[schemars(with = "String")]
    pub attempt_output: Vec<u8>,
    /// The attempt's verdict on this input, the reference's output being the answer.
    pub attempt: CaseReport,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[schemars(transform = as_printed)]
pub struct StressReport {
    pub problem: String,
    pub attempt: String,
    pub attempt_path: PathBuf,
    pub reference: String,
    /// AC when no disagreement was found, the attempt's verdict on the failing seed, CE, or IE.
    pub verdict: Verdict,
    pub first_seed: u64,
    pub seeds_tried: u64,
    #[serde(rename = "elapsed_ms", serialize_with = "serde_as::ms")]
    #[schemars(with = "u64")]
    pub elapsed: Duration,
    pub limits: Limits,
    pub size: Option<u64>,
    pub disagreement: Option<Disagreement>,
    pub internal_error: Option<InternalError>,
    /// The attempt's compiler diagnostics, on CE.
    pub compile_error: Option<String>,
}

impl crate::schema::Document for StressReport {
    const SCHEMA: &'static str = "judge.stress/1";
}

/// `judge stress --json` prints the report with two fields more: the command that replays the
/// disagreement, and the case it was saved as (`--save`).
fn as_printed(schema: &mut schemars::Schema) {
    if let Some(p) = schema.get_mut("properties").and_then(|p| p.as_object_mut()) {
        p.insert(
            "reproduce".into(),
            serde_json::json!({
                "description": "The command that replays the disagreement; null without one.",
                "type": ["string", "null"],
            }),
        );
        p.insert(
            "saved_case".into(),
            serde_json::json!({
                "description": "The case the disagreement was saved as (`--save`); null otherwise.",
                "type": ["string", "null"],
            }),
        );
    }
}

impl StressReport {
    /// Seeds per second.
    pub fn rate(&self) -> f64 {
        self.seeds_tried as f64 / self.elapsed.as_secs_f64().max(1e-3)
    }
}

/// Hears about progress, to show it live.
pub trait StressObserver {
    fn compiling(&mut self, _what: &str) {}
    fn seed_done(&mut self, _seed: u64, _tried: u64, _elapsed: Duration) {}
}

pub struct Quiet;
impl StressObserver for Quiet {}

/// Runs generator -> reference -> attempt from `first_seed` on until a disagreement, an internal
/// error, or the count or duration is reached.
pub fn stress(
    judge: &mut Judge,
    problem: &Problem,
    attempt: &Solution,
    reference: &Solution,
    options: &StressOptions,
    observer: &mut dyn StressObserver,
) -> Result<StressReport> {
    let started = Instant::now();
    let mut report = StressReport {
        problem: problem.id.clone(),
        attempt: attempt.name.clone(),
        attempt_path: attempt.path.clone(),
        reference: reference.name.clone(),
        verdict: Verdict::Ac,
        first_seed: options.first_seed,
        seeds_tried: 0,
        elapsed: Duration::ZERO,
        limits: options.run.limits(problem),
        size: options.size,
        disagreement: None,
        internal_error: None,
        compile_error: None,
    };
    let generator = generator_of(judge, problem)?;
    let built = [
        (Some(Culprit::Generator), &generator),
        (Some(Culprit::Reference), reference),
        (None, attempt),
    ];
    let mut binaries = Vec::new();
    for (who, solution) in built {
        observer.compiling(&solution.name);
        let helper = who == Some(Culprit::Generator);
        let (compiled, binary) = judge.build(&solution.path, problem, &options.run, helper)?;
        let Some(binary) = binary else {
            report.not_compiled(judge, who, solution, compiled.diagnostics);
            report.elapsed = started.elapsed();
            return Ok(report);
        };
        binaries.push(binary);
    }
    let rig = Rig::new(judge, problem, binaries, options)?;
    report.limits = rig.limits;
    rig.run_seeds(judge, options, observer, &mut report)?;
    Ok(report)
}

/// The error of a problem stress-tested without a generator.
fn generator_of(judge: &Judge, problem: &Problem) -> Result<Solution> {
    let Some(path) = &problem.generator else {
        return Err(Error::Config {
            at: Location::file(judge.workspace.show(&problem.dir.join("problem.toml"))),
            message: format!("`{}` has no generator, so it cannot be stress-tested", problem.id),
            fix: format!(
                "write a generator (a program printing one input for the seed given as its first argument, in any language) and add `generator = \"{}\"` to problem.toml",
                judge.workspace.example_file("gen", Some(&problem.id))
            ),
        });
    };
    Ok(Solution {
        name: "generator".into(),
        problem: problem.id.clone(),
        path: path.clone(),
    })
}

impl StressReport {
    /// Stops the run on the generator's, the reference's or the checker's fault.
    fn fail(
        &mut self,
        culprit: Culprit,
        seed: Option<u64>,
        message: String,
        details: Option<String>,
    ) {
        self.verdict = Verdict::Ie;
        self.internal_error = Some(InternalError {
            culprit,
            seed,
            message,
            details,
        });
    }

    /// A program that did not compile: the attempt's CE, or the generator's or reference's IE.
    fn not_compiled(
        &mut self,
        judge: &Judge,
        who: Option<Culprit>,
        solution: &Solution,
        diagnostics: Option<String>,
    ) {
        match who {
            Some(culprit) => {
                let path = judge.workspace.show(&solution.path);
                let message = format!("the {culprit} {path} does not compile");
                self.fail(culprit, None, message, diagnostics);
            }
            None => {
                self.verdict = Verdict::Ce;
                self.compile_error = diagnostics;
            }
        }
    }
}

/// A generator may be slower and bigger than a solution: twice the time limit (at least 2 s),
/// at least 1 GiB of memory, inputs of up to 1 GiB.
pub fn generator_limits(problem: &Problem) -> Limits {
    Limits::new(
        (problem.limits.time * 2).max(Duration::from_secs(2)),
        problem.limits.memory_bytes.max(1 << 30),
        1 << 30,
    )
}

fn generator_args(seed: u64, size: Option<u64>) -> Vec<String> {
    let mut args = vec![seed.to_string()];
    args.extend(size.map(|s| s.to_string()));
    args
}

type Failure = (String, Option<String>);

/// Why the problem's generator made no input of a size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeneratorError {
    /// `example`: the generator's file as the problem would name it.
    #[error("`{problem}` has no generator (`generator = \"{example}\"` in problem.toml)")]
    None { problem: String, example: String },
    /// The generator's file, as the workspace shows it.
    #[error("the generator {0} does not compile")]
    DoesNotCompile(String),
    /// How its run failed, with the arguments it was given.
    #[error("{0}")]
    Failed(String),
}

/// Compiles the problem's generator and has it print the input for `SEED SIZE` into `to`
/// (for `judge scale`: sizes through the generator). `Ok(Err(message))` when the problem has no
/// generator, or it does not compile, or it fails.
pub fn generate_sized(
    judge: &mut Judge,
    problem: &Problem,
    seed: u64,
    size: u64,
    to: &Path,
) -> Result<std::result::Result<(), GeneratorError>> {
    let Some(path) = &problem.generator else {
        return Ok(Err(GeneratorError::None {
            problem: problem.id.clone(),
            example: judge.workspace.example_file("gen", Some(&problem.id)),
        }));
    };
    let generator = Solution {
        name: "generator".into(),
        problem: problem.id.clone(),
        path: path.clone(),
    };
    let (_, binary) = judge.build(&generator.path, problem, &Options::default(), true)?;
    let Some(binary) = binary else {
        return Ok(Err(GeneratorError::DoesNotCompile(
            judge.workspace.show(path),
        )));
    };
    let args = generator_args(seed, Some(size));
    Ok(
        generate(judge, &binary, &args, &generator_limits(problem), to)?
            .map_err(|(m, _)| GeneratorError::Failed(m)),
    )
}

/// Runs the generator and copies the input it printed to `to`.
fn generate(
    judge: &mut Judge,
    program: &Program,
    args: &[String],
    limits: &Limits,
    to: &Path,
) -> Result<std::result::Result<(), Failure>> {
    let (verdict, reason, execution) =
        judge.run_unchecked(program, args, None, limits, &FileIo::default())?;
    if verdict != Verdict::Ac {
        return Ok(Err((
            format!(
                "the generator failed ({}: {}) on `gen {}`",
                verdict.code(),
                describe(&reason),
                args.join(" ")
            ),
            stderr_of(&execution.stderr),
        )));
    }
    if execution.response.stdout_bytes == 0 {
        return Ok(Err((
            format!("the generator printed nothing on `gen {}`", args.join(" ")),
            stderr_of(&execution.stderr),
        )));
    }
    std::fs::copy(&execution.stdout, to).map_err(|e| Error::copy(to, e))?;
    Ok(Ok(()))
}

/// Runs the reference on `input` and copies its output, the answer, to `to`.
fn make_answer(
    judge: &mut Judge,
    (program, io): (&Program, &FileIo),
    input: &Path,
    limits: &Limits,
    to: &Path,
) -> Result<std::result::Result<(), Failure>> {
    let (verdict, reason, execution) =
        judge.run_unchecked(program, &[], Some(input), limits, io)?;
    if verdict != Verdict::Ac {
        return Ok(Err((
            format!(
                "the reference failed ({}: {}) on the generated input",
                verdict.code(),
                describe(&reason)
            ),
            stderr_of(&execution.stderr),
        )));
    }
    if let Some(name) = io.output.as_ref().filter(|_| !execution.output.is_file()) {
        return Ok(Err((
            format!("the reference wrote no {name} on the generated input"),
            stderr_of(&execution.stderr),
        )));
    }
    std::fs::copy(&execution.output, to).map_err(|e| Error::copy(to, e))?;
    Ok(Ok(()))
}

/// For an interactive problem: the reference, talking with the interactor, must be accepted on
/// `input`; the answer file the interactor is given is empty (a generator makes inputs only).
fn interact_reference(
    judge: &mut Judge,
    problem: &Problem,
    program: &Program,
    (input, answer): (&Path, &Path),
    limits: &Limits,
) -> Result<std::result::Result<(), Failure>> {
    std::fs::write(answer, b"").map_err(|e| Error::write(answer, e))?;
    let case = TestCase {
        name: "reference".into(),
        input: input.to_path_buf(),
        answer: answer.to_path_buf(),
        ..TestCase::default()
    };
    let report = judge.run_case(problem, program, &case, limits)?;
    if report.verdict == Verdict::Ac {
        return Ok(Ok(()));
    }
    Ok(Err((
        format!(
            "the reference got {} talking with the interactor on the generated input: {}",
            report.verdict.code(),
            report.reason.map(|r| r.to_string()).unwrap_or_default()
        ),
        report.stderr,
    )))
}

/// Whether the generator or the reference gives something else when run again on the same seed.
fn self_disagreement(
    judge: &mut Judge,
    problem: &Problem,
    (generator, args, generator_limits): (&Program, &[String], &Limits),
    (reference, limits): (&Program, &Limits),
    dir: &Path,
) -> Result<Option<(Culprit, String)>> {
    let (input, answer) = (dir.join("input"), dir.join("answer"));
    let (input2, answer2) = (dir.join("input.again"), dir.join("answer.again"));
    let seed_text = args.join(" ");
    if let Err((message, _)) = generate(judge, generator, args, generator_limits, &input2)? {
        return Ok(Some((Culprit::Generator, format!("run again, {message}"))));
    }
    if read(&input)? != read(&input2)? {
        return Ok(Some((
            Culprit::Generator,
            format!("the generator printed two different inputs for `gen {seed_text}`: it must depend on its arguments only"),
        )));
    }
    if problem.interactor.is_some() {
        // The interactor accepted the reference: there is no answer of its to compare.
        return Ok(None);
    }
    if let Err((message, _)) =
        make_answer(judge, (reference, &problem.io), &input, limits, &answer2)?
    {
        return Ok(Some((Culprit::Reference, format!("run again, {message}"))));
    }
    let checked = judge.check_output(problem, &input, &answer, &answer2)?;
    if let Some(e) = checked.internal_error {
        return Ok(Some((Culprit::Checker, e.to_string())));
    }
    if !checked.outcome.accepted {
        return Ok(Some((
            Culprit::Reference,
            format!(
                "the reference gave two different answers to the same input ({})",
                checked.outcome.message.unwrap_or_default()
            ),
        )));
    }
    Ok(None)
}

fn describe(reason: &Reason) -> String {
    match reason {
        Reason::Accepted => "no output".into(),
        r => r.to_string(),
    }
}

fn stderr_of(path: &Path) -> Option<String> {
    text::stderr_tail(&std::fs::read(path).unwrap_or_default())
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::read(path, e))
}

/// Text for JSON and the terminal: escaped where not printable, cut when very long.
pub fn shown(data: &[u8]) -> String {
    text::printable(data, OUTPUT_SHOWN)
}

fn ser_text<S: serde::Serializer>(d: &[u8], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&String::from_utf8_lossy(d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::scripted::{self, Reply, Script};

    /// A number read from a scripted program's stdin.
    fn number(input: &str) -> u64 {
        input.trim().parse().unwrap()
    }

    #[test]
    fn the_first_seed_on_which_the_attempt_disagrees_is_found_and_reported() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        scripted::sources(root, &["gen", "reference", "attempt"]);
        let problem_dir = root.join("problems/p");
        std::fs::create_dir_all(&problem_dir).unwrap();
        let mut problem = crate::fixtures::problem("p", &problem_dir);
        problem.generator = Some(root.join("gen.play"));
        // The generator prints its seed; the reference doubles it; the attempt too, but for 3.
        let script = Script::new()
            .program("gen", |c| Reply::prints(c.args().last().unwrap().clone()))
            .program("reference", |c| {
                Reply::prints((2 * number(&c.input())).to_string())
            })
            .program("attempt", |c| {
                let n = number(&c.input());
                Reply::prints(if n == 3 { n } else { 2 * n }.to_string())
            });
        let mut judge = script.judge(root);
        let solution = |name: &str| Solution {
            name: name.into(),
            problem: "p".into(),
            path: root.join(format!("{name}.play")),
        };
        let options = StressOptions {
            count: Some(10),
            duration: None,
            first_seed: 1,
            size: None,
            run: Options::default(),
        };
        let report = stress(
            &mut judge,
            &problem,
            &solution("attempt"),
            &solution("reference"),
            &options,
            &mut Quiet,
        )
        .unwrap();
        assert_eq!(report.verdict, Verdict::Wa, "{report:#?}");
        assert_eq!(report.seeds_tried, 3, "it stops at the first disagreement");
        let found = report.disagreement.as_ref().expect("a disagreement");
        assert_eq!(found.seed, 3);
        assert_eq!(found.input, b"3\n");
        assert_eq!(found.reference_output, b"6\n");
        assert_eq!(found.attempt_output, b"3\n");
        assert_eq!(found.attempt.verdict, Verdict::Wa);
        assert!(report.internal_error.is_none(), "{report:#?}");
        // Seeds 1 and 2 agreed; seed 3 was made and answered again, to be sure it repeats.
        let log = script.log();
        let attempts = log.iter().filter(|n| *n == "attempt").count();
        assert_eq!(attempts, 3, "{log:?}");
        assert_eq!(log.iter().filter(|n| *n == "gen").count(), 4, "{log:?}");
    }
}
