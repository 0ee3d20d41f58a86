//! `Error`: what reading, importing or exporting another tool's format can fail with: the
//! core's errors as they are (`Core`), and the packages' own (an import refused, a folder that
//! is no package).

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The engine's: a file not read, a `problem.yaml` or `problem.xml` that is wrong.
    #[error(transparent)]
    Core(#[from] judge_core::Error),

    #[error("cannot import {path}: {message}\n  fix: {fix}")]
    Import {
        path: String,
        message: String,
        fix: String,
    },

    #[error("{path} is not a problem package the judge reads\n  fix: name a folder with a problem.yaml (the Kattis/ICPC format) or a problem.xml (Polygon), or a .zip of one")]
    NotAPackage { path: String },
}
