//! The shipped workspace as a fresh clone has it, copied once per test process: the tests
//! judge this copy, never the checkout's working state (a reader's own attempt, or a case that
//! `judge stress --save` added while following the README, would change what they see).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;

/// The parts of the repository that make its workspace.
const WORKSPACE: &[&str] = &["problems", "solutions", "testcases", "judge.toml"];

/// The copy of this process, made at its first call (the tests of one process share it, as
/// they shared the checkout before). It lives under the build's temporary folder, one per
/// process id; copies of processes that are gone are removed when a new one is made.
pub(crate) fn shipped() -> PathBuf {
    static COPY: OnceLock<PathBuf> = OnceLock::new();
    COPY.get_or_init(|| {
        let parent = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("shipped");
        remove_stale(&parent);
        let root = parent.join(std::process::id().to_string());
        let _ = std::fs::remove_dir_all(&root);
        let repo = super::repo();
        for rel in clone_files(&repo) {
            copy(&repo.join(&rel), &root.join(&rel));
        }
        root
    })
    .clone()
}

/// A fresh copy of the shipped workspace in `to` (a page of the guide plays in its own).
pub(crate) fn copy_into(to: &Path) {
    let repo = super::repo();
    for rel in clone_files(&repo) {
        copy(&repo.join(&rel), &to.join(&rel));
    }
}

/// Copies left by test processes that have ended (their id has no `/proc` entry).
fn remove_stale(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let alive = Path::new("/proc").join(&name).exists();
        if !alive && name.to_string_lossy().parse::<u32>().is_ok() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The files of the workspace a fresh clone has: those git tracks, or, out of a git checkout,
/// all of them.
fn clone_files(repo: &Path) -> Vec<PathBuf> {
    let tracked = std::process::Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["ls-files", "-z", "--"])
        .args(WORKSPACE)
        .stderr(Stdio::null())
        .output();
    match tracked {
        Ok(out) if out.status.success() && !out.stdout.is_empty() => out
            .stdout
            .split(|&b| b == 0)
            .filter(|name| !name.is_empty())
            .map(|name| PathBuf::from(String::from_utf8_lossy(name).into_owned()))
            .collect(),
        _ => WORKSPACE
            .iter()
            .map(PathBuf::from)
            .filter(|part| repo.join(part).exists())
            .collect(),
    }
}

/// `from` (a file, or a folder and all it holds) copied to `to`, over what is there.
pub(crate) fn copy(from: &Path, to: &Path) {
    if from.is_file() {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, to).unwrap();
        return;
    }
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
