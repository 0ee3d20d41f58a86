//! Input validators: the programs (or checktestdata scripts) that say whether an input is one
//! the problem allows, run by `judge validate`.

use std::path::PathBuf;

/// An input validator of a problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputValidator {
    /// Its name as the problem has it: `validate.rs`, a package's `validator/` (a folder).
    pub name: String,
    pub kind: ValidatorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValidatorKind {
    /// A program the judge builds: run as `validator FLAGS < input`, exit 42 means valid.
    Program(PathBuf),
    /// A checktestdata script, run by `checktestdata` when it is installed.
    Checktestdata(PathBuf),
    /// A VIVA script, run by `viva` (problemtools' `viva.sh`) when it is installed.
    Viva(PathBuf),
    /// One the judge cannot run (VIVA, a program of several files), with the reason.
    Unsupported(String),
}
