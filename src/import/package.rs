//! Problem packages (Polygon, Kattis) as drafts: a package is read by the loader that judges it
//! where it lies, then its tests, checker (with the headers beside it) and solutions (with the
//! verdicts they must get) are carried into the workspace, and what cannot be is said.

use std::path::Path;

use super::{read_file, read_text, Draft, DraftCase, DraftChecker, DraftSolution};
use crate::compile::Source;
use crate::error::{Error, Result};
use crate::lang::Languages;
use crate::package::{self, Package};
use crate::workspace::Checker;

/// Reads the package at `path` (a folder, or a `.zip` unpacked into a temporary folder gone
/// once its files are read) into a draft.
pub(super) fn read(path: &Path) -> Result<Vec<Draft>> {
    let unpacked = tempfile::Builder::new()
        .prefix("judge-import-")
        .tempdir()
        .map_err(|e| Error::io(&std::env::temp_dir(), e))?;
    // The languages the judge knows by default decide which solutions come along.
    let package = package::load(path, &Languages::default(), unpacked.path())?;
    Ok(vec![draft(path, &package)?])
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn draft(path: &Path, package: &Package) -> Result<Draft> {
    let problem = &package.problem;
    let mut notes = package.warnings.clone();
    let checker = match &problem.checker {
        Checker::Builtin { mode, options } => DraftChecker::Builtin {
            mode: *mode,
            options: *options,
        },
        Checker::Kattis(flags) => DraftChecker::Kattis(*flags),
        Checker::Program(program) => {
            let mut headers = Vec::new();
            for header in Source::with_headers(&program.source).extras {
                headers.push((file_name(&header), read_file(&header)?));
            }
            DraftChecker::Program {
                file: file_name(&program.source),
                source: read_text(&program.source)?,
                headers,
                protocol: program.protocol.clone(),
            }
        }
    };
    let mut cases = Vec::new();
    for case in &package.cases {
        if !case.answer.is_file() {
            return Err(Error::Import {
                path: path.display().to_string(),
                message: format!("test {} has no answer", case.name),
                fix: "give the package with every test's answer".into(),
            });
        }
        cases.push(DraftCase {
            // A case in a group folder (`secret/1`) keeps its name, flattened.
            name: Some(case.name.replace('/', "-")),
            input: read_file(&case.input)?,
            answer: read_file(&case.answer)?,
            sample: case.sample,
        });
    }
    if package.cases.iter().any(|c| !c.validator_flags.is_empty()) {
        notes.push("its test groups' own output validator flags are not carried over".into());
    }
    let mut solutions: Vec<DraftSolution> = Vec::new();
    for s in &package.submissions {
        // A submission named by its folder (`accepted/a.py`) keeps the folder in its file name.
        let file = s.name.replace('/', "-");
        solutions.push(DraftSolution {
            file,
            source: read_file(&s.path)?,
            expected: problem.expected.get(&s.name).cloned(),
        });
    }
    for s in &package.skipped {
        notes.push(format!("{} not imported: {}", s.solution, s.skipped));
    }
    if !problem.input_validators.is_empty() {
        notes.push("its input validators are not carried over".into());
    }
    if problem.scoring {
        notes.push(
            "its groups and points are not carried over (problem.toml has no groups): the imported problem is judged pass-fail, the first failed test deciding; judge the package where it lies for its points".into(),
        );
    }
    let time = problem.time_rule.fixed;
    if time.is_none() {
        notes.push(
            "the package fixes no time limit (its rule derives one from the accepted submissions): run judge verify on the package where it lies to learn it, and set it in problem.toml".into(),
        );
    }
    Ok(Draft {
        origin: format!("the {} package {}", package.format, path.display()),
        id: problem.id.clone(),
        title: problem.title.clone(),
        url: None,
        contest: None,
        time,
        memory_bytes: Some(problem.limits.memory_bytes),
        checker,
        io: problem.io.clone(),
        cases,
        solutions,
        notes,
    })
}
