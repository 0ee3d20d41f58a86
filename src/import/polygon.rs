//! Polygon packages (a folder with `problem.xml`, or a `.zip` of one) as drafts: read by the
//! package loader, then its tests, its checker with the headers beside it, and its solutions
//! with the verdicts their tags ask for carried into the workspace.

use std::path::Path;

use super::{read_file, read_text, Draft, DraftCase, DraftChecker, DraftSolution, Format};
use crate::compile::Source;
use crate::error::{Error, Result};
use crate::lang::Languages;
use crate::package::{archive, polygon, Package};
use crate::workspace::Checker;

pub(super) struct PolygonPackage;

impl Format for PolygonPackage {
    fn name(&self) -> &'static str {
        "a Polygon package (a folder with problem.xml, or its .zip)"
    }

    fn detect(&self, path: &Path) -> bool {
        polygon::is_polygon(path) || (archive::is_zip(path) && archive::holds(path, "problem.xml"))
    }

    fn read(&self, path: &Path) -> Result<Vec<Draft>> {
        // A zip is unpacked into a temporary folder, gone once its files are read.
        let unpacked = tempfile::Builder::new()
            .prefix("judge-import-")
            .tempdir()
            .map_err(|e| Error::io(&std::env::temp_dir(), e))?;
        let dir = if archive::is_zip(path) {
            archive::unpack_into(path, &unpacked.path().join("package"), archive::CAPS)?
        } else {
            path.to_path_buf()
        };
        let dir = dir.canonicalize().map_err(|e| Error::io(&dir, e))?;
        // The languages the judge knows by default decide which solutions come along.
        let package = polygon::load(&dir, &Languages::default())?;
        Ok(vec![draft(path, &package)?])
    }
}

fn draft(path: &Path, package: &Package) -> Result<Draft> {
    let problem = &package.problem;
    let Checker::Program(checker) = &problem.checker else {
        unreachable!("a Polygon package's checker is its program")
    };
    let file_name = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut headers = Vec::new();
    for header in Source::with_headers(&checker.source).extras {
        headers.push((file_name(&header), read_file(&header)?));
    }
    let mut cases = Vec::new();
    for case in &package.cases {
        if !case.answer.is_file() {
            return Err(Error::Import {
                path: path.display().to_string(),
                message: format!("test {} has no answer", case.name),
                fix: "download the full package again, or run its doall.sh in a copy of it".into(),
            });
        }
        cases.push(DraftCase {
            name: Some(case.name.clone()),
            input: read_file(&case.input)?,
            answer: read_file(&case.answer)?,
            sample: case.sample,
        });
    }
    let mut notes = package.warnings.clone();
    let mut solutions: Vec<DraftSolution> = Vec::new();
    for s in &package.submissions {
        let file = file_name(&s.path);
        if solutions.iter().any(|o| o.file == file) {
            notes.push(format!(
                "{}: another solution has the file name {file}: not imported",
                s.name
            ));
            continue;
        }
        solutions.push(DraftSolution {
            file,
            source: read_file(&s.path)?,
            expected: problem.expected.get(&s.name).cloned(),
        });
    }
    for s in &package.skipped {
        notes.push(format!("{} not imported: {}", s.solution, s.skipped));
    }
    if problem.scoring {
        notes.push(
            "its groups and points are not carried over (problem.toml has no groups): the imported problem is judged pass-fail, the first failed test deciding; judge the package where it lies for its points".into(),
        );
    }
    Ok(Draft {
        origin: format!("the Polygon package {}", path.display()),
        id: problem.id.clone(),
        title: problem.title.clone(),
        url: None,
        contest: None,
        time: Some(problem.limits.time),
        memory_bytes: Some(problem.limits.memory_bytes),
        checker: DraftChecker::Program {
            file: file_name(&checker.source),
            source: read_text(&checker.source)?,
            headers,
        },
        io: problem.io.clone(),
        cases,
        solutions,
        notes,
    })
}
