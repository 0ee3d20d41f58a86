//! The Kattis/ICPC problem package format (legacy, 2023-07, 2025-09): `problem.yaml`, the
//! `data/` tree with its group settings, validators and example submissions.
//!
//! Semantics follow problemtools' `verifyproblem`: groups run in lexicographic order, each
//! group's `testdata.yaml` (`test_group.yaml` in 2025-09) inherits from its parent's, a pair is
//! `NAME.in` with `NAME.ans`, submissions are judged by the folder they are in. What the judge
//! does not use (statements, attachments, unknown keys) is said in `warnings`, never an error.

mod data;
mod meta;
mod programs;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::{dir_name, samples, Format, Package};
use judge_core::check::KattisFlags;
use judge_core::error::{Error, Result};
use judge_core::lang::{Languages, RustSettings};
use judge_core::verdict::MemoryRule;
use judge_core::workspace::{
    Checker, CheckerProgram, CheckerProtocol, FileIo, Interactor, InteractorProgram,
    InteractorProtocol, Problem, ProblemLimits,
};

pub use programs::FOLDERS;

/// Reads a Kattis package from its (canonical) folder.
pub fn load(dir: &Path, languages: &Languages) -> Result<Package> {
    let mut warnings = Vec::new();
    let meta = meta::read(dir, &mut warnings)?;
    let format = meta.format;

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
            program: InteractorProgram::Source(programs::output_validator(dir, languages)?),
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
        let program = programs::output_validator(dir, languages)?;
        Checker::Program(CheckerProgram {
            source: program,
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
    let grading = data::read_group(
        dir,
        &data,
        "",
        &data::Settings::defaults(),
        &mut cases,
        &mut warnings,
    )?;
    if cases.is_empty() {
        return Err(Error::TestData {
            path: format!("{}/data", dir_name(dir)),
            message: "the package has no test cases (NAME.in with NAME.ans)".into(),
            fix: "add cases under data/sample and data/secret".into(),
        });
    }

    let id = dir_name(dir);
    let subs = programs::submissions(dir, &id, languages, &mut warnings);
    // (`programs::submissions` has said when none is accepted.)
    let input_validators = programs::input_validators(dir, languages)?;
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
        package: Default::default(),
    };
    Ok(Package {
        dir: dir.to_path_buf(),
        format,
        problem,
        cases,
        submissions: subs.runnable,
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
