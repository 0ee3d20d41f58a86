//! `judge generate PACKAGE`: a package's data made by its `generators/generators.yaml`, each
//! case made again only when what makes it changed.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use super::{Context, EXIT_OK};

#[derive(clap::Args)]
pub(crate) struct GenerateArgs {
    /// The package's folder (holding generators/generators.yaml).
    package: PathBuf,

    /// Print one JSON document instead of the text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn generate(ctx: &Context, args: GenerateArgs) -> Result<ExitCode> {
    // Not on a cluster: the generators are the jury's programs.
    let here = super::cluster::ClusterArgs::default();
    let mut judges = super::judges::CliJudges::new(ctx, &here);
    let dir = ctx.cwd.join(&args.package);
    let generated = judge_ops::generate::generate(&mut judges, &dir, &args.package)?;
    let mut out = anstream::stdout();
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&judge_core::schema::tagged(&generated))?
        )?;
    } else {
        write!(out, "{}", judge_report::generate::render(&generated))?;
    }
    Ok(ExitCode::from(EXIT_OK))
}
