//! `judge generate`: a package's `data/` made by its `generators/generators.yaml`. Every
//! generator and solution is built and run through the judge's runner, sandboxed, writing only
//! a folder of its own; what it made is copied into `data/`. Each case is remembered by the
//! hash of what made it (the generator's files, its command, the solution's) in
//! `data/.generated.json` (a dot file, which the format tells every tool to leave aside), so
//! that a case whose makers did not change is not made again, and `judge verify` can tell
//! data that is missing or older than its generators.

mod numbers;
pub mod plan;
mod run;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use judge_core::error::{Error, Result};
pub use plan::{Case, Plan, Source};
pub use run::generate;

/// The file that remembers what made each case.
const MANIFEST: &str = ".generated.json";

/// The extensions a generator's files may have that are kept with the case.
const KEPT: &[&str] = &[
    "in",
    "ans",
    "out",
    "desc",
    "hint",
    "png",
    "jpg",
    "jpeg",
    "svg",
    "interaction",
    "yaml",
];

/// What became of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// It was not in `data/` before.
    New,
    /// It was made again, and differs from what was there.
    Changed,
    /// It was made again, and came out as it was.
    Same,
    /// What makes it did not change: not made again.
    Cached,
    /// Made by hand: left as it is.
    Kept,
}

/// One case of a generation.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Made {
    pub name: String,
    pub made_by: String,
    pub status: Status,
}

/// What `judge generate` did.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Generated {
    pub problem: String,
    pub cases: Vec<Made>,
    /// The settings files written (`data/secret/testdata.yaml`).
    pub settings: Vec<String>,
    /// Cases in `data/` that generators.yaml does not name (the format wants every case
    /// named): left as they are, and said.
    pub unlisted: Vec<String>,
}

impl judge_core::schema::Document for Generated {
    const SCHEMA: &'static str = "judge.generate/1";
}

/// What `data/` lacks or holds from older generators, as `judge verify` says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stale {
    /// The case's input is not there.
    Missing { case: String, made_by: String },
    /// What makes it changed since it was made (or it was never made by `judge generate`).
    Older { case: String, made_by: String },
}

impl std::fmt::Display for Stale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stale::Missing { case, made_by } => write!(
                f,
                "data/{case}.in is missing: generators.yaml makes it {made_by}"
            ),
            Stale::Older { case, made_by } => write!(
                f,
                "data/{case} is older than what makes it ({made_by}): it changed since the case was generated"
            ),
        }
    }
}

/// The remembered makers of each case.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Manifest {
    cases: BTreeMap<String, Entry>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
struct Entry {
    /// The hash of what made it.
    key: String,
    /// The hash of each file made, by extension.
    files: BTreeMap<String, String>,
}

impl Manifest {
    fn read(dir: &Path) -> Manifest {
        std::fs::read_to_string(dir.join("data").join(MANIFEST))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join("data").join(MANIFEST);
        let text = serde_json::to_string_pretty(self).expect("a manifest serializes");
        std::fs::write(&path, text + "\n").map_err(|e| Error::write(&path, e))
    }
}

/// What `data/` lacks, and what in it is older than its generators, for the package in `dir`
/// (nothing when it has no generators.yaml).
pub fn status(dir: &Path) -> Result<Vec<Stale>> {
    let Some(plan) = plan::read(dir)? else {
        return Ok(Vec::new());
    };
    let manifest = Manifest::read(dir);
    let mut out = Vec::new();
    let mut keys = BTreeMap::new();
    for case in &plan.cases {
        let input = dir.join("data").join(format!("{}.in", case.name));
        let made_by = case.made_by();
        if !input.is_file() {
            out.push(Stale::Missing {
                case: case.name.clone(),
                made_by,
            });
            continue;
        }
        if case.source == Source::Manual {
            continue;
        }
        let key = run::key(dir, &plan, case, &mut keys)?;
        let fresh = manifest.cases.get(&case.name).is_some_and(|e| {
            e.key == key
                && e.files.iter().all(|(ext, hash)| {
                    hash_file(&dir.join("data").join(format!("{}.{ext}", case.name))).as_deref()
                        == Some(hash.as_str())
                })
        });
        if !fresh {
            out.push(Stale::Older {
                case: case.name.clone(),
                made_by,
            });
        }
    }
    Ok(out)
}

fn hash_file(path: &Path) -> Option<String> {
    std::fs::read(path)
        .ok()
        .map(|b| blake3::hash(&b).to_hex()[..32].to_string())
}

/// The cases in `data/sample` and `data/secret` (by name) that `plan` does not name.
fn unlisted(dir: &Path, plan: &Plan) -> Vec<String> {
    let data = dir.join("data");
    let mut out = Vec::new();
    for top in ["sample", "secret"] {
        for entry in walkdir::WalkDir::new(data.join(top))
            .sort_by_file_name()
            .into_iter()
            .flatten()
        {
            let p = entry.path();
            if p.extension().is_some_and(|e| e == "in") && p.is_file() {
                let name = p
                    .strip_prefix(&data)
                    .map(|r| r.with_extension("").to_string_lossy().into_owned())
                    .unwrap_or_default();
                if !plan.cases.iter().any(|c| c.name == name) {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// The problem a package's generators and solutions are built for when the package itself
/// cannot be read yet (its data is what is being made): the judge's own build settings.
pub fn builder(dir: &Path) -> judge_core::workspace::Problem {
    use judge_core::workspace::{Problem, ProblemLimits};
    Problem {
        id: crate::package::dir_name(dir),
        dir: dir.to_path_buf(),
        title: crate::package::dir_name(dir),
        limits: ProblemLimits {
            time: std::time::Duration::from_secs(60),
            memory_bytes: 2 << 30,
            output_bytes: 1 << 30,
            memory_rule: judge_core::verdict::MemoryRule::Resident,
        },
        checker: Default::default(),
        samples: Vec::new(),
        expected: Default::default(),
        generator: None,
        input_validators: Vec::new(),
        rust: Default::default(),
        language_time: Default::default(),
        grading: None,
        scoring: false,
        time_rule: judge_core::stats::TimeLimitRule::DEFAULT,
        url: None,
        io: Default::default(),
        interactor: None,
        terms: Default::default(),
        package: Default::default(),
        function: None,
    }
}

/// A file of `generators/` or of the package, by a path written in generators.yaml.
fn package_path(dir: &Path, under: &str, written: &str) -> PathBuf {
    match written.strip_prefix('/') {
        Some(rooted) => dir.join(rooted),
        None => dir.join(under).join(written),
    }
}
