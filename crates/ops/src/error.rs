//! `Error`: what stops a use case, typed where a front-end may branch on it; the engine's own
//! errors pass through unchanged, message and all.

/// Why a use case could not be done.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The engine's: a problem that does not load, a build that cannot start, a runner lost.
    #[error(transparent)]
    Core(#[from] judge_core::Error),
    /// A package's or an import's, as the packages say it: a package that does not load.
    #[error(transparent)]
    Packages(#[from] judge_packages::Error),
    /// A comparison or a verify of a problem with nothing to judge.
    #[error("problem `{problem}` has no solutions: add solutions/{problem}/{example}")]
    NoSolutions {
        problem: String,
        /// A solution's file name in a language of the workspace: `NAME.py`.
        example: String,
    },
    /// A batch's results file that is not one.
    #[error("{}: {why}\n  fix: give another --out, or remove the file to judge every line again", path.display())]
    Results {
        path: std::path::PathBuf,
        why: String,
    },
    /// A file of a use case's own (a batch's results, its sources) that could not be read or
    /// written: `doing` is `read`, `write` or `create`.
    #[error("cannot {doing} {}", path.display())]
    Io {
        doing: &'static str,
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A stress run's attempt that is its reference.
    #[error("the attempt and the reference are the same file")]
    SameFile,
    /// The folder of a measurement's inputs could not be made.
    #[error("creating a folder for the inputs")]
    ScaleInputs(#[source] std::io::Error),
    /// An input could not be written.
    #[error("writing {}", path.display())]
    Writing {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The problem's generator made no input: why (as the core says it), with the size and
    /// seed.
    #[error("{why} (size {size}, seed {seed})")]
    Generator {
        why: Box<judge_core::stress::GeneratorError>,
        size: u64,
        seed: u64,
    },
    /// `judge generate` given a folder that is not a Kattis package (as the user named it).
    #[error("{} is not a Kattis package: it has no problem.yaml\n  fix: name the package's folder", .0.display())]
    NotAKattisPackage(std::path::PathBuf),
    /// A program asked to run in a language the judge does not have (by its id).
    #[error("there is no language `{language}`; the languages are {known}\n  fix: name one by its key (`python`, `cpp`), or add it to judge.toml")]
    UnknownLanguage { language: String, known: String },
    /// A file to put in or take out of a program's working folder, named outside it.
    #[error("the file `{}` is outside the program's working folder\n  fix: name it by a relative path without `..`", .0.display())]
    OutsideFolder(std::path::PathBuf),
    /// A request to judge that cannot be judged as it is (`judge api`'s `/v1/judge`).
    #[error(transparent)]
    Request(RequestError),
    /// A path that could not be made absolute.
    #[error(transparent)]
    Path(std::io::Error),
    /// What makes the judges failed (a cluster that cannot be reached, say): the front-end's
    /// error, said with its sources.
    #[error("{}", chain(.0.as_ref()))]
    Judges(Box<dyn std::error::Error + Send + Sync>),
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

/// A request that cannot be judged as it is, said before anything runs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("give either `problem` (a problem of the workspace) or `tests`, not both")]
    Both,
    #[error(
        "give `problem` (a problem of the workspace) or `tests` ([{{\"input\", \"output\"}}])"
    )]
    Neither,
    #[error("`tests` is empty: a pass on no tests is no pass; send at least one")]
    NoTests,
    #[error("`checker` goes with `tests`: a problem of the workspace is checked by its own")]
    CheckerWithProblem,
    #[error("the checker's file `{0}` is not a header file beside it (`testlib.h`): name a `.h` file, without a folder")]
    CheckerFile(String),
    #[error("`{0}` is 0: give a positive limit")]
    ZeroLimit(&'static str),
}

/// An error's message followed by those of its sources, as `anyhow` writes it with `{:#}`:
/// "cannot read x: No such file".
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_reads_as_anyhow_writes_it() {
        let e = Error::Io {
            doing: "read",
            path: "out.jsonl".into(),
            source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied"),
        };
        assert_eq!(e.to_string(), "cannot read out.jsonl");
        assert_eq!(chain(&e), "cannot read out.jsonl: denied");
    }
}
