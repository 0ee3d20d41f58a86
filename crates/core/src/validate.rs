//! `judge validate`: each input validator of a problem run on every input, each answer
//! validator of a package on every answer, and what each said.
//!
//! An input validator reads an input on stdin with its group's flags as arguments (a package's
//! `input_validator_flags`) and exits with 42 when the input is valid; any other exit rejects
//! it, with the validator's message. An answer validator (`answer_validators/`, as the format's
//! authors' tools run it) reads an answer on stdin, is given its input's path as its first
//! argument, and says the same way. A validator that does not compile, is killed or goes over
//! its limits has failed (the problem's fault, not the input's), as in problemtools. A
//! checktestdata script is run by `checktestdata` and a VIVA script by `viva` when they are
//! installed (exit 0 valid; VIVA takes the file to check as an argument).

use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use crate::compile::{self, Program};
use crate::error::Result;
use crate::session::{Judge, Options};
use crate::text;
use crate::verdict::{describe_stop, Limits};
use crate::workspace::{
    InputValidator, Problem, Solution, TestCase, ValidatorCase, ValidatorCaseKind, ValidatorKind,
};
use judge_runner::Outcome;

/// problemtools' limits for validators: a minute of CPU time, 1 GiB of memory.
const VALIDATOR_TIME: Duration = Duration::from_secs(60);
const VALIDATOR_MEMORY: u64 = 1 << 30;
/// What a validator may print (its message).
const VALIDATOR_OUTPUT: u64 = 16 << 20;
/// The exit code of a validator that accepts the input.
const VALID: i32 = 42;
/// The program that runs checktestdata scripts.
const CHECKTESTDATA: &str = "checktestdata";
/// The programs that run VIVA scripts: VIVA's, or problemtools' wrapper of it.
const VIVA: &[&str] = &["viva", "viva.sh"];

/// Every validator of a problem on every input.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Validation {
    pub problem: String,
    /// How many inputs there are.
    pub inputs: usize,
    pub validators: Vec<ValidatorReport>,
    /// The cases that test the validators, checked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub validator_cases: Vec<CaseChecked>,
}

/// One validator on every input (or every answer).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ValidatorReport {
    pub name: String,
    /// What it checks: the inputs, or the answers.
    pub checks: Checks,
    #[serde(flatten)]
    pub status: Status,
    /// The inputs it ran on.
    pub checked: usize,
    /// The inputs it rejected, with its message.
    pub invalid: Vec<Rejection>,
}

/// What a validator checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Checks {
    Inputs,
    Answers,
}

/// Whether a validator ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "status", content = "reason", rename_all = "snake_case")]
pub enum Status {
    /// It ran on every input.
    Ran,
    /// What it needs is not installed here.
    Skipped(String),
    /// The judge does not run validators of its kind.
    Unsupported(String),
    /// It did not compile, or failed on an input (killed, over its limits): the problem's
    /// fault, said with the input.
    Failed(String),
}

/// An input a validator rejected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Rejection {
    pub case: String,
    pub exit_code: i32,
    /// What the validator printed (stderr, else stdout).
    pub message: Option<String>,
}

impl crate::schema::Document for Validation {
    const SCHEMA: &'static str = "judge.validate/1";
}

impl Validation {
    /// Whether a validator failed: exit 2, the problem is at fault.
    pub fn failed(&self) -> bool {
        self.validators
            .iter()
            .any(|v| matches!(v.status, Status::Failed(_)))
    }

    /// Whether a validator ran: when none could, nothing was checked.
    pub fn ran(&self) -> bool {
        self.validators.iter().any(|v| v.status == Status::Ran)
    }

    /// Whether every validator that ran accepted every input, and every case that tests the
    /// validators was rejected or accepted as it must be.
    pub fn all_valid(&self) -> bool {
        self.validators.iter().all(|v| v.invalid.is_empty())
            && self.validator_cases.iter().all(|c| c.ok)
    }
}

/// Runs each of `problem`'s input validators on the input of every case of `cases`, its
/// answer validators on every answer, and checks the cases that test its validators.
pub fn validate(judge: &mut Judge, problem: &Problem, cases: &[TestCase]) -> Result<Validation> {
    // A static validation case has no input nor answer.
    let cases: Vec<TestCase> = cases
        .iter()
        .filter(|c| c.static_validation.is_none())
        .cloned()
        .collect();
    let cases = cases.as_slice();
    let mut v = validate_inputs(judge, problem, cases)?;
    for validator in &problem.package.answer_validators {
        let mut report = run_validator(judge, problem, (validator, Checks::Answers), cases)?;
        if problem.interactor.is_some() {
            // The answer of an interactive case is the interactor's own data.
            report = ValidatorReport {
                status: Status::Skipped(
                    "an interactive problem's answers are its validator's own data, which the format's tools do not validate".into(),
                ),
                checked: 0,
                invalid: Vec::new(),
                ..report
            };
        }
        v.validators.push(report);
    }
    v.validator_cases = check_validator_cases(judge, problem)?;
    Ok(v)
}

