//! The Kattis/ICPC problem package format (legacy, 2023-07, 2025-09): `problem.yaml`, the
//! `data/` tree with its group settings, validators and example submissions.
//!
//! Semantics follow problemtools' `verifyproblem`: groups run in lexicographic order, each
//! group's `testdata.yaml` (`test_group.yaml` in 2025-09) inherits from its parent's, a pair is
//! `NAME.in` with `NAME.ans`, submissions are judged by the folder they are in. What the judge
//! does not use (statements, attachments, unknown keys) is said in `warnings`, never an error.

mod constants;
mod data;
mod domjudge;
mod expect;
pub mod generate;
mod meta;
mod programs;
mod terms;
mod validators;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::{dir_name, samples, Format, Package};
use judge_core::check::KattisFlags;
use judge_core::error::{Error, Location, Result};
use judge_core::grading::Group;
use judge_core::lang::{Languages, RustSettings};
use judge_core::verdict::{MemoryRule, Verdict};
use judge_core::workspace::{
    Checker, CheckerProgram, CheckerProtocol, FileIo, InputValidator, Interactor,
    InteractorProgram, InteractorProtocol, PackagePrograms, Problem, ProblemLimits, Solution,
    TestCase, ValidatorCase, ValidatorKind,
};

pub use programs::FOLDERS;

pub use constants::Constants;

/// Whether `dir` is a Kattis package: a `problem.yaml`, or DOMjudge's `domjudge-problem.ini`
/// (whose archives are Kattis packages with DOMjudge's file beside, or in its place).
pub fn is_kattis(dir: &Path) -> bool {
    dir.join("problem.yaml").is_file() || dir.join(domjudge::FILE).is_file()
}

/// The constants of problem.yaml in `dir` (none without one), which generators.yaml's
/// commands take too.
pub fn constants(dir: &Path) -> Result<Constants> {
    if !dir.join("problem.yaml").is_file() {
        return Ok(Constants::default());
    }
    meta::read(dir, &mut Vec::new()).map(|m| m.constants)
}

