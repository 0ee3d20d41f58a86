//! What a submission asks for, checked, from the form or the JSON API alike: a solution of the
//! workspace, or pasted code. The language of pasted code is the one chosen, else the one the
//! code tells ([`detect`]), else the problem's last in the history, else the one the
//! workspace's solutions are in. Pasted code is kept in `.judge/pastes/PROBLEM/pasted-N.EXT`
//! (the first free N), with the submissions: never among the user's solutions, where a paste
//! that did not even compile would stay listed. Only the languages this machine has are
//! offered and taken ([`Installed`]): code in another is refused before anything is saved, with
//! what to install.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use judge_core::lang::detect::detect;
use judge_core::lang::Language;
use judge_core::workspace::{Solution, Workspace};
use judge_history::{Entry, Filter, History};

/// The largest paste taken: a solution is a few kilobytes.
pub const MAX_CODE: usize = 1 << 20;

/// The language choice that asks the judge to tell it from the code.
pub const DETECT: &str = "auto";

/// A submission, as sent (the form's fields, or the API's JSON).
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct Form {
    #[serde(default)]
    pub problem: String,
    /// A solution of the workspace, `PROBLEM/NAME` or `NAME` (empty: the pasted code).
    #[serde(default)]
    pub solution: String,
    #[serde(default)]
    pub code: String,
    /// The pasted code's language key (`rust`, `cpp`, `python`); empty or `auto`: told from
    /// the code.
    #[serde(default)]
    pub language: String,
}

/// Why a submission was refused, in words for the page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("choose a problem")]
    NoProblem,
    #[error("there is no problem `{0}` in this workspace")]
    UnknownProblem(String),
    #[error("choose a solution, or paste code")]
    NoSource,
    #[error("choose either a solution or pasted code, not both")]
    BothSources,
    #[error("problem `{problem}` has no solution `{solution}`")]
    UnknownSolution { problem: String, solution: String },
    #[error("the judge knows no language `{0}`")]
    UnknownLanguage(String),
    #[error("{language} is not installed on this machine: it {needs}; install it and restart `judge serve`, or choose another language")]
    NotInstalled { language: String, needs: String },
    #[error("the pasted code is over {} KiB", MAX_CODE >> 10)]
    TooLarge,
    #[error("the pasted code could not be saved: {0}")]
    Unsaved(String),
}

/// How the language of pasted code was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Chosen {
    /// By the user.
    Named,
    /// Told from the code.
    Detected,
    /// The code did not tell: the problem's last language in the history.
    LastUsed,
    /// Neither: the language the workspace's solutions are in.
    Workspace,
}

/// The language pasted code was taken to be in, and how it was chosen.
#[derive(Debug, Clone)]
pub struct PastedLanguage {
    pub language: Arc<Language>,
    pub chosen: Chosen,
}

/// What a submission asks to judge.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub solution: Solution,
    /// For pasted code: its language.
    pub pasted: Option<PastedLanguage>,
}

/// The languages this machine builds and runs, found once when the server starts (a compiler
/// installed later is offered after a restart).
#[derive(Debug, Clone, Default)]
pub struct Installed {
    /// Those a submission may be in, by name.
    offered: Vec<Arc<Language>>,
    /// The others, by key: what each needs (the program, and where it comes from).
    missing: HashMap<String, String>,
}

impl Installed {
    pub fn of(ws: &Workspace) -> Installed {
        let mut installed = Installed::default();
        for found in judge_core::workspace::installed::installed(ws) {
            match found.toolchain {
                Ok(_) if !found.language.extensions.is_empty() => {
                    installed.offered.push(found.language)
                }
                Ok(_) => {}
                Err(needs) => {
                    installed
                        .missing
                        .insert(found.language.id.clone(), needs.to_string());
                }
            }
        }
        installed.offered.sort_by(|a, b| a.name.cmp(&b.name));
        installed
    }

    /// Every language the workspace knows, as if this machine had them all: for submissions
    /// judged on other machines, which say themselves what they lack.
    pub fn any(ws: &Workspace) -> Installed {
        let mut offered: Vec<Arc<Language>> = ws
            .config
            .languages
            .all()
            .filter(|l| !l.extensions.is_empty())
            .cloned()
            .collect();
        offered.sort_by(|a, b| a.name.cmp(&b.name));
        Installed {
            offered,
            missing: HashMap::new(),
        }
    }

    /// The languages the form offers, by name.
    pub fn offered(&self) -> &[Arc<Language>] {
        &self.offered
    }

    /// Refused when this machine lacks `language`.
    fn check(&self, language: &Language) -> Result<(), Refusal> {
        match self.missing.get(&language.id) {
            Some(needs) => Err(Refusal::NotInstalled {
                language: language.name.clone(),
                needs: needs.clone(),
            }),
            None => Ok(()),
        }
    }
}

