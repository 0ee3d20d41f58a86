//! Solutions: the reference solutions under `solutions/ID/`, and resolving what the user typed (a name or a path).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{natural_cmp, Workspace};
use crate::error::{Error, Result};
use crate::lang::Language;

/// The language of a workspace with no solution yet: the judge's own (`judge new`'s default).
pub const DEFAULT_LANGUAGE: &str = "rust";

/// A solution source file.
#[derive(Debug, Clone)]
pub struct Solution {
    /// `bitmask`, or the file stem of an attempt outside `solutions/`.
    pub name: String,
    pub problem: String,
    pub path: PathBuf,
}

impl Workspace {
    /// The reference solutions of a problem: every file in `solutions/ID/` in a language the
    /// judge knows, sorted by name. A solution's name is its file's stem (`bitmask`), or its
    /// file name when another file has the same stem (`bitmask.py` beside `bitmask.rs`).
    pub fn solutions(&self, problem: &str) -> Result<Vec<Solution>> {
        if let Some(p) = self.package(problem) {
            return Ok(p.solutions.clone());
        }
        let dir = self.root.join("solutions").join(problem);
        let mut files: Vec<PathBuf> = Vec::new();
        if !dir.is_dir() {
            return Ok(Vec::new());
        }
        for entry in std::fs::read_dir(&dir).map_err(|e| Error::list(&dir, e))? {
            let path = entry.map_err(|e| Error::list(&dir, e))?.path();
            if path.is_file() && self.config.languages.of_path(&path).is_some() {
                files.push(path);
            }
        }
        let mut out: Vec<Solution> = files
            .iter()
            .filter_map(|path| {
                Some(Solution {
                    name: solution_name(path, &files)?,
                    problem: problem.to_string(),
                    path: path.clone(),
                })
            })
            .collect();
        out.sort_by(|a, b| natural_cmp(&a.name, &b.name));
        Ok(out)
    }

    /// The languages the solutions are written in, the most used first (a tie: the one listed
    /// first among the built-in ones): `problem`'s solutions when it has some, else the
    /// workspace's. Rust, the judge's default, when there are none. What a hint offers as an
    /// example, and what pasted code that does not tell its language is taken to be written in.
    pub fn languages_in_use(&self, problem: Option<&str>) -> Vec<Arc<Language>> {
        let own = problem
            .and_then(|p| self.solutions(p).ok())
            .unwrap_or_default();
        let solutions = if own.is_empty() {
            self.all_solutions().unwrap_or_default()
        } else {
            own
        };
        let mut counts: Vec<(Arc<Language>, usize)> = Vec::new();
        for s in &solutions {
            let Some(language) = self.config.languages.of_path(&s.path) else {
                continue;
            };
            match counts.iter_mut().find(|(l, _)| l.id == language.id) {
                Some((_, n)) => *n += 1,
                None => counts.push((language.clone(), 1)),
            }
        }
        let order = |l: &Language| {
            crate::lang::builtin::ORDER
                .iter()
                .position(|id| *id == l.id)
                .unwrap_or(usize::MAX)
        };
        counts.sort_by_key(|(l, n)| (std::cmp::Reverse(*n), order(l)));
        let mut languages: Vec<Arc<Language>> = counts.into_iter().map(|(l, _)| l).collect();
        if languages.is_empty() {
            languages.extend(self.config.languages.get(DEFAULT_LANGUAGE).cloned());
        }
        languages
    }

    /// "`.py` or `.rs`": the extensions of the languages in use, for a hint.
    pub fn extensions_in_use(&self, problem: Option<&str>) -> String {
        let extensions: Vec<String> = self
            .languages_in_use(problem)
            .iter()
            .filter_map(|l| l.extensions.first())
            .map(|e| format!("`.{e}`"))
            .collect();
        extensions.join(" or ")
    }

    /// A file name for a hint, in the language most in use (`gen.py`, `NAME.rs`).
    pub fn example_file(&self, stem: &str, problem: Option<&str>) -> String {
        let extension = self
            .languages_in_use(problem)
            .first()
            .and_then(|l| l.extensions.first().cloned())
            .unwrap_or_else(|| "rs".into());
        format!("{stem}.{extension}")
    }

    /// Every solution of every problem.
    pub fn all_solutions(&self) -> Result<Vec<Solution>> {
        let mut out = Vec::new();
        for id in self.problem_ids()? {
            out.extend(self.solutions(&id)?);
        }
        Ok(out)
    }

