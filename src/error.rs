//! Errors of the library: each names the file or thing at fault and the fix.

use std::path::{Path, PathBuf};

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{} is not inside a judge workspace (no folder on the way up holds `problems/`)\n  fix: run from inside a workspace, pass --root DIR, or create one with `judge init DIR`", start.display())]
    NotAWorkspace { start: PathBuf, explicit: bool },

    #[error("unknown problem `{id}`; known problems: {}", list(known))]
    UnknownProblem { id: String, known: Vec<String> },

    #[error("{path}{}: {message}\n  fix: {fix}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Config {
        path: String,
        line: Option<usize>,
        message: String,
        fix: String,
    },

    #[error("{path}: {message}\n  fix: {fix}")]
    TestData {
        path: String,
        message: String,
        fix: String,
    },

    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },

    #[error("unknown solution `{spec}`; known solutions: {}\n  fix: use one of those names, or give the path to a .rs file", list(known))]
    UnknownSolution { spec: String, known: Vec<String> },

    #[error("`{spec}` names several solutions: {}\n  fix: write PROBLEM/NAME", candidates.join(", "))]
    AmbiguousSolution {
        spec: String,
        candidates: Vec<String>,
    },

    #[error("no test case of `{problem}` matches `{pattern}`; its cases: {}\n  fix: use one of those names, or a pattern with * and ?", list(known))]
    UnknownCase {
        problem: String,
        pattern: String,
        known: Vec<String>,
    },

    #[error("`{problem}` has no sample cases\n  fix: list some in problem.toml, e.g. `samples = [\"1\"]`, or drop --samples")]
    NoSamples { problem: String },

    #[error("{} already exists; it is left as it is\n  fix: choose another name, or remove it first", path.display())]
    Exists { path: PathBuf },

    #[error(
        "`{name}` cannot be the name of a {what}: use letters, digits, `-` and `_` (not first `-`)"
    )]
    BadName { name: String, what: String },

    #[error("the solutions belong to different problems: {}\n  fix: name solutions of one problem", solutions.join(", "))]
    MixedProblems { solutions: Vec<String> },

    #[error("cannot judge `{path}`: {message}")]
    BadSolutionPath { path: String, message: String },

    #[error("`{path}` is not under solutions/PROBLEM/, so its problem is unknown\n  fix: add --problem P (one of: {})", list(known))]
    ProblemNeeded { path: String, known: Vec<String> },

    #[error("the Rust compiler could not be used: {0}\n  fix: install Rust (rustup.rs) so that `rustc` is on PATH, or set JUDGE_RUSTC to its path")]
    Toolchain(String),

    #[error(transparent)]
    Run(#[from] crate::run::RunError),
}

impl Error {
    pub fn io(path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "(none)".to_string()
    } else {
        items.join(", ")
    }
}
