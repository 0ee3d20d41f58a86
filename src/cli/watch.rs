//! `judge run --watch`: judge again on every save of the solution, its problem's tests or problem.toml.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result};
use notify::event::{EventKind, ModifyKind};
use notify::{RecursiveMode, Watcher};

use judge_core::verdict::Verdict;
use judge_core::workspace::{Solution, Workspace};
use judge_report::{self as report, dim};

/// Saves closer together than this make one run (editors write a file in several steps).
const DEBOUNCE: Duration = Duration::from_millis(200);

/// Runs `judge_once` now and after every relevant change, until Ctrl-C (which exits with 130).
pub(crate) fn watch(
    ws: &Workspace,
    solution: &Solution,
    mut judge_once: impl FnMut(&Workspace) -> Result<Verdict>,
) -> Result<ExitCode> {
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let attempt = canonical(&solution.path);
    let tests = canonical(&ws.root.join("testcases").join(&solution.problem));
    let problem_dir = canonical(&ws.problems_dir().join(&solution.problem));
    let problem_toml = problem_dir.join("problem.toml");

    let (tx, rx) = mpsc::channel::<notify::Result<notify::Event>>();
    let mut watcher = notify::recommended_watcher(tx).context("starting the file watcher")?;
    // Folders, not files: editors often save by writing a new file and renaming it over the old.
    let attempt_dir = attempt.parent().unwrap_or(Path::new("/")).to_path_buf();
    let mut watched: Vec<PathBuf> = vec![attempt_dir, problem_dir];
    if tests.is_dir() {
        watched.push(tests.clone());
    }
    watched.dedup();
    for dir in &watched {
        watcher
            .watch(dir, RecursiveMode::NonRecursive)
            .with_context(|| format!("watching {}", dir.display()))?;
    }
    // Reading a file (as judging does) is an event too: only what changes content counts.
    let relevant = |event: &notify::Event| {
        matches!(
            event.kind,
            EventKind::Create(_)
                | EventKind::Remove(_)
                | EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Name(_) | ModifyKind::Any)
        ) && event
            .paths
            .iter()
            .any(|p| *p == attempt || *p == problem_toml || p.starts_with(&tests))
    };

    let terminal = std::io::stdout().is_terminal();
    let mut out = anstream::stdout();
    let mut previous: Option<Verdict> = None;
    let mut round = 0;
    loop {
        round += 1;
        if terminal && round > 1 {
            // Clear the screen and go home; the verdict of the last run is repeated at the top.
            write!(out, "\x1b[2J\x1b[H")?;
        }
        if let Some(v) = previous {
            writeln!(
                out,
                "{}",
                dim(&format!("run {round} · previous verdict: {}", v.code()))
            )?;
            writeln!(out)?;
        }
        out.flush()?;
        match judge_once(ws) {
            Ok(v) => previous = Some(v),
            Err(e) => {
                anstream::eprintln!(
                    "{} {e:#}",
                    report::paint(anstyle::AnsiColor::Red.on_default().bold(), "error:")
                );
            }
        }
        writeln!(
            out,
            "\n{}",
            dim(&format!(
                "watching {}, {}/ and {} · Ctrl-C to stop",
                ws.show(&solution.path),
                ws.show(&ws.root.join("testcases").join(&solution.problem)),
                ws.show(
                    &ws.problems_dir()
                        .join(&solution.problem)
                        .join("problem.toml")
                )
            ))
        )?;
        out.flush()?;
        loop {
            match rx.recv() {
                Ok(Ok(event)) if relevant(&event) => break,
                Ok(Ok(_)) => {}
                Ok(Err(e)) => eprintln!("warning: file watcher: {e}"),
                Err(_) => return Ok(ExitCode::from(super::EXIT_ERROR)),
            }
        }
        // Debounce: an editor's save is several events; wait until they stop for a moment.
        while rx.recv_timeout(DEBOUNCE).is_ok() {}
    }
}
