//! `Error`: what stops an evaluation as a whole, the engine's and the use cases' errors passed
//! through as they are (`Core`, `Ops`), and the evaluation's own: a data set, a samples file or
//! a results file that cannot be read as one, each message naming the file and the fix. What
//! is wrong with one problem of a data set is not an `Error`: it is that problem's `error`, and
//! the others are judged.

use std::path::PathBuf;

use judge_core::error::Location;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The engine's: a build that cannot start, a runner lost, a stop asked for.
    #[error(transparent)]
    Core(#[from] judge_core::Error),
    /// A use case's, as `judge_ops` says it.
    #[error(transparent)]
    Ops(#[from] judge_ops::Error),
    /// A data set that is not one of the formats read (or not the one `--format` named).
    #[error("{at}: {message}\n  fix: {fix}")]
    Dataset {
        at: Location,
        message: String,
        fix: String,
    },
    /// A samples file that is not JSON Lines of samples nor LiveCodeBench's list.
    #[error("{at}: {message}\n  fix: {fix}")]
    Samples {
        at: Location,
        message: String,
        fix: String,
    },
    /// A results file (`--out`) that is not one this command wrote.
    #[error("{at}: {message}\n  fix: give another --out, or remove the file to judge every sample again")]
    Results { at: Location, message: String },
    /// A file given to `--against` that is not a results file this command wrote.
    #[error("{at}: {message}\n  fix: give --against a results file that `judge eval --out` wrote")]
    Against { at: Location, message: String },
    /// A profile not known, or whose toolchain this machine lacks.
    #[error("{message}\n  fix: {fix}")]
    Profile { message: String, fix: String },
    /// A file of the evaluation's own that could not be read or written: `doing` is `read`,
    /// `write` or `create`.
    #[error("cannot {doing} {}: {source}\n  fix: check that the path names a file you can {doing}", path.display())]
    Io {
        doing: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

impl Error {
    pub(crate) fn io(doing: &'static str, path: &std::path::Path, source: std::io::Error) -> Error {
        Error::Io {
            doing,
            path: path.to_path_buf(),
            source,
        }
    }
}
