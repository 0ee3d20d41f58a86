//! A data set's problem made one the engine judges: its tests written once into the build
//! cache's folder of evaluations, under the data set's SHA-256 and the problem's id, with a
//! `problem.toml` of its limits, comparison and function, and its own programs (a checker, an
//! interactor, with their `testlib.h`) and named files, read back by the workspace as any
//! problem is. A second run, or a second sample, finds the folder made and writes nothing.

use std::path::{Path, PathBuf};

use judge_core::model::SolutionReport;
use judge_core::reason::{CheckerFailed, Reason};
use judge_core::verdict::Verdict;
use judge_core::workspace::{Problem, TestCase, Workspace};
use sha2::Digest;

use crate::dataset::programs::{self, File};
use crate::dataset::{hex, Compare, Spec};

/// The folder of the problem `id` of the data set whose SHA-256 is `dataset`: a readable part
/// of the id and a hash of all of it (an id may hold any character, and two never share one).
pub fn folder(cache: &Path, dataset: &str, id: &str) -> PathBuf {
    let readable: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let hash = hex(&sha2::Sha256::digest(id.as_bytes()));
    judge_core::paths::cache::evaluations(cache)
        .join(&dataset[..16.min(dataset.len())])
        .join(format!("{readable}-{}", &hash[..12]))
}

/// Where a problem's own programs find what they need: `--testlib`'s header, and the data
/// set's file or folder, beside which a `testlib.h` may lie (a record sent alone: the
/// workspace's folder).
#[derive(Debug, Clone, Copy, Default)]
pub struct Setup<'a> {
    pub testlib: Option<&'a Path>,
    pub dataset: Option<&'a Path>,
}

/// The problem `id` with `spec`, made in `dir` unless it is there already, and its cases.
/// An error is the problem's: it is not judged, and the others are.
pub fn materialise(
    ws: &Workspace,
    dir: &Path,
    id: &str,
    spec: &Spec,
    setup: Setup<'_>,
) -> Result<(Problem, Vec<TestCase>), String> {
    let (files, own) = programs::lay_out(&spec.programs, setup.testlib, setup.dataset)?;
    let toml = problem_toml(id, spec, &own);
    // Its programs and their headers name the folder too: a later run with another
    // `--testlib` (or a checker changed beside the data set) makes a folder of its own, never
    // judges with what an earlier run laid out.
    let dir = &made_of(dir, &toml, &files);
    if !dir.join("problem.toml").is_file() {
        write(dir, &toml, spec, &files)
            .map_err(|e| format!("its tests could not be written: {e}"))?;
    }
    // The engine's name of the problem is the folder's: safe in any path it makes of it.
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let problem = ws
        .problem_from_text(&name, dir, &toml)
        .map_err(|e| e.to_string())?;
    let cases = (0..spec.tests.len())
        .map(|i| {
            let name = case_name(i, spec.tests.len());
            TestCase {
                input: dir.join("tests").join(format!("{name}.in")),
                answer: dir.join("tests").join(format!("{name}.ans")),
                name,
                ..TestCase::default()
            }
        })
        .collect();
    Ok((problem, cases))
}

/// `dir` named also by what it is made of beside its tests: `NAME-DIGEST`, the digest of its
/// `problem.toml` and its programs' files.
fn made_of(dir: &Path, toml: &str, files: &[File]) -> PathBuf {
    let mut digest = sha2::Sha256::new();
    digest.update(toml.as_bytes());
    for (name, bytes) in files {
        digest.update(name.as_bytes());
        digest.update((bytes.len() as u64).to_le_bytes());
        digest.update(bytes);
    }
    let digest = hex(&digest.finalize());
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    dir.with_file_name(format!("{name}-{}", &digest[..8]))
}

/// `--max-tests N`: the indices of the `n` largest of tests whose inputs are `lengths` bytes
/// long, ties to the earlier test, in the tests' own order; every index when there are no more
/// than `n`. Deterministic: the same data set gives the same subset on every machine.
pub fn largest(lengths: &[usize], n: usize) -> Vec<usize> {
    let mut by_size: Vec<usize> = (0..lengths.len()).collect();
    // A stable sort: equal lengths keep their order.
    by_size.sort_by_key(|&i| std::cmp::Reverse(lengths[i]));
    by_size.truncate(n);
    by_size.sort_unstable();
    by_size
}