/// The solution a submission asks to judge; pasted code is saved first, once its language is
/// known to be installed.
pub fn solution(
    ws: &Workspace,
    installed: &Installed,
    history: &Path,
    form: &Form,
) -> Result<Accepted, Refusal> {
    let (problem, chosen) = match form.solution.trim().split_once('/') {
        Some((problem, name)) => (problem, name),
        None => (form.problem.trim(), form.solution.trim()),
    };
    if problem.is_empty() {
        return Err(Refusal::NoProblem);
    }
    let known = ws.problem_ids().unwrap_or_default();
    if !known.iter().any(|p| p == problem) {
        return Err(Refusal::UnknownProblem(problem.to_string()));
    }
    let pasted = !form.code.trim().is_empty();
    match (chosen.is_empty(), pasted) {
        (true, false) => Err(Refusal::NoSource),
        (false, true) => Err(Refusal::BothSources),
        (false, false) => {
            let solution = ws
                .solutions(problem)
                .unwrap_or_default()
                .into_iter()
                .find(|s| s.name == chosen)
                .ok_or_else(|| Refusal::UnknownSolution {
                    problem: problem.to_string(),
                    solution: chosen.to_string(),
                })?;
            if let Some(language) = ws.config.languages.of_path(&solution.path) {
                installed.check(language)?;
            }
            Ok(Accepted {
                solution,
                pasted: None,
            })
        }
        (true, true) => {
            if form.code.len() > MAX_CODE {
                return Err(Refusal::TooLarge);
            }
            let pasted = language(ws, history, problem, &form.code, form.language.trim())?;
            installed.check(&pasted.language)?;
            let solution = save(ws, problem, &form.code, &pasted.language)?;
            Ok(Accepted {
                solution,
                pasted: Some(pasted),
            })
        }
    }
}

/// The language pasted code is in: `named` (unless it asks to detect), else what the code
/// tells, else the problem's last in the history, else the workspace's.
pub fn language(
    ws: &Workspace,
    history: &Path,
    problem: &str,
    code: &str,
    named: &str,
) -> Result<PastedLanguage, Refusal> {
    let found = |language: Arc<Language>, chosen: Chosen| PastedLanguage { language, chosen };
    let usable = |id: &str| {
        ws.config
            .languages
            .get(id)
            .filter(|l| !l.extensions.is_empty())
            .cloned()
    };
    if !named.is_empty() && named != DETECT {
        return usable(named)
            .map(|l| found(l, Chosen::Named))
            .ok_or_else(|| Refusal::UnknownLanguage(named.to_string()));
    }
    if let Some(l) = detect(code).and_then(usable) {
        return Ok(found(l, Chosen::Detected));
    }
    if let Some(l) = last_language(history, problem).and_then(|id| usable(&id)) {
        return Ok(found(l, Chosen::LastUsed));
    }
    let usual = ws.languages_in_use(Some(problem)).into_iter().next();
    usual
        .map(|l| found(l, Chosen::Workspace))
        .ok_or_else(|| Refusal::UnknownLanguage(judge_core::workspace::DEFAULT_LANGUAGE.into()))
}

/// The language of the problem's latest submission in the history, when there is one.
fn last_language(history: &Path, problem: &str) -> Option<String> {
    if !history.exists() {
        return None;
    }
    let filter = Filter {
        problem: Some(problem.to_string()),
        solution: None,
        limit: Some(1),
    };
    match History::open(history).ok()?.list(&filter).ok()?.first()? {
        Entry::Read(s) => Some(s.language.clone()),
        Entry::Unreadable(_) => None,
    }
}

/// Saves pasted code under a fresh name in the pastes folder of `problem`.
fn save(
    ws: &Workspace,
    problem: &str,
    code: &str,
    language: &Language,
) -> Result<Solution, Refusal> {
    let extension = language
        .extensions
        .first()
        .ok_or_else(|| Refusal::UnknownLanguage(language.id.clone()))?;
    let dir = ws.pastes_dir().join(problem);
    std::fs::create_dir_all(&dir).map_err(|e| Refusal::Unsaved(e.to_string()))?;
    for n in 1.. {
        let name = format!("pasted-{n}");
        let path: PathBuf = dir.join(format!("{name}.{extension}"));
        // A name is a stem: `pasted-1.py` beside `pasted-1.rs` would make both ambiguous.
        if stem_taken(&dir, &name) {
            continue;
        }
        // Never over a file: two pastes at once never take the same name; and whole or not
        // at all.
        match judge_core::atomic::create(&path, code.as_bytes()) {
            Ok(()) => {
                return Ok(Solution {
                    name,
                    problem: problem.to_string(),
                    path,
                })
            }
            Err(judge_core::Error::Exists { .. }) => continue,
            Err(e) => return Err(Refusal::Unsaved(e.to_string())),
        }
    }
    unreachable!("some pasted-N is free")
}

fn stem_taken(dir: &Path, stem: &str) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.path().file_stem().is_some_and(|s| s == stem))
    })
}
