//! The Kattis/ICPC problem package format (legacy, 2023-07, 2025-09): `problem.yaml`, the
//! `data/` tree with its group settings, validators and example submissions.
//!
//! Semantics follow problemtools' `verifyproblem`: groups run in lexicographic order, each
//! group's `testdata.yaml` (`test_group.yaml` in 2025-09) inherits from its parent's, a pair is
//! `NAME.in` with `NAME.ans`, submissions are judged by the folder they are in. What the judge
//! does not use (statements, attachments, unknown keys) is said in `warnings`, never an error.

mod data;
mod domjudge;
mod meta;
mod programs;
mod validators;

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
    InteractorProtocol, PackagePrograms, Problem, ProblemLimits, Solution,
};

pub use programs::FOLDERS;

/// Whether `dir` is a Kattis package: a `problem.yaml`, or DOMjudge's `domjudge-problem.ini`
/// (whose archives are Kattis packages with DOMjudge's file beside, or in its place).
pub fn is_kattis(dir: &Path) -> bool {
    dir.join("problem.yaml").is_file() || dir.join(domjudge::FILE).is_file()
}

/// Reads a Kattis package from its (canonical) folder.
pub fn load(dir: &Path, languages: &Languages) -> Result<Package> {
    let mut warnings = Vec::new();
    let mut meta = meta::read(dir, &mut warnings)?;
    let ini = domjudge::Ini::read(dir, &mut warnings)?;
    // DOMjudge's file fills in what problem.yaml leaves out.
    meta.title = meta.title.or(ini.name.clone());
    meta.time.fixed = meta.time.fixed.or(ini.time_limit);
    let format = meta.format;

    // The output validator: the default one with its flags, or a program of the package's.
    let custom = if format == Format::KattisLegacy {
        meta.validation.starts_with("custom")
    } else {
        dir.join("output_validator").is_dir() || dir.join("output_validators").is_dir()
    };
    domjudge_executables(dir, &ini, custom)?;
    let mut interactor = None;
    let checker = if meta.interactive {
        // The output validator is the interactor: it talks with the submission and decides.
        interactor = Some(Interactor {
            program: InteractorProgram::Source(validators::output_validator(dir, languages)?),
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
        let program = validators::output_validator(dir, languages)?;
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
    let input_validators = validators::input_validators(dir, languages)?;
    let package = PackagePrograms {
        pypy: pypy(dir, languages, &subs.runnable, &mut warnings),
        include: validators::include(dir)?,
        static_validator: validators::static_validator(dir, languages)?,
        answer_validators: validators::answer_validators(dir, languages)?,
    };
    let statics = cases.iter().any(|c| c.static_validation.is_some());
    match (&package.static_validator, statics) {
        (None, true) => {
            return Err(Error::TestData {
                path: format!("{}/data", dir_name(dir)),
                message: "a group has a static validation case (static_validation_score), and the package has no static validator".into(),
                fix: "add the program in static_validator/, or remove static_validation_score".into(),
            })
        }
        (Some(_), false) => warnings.push(
            "static_validator/ is not run: no group has a static validation case (static_validation_score)".into(),
        ),
        _ => {}
    }
    let not_run = validators::not_run(dir);
    if !not_run.is_empty() {
        warnings.push(format!(
            "{} not run: a visualizer draws the cases, it decides no verdict",
            not_run
                .iter()
                .map(|f| format!("{f}/"))
                .collect::<Vec<_>>()
                .join(" and ")
        ));
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
        package,
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

/// DOMjudge's `special_compare` and `special_run` name executables of a DOMjudge server. The
/// package's own output validator replaces them on import, as DOMjudge does; without one, an
/// executable the package does not hold is refused, never replaced by the default validator.
fn domjudge_executables(dir: &Path, ini: &domjudge::Ini, custom: bool) -> Result<()> {
    for (key, value) in [
        ("special_compare", &ini.special_compare),
        ("special_run", &ini.special_run),
    ] {
        if let (Some(id), false) = (value, custom) {
            return Err(Error::Config {
                path: format!("{}/domjudge-problem.ini ({key})", dir_name(dir)),
                line: None,
                message: format!(
                    "`{id}` names an executable of a DOMjudge server, which the package does not hold"
                ),
                fix: "put that program's sources in output_validators/ (DOMjudge builds the folder as one program) and say `validation: custom` in problem.yaml, or remove the key".into(),
            });
        }
    }
    Ok(())
}

/// Whether the package's Python runs on PyPy 3, as the format's own tools (problemtools,
/// Kattis, the ICPC's judges) run it: where `pypy3` is installed. Where it is not, CPython
/// runs it, and a package with Python programs says so once.
fn pypy(dir: &Path, languages: &Languages, subs: &[Solution], warnings: &mut Vec<String>) -> bool {
    let Some(pypy) = languages.get("pypy") else {
        return false;
    };
    let program = pypy.run.program().to_string();
    if judge_core::compile::identity::locate(&program, dir).is_some() {
        return true;
    }
    let python = |p: &Path| languages.of_path(p).is_some_and(|l| l.id == "python");
    if subs.iter().any(|s| python(&s.path)) {
        warnings.push(format!(
            "Python runs on CPython here: `{program}` is not installed, and the package's verdicts were set on PyPy 3 (Debian: apt-get install pypy3)"
        ));
    }
    false
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
