//! `judge show`: a problem as a contestant reads it: statement, limits, samples, solutions.

use std::process::ExitCode;

use anyhow::Result;

use judge_report as report;

use super::{Context, EXIT_OK};

#[derive(clap::Args)]
pub(crate) struct ShowArgs {
    /// The problem (optional when the workspace has only one), or the path to a package.
    pub(super) problem: Option<String>,
}

pub(crate) fn show(ctx: &Context, args: ShowArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    let id = match args.problem {
        Some(p) => ctx.problem_id(&p).to_string(),
        None => match ws.problem_ids()?.as_slice() {
            [only] => only.clone(),
            ids => anyhow::bail!(
                "which problem?\n  fix: judge show PROBLEM (one of: {})",
                ids.join(", ")
            ),
        },
    };
    let problem = ws.problem(&id)?;
    let cases = ws.testcases_if_any(&problem)?;
    let solutions = ws.solutions(&id)?;
    let mut out = anstream::stdout();
    report::show::render(&mut out, ws, &problem, &cases, &solutions)?;
    Ok(ExitCode::from(EXIT_OK))
}
