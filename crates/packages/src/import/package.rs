//! Problem packages (Polygon, Kattis) as drafts: a package is read by the loader that judges it
//! where it lies, then its tests, checker and interactor (each with the headers beside it),
//! sample interactions and solutions (with the verdicts they must get) are carried into the
//! workspace, and what cannot be is said.

use std::path::Path;

use super::{
    read_file, read_text, Draft, DraftCase, DraftChecker, DraftInteraction, DraftInteractor,
    DraftProgram, DraftSolution,
};
use crate::error::{Error, Result};
use crate::package::{self, Package};
use judge_core::compile::Source;
use judge_core::lang::Languages;
use judge_core::workspace::{
    interaction_files, package_sample_dir, Checker, InteractorProgram, Problem,
};
use judge_core::Error as CoreError;

/// Reads the package at `path` (a folder, or a `.zip` unpacked into a temporary folder gone
/// once its files are read) into a draft.
pub(super) fn read(path: &Path) -> Result<Vec<Draft>> {
    let unpacked = tempfile::Builder::new()
        .prefix("judge-import-")
        .tempdir()
        .map_err(|e| CoreError::create(&std::env::temp_dir(), e))?;
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
    let checker = draft_checker(&problem.checker)?;
    let interactor = draft_interactor(path, problem)?;
    let mut interactions = sample_interactions(package)?;
    if interactor.is_none() && !interactions.is_empty() {
        notes.push(format!(
            "its {} sample interactions are left out: the problem is not interactive",
            interactions.len()
        ));
        interactions.clear();
    }
    let cases = draft_cases(path, package)?;
    if package.cases.iter().any(|c| !c.validator_flags.is_empty()) {
        let whose = if interactor.is_some() {
            "interactor"
        } else {
            "output validator"
        };
        notes.push(format!(
            "its test groups' own {whose} flags are not carried over"
        ));
    }
    let solutions = draft_solutions(package)?;
    left_aside(package, &mut notes);
    let time = problem.time_rule.fixed;
    if time.is_none() {
        notes.push(
            "its rule derives the time limit from its accepted submissions' times: judge verify on the package where it lies says which, to set as time_limit in problem.toml".into(),
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
        interactor,
        io: problem.io.clone(),
        cases,
        interactions,
        solutions,
        notes,
    })
}

/// The package's checker, a program of it with its headers.
fn draft_checker(checker: &Checker) -> Result<DraftChecker> {
    Ok(match checker {
        Checker::Builtin { mode, options } => DraftChecker::Builtin {
            mode: *mode,
            options: *options,
        },
        Checker::Kattis(flags) => DraftChecker::Kattis(*flags),
        Checker::Program(program) => DraftChecker::Program {
            program: draft_program(&program.source)?,
            protocol: program.protocol.clone(),
        },
    })
}

/// The package's interactor, which must be a program of it.
fn draft_interactor(path: &Path, problem: &Problem) -> Result<Option<DraftInteractor>> {
    let Some(i) = &problem.interactor else {
        return Ok(None);
    };
    match &i.program {
        InteractorProgram::Source(source) => Ok(Some(DraftInteractor {
            program: draft_program(source)?,
            protocol: i.protocol.clone(),
            time: i.time,
            memory_bytes: i.memory_bytes,
        })),
        // A package's interactor is its own program; imported without it, the problem
        // would be judged as a plain one.
        InteractorProgram::Replay => Err(Error::Import {
            path: path.display().to_string(),
            message: "an interactive problem whose interactor is not a program of the package"
                .into(),
            fix: "judge the package where it lies".into(),
        }),
    }
}

/// The package's tests, each of which must have its answer.
fn draft_cases(path: &Path, package: &Package) -> Result<Vec<DraftCase>> {
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
    Ok(cases)
}

/// The package's submissions, with the verdicts they must get.
fn draft_solutions(package: &Package) -> Result<Vec<DraftSolution>> {
    let mut solutions: Vec<DraftSolution> = Vec::new();
    for s in &package.submissions {
        // A submission named by its folder (`accepted/a.py`) keeps the folder in its file name.
        let file = s.name.replace('/', "-");
        solutions.push(DraftSolution {
            file,
            source: read_file(&s.path)?,
            expected: package.problem.expected.get(&s.name).cloned(),
        });
    }
    Ok(solutions)
}

/// Says what of the package the workspace has no place for: skipped submissions, input
/// validators, groups and points.
fn left_aside(package: &Package, notes: &mut Vec<String>) {
    for s in &package.skipped {
        notes.push(format!("{} not imported: {}", s.solution, s.skipped));
    }
    if !package.problem.input_validators.is_empty() {
        notes.push("its input validators are not carried over".into());
    }
    if package.problem.scoring {
        notes.push(
            "its groups and points are not carried over (problem.toml has no groups): the imported problem is judged pass-fail, the first failed test deciding; judge the package where it lies for its points".into(),
        );
    }
}

/// A program of the package's, with the headers the build puts beside it.
fn draft_program(source: &Path) -> Result<DraftProgram> {
    if source.is_dir() {
        return draft_folder(source);
    }
    let mut headers = Vec::new();
    for (_, header) in Source::with_headers(source).extras {
        headers.push((file_name(&header), read_file(&header)?));
    }
    Ok(DraftProgram {
        file: file_name(source),
        source: read_text(source)?,
        headers,
    })
}

/// A program folder as a workspace keeps a program: one source file with the files beside it
/// (headers, data). A folder with `build`/`run` scripts, several sources or subfolders has no
/// such form, and is refused with the reason.
fn draft_folder(folder: &Path) -> Result<DraftProgram> {
    let refuse = |why: &str| Error::Import {
        path: folder.display().to_string(),
        message: format!("the program is a folder {why}, which a workspace problem cannot hold"),
        fix: "judge the package where it lies".into(),
    };
    if Source::is_scripts(folder) {
        return Err(refuse("with build and run scripts"));
    }
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(folder)
        .map_err(|e| CoreError::read(folder, e))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| !file_name(p).starts_with('.'))
        .collect();
    files.sort();
    if files.iter().any(|p| p.is_dir()) {
        return Err(refuse("with subfolders"));
    }
    let is_header = |p: &Path| {
        p.extension()
            .is_some_and(|e| ["h", "hpp", "hh", "hxx"].iter().any(|x| e == *x))
    };
    let (extra, sources): (Vec<_>, Vec<_>) = files.into_iter().partition(|p| is_header(p));
    let [source] = sources.as_slice() else {
        return Err(refuse("of several source files"));
    };
    let mut headers = Vec::new();
    for header in &extra {
        headers.push((file_name(header), read_file(header)?));
    }
    Ok(DraftProgram {
        file: file_name(source),
        source: read_text(source)?,
        headers,
    })
}

/// The package's sample interactions (`data/sample/NAME.interaction`), named as the sample
/// case `sample/NAME` is once flattened (`sample-NAME`); a link out of the package is refused
/// as its cases' are.
fn sample_interactions(package: &Package) -> Result<Vec<DraftInteraction>> {
    let mut found = Vec::new();
    for path in interaction_files(&package_sample_dir(&package.dir)) {
        let real = package::inside(&package.dir, &path)?;
        let stem = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        found.push(DraftInteraction {
            name: format!("sample-{stem}"),
            text: read_file(&real)?,
        });
    }
    Ok(found)
}