/// Reads a Kattis package from its (canonical) folder; what its constants change is written
/// under `cache`.
pub fn load(dir: &Path, languages: &Languages, cache: &Path) -> Result<Package> {
    let mut warnings = Vec::new();
    let mut meta = meta::read(dir, &mut warnings)?;
    let ini = domjudge::Ini::read(dir, &mut warnings)?;
    // DOMjudge's file fills in what problem.yaml leaves out.
    meta.title = meta.title.or(ini.name.clone());
    meta.time.fixed = meta.time.fixed.or(ini.time_limit);
    let format = meta.format;
    let program = |p: PathBuf| meta.constants.program(&p, cache);

    let custom = if format == Format::KattisLegacy {
        meta.validation.starts_with("custom")
    } else {
        dir.join("output_validator").is_dir() || dir.join("output_validators").is_dir()
    };
    domjudge_executables(dir, &ini, custom)?;
    let (checker, interactor) = output_validation(dir, &meta, languages, custom, &program)?;
    generated_data(dir, &mut warnings)?;
    // Visualizers draw cases and outputs for people: they judge nothing, and the judge does
    // not run them (said once, on loading).
    let visualizers = validators::not_run(dir);
    if !visualizers.is_empty() {
        warnings.push(format!(
            "{}/ not run: a visualizer draws cases for people and decides no verdict",
            visualizers.join("/, ")
        ));
    }
    let (cases, grading, validator_cases) = test_data(dir, &meta, &mut warnings)?;
    if meta.passes.is_some() && !custom {
        return Err(Error::TestData {
            at: Location::file(format!("{}/problem.yaml", dir_name(dir))).with_key("type"),
            message: "a multi-pass problem needs an output validator to write each next pass's input, and the package has none".into(),
            fix: "add the validator in output_validator/".into(),
        });
    }

    let id = dir_name(dir);
    let expectations = expect::Expectations::read(dir, &meta.constants)?;
    let more = submission_folders(format, &expectations);
    let more: Vec<(&str, &[Verdict])> = more.iter().map(|(f, v)| (f.as_str(), *v)).collect();
    let mut subs = programs::submissions(dir, &id, languages, &more, &mut warnings);
    // (`programs::submissions` has said when none is accepted.)
    let mut terms = terms::gather(&meta, &expectations, &mut subs, languages, cache)?;
    terms.validator_cases = validator_cases;
    let (package, input_validators) =
        package_programs(dir, languages, &subs.runnable, &program, &mut warnings)?;
    static_validation(dir, &package, &cases, &mut warnings)?;
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
        package,
        function: None,
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

/// What a program of the package is once its constants are written in: the path to build.
type Constanted<'a> = &'a dyn Fn(PathBuf) -> Result<PathBuf>;

/// The output validator: the default one with its flags, a program of the package's
/// (`custom`), or, for an interactive problem, the interactor (the output validator talks with
/// the submission and decides).
fn output_validation(
    dir: &Path,
    meta: &meta::Meta,
    languages: &Languages,
    custom: bool,
    program: Constanted,
) -> Result<(Checker, Option<Interactor>)> {
    let flags = || {
        meta.validator_flags
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    if meta.interactive {
        let interactor = Interactor {
            program: InteractorProgram::Source(program(validators::output_validator(
                dir, languages,
            )?)?),
            protocol: InteractorProtocol::Kattis { flags: flags() },
            time: meta.validation_time,
            memory_bytes: meta.validation_memory_mib << 20,
        };
        return Ok((Checker::default(), Some(interactor)));
    }
    let checker = if custom {
        Checker::Program(CheckerProgram {
            source: program(validators::output_validator(dir, languages)?)?,
            time: meta.validation_time,
            memory_bytes: meta.validation_memory_mib << 20,
            protocol: CheckerProtocol::Kattis { flags: flags() },
        })
    } else {
        Checker::Kattis(KattisFlags::parse(&meta.validator_flags).map_err(|m| {
            Error::Config {
                at: Location::file(format!("{}/problem.yaml", dir_name(dir)))
                    .with_key("validator_flags"),
                message: m.to_string(),
                fix: "write the default validator's flags, such as \"float_tolerance 1e-6\"".into(),
            }
        })?)
    };
    Ok((checker, None))
}

/// Data a generators.yaml makes: missing is an error (the cases judged would not be the
/// package's), older than its generators a warning (the data is what the package ships).
fn generated_data(dir: &Path, warnings: &mut Vec<String>) -> Result<()> {
    for stale in generate::status(dir)? {
        match stale {
            generate::Stale::Missing { ref case, .. } => {
                return Err(Error::TestData {
                    at: Location::file(format!("{}/data/{case}.in", dir_name(dir))),
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
    Ok(())
}

/// The data tree: its cases with the groups they are graded in, and the validators' own cases.
fn test_data(
    dir: &Path,
    meta: &meta::Meta,
    warnings: &mut Vec<String>,
) -> Result<(Vec<TestCase>, Group, Vec<ValidatorCase>)> {
    let data = dir.join("data");
    if !data.is_dir() {
        return Err(Error::TestData {
            at: Location::file(format!("{}/data", dir_name(dir))),
            message: "the package has no data folder".into(),
            fix: "a package keeps its cases in data/sample and data/secret".into(),
        });
    }
    let mut cases = Vec::new();
    let tree = data::Tree {
        package: dir,
        constants: &meta.constants,
    };
    let settings = data::Settings::defaults();
    let grading = tree.read_group(&data, "", &settings, &mut cases, warnings)?;
    let validator_cases = tree.validator_cases(warnings)?;
    if cases.is_empty() {
        return Err(Error::TestData {
            at: Location::file(format!("{}/data", dir_name(dir))),
            message: "the package has no test cases (NAME.in with NAME.ans)".into(),
            fix: "add cases under data/sample and data/secret".into(),
        });
    }
    Ok((cases, grading, validator_cases))
}

/// The submission folders beyond [`FOLDERS`], with the verdicts each allows: 2025-09's own,
/// and every folder the package's rules name.
fn submission_folders(
    format: Format,
    expectations: &expect::Expectations,
) -> Vec<(String, &'static [Verdict])> {
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
    more
}

/// The package's programs beyond the submissions and the output validator, their constants
/// written in; and its input validators.
fn package_programs(
    dir: &Path,
    languages: &Languages,
    runnable: &[Solution],
    program: Constanted,
    warnings: &mut Vec<String>,
) -> Result<(PackagePrograms, Vec<InputValidator>)> {
    let mut input_validators = validators::input_validators(dir, languages)?;
    let mut answer_validators = validators::answer_validators(dir, languages)?;
    for v in input_validators.iter_mut().chain(&mut answer_validators) {
        if let ValidatorKind::Program(p) = &mut v.kind {
            *p = program(p.clone())?;
        }
    }
    let package = PackagePrograms {
        pypy: pypy(dir, languages, runnable, warnings),
        include: validators::include(dir)?,
        static_validator: validators::static_validator(dir, languages)?
            .map(program)
            .transpose()?,
        answer_validators,
    };
    Ok((package, input_validators))
}

/// A static validator runs only for a group's static validation case: one without the other
/// is refused, or said.
fn static_validation(
    dir: &Path,
    package: &PackagePrograms,
    cases: &[TestCase],
    warnings: &mut Vec<String>,
) -> Result<()> {
    let statics = cases.iter().any(|c| c.static_validation.is_some());
    match (&package.static_validator, statics) {
        (None, true) => {
            return Err(Error::TestData {
                at: Location::file(format!("{}/data", dir_name(dir))),
                message: "a group has a static validation case (static_validation_score), and the package has no static validator".into(),
                fix: "add the program in static_validator/, or remove static_validation_score".into(),
            })
        }
        (Some(_), false) => warnings.push(
            "static_validator/ is not run: no group has a static validation case (static_validation_score)".into(),
        ),
        _ => {}
    }
    Ok(())
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
                at: Location::file(format!("{}/domjudge-problem.ini", dir_name(dir))).with_key(key),
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
