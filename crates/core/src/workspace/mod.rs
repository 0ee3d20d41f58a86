//! The workspace on disk: finding its root, and the way into its problems, test cases and solutions.
//!
//! One file for each: [`problem`] (the `problem.toml` schema and its errors), [`checker`] (how
//! an output is judged: the checker's types), [`cases`] (pairing inputs with answers, selecting
//! and adding cases), [`solutions`] (listing and resolving them), [`validator`] (input validators).

mod cases;
mod checker;
pub mod installed;
mod interactor;
mod problem;
mod programs;
mod raw;
mod solutions;
mod statement;
mod terms;
mod validator;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, Location, Result};
use crate::lang::{Config, Language};

pub use cases::{
    interaction_files, natural_cmp, next_case_name, package_sample_dir, select_cases, TestCase,
};
// The glob is the text leaf's; kept here too, where cases are selected by it.
pub use crate::text::glob_match;
pub use checker::{
    Checker, CheckerProgram, CheckerProtocol, DEFAULT_CHECKER_MEMORY, DEFAULT_CHECKER_TIME,
};
pub use interactor::{Interactor, InteractorProgram, InteractorProtocol};
pub use problem::{
    check_io_name, FileIo, PackagePrograms, Problem, ProblemLimits, DEFAULT_OUTPUT_LIMIT,
};
pub use solutions::{solution_name, Solution, DEFAULT_LANGUAGE};
pub use statement::{has_examples, statement_parts, without_title, Part, Statement};
pub use terms::{Languages, Terms, ValidatorCase, ValidatorCaseKind};
pub use validator::{InputValidator, ValidatorKind};

use problem::parse_problem;

/// A folder holding `problems/`, `testcases/` and `solutions/`, and maybe a `judge.toml`; and
/// the problem packages mounted beside its own problems for one command.
#[derive(Debug, Clone)]
pub struct Workspace {
    pub root: PathBuf,
    /// `judge.toml`: the languages (the built-in ones when there is no file).
    pub config: Arc<Config>,
    /// Where the judge keeps its caches, kept outputs and history: `.judge/` in the workspace,
    /// or the user's cache folder when there is no workspace (a package is never written to).
    state: PathBuf,
    /// The build cache's folder: `cache/` in the state folder unless the settings move it
    /// (`with_cache`).
    cache: PathBuf,
    /// The Rust compiler run where a command says `rustc` (the `rustc` setting); `None`:
    /// PATH's.
    rustc: Option<PathBuf>,
    /// Packages judged where they lie (`--problem PATH`, `judge verify PATH`).
    packages: Vec<Arc<Mounted>>,
}

/// A problem whose files live outside the workspace's folders, read in full (a problem
/// package): what `problem`, `testcases` and `solutions` give for it.
#[derive(Debug, Clone)]
pub struct Mounted {
    pub problem: Problem,
    pub cases: Vec<TestCase>,
    pub solutions: Vec<Solution>,
    /// Its programs the judge cannot run, with the reason.
    pub skipped: Vec<crate::model::Skipped>,
    /// The submissions built from a copy (with the package's constants in), by the file they
    /// were copied from: that file named by a user is the copy judged.
    pub copies: std::collections::BTreeMap<PathBuf, PathBuf>,
}

impl Workspace {
    /// The workspace at `root`, with its `judge.toml` read.
    pub fn at(root: &Path) -> Result<Workspace> {
        let state = crate::paths::state(root);
        Ok(Workspace {
            root: root.to_path_buf(),
            config: Arc::new(Config::load(root)?),
            cache: crate::paths::cache(&state),
            state,
            rustc: None,
            packages: Vec::new(),
        })
    }

    /// No workspace, only packages (mounted next): `dir` stands for the root, and the judge's
    /// state goes to the user's cache folder (`$XDG_CACHE_HOME/judge`, `~/.cache/judge`).
    pub fn loose(dir: &Path) -> Workspace {
        let state = crate::paths::user_cache();
        Workspace {
            root: dir.to_path_buf(),
            config: Arc::new(Config::default()),
            cache: crate::paths::cache(&state),
            state,
            rustc: None,
            packages: Vec::new(),
        }
    }

    /// The same workspace keeping its caches, kept outputs and history in `state` instead (a
    /// worker keeps one for every problem it is sent).
    pub fn with_state(self, state: &Path) -> Workspace {
        Workspace {
            state: state.to_path_buf(),
            cache: crate::paths::cache(state),
            ..self
        }
    }

    /// The same workspace with its build cache in `cache` (the settings' `cache`).
    pub fn with_cache(self, cache: PathBuf) -> Workspace {
        Workspace { cache, ..self }
    }

    /// The same workspace built with `rustc` where a command says `rustc` (the settings'
    /// `rustc`; `None`: the one on PATH).
    pub fn with_rustc(self, rustc: Option<PathBuf>) -> Workspace {
        Workspace { rustc, ..self }
    }

    /// Makes a package's problem one of the workspace's for this command (in place of one
    /// with the same id). Returns the problem's id.
    pub fn mount(&mut self, mounted: Mounted) -> String {
        let id = mounted.problem.id.clone();
        self.packages.retain(|p| p.problem.id != id);
        self.packages.push(Arc::new(mounted));
        id
    }

