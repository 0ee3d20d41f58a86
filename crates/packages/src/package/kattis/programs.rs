//! The package's example submissions, judged by their folder: each entry of `submissions/FOLDER/`
//! is one program, a file or a folder (a Prolog program with its library, Java of two classes,
//! a folder with `build` and `run` scripts).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::super::inside;
use super::sorted_entries;
use judge_core::compile::source::program_language;
use judge_core::lang::Languages;
use judge_core::model::Skipped;
use judge_core::verdict::{Expectation, Verdict};
use judge_core::workspace::Solution;

/// The folders of `submissions/` and what a submission in each must get.
pub const FOLDERS: &[(&str, &[Verdict])] = &[
    ("accepted", &[Verdict::Ac]),
    ("partially_accepted", &[Verdict::Ac]),
    ("wrong_answer", &[Verdict::Wa]),
    // As in problemtools, a memory-limit kill is a run-time error (so is an output-limit one).
    ("run_time_error", &[Verdict::Re, Verdict::Mle, Verdict::Ole]),
    ("time_limit_exceeded", &[Verdict::Tle]),
];

/// The example submissions the judge can run, what each must get, and those it cannot run.
pub(super) struct Submissions {
    pub(super) runnable: Vec<Solution>,
    pub(super) expected: BTreeMap<String, Expectation>,
    pub(super) skipped: Vec<Skipped>,
    /// Those built from a copy (constants put in), by their own file.
    pub(super) copies: BTreeMap<PathBuf, PathBuf>,
}

/// Reads `submissions/FOLDER/PROGRAM` of the package `id` in `dir`; `more` are folders beyond
/// those problemtools knows that this package's format has.
pub(super) fn submissions(
    dir: &Path,
    id: &str,
    languages: &Languages,
    more: &[(&str, &[Verdict])],
    warnings: &mut Vec<String>,
) -> Submissions {
    let mut expected = BTreeMap::new();
    let mut submissions = Vec::new();
    let mut skipped = Vec::new();
    let subs = dir.join("submissions");
    for folder in sorted_entries(&subs) {
        let Some(name) = folder
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        if !folder.is_dir() {
            continue;
        }
        let Some((_, verdicts)) = FOLDERS.iter().chain(more).find(|(f, _)| *f == name) else {
            warnings.push(format!(
                "submissions/{name}/ is not a folder the format knows (accepted, partially_accepted, wrong_answer, run_time_error, time_limit_exceeded): its submissions are not judged"
            ));
            continue;
        };
        for entry in sorted_entries(&folder) {
            let file = entry
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let sub_name = format!("{name}/{file}");
            let skip = |why: String| Skipped {
                solution: sub_name.clone(),
                path: entry.clone(),
                skipped: why,
            };
            let path = match inside(dir, &entry) {
                Ok(p) => p,
                Err(e) => {
                    skipped.push(skip(e.to_string()));
                    continue;
                }
            };
            // The language is told by the file's extension, or by a folder's files; a program
            // in none the judge knows is listed, never judged as something else.
            if let Err(why) = program_language(&path, languages) {
                let fix = if path.is_dir() {
                    "a program folder the judge cannot build"
                } else {
                    "add its language in judge.toml to judge it"
                };
                skipped.push(skip(format!("{why} ({fix})")));
                continue;
            }
            expected.insert(
                sub_name.clone(),
                Expectation(verdicts.iter().copied().collect()),
            );
            submissions.push(Solution {
                name: sub_name,
                problem: id.to_string(),
                path,
            });
        }
    }
    if !submissions.iter().any(|s| s.name.starts_with("accepted/")) {
        warnings.push(
            "no accepted submission the judge can run: the time limit cannot be derived from one"
                .into(),
        );
    }

    Submissions {
        runnable: submissions,
        expected,
        skipped,
        copies: BTreeMap::new(),
    }
}
