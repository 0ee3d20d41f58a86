//! Errors of the library: each names the file or thing at fault and the fix.

use std::path::{Path, PathBuf};

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{} is not inside a judge workspace (no folder on the way up holds `problems/`)\n  fix: run from inside a workspace, pass --root DIR, or create one with `judge init DIR`", start.display())]
    NotAWorkspace { start: PathBuf, explicit: bool },

    #[error("unknown problem `{id}`; known problems: {}", list(known))]
    UnknownProblem { id: String, known: Vec<String> },

    #[error("{at}: {message}\n  fix: {fix}")]
    Config {
        at: Location,
        message: String,
        fix: String,
    },

    #[error("{at}: {message}\n  fix: {fix}")]
    TestData {
        at: Location,
        message: String,
        fix: String,
    },

    #[error("cannot {op} {}: {source}{}", path.display(), io_fix(source))]
    Io {
        op: Op,
        path: PathBuf,
        source: std::io::Error,
    },

    #[error("unknown solution `{spec}`; known solutions: {}\n  fix: use one of those names, or give the path to a {extensions} file", list(known))]
    UnknownSolution {
        spec: String,
        known: Vec<String>,
        /// The extensions of the languages in use, for the fix: "`.py` or `.rs`".
        extensions: String,
    },

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

    #[error("a compiler or interpreter could not be used: {0}\n  fix: check that it is installed and works, or set its command in judge.toml")]
    Toolchain(String),

    #[error("the {language} compiler was killed by {signal}, by something else than the judge (the out-of-memory killer, or a person): nothing is known of the source, and nothing was judged\n  fix: judge again; if it is killed again, look for the out-of-memory killer in the system's log (`dmesg`), or give the machine more memory")]
    CompilerKilled { language: String, signal: String },

    #[error("the {language} compiler finished without an error but left no program in the build folder: something removed it meanwhile (a `judge clean`?), or the compile command writes elsewhere; nothing is known of the source, and nothing was judged\n  fix: judge again; if it happens again, check that the language's compile command writes {{binary}} (judge.toml)")]
    NoProgramMade { language: String },

    #[error("{language} needs `{program}`, which is not installed (not on PATH){}\n  fix: install it{}, or set the command in judge.toml ([language] in the guide: docs/src/languages.md)", install.as_ref().map(|i| format!("; it comes from {i}")).unwrap_or_default(), install.as_ref().map(|i| format!(" ({i})")).unwrap_or_default())]
    MissingProgram {
        language: String,
        program: String,
        install: Option<String>,
    },

    #[error("there is no language `{name}`; the languages are {known}\n  fix: name one by its key or its extension (`python`, `py`), or add it to judge.toml")]
    UnknownLanguageName { name: String, known: String },

    #[error("there is no template for {language}\n  fix: start from a copy of a solution with --from, or write the file yourself")]
    NoTemplate { language: String },

    #[error("{problem}: no accepted submission ran here, so the time limit cannot be derived\n  fix: give one with --time-limit, or add an accepted submission in a language the judge runs")]
    NoTimeLimit { problem: String },

    #[error("{what} is not supported\n  fix: {fix}")]
    Unsupported { what: String, fix: String },

    #[error("{solution} is not judged: {why}\n  fix: {fix}")]
    Refused {
        solution: String,
        why: String,
        fix: String,
    },

    #[error("the Rust toolchain `{toolchain}` is not installed\n  fix: rustup toolchain install {toolchain}, or remove `toolchain` from judge.toml / problem.toml")]
    MissingRustToolchain { toolchain: String },

    #[error("cannot judge `{path}`: no language claims `.{extension}`; the languages are {known}\n  fix: rename the file, or add the language to judge.toml:\n    [language.NAME]\n    extensions = [\"{extension}\"]\n    compile = \"COMPILER {{source}} -o {{binary}}\"\n    run = \"{{binary}}\"")]
    UnknownLanguage {
        path: String,
        extension: String,
        known: String,
    },

    #[error("cannot build the program folder {path}: {why}\n  fix: keep the sources of one language in it (headers and other files beside them are fine), or give it `build` and `run` scripts")]
    ProgramFolder { path: String, why: String },

    /// Judging elsewhere failed (a cluster's workers, say): the error of the crate that
    /// judged, which this one cannot name.
    #[error(transparent)]
    Judging(Box<dyn std::error::Error + Send + Sync>),

    #[error(transparent)]
    Run(#[from] judge_runner::RunError),
}

/// Where in what a person wrote an error lies: the file as the judge shows it, and the key or
/// the line where known. Shown as `FILE (KEY):LINE`, each part only when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    /// The key (or the element, or the case) at fault, where the line alone would not say it.
    /// Boxed, and the line 32 bits: every `Result` of the crate carries an `Error` this size.
    pub key: Option<Box<str>>,
    /// 1-based.
    pub line: Option<u32>,
}

impl Location {
    /// The whole file, no key or line known.
    pub fn file(file: impl Into<PathBuf>) -> Location {
        Location {
            file: file.into(),
            key: None,
            line: None,
        }
    }

