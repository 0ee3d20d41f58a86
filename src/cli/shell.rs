//! `judge completions SHELL` and `judge man`: what a command-line user expects beside the
//! guide, both made from the same clap definitions as the commands themselves.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::CommandFactory;

use super::{Cli, EXIT_OK};

#[derive(clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell: bash, zsh or fish. Bash: `judge completions bash > ~/.local/share/bash-completion/completions/judge`.
    shell: clap_complete::Shell,
}

#[derive(clap::Args)]
pub(crate) struct ManArgs {
    /// Write judge.1 and a page per command (judge-run.1...) into this folder instead of
    /// printing judge.1.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

pub(crate) fn completions(args: CompletionsArgs) -> Result<ExitCode> {
    let mut command = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, "judge", &mut out);
    out.flush()?;
    Ok(ExitCode::from(EXIT_OK))
}

pub(crate) fn man(args: ManArgs) -> Result<ExitCode> {
    let command = Cli::command();
    match args.dir {
        Some(dir) => {
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            clap_mangen::generate_to(command, &dir)
                .with_context(|| format!("writing the pages into {}", dir.display()))?;
        }
        None => {
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(command).render(&mut out)?;
            out.flush()?;
        }
    }
    Ok(ExitCode::from(EXIT_OK))
}
