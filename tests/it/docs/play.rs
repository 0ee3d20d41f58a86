//! A page's examples played in order in one throw-away copy of the repository's workspace: each
//! block's steps, then its commands, each command's output and exit status against the block's.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::page::{self, Block, Plan, Step};
use super::redact::normalise;
use crate::common::{self, Test};

/// Longer than any tested example takes: past it the command is stopped and reported.
const PATIENCE: Duration = Duration::from_secs(300);

/// One page's workspace, made at its first tested block. Its parent folder is throw-away too,
/// so that an example may write beside the workspace (`judge export ... ../DIR`).
#[derive(Default)]
struct Workspace {
    dir: Option<tempfile::TempDir>,
}

impl Workspace {
    fn root(&mut self) -> PathBuf {
        let dir = self.dir.get_or_insert_with(|| {
            let dir = tempfile::Builder::new()
                .prefix("judge-docs-")
                .tempdir()
                .unwrap();
            common::shipped::copy_into(&dir.path().join("work"));
            dir
        });
        dir.path().join("work")
    }

    fn fresh(&mut self) {
        self.dir = None;
    }
}

/// Plays every block of `text` (the page `name`) and says what differs from what it shows,
/// one entry per command or step that went otherwise.
pub(super) fn page(name: &str, text: &str) -> Vec<String> {
    let blocks = match page::blocks(text) {
        Ok(blocks) => blocks,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let mut workspace = Workspace::default();
    let mut failures = Vec::new();
    for block in &blocks {
        if let Err(e) = play_block(name, block, &mut workspace, &mut failures) {
            failures.push(e);
        }
    }
    failures
}

fn play_block(
    name: &str,
    block: &Block,
    workspace: &mut Workspace,
    failures: &mut Vec<String>,
) -> Result<(), String> {
    let (steps, exit) = match &block.plan {
        Plan::NotTested(_) => return Ok(()),
        Plan::Tested { steps, exit } => (steps, *exit),
    };
    let at = |line: usize| format!("{name}:{line}");
    if block.commands.is_empty() {
        return Err(format!(
            "{}: a console block with no `$ judge ...` line: show the command, or mark it <!-- not tested: REASON -->",
            at(block.line)
        ));
    }
    let commands = block
        .commands
        .iter()
        .map(|c| {
            page::judge_args(&c.text).map_err(|e| {
                format!(
                    "{}: {e}; mark the block <!-- not tested: REASON -->",
                    at(c.line)
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut hidden = Vec::new();
    for step in steps {
        match step {
            Step::Without(program) => hidden.push(program.as_str()),
            _ => apply(step, workspace).map_err(|e| format!("{}: {e}", at(block.line)))?,
        }
    }
    let path = match hidden.is_empty() {
        true => None,
        false => Some(PathWithout::new(&hidden)),
    };
    for (shown, args) in block.commands.iter().zip(commands) {
        let mut test = Test::at(workspace.root()).args(&args);
        if let Some(path) = &path {
            test = test.env("PATH", path.dir.path());
        }
        // The code is compared below with the example's, the whole output beside it, and the
        // output is compared whatever the code: one failure says all that differs.
        let (code, output) = test.any_exit().run_as_terminal(PATIENCE)?;
        let label = format!("`{}` at {}", shown.text, at(shown.line));
        if code != Some(exit) {
            failures.push(format!(
                "{label}: exit status {code:?}, the example's is {exit} (<!-- test: exit N --> sets it)\n{output}"
            ));
        }
        let expected = snapbox::Data::text(normalise(&shown.output));
        let actual = snapbox::Data::text(normalise(&output));
        let same =
            snapbox::Assert::new()
                .normalize_paths(false)
                .try_eq(Some(&label), actual, expected);
        if let Err(e) = same {
            failures.push(format!("{label}: the output differs\n{e}"));
        }
    }
    Ok(())
}

fn apply(step: &Step, workspace: &mut Workspace) -> Result<(), String> {
    let fixture = |rel: &str| {
        let path = common::repo().join(rel);
        match path.exists() {
            true => Ok(path),
            false => Err(format!("no fixture `{rel}` in the repository")),
        }
    };
    match step {
        Step::Fresh => workspace.fresh(),
        Step::Write { path, fixture: rel } => {
            common::shipped::copy(&fixture(rel)?, &workspace.root().join(path))
        }
        Step::Append { path, fixture: rel } => {
            use std::io::Write;
            let more = std::fs::read(fixture(rel)?).unwrap();
            let target = workspace.root().join(path);
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(&target)
                .map_err(|e| format!("cannot append to `{path}`: {e}"))?;
            file.write_all(&more).unwrap();
        }
        Step::Parquet { path, fixture: rel } => {
            common::parquet::from_jsonl(&fixture(rel)?, &workspace.root().join(path))
        }
        Step::Remove(path) => std::fs::remove_file(workspace.root().join(path))
            .map_err(|e| format!("cannot remove `{path}`: {e}"))?,
        Step::Run(args) => {
            judge(&workspace.root(), args)?;
        }
        Step::Without(_) => unreachable!("a block's PATH, not a change to its workspace"),
    }
    Ok(())
}

/// A folder that stands for the test's PATH, less some programs: a link to every other program
/// found on PATH (the first of each name, as a shell finds it). So an example can show what the
/// judge says of a compiler that is not installed on a machine that has it.
struct PathWithout {
    dir: tempfile::TempDir,
}

impl PathWithout {
    fn new(hidden: &[&str]) -> PathWithout {
        let dir = tempfile::Builder::new()
            .prefix("judge-docs-path-")
            .tempdir()
            .unwrap();
        let path = std::env::var_os("PATH").unwrap_or_default();
        for folder in std::env::split_paths(&path) {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let link = dir.path().join(&name);
                if hidden.iter().any(|h| name == **h) || link.symlink_metadata().is_ok() {
                    continue;
                }
                std::os::unix::fs::symlink(entry.path(), link).unwrap();
            }
        }
        PathWithout { dir }
    }
}

/// `judge ARGS` in `root`: its exit code and what it wrote, stdout and stderr in the order
/// written, as a terminal shows them. A step that sets up the example (a `run` in its
/// annotation) leaves its history behind: its verdict, hence its exit code, is not what the
/// example shows, and any will do (a panic of the judge still fails it).
fn judge(root: &Path, args: &[String]) -> Result<(Option<i32>, String), String> {
    Test::at(root)
        .args(args)
        .any_exit()
        .run_as_terminal(PATIENCE)
}
