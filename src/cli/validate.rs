//! `judge validate`: each input validator of a problem (or of a package where it lies) on every
//! input, and which inputs fail which validator.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use judge_core::session::Judge;
use judge_core::validate::Validation;
use judge_core::workspace::Workspace;

use super::{EXIT_ERROR, EXIT_OK, EXIT_VERDICT};

#[derive(clap::Args)]
pub(crate) struct ValidateArgs {
    /// The problem: its id, or the path to a package.
    problem: String,

    /// Print one JSON document instead of the text.
    #[arg(long)]
    json: bool,
}

impl ValidateArgs {
    pub(crate) fn problem(&self) -> &String {
        &self.problem
    }

    pub(crate) fn problem_mut(&mut self) -> &mut String {
        &mut self.problem
    }
}

pub(crate) fn validate(ws: Workspace, args: ValidateArgs) -> Result<ExitCode> {
    let problem = ws.problem(&args.problem)?;
    if problem.input_validators.is_empty() {
        anyhow::bail!(
            "{} has no input validator\n  fix: add `input_validator = \"validate.rs\"` to its problem.toml (a program that reads an input on stdin and exits with 42 when it is valid), or input_validators/ to a package",
            problem.id
        );
    }
    let cases = ws.testcases(&problem)?;
    let mut judge = Judge::new(ws)?;
    let v = judge_core::validate::validate(&mut judge, &problem, &cases)?;
    let mut out = anstream::stdout();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        write!(out, "{}", judge_report::validate::render(&v))?;
    }
    Ok(ExitCode::from(exit_code(&v)))
}

/// 2 when a validator failed or none could run (nothing was checked), 1 when an input is
/// invalid, 0 when every validator that ran accepted every input.
fn exit_code(v: &Validation) -> u8 {
    if v.failed() || !v.ran() {
        EXIT_ERROR
    } else if v.all_valid() {
        EXIT_OK
    } else {
        EXIT_VERDICT
    }
}
