//! The Kattis/ICPC problem package format (legacy, 2023-07, 2025-09): `problem.yaml`, the
//! `data/` tree with its group settings, validators and example submissions.
//!
//! Semantics follow problemtools' `verifyproblem`: groups run in lexicographic order, each
//! group's `testdata.yaml` (`test_group.yaml` in 2025-09) inherits from its parent's, a pair is
//! `NAME.in` with `NAME.ans`, submissions are judged by the folder they are in. What the judge
//! does not use (statements, attachments, unknown keys) is said in `warnings`, never an error.

mod constants;
mod data;
mod expect;
mod meta;
mod programs;
mod terms;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::{dir_name, samples, Format, Package};
use judge_core::check::KattisFlags;
use judge_core::error::{Error, Result};
use judge_core::lang::{Languages, RustSettings};
use judge_core::verdict::{MemoryRule, Verdict};
use judge_core::workspace::{
    Checker, CheckerProgram, CheckerProtocol, FileIo, Interactor, InteractorProgram,
    InteractorProtocol, Problem, ProblemLimits,
};

pub use programs::FOLDERS;

pub use constants::Constants;

/// Reads a Kattis package from its (canonical) folder; what its constants change is written
/// under `cache`.
pub fn load(dir: &Path, languages: &Languages, cache: &Path) -> Result<Package> {
    let mut warnings = Vec::new();
    let meta = meta::read(dir, &mut warnings)?;
    let format = meta.format;
    let program = |p: PathBuf| meta.constants.program(&p, cache);

    // The output validator: the default one with its flags, or a program of the package's.
    let custom = if format == Format::KattisLegacy {
        meta.validation.starts_with("custom")
    } else {
        dir.join("output_validator").is_dir() || dir.join("output_validators").is_dir()
    };
    let mut interactor = None;
    let checker = if meta.interactive {
        // The output validator is the interactor: it talks with the submission and decides.
        interactor = Some(Interactor {
            program: InteractorProgram::Source(program(programs::output_validator(
                dir, languages,
            )?)?),
            protocol: InteractorProtocol::Kattis {
                flags: meta
                    .validator_flags
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
            },
            time: meta.validation_time,
            memory_bytes: meta.validation_memory_mib << 20,
        });
        Checker::default()
    } else if custom {
        Checker::Program(CheckerProgram {
            source: program(programs::output_validator(dir, languages)?)?,
            time: meta.validation_time,
            memory_bytes: meta.validation_memory_mib << 20,
            protocol: CheckerProtocol::Kattis {
                flags: meta
                    .validator_flags
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
            },
        })
    } else {
        Checker::Kattis(
            KattisFlags::parse(&meta.validator_flags).map_err(|m| Error::Config {
                path: format!("{}/problem.yaml (validator_flags)", dir_name(dir)),
                line: None,
                message: m,
                fix: "write the default validator's flags, such as \"float_tolerance 1e-6\"".into(),
            })?,
        )
    };

    // Data a generators.yaml makes: missing is an error (the cases judged would not be the
    // package's), older than its generators a warning (the data is what the package ships).
    for stale in crate::generate::status(dir)? {
        match stale {
            crate::generate::Stale::Missing { ref case, .. } => {
                return Err(Error::TestData {
                    path: format!("{}/data/{case}.in", dir_name(dir)),
                    message: stale.to_string(),
                    fix: format!("make it with judge generate {}", dir_name(dir)),
                })
            }
            older => warnings.push(format!(
                "{older}: judge generate {} makes it again",
                dir_name(dir)
            )),
        }
    }

    // Visualizers draw cases and outputs for people: they judge nothing, and the judge does
    // not run them (said once, on loading).
    let visualizers: Vec<&str> = [
        "input_visualizer",
        "output_visualizer",
        "output_visualizers",
    ]
    .into_iter()
    .filter(|f| dir.join(f).is_dir())
    .collect();
    if !visualizers.is_empty() {
        warnings.push(format!(
            "{}/ not run: a visualizer draws cases for people and decides no verdict",
            visualizers.join("/, ")
        ));
    }

    // The data tree.
    let data = dir.join("data");
    if !data.is_dir() {
        return Err(Error::TestData {
            path: format!("{}/data", dir_name(dir)),
            message: "the package has no data folder".into(),
            fix: "a package keeps its cases in data/sample and data/secret".into(),
        });
    }
    let mut cases = Vec::new();
    let tree = data::Tree {
        package: dir,
        constants: &meta.constants,
    };
    let grading = tree.read_group(
        &data,
        "",
        &data::Settings::defaults(),
        &mut cases,
        &mut warnings,
    )?;
    let validator_cases = tree.validator_cases(&mut warnings)?;
    if cases.is_empty() {
        return Err(Error::TestData {
            path: format!("{}/data", dir_name(dir)),
            message: "the package has no test cases (NAME.in with NAME.ans)".into(),
            fix: "add cases under data/sample and data/secret".into(),
        });
    }

    if meta.passes.is_some() && !custom {
        return Err(Error::TestData {
            path: format!("{}/problem.yaml (type)", dir_name(dir)),
            message: "a multi-pass problem needs an output validator to write each next pass's input, and the package has none".into(),
            fix: "add the validator in output_validator/".into(),
        });
    }

    let id = dir_name(dir);
    let expectations = expect::Expectations::read(dir, &meta.constants)?;
    let mut more: Vec<(String, &[Verdict])> = Vec::new();
    if format == Format::Kattis2025 {
        more.extend(
            expect::MORE_FOLDERS
                .iter()
                .map(|(f, v)| (f.to_string(), *v)),
        );
        for f in expectations.folders() {
            if !FOLDERS
                .iter()
                .chain(expect::MORE_FOLDERS)
                .any(|(k, _)| *k == f)
            {
                // A folder of the package's own: its rules say what its submissions get.
                more.push((f, &Verdict::ALL[..6]));
            }
        }
    }
    let more: Vec<(&str, &[Verdict])> = more.iter().map(|(f, v)| (f.as_str(), *v)).collect();
    let mut subs = programs::submissions(dir, &id, languages, &more, &mut warnings);
    // (`programs::submissions` has said when none is accepted.)
    let mut terms = terms::gather(&meta, &expectations, &mut subs, languages, cache)?;
    terms.validator_cases = validator_cases;
    let mut input_validators = programs::input_validators(dir, languages)?;
    for v in &mut input_validators {
        if let judge_core::workspace::ValidatorKind::Program(p) = &mut v.kind {
            *p = program(p.clone())?;
        }
    }
    let problem = Problem {
        id: id.clone(),
        dir: dir.to_path_buf(),
        title: meta.title.unwrap_or_else(|| id.clone()),
        limits: ProblemLimits {
            // A placeholder until the rule derives the limit, when the package fixes none.
            time: meta.time.fixed.unwrap_or(Duration::from_secs(1)),
            memory_bytes: meta.memory_mib << 20,
            output_bytes: meta.output_mib << 20,
            // problemtools holds a program's address space to the memory limit.
            memory_rule: MemoryRule::AddressSpace,
        },
        checker,
        samples: samples(&cases),
        expected: subs.expected,
        generator: None,
        input_validators,
        rust: RustSettings::default(),
        language_time: BTreeMap::new(),
        grading: Some(Arc::new(grading)),
        scoring: meta.scoring,
        time_rule: meta.time,
        url: None,
        io: FileIo::default(),
        interactor,
        terms,
    };
    Ok(Package {
        dir: dir.to_path_buf(),
        format,
        problem,
        cases,
        submissions: subs.runnable,
        copies: subs.copies,
        skipped: subs.skipped,
        warnings,
        scoring: meta.scoring,
    })
}

pub(super) fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| {
        p.file_name()
            .is_some_and(|n| !n.to_string_lossy().starts_with('.'))
    });
    v.sort();
    v
}
