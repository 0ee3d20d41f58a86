//! `judge clean`: remove what the judge keeps in `.judge/` (binaries, kept outputs); the history only with --all.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use judge_core::paths;
use judge_report as report;

use super::{Context, EXIT_OK};

#[derive(clap::Args)]
pub(crate) struct CleanArgs {
    /// Also remove the submission history (.judge/history.db) and the code pasted into
    /// `judge serve` (.judge/pastes/).
    #[arg(long)]
    all: bool,
}

pub(crate) fn clean(ctx: &Context, args: CleanArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    let state = ws.state_dir();
    // Only what the judge itself puts in the cache folder, which the settings may move anywhere.
    let mut targets = paths::cache::all(&ws.cache_dir());
    targets.push(paths::last(&state));
    if args.all {
        targets.extend(paths::history_files(&paths::history(&state)));
        // Code pasted into `judge serve`, which the history's submissions are.
        targets.push(ws.pastes_dir());
    }
    let mut out = anstream::stdout();
    let mut freed = 0;
    for path in &targets {
        let size = size_of(path);
        let removed = if path.is_dir() {
            std::fs::remove_dir_all(path)
        } else if path.exists() {
            std::fs::remove_file(path)
        } else {
            continue;
        };
        removed.with_context(|| format!("removing {}", path.display()))?;
        freed += size;
        writeln!(out, "removed {}", ws.show(path))?;
    }
    writeln!(out, "{} freed", judge_core::units::format_bytes(freed))?;
    if !args.all && paths::history(&state).exists() {
        writeln!(
            out,
            "{}",
            report::dim("the submission history is kept (--all removes it too)")
        )?;
    }
    Ok(ExitCode::from(EXIT_OK))
}

fn size_of(path: &Path) -> u64 {
    walkdir::WalkDir::new(path)
        .into_iter()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}