    /// Resolves several names that must be solutions of one problem (`judge compare`, `scale`,
    /// `stress`): the problem is `problem` when given, else the one the first name that is
    /// unambiguous on its own tells, and every name is resolved within it (so `brute`, found
    /// in two problems, is the one beside `fast`). Names of another problem are an error.
    pub fn resolve_solutions(
        &self,
        names: &[String],
        problem: Option<&str>,
        cwd: &Path,
    ) -> Result<Vec<Solution>> {
        let mut told = match problem {
            Some(p) => Some(p.to_string()),
            None => names
                .iter()
                .find_map(|n| self.resolve_solution(n, None, cwd).ok())
                .map(|s| s.problem),
        };
        let mut out = Vec::new();
        for name in names {
            let s = match self.resolve_solution(name, told.as_deref(), cwd) {
                Ok(s) => s,
                // A solution of another problem: say that, rather than "unknown".
                Err(e @ Error::UnknownSolution { .. }) => {
                    self.resolve_solution(name, None, cwd).map_err(|_| e)?
                }
                Err(e) => return Err(e),
            };
            told.get_or_insert_with(|| s.problem.clone());
            out.push(s);
        }
        if out.iter().any(|s| Some(&s.problem) != told.as_ref()) {
            return Err(Error::MixedProblems {
                solutions: out
                    .iter()
                    .map(|s| format!("{} ({})", s.name, s.problem))
                    .collect(),
            });
        }
        Ok(out)
    }