    /// The mounted package whose problem is `id`.
    pub fn package(&self, id: &str) -> Option<&Arc<Mounted>> {
        self.packages.iter().find(|p| p.problem.id == id)
    }

    /// The language `path` is written in, by its extension (a program folder: by its files');
    /// an error lists the languages.
    pub fn language_of(&self, path: &Path) -> Result<Arc<Language>> {
        if path.is_dir() {
            // A program folder: its scripts build and run it, else its sources' language.
            let languages = &self.config.languages;
            return crate::compile::source::program_language(path, languages).map_err(|why| {
                Error::ProgramFolder {
                    path: self.show(path),
                    why: why.to_string(),
                }
            });
        }
        self.config
            .languages
            .of_path(path)
            .cloned()
            .ok_or_else(|| Error::UnknownLanguage {
                path: self.show(path),
                extension: path
                    .extension()
                    .map(|e| e.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                known: self.config.languages.known(),
            })
    }

    /// The workspace given by `--root`, or the nearest folder holding `problems/` from `start` up.
    pub fn discover(start: &Path, root: Option<&Path>) -> Result<Workspace> {
        if let Some(root) = root {
            if !root.join("problems").is_dir() {
                return Err(Error::NotAWorkspace {
                    start: root.to_path_buf(),
                    explicit: true,
                });
            }
            return Workspace::at(root);
        }
        let start = start.canonicalize().unwrap_or_else(|_| start.to_path_buf());
        for dir in start.ancestors() {
            if dir.join("problems").is_dir() {
                return Workspace::at(dir);
            }
        }
        Err(Error::NotAWorkspace {
            start,
            explicit: false,
        })
    }

    pub fn problems_dir(&self) -> PathBuf {
        self.root.join("problems")
    }

    /// `.judge/`: caches and history, never committed (see [`Workspace::loose`]).
    pub fn state_dir(&self) -> PathBuf {
        self.state.clone()
    }

    /// The Rust compiler run where a command says `rustc`; `None`: the one on PATH.
    pub fn rustc(&self) -> Option<PathBuf> {
        self.rustc.clone()
    }

    /// The build cache's folder (see [`crate::compile::Cache`]).
    pub fn cache_dir(&self) -> PathBuf {
        self.cache.clone()
    }

    /// Where code pasted into `judge serve`'s submit form is kept (`PROBLEM/pasted-N.EXT`):
    /// with the submissions, not among the user's solutions.
    pub fn pastes_dir(&self) -> PathBuf {
        crate::paths::pastes(&self.state)
    }

    /// A path shown to the user: relative to the workspace root when inside it.
    pub fn show(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// Ids of every folder under `problems/`, sorted.
    pub fn problem_ids(&self) -> Result<Vec<String>> {
        let dir = self.problems_dir();
        let mut ids: Vec<String> = self.packages.iter().map(|p| p.problem.id.clone()).collect();
        if !dir.is_dir() && !ids.is_empty() {
            return Ok(ids);
        }
        for entry in std::fs::read_dir(&dir).map_err(|e| Error::list(&dir, e))? {
            let entry = entry.map_err(|e| Error::list(&dir, e))?;
            if entry.path().is_dir() {
                if let Some(name) = entry.file_name().to_str() {
                    if !name.starts_with('.') {
                        ids.push(name.to_string());
                    }
                }
            }
        }
        ids.sort_by(|a, b| natural_cmp(a, b));
        ids.dedup();
        Ok(ids)
    }

    /// Validates `text` as the problem.toml of problem `id` whose files are in `dir` (a
    /// problem.toml about to be written).
    pub fn problem_from_text(&self, id: &str, dir: &Path, text: &str) -> Result<Problem> {
        let shown = self.show(&self.problems_dir().join(id).join("problem.toml"));
        parse_problem(id, dir, &shown, text, &self.config)
    }

    /// Loads and validates `problems/ID/problem.toml` (or the mounted package's problem).
    pub fn problem(&self, id: &str) -> Result<Problem> {
        if let Some(p) = self.package(id) {
            return Ok(p.problem.clone());
        }
        let dir = self.problems_dir().join(id);
        if !dir.is_dir() {
            return Err(Error::UnknownProblem {
                id: id.to_string(),
                known: self.problem_ids().unwrap_or_default(),
            });
        }
        let path = dir.join("problem.toml");
        let shown = self.show(&path);
        let text = std::fs::read(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::Config {
                at: Location::file(&shown),
                message: "the problem has no problem.toml".into(),
                fix: "create it with at least `title`, `time_limit` and `memory_limit` (see the guide: docs/src/workspace.md, \"problem.toml\")".into(),
            },
            _ => Error::read(&path, e),
        })?;
        let text = String::from_utf8(text).map_err(|_| Error::Config {
            at: Location::file(&shown),
            message: "the file is not UTF-8 text".into(),
            fix: "save it as UTF-8".into(),
        })?;
        parse_problem(id, &dir, &shown, &text, &self.config)
    }
}
