//! Problem packages as contests ship them (the Kattis/ICPC format, Codeforces Polygon), read where they lie.
//!
//! A package becomes what the rest of the judge already knows: a [`Problem`] (limits, checker,
//! expected verdicts, test groups), its [`TestCase`]s and its submissions as [`Solution`]s, so
//! `judge run`, `verify`, `compare` and the rest work on it unchanged. Nothing in a package is
//! ever written.

pub mod archive;
pub mod kattis;
pub mod polygon;

use std::path::{Path, PathBuf};
use std::time::Duration;

use judge_core::error::{Error, Location, Result};
use judge_core::lang::Languages;
use judge_core::model::Skipped;
use judge_core::workspace::{Mounted, Problem, Solution, TestCase};

impl Package {
    /// What the workspace needs to judge the package's problem where it lies.
    pub fn mounted(&self) -> Mounted {
        Mounted {
            problem: self.problem.clone(),
            cases: self.cases.clone(),
            solutions: self.submissions.clone(),
            skipped: self.skipped.clone(),
            copies: self.copies.clone(),
        }
    }
}

/// A package, read.
#[derive(Debug, Clone)]
pub struct Package {
    pub dir: PathBuf,
    pub format: Format,
    /// The problem as the judge runs it. When the package fixes no time limit, `limits.time`
    /// is a placeholder until its rule (`problem.time_rule`) has derived one
    /// from the accepted submissions.
    pub problem: Problem,
    pub cases: Vec<TestCase>,
    /// The example submissions the judge can run, named by their path under `submissions/`.
    pub submissions: Vec<Solution>,
    /// Those it cannot run here, with the reason: never a pass, never a failure.
    pub skipped: Vec<Skipped>,
    /// What the package does that the judge does not check or use (as problemtools warns).
    pub warnings: Vec<String>,
    /// `type: scoring`: groups give points, and `partially_accepted` submissions must get some
    /// but not all of them.
    pub scoring: bool,
    /// The submissions built from a copy with the package's constants in, by their own file.
    pub copies: std::collections::BTreeMap<PathBuf, PathBuf>,
}

/// Which format a package is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    KattisLegacy,
    /// `problem_format_version: 2023-07-draft` (or `2023-07`).
    Kattis2023,
    /// `problem_format_version: 2025-09`.
    Kattis2025,
    /// A Codeforces Polygon package (`problem.xml`).
    Polygon,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::KattisLegacy => "Kattis (legacy)",
            Format::Kattis2023 => "Kattis (2023-07)",
            Format::Kattis2025 => "Kattis (2025-09)",
            Format::Polygon => "Polygon",
        })
    }
}

/// Whether `path` is a package the judge reads: a folder with a `problem.yaml` (Kattis) or a
/// `domjudge-problem.ini` (DOMjudge's problem archive), a `problem.xml` (Polygon), or a `.zip`
/// of one.
pub fn is_package(path: &Path) -> bool {
    kattis::is_kattis(path) || polygon::is_polygon(path) || archive::is_zip(path)
}

/// Reads the package at `path`; a `.zip` is unpacked into `cache` first (once).
pub fn load(path: &Path, languages: &Languages, cache: &Path) -> crate::Result<Package> {
    let dir = if archive::is_zip(path) {
        archive::unpacked(path, cache, archive::CAPS)?
    } else {
        path.to_path_buf()
    };
    let dir = dir.canonicalize().map_err(|e| Error::read(&dir, e))?;
    if kattis::is_kattis(&dir) {
        return Ok(kattis::load(&dir, languages, cache)?);
    }
    if polygon::is_polygon(&dir) {
        return Ok(polygon::load(&dir, languages)?);
    }
    Err(crate::Error::NotAPackage {
        path: path.display().to_string(),
    })
}

/// A path inside the package that stays inside it: a symbolic link out of the package, or a
/// `..`, is refused, so a package cannot make the judge read what it does not hold.
pub fn inside(package: &Path, path: &Path) -> Result<PathBuf> {
    let real = path.canonicalize().map_err(|e| Error::read(path, e))?;
    if !real.starts_with(package) {
        return Err(Error::TestData {
            at: Location::file(path),
            message: format!(
                "it leads outside the package (to {}), which the judge does not follow",
                real.display()
            ),
            fix: "replace the link with the file itself".into(),
        });
    }
    Ok(real)
}

/// Seconds as a duration, as package files write times.
pub fn seconds(s: f64) -> Duration {
    Duration::from_secs_f64(s.max(0.0))
}

/// A package's folder name, as messages show it.
pub(crate) fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "problem".into())
}

/// The names of the sample cases, in order.
fn samples(cases: &[TestCase]) -> Vec<String> {
    cases
        .iter()
        .filter(|c| c.sample)
        .map(|c| c.name.clone())
        .collect()
}