/// `001`...: as many digits as the last needs, so the names sort as the tests are ordered.
fn case_name(i: usize, count: usize) -> String {
    let width = count.to_string().len().max(2);
    format!("{:0width$}", i + 1)
}

/// The folder written whole in a staging folder beside it, then put in place: a judge killed
/// while writing leaves no half problem. Another judge that placed it first wins.
fn write(dir: &Path, toml: &str, spec: &Spec, files: &[File]) -> Result<(), judge_core::Error> {
    let parent = dir.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| judge_core::Error::create(parent, e))?;
    let staging = judge_core::atomic::staging(parent, "problem")?;
    let tests = staging.path().join("tests");
    std::fs::create_dir_all(&tests).map_err(|e| judge_core::Error::create(&tests, e))?;
    for (i, t) in spec.tests.iter().enumerate() {
        let name = case_name(i, spec.tests.len());
        for (ext, text) in [("in", &t.input), ("ans", &t.output)] {
            let path = tests.join(format!("{name}.{ext}"));
            std::fs::write(&path, text).map_err(|e| judge_core::Error::create(&path, e))?;
        }
    }
    for (name, bytes) in files {
        let path = staging.path().join(name);
        std::fs::write(&path, bytes).map_err(|e| judge_core::Error::create(&path, e))?;
    }
    let path = staging.path().join("problem.toml");
    std::fs::write(&path, toml).map_err(|e| judge_core::Error::create(&path, e))?;
    match judge_core::atomic::place(staging.path(), dir) {
        Err(_) if dir.join("problem.toml").is_file() => Ok(()),
        other => other,
    }
}

/// The `problem.toml` of a data set's problem; `own`, the keys of its own programs (a checker
/// or an interactor decides instead of the comparison).
fn problem_toml(id: &str, spec: &Spec, own: &str) -> String {
    let mut text = format!(
        "title = {}\ntime_limit = \"{}ms\"\nmemory_limit = \"{}KiB\"\n",
        quoted(id),
        spec.time.as_millis().max(1),
        (spec.memory_bytes / 1024).max(1),
    );
    let decided_by_own = spec.programs.checker.is_some() || spec.programs.interactor.is_some();
    match spec.compare {
        _ if decided_by_own => text += own,
        Compare::Float { absolute, any_case } => {
            text += &format!(
                "checker = \"float\"\nfloat_absolute = {absolute:e}\nfloat_relative = 0\n"
            );
            if any_case {
                text += "case_insensitive = true\n";
            }
        }
        Compare::Tokens => text += "checker = \"tokens\"\n",
        Compare::Lines => text += "checker = \"lines\"\n",
        Compare::Json => text += "checker = \"json\"\n",
    }
    if !decided_by_own {
        // Named files alone: the comparison stays, the keys are the files'.
        text += own;
    }
    if let Some(f) = &spec.function {
        let params: Vec<String> = f.params.iter().map(|p| quoted(p)).collect();
        text += &format!(
            "\n[function]\nname = {}\nparams = [{}]\nreturns = {}\n",
            quoted(&f.name),
            params.join(", "),
            quoted(&f.returns)
        );
    }
    text
}

/// Why a judged sample says nothing of the sample: the problem's own checker or interactor
/// does not build, so every sample would be an internal error. The problem is then an error
/// of its own, counted in `errors`, never a sample's failure nor a pass.
pub fn own_program_broken(report: &SolutionReport) -> Option<String> {
    report
        .cases
        .iter()
        .find_map(|c| match (&c.verdict, &c.reason) {
            (
                Verdict::Ie,
                Some(Reason::Checker(CheckerFailed::NotCompiled { diagnostics, .. })),
            ) => Some(format!("its checker does not compile: {diagnostics}")),
            // The engine says an interactor that does not build in these words (`interact.rs`).
            (Verdict::Ie, Some(Reason::Interactor(why))) if why.contains(" does not compile:") => {
                Some(format!("its interactor failed: {why}"))
            }
            _ => None,
        })
}

/// A TOML basic string of `s` (JSON's escapes are TOML's).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::largest;

    #[test]
    fn the_largest_inputs_are_kept_ties_to_the_earlier_in_their_order() {
        assert_eq!(largest(&[3, 10, 1, 10, 7], 3), vec![1, 3, 4]);
        assert_eq!(largest(&[5, 5, 5, 5], 2), vec![0, 1]);
        assert_eq!(largest(&[2, 1], 5), vec![0, 1]);
        assert_eq!(largest(&[], 1), Vec::<usize>::new());
    }
}
