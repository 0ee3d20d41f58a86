//! `judge import PATH`: bring problems in from where contestants keep them.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use judge_packages::import;
use judge_report as report;

use super::{Context, EXIT_OK};

#[derive(clap::Args)]
pub(crate) struct ImportArgs {
    /// What to import: an online-judge-tools test folder, a cph .prob file, a cargo-compete
    /// testcases/NAME.yml (or its testcases folder), a saved Competitive Companion .json, a
    /// Kattis/ICPC package (a folder with problem.yaml) or a Polygon package (a folder with
    /// problem.xml, or its .zip).
    path: PathBuf,

    /// The problem's id (default: from its URL, as `cf-954g` or `abc300-a`, else its name).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,

    #[command(flatten)]
    write: WriteArgs,
}

/// How each problem is written, for `import` and `listen` alike.
#[derive(clap::Args)]
pub(crate) struct WriteArgs {
    /// When the problem is there already, take the import's limits, checker and files where
    /// they differ (new tests are added either way; nothing else is replaced).
    #[arg(long)]
    force: bool,

    /// Also start an attempt, solutions/ID/main.rs, from the template.
    #[arg(long)]
    new: bool,

    /// The attempt's language with --new: a key or an extension (`cpp`, `py`); default Rust.
    #[arg(long, short, value_name = "LANG", requires = "new")]
    lang: Option<String>,
}

impl WriteArgs {
    pub(crate) fn options(&self, name: Option<String>) -> import::Options {
        import::Options {
            name,
            force: self.force,
            new_attempt: self.new.then(|| self.lang.clone()),
        }
    }
}

pub(crate) fn import(ctx: &Context, args: ImportArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    // As given: a relative path is the current folder's, and messages show it as typed.
    let imported = import::import(ws, &args.path, &args.write.options(args.name.clone()))?;
    let mut out = anstream::stdout();
    for i in &imported {
        for line in report::import::imported(i, &|p| ws.show(p)) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(ExitCode::from(EXIT_OK))
}
