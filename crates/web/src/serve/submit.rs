//! What the submit form asks for, checked: a solution of the workspace, or pasted code with its
//! language. Pasted code is saved as `solutions/PROBLEM/pasted-N.EXT` (the first free N), where
//! the user's other attempts are, so it can be run, compared and edited from the terminal.

use std::path::PathBuf;

use judge_core::workspace::{Solution, Workspace};

/// The largest paste taken: a solution is a few kilobytes.
pub const MAX_CODE: usize = 1 << 20;

/// The submit form, as sent.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct Form {
    #[serde(default)]
    pub problem: String,
    /// A solution of the workspace, `PROBLEM/NAME` (empty: the pasted code).
    #[serde(default)]
    pub solution: String,
    #[serde(default)]
    pub code: String,
    /// The pasted code's language key (`rust`, `cpp`, `python`).
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
    #[error("choose a solution, or paste code and choose its language")]
    NoSource,
    #[error("choose either a solution or pasted code, not both")]
    BothSources,
    #[error("problem `{problem}` has no solution `{solution}`")]
    UnknownSolution { problem: String, solution: String },
    #[error("choose the language of the pasted code")]
    NoLanguage,
    #[error("the judge knows no language `{0}`")]
    UnknownLanguage(String),
    #[error("the pasted code is over {} KiB", MAX_CODE >> 10)]
    TooLarge,
    #[error("the pasted code could not be saved: {0}")]
    Unsaved(String),
}

/// The solution a form asks to judge; pasted code is saved first.
pub fn solution(ws: &Workspace, form: &Form) -> Result<Solution, Refusal> {
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
        (false, false) => ws
            .solutions(problem)
            .unwrap_or_default()
            .into_iter()
            .find(|s| s.name == chosen)
            .ok_or_else(|| Refusal::UnknownSolution {
                problem: problem.to_string(),
                solution: chosen.to_string(),
            }),
        (true, true) => save(ws, problem, &form.code, form.language.trim()),
    }
}

/// Saves pasted code under a fresh name.
fn save(ws: &Workspace, problem: &str, code: &str, language: &str) -> Result<Solution, Refusal> {
    if code.len() > MAX_CODE {
        return Err(Refusal::TooLarge);
    }
    if language.is_empty() {
        return Err(Refusal::NoLanguage);
    }
    let extension = ws
        .config
        .languages
        .get(language)
        .and_then(|l| l.extensions.first().cloned())
        .ok_or_else(|| Refusal::UnknownLanguage(language.to_string()))?;
    let dir = ws.root.join("solutions").join(problem);
    std::fs::create_dir_all(&dir).map_err(|e| Refusal::Unsaved(e.to_string()))?;
    for n in 1.. {
        let name = format!("pasted-{n}");
        let path: PathBuf = dir.join(format!("{name}.{extension}"));
        // A name is a stem: `pasted-1.py` beside `pasted-1.rs` would rename both.
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

fn stem_taken(dir: &std::path::Path, stem: &str) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.path().file_stem().is_some_and(|s| s == stem))
    })
}
