//! An interactive problem's judge program: what plays the judge's side, and how it is called.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// An interactive problem's judge program: its stdout is the solution's stdin and the other
/// way round; it is given the case's input and answer and decides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interactor {
    pub program: InteractorProgram,
    pub protocol: InteractorProtocol,
    /// CPU time per case (its wall-clock cap follows from it, and is never below the solution's).
    pub time: Duration,
    pub memory_bytes: u64,
}

/// What plays the judge's side of an interactive case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InteractorProgram {
    /// The problem's interactor, built from this source.
    Source(PathBuf),
    /// The judge itself, replaying the sample interaction that is the case's input
    /// (`judge run --replay`; see [`crate::replay`]).
    Replay,
}

impl InteractorProgram {
    /// The source to build, when there is one.
    pub fn source(&self) -> Option<&Path> {
        match self {
            InteractorProgram::Source(p) => Some(p),
            InteractorProgram::Replay => None,
        }
    }
}

/// How an interactor is called and what its exit code means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InteractorProtocol {
    /// Kattis/ICPC: `interactor INPUT ANSWER FEEDBACK_DIR FLAGS...`; exit 42 accepts, 43
    /// rejects (its message in `FEEDBACK_DIR/judgemessage.txt`), anything else is its failure.
    Kattis { flags: Vec<String> },
    /// testlib/Polygon: `interactor INPUT OUTPUT ANSWER`; exit 0 accepts, 1 rejects, 2 is a
    /// presentation error (a rejection), anything else its failure; then the problem's checker
    /// program, when it has one, checks what the interactor wrote to OUTPUT.
    Testlib,
}

/// "Kattis" or "testlib", as the guide names them.
impl fmt::Display for InteractorProtocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InteractorProtocol::Kattis { .. } => "Kattis",
            InteractorProtocol::Testlib => "testlib",
        })
    }
}

impl InteractorProtocol {
    /// The exit code that accepts.
    pub fn accept_code(&self) -> i32 {
        match self {
            InteractorProtocol::Kattis { .. } => 42,
            InteractorProtocol::Testlib => 0,
        }
    }
}
