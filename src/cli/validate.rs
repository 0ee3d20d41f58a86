//! `judge validate`: each input validator of a problem (or of a package where it lies) on every
//! input, and which inputs fail which validator.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use judge_core::validate::Validation;

use super::{Context, EXIT_ERROR, EXIT_OK, EXIT_VERDICT};

#[derive(clap::Args)]
pub(crate) struct ValidateArgs {
    /// The problem: its id, or the path to a package.
    pub(super) problem: String,

    /// Print one JSON document instead of the text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn validate(ctx: &Context, args: ValidateArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    let problem = ws.problem(ctx.problem_id(&args.problem))?;
    if problem.input_validators.is_empty() && problem.package.answer_validators.is_empty() {
        anyhow::bail!(
            "{} has no input validator\n  fix: add `input_validator = \"{}\"` to its problem.toml (a program that reads an input on stdin and exits with 42 when it is valid), or input_validators/ to a package",
            problem.id,
            ws.example_file("validate", Some(&problem.id))
        );
    }
    let cases = ws.testcases(&problem)?;
    let mut judge = ctx.judge()?;
    let v = judge_core::validate::validate(&mut judge, &problem, &cases)?;
    let mut out = anstream::stdout();
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&judge_core::schema::tagged(&v))?
        )?;
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