    pub fn with_key(self, key: impl Into<String>) -> Location {
        Location {
            key: Some(key.into().into_boxed_str()),
            ..self
        }
    }

    /// The line where known (`None` keeps it unknown).
    pub fn with_line(self, line: impl Into<Option<usize>>) -> Location {
        Location {
            line: line.into().map(|l| u32::try_from(l).unwrap_or(u32::MAX)),
            ..self
        }
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(key) = &self.key {
            write!(f, " ({key})")?;
        }
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        Ok(())
    }
}

/// What was being done to a file when the system refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Read,
    /// List a folder's entries.
    List,
    Write,
    /// Create a file or a folder.
    Create,
    Copy,
    /// Move into place.
    Rename,
    Remove,
}

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Op::Read => "read",
            Op::List => "list",
            Op::Write => "write",
            Op::Create => "create",
            Op::Copy => "copy",
            Op::Rename => "move into place",
            Op::Remove => "remove",
        })
    }
}

impl Error {
    /// What this machine lacks to build or run a program (a compiler, a Rust toolchain, one
    /// that does not answer), which another machine may have: not the source's fault, nor the
    /// package's.
    pub fn is_this_machines(&self) -> bool {
        matches!(
            self,
            Error::MissingProgram { .. } | Error::MissingRustToolchain { .. } | Error::Toolchain(_)
        )
    }
    /// The system refused to do `op` to `path`.
    pub fn io(op: Op, path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            op,
            path: path.to_path_buf(),
            source,
        }
    }

    pub fn read(path: &Path, source: std::io::Error) -> Error {
        Error::io(Op::Read, path, source)
    }

    pub fn list(path: &Path, source: std::io::Error) -> Error {
        Error::io(Op::List, path, source)
    }

    pub fn write(path: &Path, source: std::io::Error) -> Error {
        Error::io(Op::Write, path, source)
    }

    pub fn create(path: &Path, source: std::io::Error) -> Error {
        Error::io(Op::Create, path, source)
    }

    pub fn copy(path: &Path, source: std::io::Error) -> Error {
        Error::io(Op::Copy, path, source)
    }

    pub fn rename(path: &Path, source: std::io::Error) -> Error {
        Error::io(Op::Rename, path, source)
    }

    pub fn remove(path: &Path, source: std::io::Error) -> Error {
        Error::io(Op::Remove, path, source)
    }
}

/// The fix of a file the system gave but the judge could not take: text that is not UTF-8.
/// The system's own refusals (no such file, no permission, no space) say what to do themselves.
fn io_fix(source: &std::io::Error) -> &'static str {
    match source.kind() {
        std::io::ErrorKind::InvalidData => "\n  fix: save the file as UTF-8 text",
        _ => "",
    }
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "(none)".to_string()
    } else {
        items.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_location_shows_the_file_then_the_key_then_the_line() {
        let file = Location::file("relay/problem.yaml");
        assert_eq!(file.to_string(), "relay/problem.yaml");
        assert_eq!(
            file.clone().with_line(7).to_string(),
            "relay/problem.yaml:7"
        );
        assert_eq!(
            file.clone().with_line(None).to_string(),
            "relay/problem.yaml"
        );
        assert_eq!(
            file.clone().with_key("type").to_string(),
            "relay/problem.yaml (type)"
        );
        assert_eq!(
            file.with_key("validation").with_line(Some(3)).to_string(),
            "relay/problem.yaml (validation):3"
        );
    }

    #[test]
    fn a_config_error_names_where_then_what_then_the_fix() {
        let e = Error::Config {
            at: Location::file("problems/sum/problem.toml").with_line(4),
            message: "time_limit: `0s` must be more than zero".into(),
            fix: "write a positive duration such as \"1s\" or \"500ms\"".into(),
        };
        assert_eq!(
            e.to_string(),
            "problems/sum/problem.toml:4: time_limit: `0s` must be more than zero\n  fix: write a positive duration such as \"1s\" or \"500ms\""
        );
        let e = Error::TestData {
            at: Location::file("sum/data").with_key("case 3"),
            message: "no input".into(),
            fix: "add it".into(),
        };
        assert_eq!(e.to_string(), "sum/data (case 3): no input\n  fix: add it");
    }

    #[test]
    fn a_file_error_says_what_was_being_done() {
        let denied = || std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let path = Path::new("testcases/p/1.in");
        let said: Vec<String> = [
            Error::read(path, denied()),
            Error::list(path, denied()),
            Error::write(path, denied()),
            Error::create(path, denied()),
            Error::copy(path, denied()),
            Error::rename(path, denied()),
            Error::remove(path, denied()),
        ]
        .iter()
        .map(|e| {
            e.to_string()
                .split(" testcases")
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
        assert_eq!(
            said,
            [
                "cannot read",
                "cannot list",
                "cannot write",
                "cannot create",
                "cannot copy",
                "cannot move into place",
                "cannot remove"
            ]
        );
        assert!(matches!(
            Error::remove(path, denied()),
            Error::Io { op: Op::Remove, .. }
        ));
    }
}
