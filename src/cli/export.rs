//! `judge export PROBLEM --kattis DIR`: a workspace problem written as a Kattis problem package.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use super::{Context, EXIT_OK};
use judge_ops::export::ExportOptions;
use judge_packages::export::Version;

#[derive(clap::Args)]
pub(crate) struct ExportArgs {
    /// The problem to export (its id).
    problem: String,

    /// Write it as a Kattis problem package into this folder: a new or empty one.
    #[arg(long, value_name = "DIR", required = true)]
    kattis: PathBuf,

    /// The version of the package format: 2023-07 (2023-07-draft, which problemtools reads)
    /// or 2025-09 (which `judge verify` reads back).
    #[arg(long, value_name = "VERSION", default_value = "2023-07", value_parser = ["2023-07", "2025-09"])]
    format: String,

    /// Write into a folder that is not empty, replacing the package's files there
    /// (problem.yaml, statement/, data/, submissions/, input_validators/, output_validator/).
    #[arg(long)]
    force: bool,
}

pub(crate) fn export(ctx: &Context, args: ExportArgs) -> Result<ExitCode> {
    let options = ExportOptions {
        problem: args.problem.clone(),
        dir: ctx.cwd.join(&args.kattis),
        force: args.force,
        version: match args.format.as_str() {
            "2025-09" => Version::V2025_09,
            _ => Version::V2023_07,
        },
    };
    let done = judge_ops::export::export(&ctx.ws, &options)?;
    let mut out = anstream::stdout();
    write!(
        out,
        "{}",
        judge_report::export::render(&done, &args.problem, &args.kattis)
    )?;
    out.flush()?;
    Ok(ExitCode::from(EXIT_OK))
}