/// Runs each of `problem`'s input validators on the input of every case of `cases`.
fn validate_inputs(judge: &mut Judge, problem: &Problem, cases: &[TestCase]) -> Result<Validation> {
    let mut validators = Vec::new();
    for validator in &problem.input_validators {
        validators.push(run_validator(
            judge,
            problem,
            (validator, Checks::Inputs),
            cases,
        )?);
    }
    Ok(Validation {
        problem: problem.id.clone(),
        inputs: cases.len(),
        validators,
        validator_cases: Vec::new(),
    })
}

/// One such case, checked.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CaseChecked {
    pub case: String,
    pub kind: ValidatorCaseKind,
    /// It was rejected or accepted as it must be.
    pub ok: bool,
    /// What the validators said, in a few words.
    pub said: String,
}

/// Checks the cases that test a package's validators (`data/invalid_input`, `invalid_answer`,
/// `invalid_output`, `valid_output`): an invalid input must be rejected by at least one input
/// validator, an invalid answer when judged as one, an invalid output by the output validator,
/// and a valid output accepted by it.
pub fn check_validator_cases(judge: &mut Judge, problem: &Problem) -> Result<Vec<CaseChecked>> {
    let cases = &problem.terms.validator_cases;
    let mut out = Vec::new();
    let inputs: Vec<TestCase> = cases
        .iter()
        .filter(|c| c.kind == ValidatorCaseKind::InvalidInput)
        .map(|c| TestCase {
            name: c.name.clone(),
            input: c.input.clone(),
            input_validator_flags: c.input_flags.clone(),
            ..TestCase::default()
        })
        .collect();
    if !inputs.is_empty() {
        let v = validate_inputs(judge, problem, &inputs)?;
        for c in &inputs {
            let by: Vec<&str> = v
                .validators
                .iter()
                .filter(|r| r.invalid.iter().any(|i| i.case == c.name))
                .map(|r| r.name.as_str())
                .collect();
            let ran = v.validators.iter().any(|r| r.status == Status::Ran);
            out.push(CaseChecked {
                case: c.name.clone(),
                kind: ValidatorCaseKind::InvalidInput,
                ok: !by.is_empty(),
                said: match (by.is_empty(), ran) {
                    (false, _) => format!("rejected by {}", by.join(", ")),
                    (true, true) => "every input validator accepted it".into(),
                    (true, false) => "no input validator could run".into(),
                },
            });
        }
    }
    for c in cases
        .iter()
        .filter(|c| c.kind != ValidatorCaseKind::InvalidInput)
    {
        out.push(match c.kind {
            ValidatorCaseKind::InvalidAnswer => check_answer(judge, problem, c)?,
            _ => check_output(judge, problem, c)?,
        });
    }
    Ok(out)
}

/// An answer that must be rejected when it is judged as one: by an answer validator, or by the
/// output validator given it as the output (an interactive problem's has no output to judge).
fn check_answer(judge: &mut Judge, problem: &Problem, c: &ValidatorCase) -> Result<CaseChecked> {
    let checked = |ok: bool, said: String| CaseChecked {
        case: c.name.clone(),
        kind: c.kind,
        ok,
        said,
    };
    let Some(answer) = &c.answer else {
        return Ok(checked(false, "it needs NAME.in and NAME.ans".into()));
    };
    let case = TestCase {
        name: c.name.clone(),
        input: c.input.clone(),
        answer: answer.clone(),
        ..TestCase::default()
    };
    let mut by = Vec::new();
    for validator in &problem.package.answer_validators {
        let report = run_validator(
            judge,
            problem,
            (validator, Checks::Answers),
            std::slice::from_ref(&case),
        )?;
        if !report.invalid.is_empty() {
            by.push(report.name);
        }
    }
    if by.is_empty() && problem.interactor.is_none() {
        let judged =
            judge.check_output_with(problem, (&c.input, answer, answer), &c.output_flags)?;
        if let Some(e) = &judged.internal_error {
            return Ok(checked(false, format!("the output validator failed: {e}")));
        }
        if !judged.outcome.accepted {
            by.push("the output validator".into());
        }
    }
    Ok(if by.is_empty() {
        checked(
            false,
            "accepted as an answer: no answer validator nor the output validator rejected it"
                .into(),
        )
    } else {
        checked(true, format!("rejected by {}", by.join(", ")))
    })
}

fn check_output(judge: &mut Judge, problem: &Problem, c: &ValidatorCase) -> Result<CaseChecked> {
    let (Some(answer), Some(output)) = (&c.answer, &c.output) else {
        return Ok(CaseChecked {
            case: c.name.clone(),
            kind: c.kind,
            ok: false,
            said: "it needs NAME.in, NAME.ans and NAME.out".into(),
        });
    };
    let checked = judge.check_output_with(problem, (&c.input, answer, output), &c.output_flags)?;
    let must_accept = c.kind == ValidatorCaseKind::ValidOutput;
    let (ok, said) = match (&checked.internal_error, checked.outcome.accepted) {
        (Some(e), _) => (false, format!("the output validator failed: {e}")),
        (None, true) => (must_accept, "the output validator accepted it".to_string()),
        (None, false) => (
            !must_accept,
            match &checked.outcome.message {
                Some(m) => format!("the output validator rejected it: {m}"),
                None => "the output validator rejected it".to_string(),
            },
        ),
    };
    Ok(CaseChecked {
        case: c.name.clone(),
        kind: c.kind,
        ok,
        said,
    })
}

