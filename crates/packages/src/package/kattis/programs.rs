//! The package's programs: its example submissions, judged by their folder, and its output
//! and input validators.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::super::{inside, program_in};
use super::{dir_name, sorted_entries};
use judge_core::error::{Error, Result};
use judge_core::lang::Languages;
use judge_core::model::Skipped;
use judge_core::verdict::{Expectation, Verdict};
use judge_core::workspace::{InputValidator, Solution, ValidatorKind};

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

/// Reads `submissions/FOLDER/FILE` of the package `id` in `dir`; `more` are folders beyond
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
            if path.is_dir() {
                skipped.push(skip(
                    "a program of several files: the judge builds one source file at a time".into(),
                ));
                continue;
            }
            if languages.of_path(&path).is_none() {
                let ext = path
                    .extension()
                    .map(|e| e.to_string_lossy().into_owned())
                    .unwrap_or_default();
                skipped.push(skip(format!(
                    "no language claims `.{ext}` here (add it in judge.toml to judge it)"
                )));
                continue;
            }
            if python2(&path) {
                skipped.push(skip(
                    "Python 2 (its first line says python2), which the judge does not run".into(),
                ));
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

/// The package's output validator: `output_validator/` (2023-07) or the one program of
/// `output_validators/` (legacy), a folder program or a single file.
pub(super) fn output_validator(dir: &Path, languages: &Languages) -> Result<PathBuf> {
    let fail = |message: String| {
        Error::TestData {
        path: format!("{}/output_validators", dir_name(dir)),
        message,
        fix: "put the validator's source (and its headers) in output_validator/ or output_validators/NAME/".into(),
    }
    };
    let single = dir.join("output_validator");
    let candidates: Vec<PathBuf> = if single.is_dir() {
        // problemtools' own 2023-07 examples keep the program one folder further down
        // (`output_validator/NAME/`).
        match sorted_entries(&single).as_slice() {
            [inner] if inner.is_dir() => vec![inner.clone()],
            _ => vec![single],
        }
    } else {
        sorted_entries(&dir.join("output_validators"))
    };
    let [one] = candidates.as_slice() else {
        return Err(fail(format!(
            "the package says its validation is custom, and has {} output validators",
            candidates.len()
        )));
    };
    let one = inside(dir, one)?;
    if one.is_dir() {
        program_in(&one, languages).map_err(|m| fail(format!("{}: {m}", one.display())))
    } else if languages.of_path(&one).is_some() {
        Ok(one)
    } else {
        Err(fail(format!(
            "{}: in no language the judge knows",
            one.display()
        )))
    }
}

/// The package's input validators: `input_validator/` (2025-09: one program, a folder), or each
/// entry of `input_validators/` (`input_format_validators/` in old packages).
pub(super) fn input_validators(dir: &Path, languages: &Languages) -> Result<Vec<InputValidator>> {
    let single = dir.join("input_validator");
    if single.is_dir() {
        let path = inside(dir, &single)?;
        return Ok(vec![InputValidator {
            name: "input_validator".into(),
            kind: match program_in(&path, languages) {
                Ok(p) => ValidatorKind::Program(p),
                Err(why) => ValidatorKind::Unsupported(why),
            },
        }]);
    }
    let mut folder = dir.join("input_validators");
    if !folder.is_dir() {
        folder = dir.join("input_format_validators");
    }
    let mut out = Vec::new();
    for entry in sorted_entries(&folder) {
        let name = entry
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let path = inside(dir, &entry)?;
        let kind = if path.is_dir() {
            match program_in(&path, languages) {
                Ok(p) => ValidatorKind::Program(p),
                Err(why) => ValidatorKind::Unsupported(why),
            }
        } else if name.ends_with(".ctd") {
            ValidatorKind::Checktestdata(path)
        } else if name.ends_with(".viva") {
            ValidatorKind::Unsupported("a VIVA script (the judge does not run VIVA)".into())
        } else if languages.of_path(&path).is_some() {
            ValidatorKind::Program(path)
        } else {
            continue;
        };
        out.push(InputValidator { name, kind });
    }
    Ok(out)
}

/// A file's first line asks for Python 2.
fn python2(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "py")
        && std::fs::read_to_string(path)
            .ok()
            .and_then(|t| t.lines().next().map(str::to_string))
            .is_some_and(|l| l.starts_with("#!") && l.contains("python2"))
}
