//! online-judge-tools' test folders: what `oj download URL` writes, `test/sample-1.in` with
//! `test/sample-1.out` (any `NAME.in` with its `NAME.out`). The folder says nothing about the
//! problem but its tests: its id is the folder's name (its parent's when it is called `test`),
//! and its limits are assumed. The folder `oj download` ran in, which holds `test/`, is taken
//! for its `test/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{id, read_file, Draft, DraftCase, DraftChecker, Format};
use crate::error::{Error, Result};
use judge_core::workspace::{natural_cmp, FileIo};
use judge_core::Error as CoreError;

/// A folder of `NAME.in` / `NAME.out` files.
pub(super) struct TestFolder;

impl Format for TestFolder {
    fn name(&self) -> &'static str {
        "an online-judge-tools test folder (NAME.in with NAME.out), or the folder `oj download` ran in (its test/)"
    }

    fn detect(&self, path: &Path) -> bool {
        has_inputs(path) || has_inputs(&path.join(TESTS))
    }

    fn read(&self, path: &Path) -> Result<Vec<Draft>> {
        // The folder `oj download` ran in: its tests are in `test/`.
        let tests = path.join(TESTS);
        let path = if !has_inputs(path) && has_inputs(&tests) {
            tests.as_path()
        } else {
            path
        };
        let bad = |file: &Path, message: String, fix: &str| Error::Import {
            path: file.display().to_string(),
            message,
            fix: fix.into(),
        };
        let mut inputs: BTreeMap<String, PathBuf> = BTreeMap::new();
        let mut answers: BTreeMap<String, PathBuf> = BTreeMap::new();
        let entries = std::fs::read_dir(path).map_err(|e| CoreError::list(path, e))?;
        for entry in entries {
            let file = entry.map_err(|e| CoreError::list(path, e))?.path();
            if !file.is_file() {
                continue;
            }
            if let Some(stem) = stem_of(&file, "in") {
                inputs.insert(stem, file);
            } else if let Some(stem) = stem_of(&file, "out") {
                answers.insert(stem, file);
            }
        }
        if let Some((stem, file)) = answers.iter().find(|(s, _)| !inputs.contains_key(*s)) {
            return Err(bad(
                file,
                format!("an answer without its input: there is no {stem}.in"),
                "add the input, or remove the answer",
            ));
        }
        let mut names: Vec<String> = inputs.keys().cloned().collect();
        names.sort_by(|a, b| natural_cmp(a, b));
        let mut cases = Vec::new();
        for name in names {
            let input = &inputs[&name];
            let Some(answer) = answers.get(&name) else {
                return Err(bad(
                    input,
                    format!("a test without output: there is no {name}.out"),
                    "add its expected output as NAME.out, or remove the input",
                ));
            };
            cases.push(DraftCase {
                sample: name.starts_with("sample"),
                input: read_file(input)?,
                answer: read_file(answer)?,
                name: Some(name),
            });
        }
        let folder = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        // `oj download` writes into `test/` inside the problem's own folder.
        let named = match folder.file_name().and_then(|n| n.to_str()) {
            Some("test" | "tests") => folder.parent().unwrap_or(&folder),
            _ => &folder,
        };
        let title = named
            .file_name()
            .map_or_else(|| "problem".into(), |n| n.to_string_lossy().into_owned());
        Ok(vec![Draft {
            origin: format!("the online-judge-tools folder {}", path.display()),
            id: id::suggest(None, &title),
            title,
            url: None,
            contest: None,
            time: None,
            memory_bytes: None,
            checker: DraftChecker::default(),
            interactor: None,
            io: FileIo::default(),
            cases,
            interactions: Vec::new(),
            solutions: Vec::new(),
            notes: Vec::new(),
        }])
    }
}

/// Where `oj download` writes the tests, in the folder it runs in.
const TESTS: &str = "test";

/// Whether `dir` is a folder that holds an input, `NAME.in`.
fn has_inputs(dir: &Path) -> bool {
    dir.is_dir()
        && std::fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .filter_map(|e| e.ok())
                .any(|e| e.path().is_file() && stem_of(&e.path(), "in").is_some())
        })
}

/// `NAME` of `NAME.EXT` (EXT as given), when NAME is a name.
fn stem_of(path: &Path, ext: &str) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let stem = name.strip_suffix(ext)?.strip_suffix('.')?;
    (!stem.is_empty() && !stem.starts_with('.')).then(|| stem.to_string())
}