    /// Resolves what the user typed: `bitmask`, `nqueens-ii/bitmask`, or a path to a source
    /// file in any language the judge knows.
    pub fn resolve_solution(
        &self,
        spec: &str,
        problem: Option<&str>,
        cwd: &Path,
    ) -> Result<Solution> {
        let as_path = cwd.join(spec);
        // A file that is there is a path; so is what has a folder or an extension in it and is
        // no solution's name (`mine.py` that does not exist is a path to say is missing).
        let named = |s: &Solution| s.name == spec || format!("{}/{}", s.problem, s.name) == spec;
        let looks_like_path = as_path.is_file()
            || spec.contains(std::path::MAIN_SEPARATOR) && as_path.exists()
            || Path::new(spec).extension().is_some() && !self.all_solutions()?.iter().any(named);
        if looks_like_path {
            return self.solution_from_path(&as_path, spec, problem);
        }
        let all = self.all_solutions()?;
        // The whole of what was typed as a name (a package's submissions are named by their
        // folder: `accepted/hello.cc`), else PROBLEM/NAME. Found in two problems, it is
        // ambiguous, never one of them picked.
        let mut wanted_problem = problem;
        let mut matches: Vec<&Solution> = all
            .iter()
            .filter(|s| s.name == spec && problem.is_none_or(|p| s.problem == p))
            .collect();
        if matches.is_empty() {
            let name = match spec.split_once('/') {
                Some((p, n)) => {
                    self.problem_exists(p)?;
                    wanted_problem = Some(p);
                    n
                }
                None => spec,
            };
            matches = all
                .iter()
                .filter(|s| s.name == name && wanted_problem.is_none_or(|p| s.problem == p))
                .collect();
        }
        match matches.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(self.not_a_solution(spec, wanted_problem, &all)),
            many => Err(Error::AmbiguousSolution {
                spec: spec.to_string(),
                candidates: many
                    .iter()
                    .map(|s| format!("{}/{}", s.problem, s.name))
                    .collect(),
            }),
        }
    }

    /// Why `spec` names no solution: a file of that name in `solutions/PROBLEM/` in no language
    /// the judge knows (`notes` for `notes.txt`), or no file at all, with the names there are.
    fn not_a_solution(&self, spec: &str, problem: Option<&str>, all: &[Solution]) -> Error {
        let name = spec.rsplit('/').next().unwrap_or(spec);
        let problems = match problem {
            Some(p) => vec![p.to_string()],
            None => self.problem_ids().unwrap_or_default(),
        };
        let unclaimed = problems.iter().find_map(|p| {
            let dir = self.root.join("solutions").join(p);
            std::fs::read_dir(dir)
                .ok()?
                .flatten()
                .map(|e| e.path())
                .find(|f| {
                    f.is_file()
                        && f.file_stem().is_some_and(|s| s == name)
                        && self.config.languages.of_path(f).is_none()
                })
        });
        if let Some(file) = unclaimed {
            return Error::UnknownLanguage {
                path: self.show(&file),
                extension: file
                    .extension()
                    .map(|e| e.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                known: self.config.languages.known(),
            };
        }
        Error::UnknownSolution {
            spec: spec.to_string(),
            known: all
                .iter()
                .filter(|s| problem.is_none_or(|p| s.problem == p))
                .map(|s| format!("{}/{}", s.problem, s.name))
                .collect(),
            extensions: self.extensions_in_use(problem),
        }
    }

    fn problem_exists(&self, id: &str) -> Result<()> {
        if self.problems_dir().join(id).is_dir() || self.package(id).is_some() {
            Ok(())
        } else {
            Err(Error::UnknownProblem {
                id: id.to_string(),
                known: self.problem_ids().unwrap_or_default(),
            })
        }
    }

    fn solution_from_path(
        &self,
        path: &Path,
        spec: &str,
        problem: Option<&str>,
    ) -> Result<Solution> {
        let meta = std::fs::metadata(path).map_err(|e| Error::BadSolutionPath {
            path: spec.to_string(),
            message: e.to_string(),
        })?;
        if meta.is_dir() {
            return Err(Error::BadSolutionPath {
                path: spec.to_string(),
                message: "it is a folder; name a single source file".into(),
            });
        }
        self.language_of(path).map_err(|e| match e {
            Error::UnknownLanguage {
                extension, known, ..
            } => Error::UnknownLanguage {
                path: spec.to_string(),
                extension,
                known,
            },
            e => e,
        })?;
        let path = path.canonicalize().map_err(|e| Error::read(path, e))?;
        let mut name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("attempt")
            .to_string();
        // solutions/P/NAME.rs tells its problem.
        let told = path
            .parent()
            .filter(|d| {
                d.parent()
                    .is_some_and(|s| s.file_name().is_some_and(|n| n == "solutions"))
            })
            .and_then(|d| d.file_name())
            .and_then(|n| n.to_str())
            .filter(|p| self.problems_dir().join(p).is_dir())
            .map(str::to_string);
        // A file inside a mounted package belongs to it.
        let told = told.or_else(|| {
            self.packages
                .iter()
                .find(|p| path.starts_with(&p.problem.dir))
                .map(|p| p.problem.id.clone())
        });
        let problem = match (problem, told) {
            (Some(p), _) => {
                self.problem_exists(p)?;
                p.to_string()
            }
            (None, Some(p)) => p,
            (None, None) => {
                let ids = self.problem_ids()?;
                match ids.as_slice() {
                    [only] => only.clone(),
                    _ => {
                        return Err(Error::ProblemNeeded {
                            path: spec.to_string(),
                            known: ids,
                        })
                    }
                }
            }
        };
        // A reference solution keeps the name it is listed under.
        if let Some(listed) = self
            .solutions(&problem)?
            .into_iter()
            .find(|s| s.path.canonicalize().ok().as_deref() == Some(path.as_path()))
        {
            name = listed.name;
        }
        Ok(Solution {
            name,
            problem,
            path,
        })
    }
}

impl Solution {
    /// The skip that `error` means for this solution, when it means one: its language's
    /// compiler or interpreter is not installed.
    pub fn skipped_because(&self, error: &crate::Error) -> Option<crate::model::Skipped> {
        use crate::Error;
        let reason = match error {
            Error::MissingProgram {
                language, program, ..
            } => format!("{language} needs `{program}`, which is not installed"),
            Error::MissingRustToolchain { toolchain } => {
                format!("the Rust toolchain `{toolchain}` is not installed")
            }
            _ => return None,
        };
        Some(crate::model::Skipped {
            solution: self.name.clone(),
            path: self.path.clone(),
            skipped: reason,
        })
    }
}

/// A solution's name among the files of its folder: its file's stem (`bitmask`), or its file
/// name when another file has the same stem (`bitmask.py` beside `bitmask.rs`).
pub fn solution_name(path: &Path, files: &[PathBuf]) -> Option<String> {
    let stem = |p: &Path| p.file_stem().map(|s| s.to_string_lossy().into_owned());
    let shared = files.iter().filter(|o| stem(o) == stem(path)).count() > 1;
    if shared {
        Some(path.file_name()?.to_str()?.to_string())
    } else {
        stem(path)
    }
}
