//! How an output is judged, as problem.toml says it: a built-in comparison, the Kattis default
//! validator, or a checker program with its protocol and limits.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use crate::check::{CheckerMode, CompareOptions, KattisFlags};

/// A custom checker's CPU time limit per case when `problem.toml` names none.
pub const DEFAULT_CHECKER_TIME: Duration = Duration::from_secs(10);
/// A custom checker's memory limit when `problem.toml` names none.
pub const DEFAULT_CHECKER_MEMORY: u64 = 1 << 30;

/// How an output is judged: a built-in comparison, the Kattis default validator, or a checker
/// program.
#[derive(Debug, Clone, PartialEq)]
pub enum Checker {
    Builtin {
        mode: CheckerMode,
        options: CompareOptions,
    },
    /// The Kattis problem package format's default output validator, with its flags.
    Kattis(KattisFlags),
    Program(CheckerProgram),
}

/// How a checker program is called and what its exit code means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckerProtocol {
    /// testlib's: `checker INPUT OUTPUT ANSWER`; exit 0 accepts, 1 rejects, 2 (presentation
    /// error) rejects, 7 gives the points its message starts with, else the checker failed.
    Testlib,
    /// The Kattis package format's output validators: `validator INPUT ANSWER FEEDBACK_DIR
    /// FLAGS... < OUTPUT`; exit 42 accepts, 43 rejects, anything else the validator's failure;
    /// its message in `FEEDBACK_DIR/judgemessage.txt`, a score in `score.txt`.
    Kattis { flags: Vec<String> },
}

/// `checker_protocol` in problem.toml.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Protocol {
    Testlib,
    Kattis,
}

impl Checker {
    /// The program, when a checker program decides.
    pub fn program(&self) -> Option<&CheckerProgram> {
        match self {
            Checker::Program(p) => Some(p),
            Checker::Builtin { .. } | Checker::Kattis(_) => None,
        }
    }
}

/// The value of `checker` in problem.toml: "tokens", ..., "custom".
impl fmt::Display for Checker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Checker::Builtin { mode, .. } => mode.fmt(f),
            Checker::Kattis(_) => f.write_str("kattis"),
            Checker::Program(_) => f.write_str("custom"),
        }
    }
}

impl Default for Checker {
    fn default() -> Checker {
        Checker::Builtin {
            mode: CheckerMode::default(),
            options: CompareOptions::default(),
        }
    }
}

/// A custom checker: a program in the problem's folder, compiled like a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckerProgram {
    pub source: PathBuf,
    /// CPU time per case.
    pub time: Duration,
    pub memory_bytes: u64,
    pub protocol: CheckerProtocol,
}

/// The values of `checker`: the built-in modes, and "custom" for a checker program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum CheckerKey {
    #[default]
    Tokens,
    Exact,
    Lines,
    Float,
    Json,
    Kattis,
    Custom,
}

impl CheckerKey {
    pub(super) fn mode(self) -> Option<CheckerMode> {
        match self {
            CheckerKey::Tokens => Some(CheckerMode::Tokens),
            CheckerKey::Exact => Some(CheckerMode::Exact),
            CheckerKey::Lines => Some(CheckerMode::Lines),
            CheckerKey::Float => Some(CheckerMode::Float),
            CheckerKey::Json => Some(CheckerMode::Json),
            CheckerKey::Kattis | CheckerKey::Custom => None,
        }
    }
}

impl fmt::Display for CheckerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckerKey::Kattis => f.write_str("kattis"),
            CheckerKey::Custom => f.write_str("custom"),
            _ => self.mode().expect("a built-in mode").fmt(f),
        }
    }
}