/// How a validator is run: the program, the arguments before the group's flags, and the
/// files it reads besides its build.
struct Runnable {
    program: Program,
    args: Vec<String>,
    read: Vec<std::path::PathBuf>,
    /// The exit code that means valid.
    valid: i32,
    /// It takes the file to check as its last argument (VIVA), not on stdin.
    file_argument: bool,
}

fn run_validator(
    judge: &mut Judge,
    problem: &Problem,
    (validator, checks): (&InputValidator, Checks),
    cases: &[TestCase],
) -> Result<ValidatorReport> {
    let mut report = ValidatorReport {
        name: validator.name.clone(),
        checks,
        status: Status::Ran,
        checked: 0,
        invalid: Vec::new(),
    };
    let runnable = match prepare(judge, problem, validator)? {
        Ok(r) => r,
        Err(status) => {
            report.status = status;
            return Ok(report);
        }
    };
    let limits = Limits::new(VALIDATOR_TIME, VALIDATOR_MEMORY, VALIDATOR_OUTPUT);
    for case in cases {
        let mut args = runnable.args.clone();
        let mut read = runnable.read.clone();
        let checked = match checks {
            Checks::Inputs => {
                args.extend(case.input_validator_flags.iter().cloned());
                &case.input
            }
            Checks::Answers => {
                args.insert(0, case.input.display().to_string());
                read.push(case.input.clone());
                &case.answer
            }
        };
        if runnable.file_argument {
            args.push(checked.display().to_string());
            read.push(checked.clone());
        }
        let execution = judge.execute_helper(&runnable.program, &args, checked, &limits, read)?;
        let read = |p: &Path| std::fs::read(p).unwrap_or_default();
        let message = text::message(&read(&execution.stderr))
            .or_else(|| text::message(&read(&execution.stdout)));
        if let Some(why) = describe_stop(&execution.measurement, &limits) {
            let mut reason = format!("on input {}: {why}", case.name);
            if let Some(m) = message {
                reason = format!("{reason}: {m}");
            }
            report.status = Status::Failed(reason);
            return Ok(report);
        }
        report.checked += 1;
        match execution.response.outcome {
            Outcome::Exited(code) if code == runnable.valid => {}
            Outcome::Exited(code) => report.invalid.push(Rejection {
                case: case.name.clone(),
                exit_code: code,
                message,
            }),
            _ => unreachable!("describe_stop names every signal and spawn failure"),
        }
    }
    Ok(report)
}

/// The validator built and ready to run, or why it cannot run.
fn prepare(
    judge: &mut Judge,
    problem: &Problem,
    validator: &InputValidator,
) -> Result<std::result::Result<Runnable, Status>> {
    Ok(match &validator.kind {
        ValidatorKind::Unsupported(why) => Err(Status::Unsupported(why.clone())),
        ValidatorKind::Checktestdata(script) => {
            match compile::identity::locate(CHECKTESTDATA, &judge.workspace.root) {
                None => Err(Status::Skipped(format!(
                    "a checktestdata script, and `{CHECKTESTDATA}` is not installed (DOMjudge's checktestdata, on PATH)"
                ))),
                Some(tool) => Ok(Runnable {
                    program: Program::native(&tool),
                    args: vec![script.display().to_string()],
                    read: vec![script.clone()],
                    valid: 0,
                    file_argument: false,
                }),
            }
        }
        ValidatorKind::Viva(script) => {
            let root = &judge.workspace.root;
            match VIVA.iter().find_map(|v| compile::identity::locate(v, root)) {
                None => Err(Status::Skipped(
                    "a VIVA script, and `viva` is not installed (VIVA's, or problemtools' viva.sh, on PATH)".into(),
                )),
                Some(tool) => Ok(Runnable {
                    program: Program::native(&tool),
                    args: vec![script.display().to_string()],
                    read: vec![script.clone()],
                    valid: 0,
                    file_argument: true,
                }),
            }
        }
        ValidatorKind::Program(path) => {
            match judge.build(path, problem, &Options::default(), true) {
                Ok((_, Some(program))) => Ok(Runnable {
                    program,
                    args: Vec::new(),
                    read: Vec::new(),
                    valid: VALID,
                    file_argument: false,
                }),
                Ok((compiled, None)) => Err(Status::Failed(format!(
                    "it does not compile:\n{}",
                    text::diagnostics_excerpt(compiled.diagnostics.as_deref().unwrap_or(""))
                ))),
                Err(e) => {
                    // A compiler or interpreter that is not installed skips it, as it skips
                    // a solution.
                    let as_solution = Solution {
                        name: validator.name.clone(),
                        problem: problem.id.clone(),
                        path: path.clone(),
                    };
                    match as_solution.skipped_because(&e) {
                        Some(skip) => Err(Status::Skipped(skip.skipped)),
                        None => return Err(e),
                    }
                }
            }
        }
    })
}
