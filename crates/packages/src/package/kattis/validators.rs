//! The package's validators and other programs besides its submissions: the output validator,
//! the input and answer validators, the static validator, the included files, and what the
//! judge does not run (visualizers).
//!
//! A program is a file or a folder; a folder's files that no language claims (`testlib.h`, a
//! `README`) belong to it. DOMjudge builds `output_validators/` as one program when it holds
//! files at its top (SWERC's packages put `checker.cpp` and `testlib.h` there), and so does the
//! judge; a program the judge cannot build is refused with the reason, never judged as
//! something else.

use std::path::{Path, PathBuf};

use super::super::inside;
use super::{dir_name, sorted_entries};
use judge_core::compile::source::program_language;
use judge_core::error::{Error, Location, Result};
use judge_core::lang::Languages;
use judge_core::workspace::{InputValidator, ValidatorKind};

/// The package's output validator: `output_validator/` (2023-07, 2025-09) or
/// `output_validators/` (legacy), a folder program or a single file.
pub(super) fn output_validator(dir: &Path, languages: &Languages) -> Result<PathBuf> {
    let shown = |p: &Path| {
        let rel = p.strip_prefix(dir).unwrap_or(p);
        format!("{}/{}", dir_name(dir), rel.display())
    };
    let fail = |path: String, message: String| {
        Error::TestData {
        at: Location::file(path),
        message,
        fix: "put the validator's sources (and its headers) in output_validator/, or give the folder `build` and `run` scripts".into(),
    }
    };
    let single = dir.join("output_validator");
    let folder = if single.is_dir() {
        single
    } else {
        dir.join("output_validators")
    };
    let entries = sorted_entries(&folder);
    let program = match entries.as_slice() {
        // problemtools' own 2023-07 examples keep the program one folder further down
        // (`output_validator/NAME/`), as legacy packages do (`output_validators/NAME/`).
        [inner] if inner.is_dir() => inner.clone(),
        // Files at the top: the folder is the program, its headers beside its source.
        all if all.iter().any(|e| e.is_file()) => folder.clone(),
        [] => {
            return Err(fail(
                shown(&folder),
                "the package says its validation is custom, and has no output validator".into(),
            ))
        }
        several => {
            return Err(fail(
                shown(&folder),
                format!(
                    "the package says its validation is custom, and has {} output validators",
                    several.len()
                ),
            ))
        }
    };
    let program = inside(dir, &program)?;
    program_language(&program, languages)
        .map_err(|why| fail(shown(&program), format!("the judge cannot build it: {why}")))?;
    Ok(program)
}

/// The package's input validators: `input_validator/` (one program, a folder), or each entry
/// of `input_validators/` (`input_format_validators/` in old packages).
pub(super) fn input_validators(dir: &Path, languages: &Languages) -> Result<Vec<InputValidator>> {
    validators(
        dir,
        languages,
        &["input_validator"],
        &["input_validators", "input_format_validators"],
    )
}

/// The package's answer validators (`answer_validators/`, as the format's authors' tools name
/// them): each checks every case's answer, as an input validator checks its input.
pub(super) fn answer_validators(dir: &Path, languages: &Languages) -> Result<Vec<InputValidator>> {
    validators(
        dir,
        languages,
        &["answer_validator"],
        &["answer_validators"],
    )
}

/// The validators of a folder holding one program (`single`), or each entry of a folder of
/// them (`each`): a program, a checktestdata or a VIVA script; other files are their headers.
fn validators(
    dir: &Path,
    languages: &Languages,
    single: &[&str],
    each: &[&str],
) -> Result<Vec<InputValidator>> {
    let kind = |path: &Path| match program_language(path, languages) {
        Ok(_) => ValidatorKind::Program(path.to_path_buf()),
        Err(why) => ValidatorKind::Unsupported(format!("the judge cannot build it: {why}")),
    };
    if let Some(one) = single.iter().map(|s| dir.join(s)).find(|p| p.is_dir()) {
        let path = inside(dir, &one)?;
        return Ok(vec![InputValidator {
            name: dir_name(&one),
            kind: kind(&path),
        }]);
    }
    let Some(folder) = each.iter().map(|s| dir.join(s)).find(|p| p.is_dir()) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for entry in sorted_entries(&folder) {
        let name = dir_name(&entry);
        let path = inside(dir, &entry)?;
        let kind = if path.is_dir() {
            kind(&path)
        } else if name.ends_with(".ctd") {
            ValidatorKind::Checktestdata(path)
        } else if name.ends_with(".viva") {
            ValidatorKind::Viva(path)
        } else if languages.of_path(&path).is_some() {
            ValidatorKind::Program(path)
        } else {
            // A header or a note: part of the programs beside it.
            continue;
        };
        out.push(InputValidator { name, kind });
    }
    Ok(out)
}

/// The package's static validator (`static_validator/`), which the judge must be able to build.
pub(super) fn static_validator(dir: &Path, languages: &Languages) -> Result<Option<PathBuf>> {
    let folder = dir.join("static_validator");
    if !folder.is_dir() {
        return Ok(None);
    }
    let program = match sorted_entries(&folder).as_slice() {
        [inner] if inner.is_dir() => inner.clone(),
        _ => folder,
    };
    let program = inside(dir, &program)?;
    program_language(&program, languages).map_err(|why| Error::TestData {
        at: Location::file(format!("{}/static_validator", dir_name(dir))),
        message: format!("the judge cannot build the static validator: {why}"),
        fix: "put its sources in static_validator/, or give the folder `build` and `run` scripts"
            .into(),
    })?;
    Ok(Some(program))
}

/// The package's `include/` folder, when it has one.
pub(super) fn include(dir: &Path) -> Result<Option<PathBuf>> {
    let include = dir.join("include");
    if !include.is_dir() {
        return Ok(None);
    }
    inside(dir, &include).map(Some)
}

/// The folders of programs the judge does not run, as the package holds them.
pub(super) fn not_run(dir: &Path) -> Vec<&'static str> {
    [
        "input_visualizer",
        "output_visualizer",
        "output_visualizers",
    ]
    .into_iter()
    .filter(|f| dir.join(f).is_dir())
    .collect()
}
