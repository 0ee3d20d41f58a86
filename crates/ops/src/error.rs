//! `Error`: what stops a use case, typed where a front-end may branch on it; the engine's own
//! errors pass through unchanged, message and all.

/// Why a use case could not be done.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The engine's: a problem that does not load, a build that cannot start, a runner lost.
    #[error(transparent)]
    Core(#[from] judge_core::Error),
    /// A comparison or a verify of a problem with nothing to judge.
    #[error("problem `{problem}` has no solutions: add solutions/{problem}/{example}")]
    NoSolutions {
        problem: String,
        /// A solution's file name in a language of the workspace: `NAME.py`.
        example: String,
    },
    /// What makes the judges failed (a cluster that cannot be reached, say); its message.
    #[error("{0}")]
    Judges(String),
}

impl Error {
    /// A problem with no solutions, its example file named as the workspace would name it.
    pub(crate) fn no_solutions(ws: &judge_core::workspace::Workspace, problem: &str) -> Error {
        Error::NoSolutions {
            problem: problem.to_string(),
            example: ws.example_file("NAME", Some(problem)),
        }
    }
}
