//! `judge export PROBLEM --kattis DIR`: a workspace problem written as a Kattis problem package,
//! in format 2023-07-draft (which problemtools' `verifyproblem` reads) or 2025-09 (which the
//! judge reads back): problem.yaml, the statement, data/sample and data/secret, the checker as
//! the default validator's arguments or an output validator, the input validator, and the
//! solutions in the submissions/ folder of their expected verdict (in 2025-09, with
//! `submissions.yaml` where a folder admits more than the solution may get).
//!
//! The workspace is only read. What cannot be carried over is said, never dropped silently.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::package::kattis::FOLDERS;
use judge_core::check::{CheckerMode, KattisFlags};
use judge_core::error::{Error, Location, Result};
use judge_core::verdict::Expectation;
use judge_core::workspace::{
    Checker, CheckerProtocol, InteractorProgram, InteractorProtocol, Problem, Solution, TestCase,
    ValidatorKind, Workspace,
};

/// The version of the format a package is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Version {
    /// `2023-07-draft`: what problemtools reads.
    #[default]
    V2023_07,
    /// `2025-09`: `test_group.yaml`, argument lists, the `rejected` and `brute_force` folders
    /// and `submissions.yaml`.
    V2025_09,
}

impl Version {
    /// As `problem_format_version` writes it.
    pub fn label(self) -> &'static str {
        match self {
            Version::V2023_07 => "2023-07-draft",
            Version::V2025_09 => "2025-09",
        }
    }
}

/// What `export` wrote, and what it left out.
#[derive(Debug, Clone, Default)]
pub struct Exported {
    pub dir: PathBuf,
    pub version: Version,
    pub samples: usize,
    pub secret: usize,
    /// `folder/file` under submissions/, with the solution it is.
    pub submissions: Vec<(String, String)>,
    /// A solution left out, and why.
    pub left_out: Vec<(String, String)>,
    /// How something was carried over that is not one to one.
    pub notes: Vec<String>,
}

/// The package's entries the export writes: with `force`, these (and only these) are replaced.
const ENTRIES: &[&str] = &[
    "problem.yaml",
    "statement",
    "data",
    "submissions",
    "input_validators",
    "output_validator",
];

/// Languages whose programs problemtools runs on another implementation than the judge's.
const ELSEWHERE: &[(&str, &str)] = &[(
    "python",
    "problemtools runs .py on PyPy, and the expected verdict was set on CPython",
)];

/// Writes `problem` of `ws` as a Kattis package in `dir`: a new or empty folder, or with
/// `force` one whose package entries are replaced.
pub fn kattis(
    ws: &Workspace,
    problem: &Problem,
    cases: &[TestCase],
    solutions: &[Solution],
    dir: &Path,
    force: bool,
    version: Version,
) -> crate::Result<Exported> {
    let shown_problem = ws.show(&problem.dir);
    let statement = problem.dir.join("statement.md");
    let statement_text = std::fs::read_to_string(&statement).map_err(|_| Error::Config {
        at: Location::file(ws.show(&statement)),
        message: "the problem has no statement, and a package needs one".into(),
        fix: "write the statement in Markdown in statement.md".into(),
    })?;
    // An interactive problem's interactor is its package's output validator.
    let (flags, validator) = match interactor(problem, &shown_problem)? {
        Some((source, flags)) => (Some(flags.join(" ")), Some(source)),
        None => checker(problem, &shown_problem)?,
    };
    short_name(dir, &problem.id)?;
    prepare(dir, force)?;

    let mut out = Exported {
        dir: dir.to_path_buf(),
        version,
        ..Exported::default()
    };
    write(
        &dir.join("problem.yaml"),
        problem_yaml(
            problem,
            version,
            problem.interactor.is_some(),
            &mut out.notes,
        ),
    )?;
    write(
        &dir.join("statement/problem.en.md"),
        without_title(&statement_text, &problem.title),
    )?;
    if let Some(flags) = flags.filter(|f| !f.is_empty()) {
        write_validator_flags(dir, version, &flags)?;
    }
    if let Some(source) = validator {
        copy(
            &source,
            &dir.join("output_validator").join(file_name(&source)),
        )?;
    }
    write_cases(dir, cases, &mut out)?;
    write_input_validators(ws, problem, dir, &mut out)?;
    write_submissions(ws, problem, solutions, dir, &mut out)?;
    Ok(out)
}

/// The output validator's arguments, as `version` gives them to every test group.
fn write_validator_flags(dir: &Path, version: Version, flags: &str) -> Result<()> {
    match version {
        Version::V2023_07 => write(
            &dir.join("data/testdata.yaml"),
            format!("output_validator_flags: {}\n", json_string(flags)),
        ),
        Version::V2025_09 => {
            let args: Vec<String> = flags.split_whitespace().map(json_string).collect();
            write(
                &dir.join("data/test_group.yaml"),
                format!("output_validator_args: [{}]\n", args.join(", ")),
            )
        }
    }
}

/// Each case into data/sample or data/secret, counted.
fn write_cases(dir: &Path, cases: &[TestCase], out: &mut Exported) -> Result<()> {
    for case in cases {
        let group = if case.sample { "sample" } else { "secret" };
        let group = dir.join("data").join(group);
        copy(&case.input, &group.join(format!("{}.in", case.name)))?;
        copy(&case.answer, &group.join(format!("{}.ans", case.name)))?;
        if case.sample {
            out.samples += 1;
        } else {
            out.secret += 1;
        }
    }
    Ok(())
}

/// The input validators the format runs into input_validators/; the others, a missing one
/// and the generator said in the notes.
fn write_input_validators(
    ws: &Workspace,
    problem: &Problem,
    dir: &Path,
    out: &mut Exported,
) -> Result<()> {
    for v in &problem.input_validators {
        match &v.kind {
            ValidatorKind::Program(p)
            | ValidatorKind::Checktestdata(p)
            | ValidatorKind::Viva(p) => copy(p, &dir.join("input_validators").join(file_name(p)))?,
            ValidatorKind::Unsupported(why) => out
                .notes
                .push(format!("input validator {} left out: {why}", v.name)),
        }
    }
    if problem.input_validators.is_empty() {
        out.notes.push(format!(
            "no input validator (problemtools warns): add `input_validator = \"{}\"` to problem.toml",
            ws.example_file("validate", Some(&problem.id))
        ));
    }
    if problem.generator.is_some() {
        out.notes
            .push("the generator is not part of a package: left out".into());
    }
    Ok(())
}

/// Why a solution in LeetCode's form is left out: a package's submissions are whole programs.
const FUNCTION_FORM: &str = "it is a function in LeetCode's form, which a package's submissions are not (`judge new NAME --from SOLUTION` makes it a whole program)";

/// Whether the solution at `path` is the problem's declared function in LeetCode's form.
fn is_function(problem: &Problem, language: &str, path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|source| {
        judge_core::scaffold::whole_program(problem, language, &source).is_some()
    })
}

/// Each solution into the submissions/ folder of its expected verdict, with
/// submissions.yaml's rules where the folder admits more; the ones that cannot go, left out.
fn write_submissions(
    ws: &Workspace,
    problem: &Problem,
    solutions: &[Solution],
    dir: &Path,
    out: &mut Exported,
) -> Result<()> {
    let mut rules = String::new();
    for s in solutions {
        let language = ws.language_of(&s.path)?;
        if let Some((_, why)) = ELSEWHERE.iter().find(|(id, _)| *id == language.id) {
            out.left_out.push((s.name.clone(), why.to_string()));
            continue;
        }
        if is_function(problem, &language.id, &s.path) {
            out.left_out.push((s.name.clone(), FUNCTION_FORM.into()));
            continue;
        }
        let Some(expected) = problem.expected.get(&s.name) else {
            out.left_out.push((
                s.name.clone(),
                "it has no expected verdict in problem.toml".into(),
            ));
            continue;
        };
        let folder = match out.version {
            Version::V2023_07 => folder_of(expected),
            Version::V2025_09 => folder_of(expected).or_else(|| newer_folder_of(expected)),
        };
        let Some(folder) = folder else {
            out.left_out.push((
                s.name.clone(),
                format!("no submissions/ folder means {expected}"),
            ));
            continue;
        };
        let name = format!("{folder}/{}", file_name(&s.path));
        copy(&s.path, &dir.join("submissions").join(&name))?;
        if let Some(rule) = narrower(folder, expected) {
            let _ = write!(rules, "{}:\n{rule}", json_string(&name));
        }
        out.submissions.push((name, s.name.clone()));
    }
    if !rules.is_empty() {
        write(&dir.join("submissions/submissions.yaml"), rules)?;
    }
    Ok(())
}

/// The folders 2025-09 adds, for an expectation no older folder admits whole: `brute_force`
/// (too slow or crashing, never wrong) or `rejected` (anything but accepted).
fn newer_folder_of(expected: &Expectation) -> Option<&'static str> {
    use judge_core::verdict::Verdict::{Ac, Ce, Ie, Wa};
    let v = &expected.0;
    if v.iter().any(|v| matches!(v, Ac | Ce | Ie)) {
        return None;
    }
    Some(if v.contains(&Wa) {
        "rejected"
    } else {
        "brute_force"
    })
}

/// A `submissions.yaml` rule for a solution in `folder` (2025-09's `rejected` or
/// `brute_force`) that may get fewer verdicts than the folder admits: on every case it may be
/// accepted or get one of them, and on some case it must get one (the format's four verdicts:
/// memory and output limits are run-time errors, as the format's tools have them).
fn narrower(folder: &str, expected: &Expectation) -> Option<String> {
    use judge_core::expect::SpecVerdict;
    let admits: &[SpecVerdict] = match folder {
        "rejected" => &[SpecVerdict::Wa, SpecVerdict::Tle, SpecVerdict::Rte],
        "brute_force" => &[SpecVerdict::Tle, SpecVerdict::Rte],
        _ => return None,
    };
    let mut wanted: Vec<SpecVerdict> = expected
        .0
        .iter()
        .filter_map(|v| SpecVerdict::of(*v))
        .collect();
    wanted.sort_by_key(|v| v.code());
    wanted.dedup();
    if wanted.len() == admits.len() {
        return None;
    }
    let list = |vs: &[SpecVerdict]| vs.iter().map(|v| v.code()).collect::<Vec<_>>().join(", ");
    let mut permitted = vec![SpecVerdict::Ac];
    permitted.extend(&wanted);
    Some(format!(
        "  permitted: [{}]\n  required: [{}]\n",
        list(&permitted),
        list(&wanted)
    ))
}

/// The submissions/ folder whose verdicts admit every verdict `expected` admits.
pub fn folder_of(expected: &Expectation) -> Option<&'static str> {
    FOLDERS
        .iter()
        .find(|(_, verdicts)| expected.0.iter().all(|v| verdicts.contains(v)))
        .map(|(folder, _)| *folder)
}

/// The default validator's flags (`None`: a validator program decides), and the validator
/// program to copy.
fn checker(problem: &Problem, shown: &str) -> Result<(Option<String>, Option<PathBuf>)> {
    Ok(match &problem.checker {
        Checker::Builtin { mode, options } => {
            let mut flags = KattisFlags {
                case_sensitive: !options.case_insensitive,
                ..KattisFlags::default()
            };
            match mode {
                CheckerMode::Tokens => {}
                CheckerMode::Float => {
                    flags.float_absolute = Some(options.float_absolute);
                    flags.float_relative = Some(options.float_relative);
                }
                CheckerMode::Exact | CheckerMode::Lines => flags.space_change_sensitive = true,
                CheckerMode::Json => {
                    return Err(Error::Config {
                        at: Location::file(format!("{shown}/problem.toml")),
                        message: "its checker compares JSON values, and a package's default output validator compares tokens".into(),
                        fix: "set `checker = \"tokens\"` (or \"float\") if its answers compare as tokens, or write a Kattis output validator".into(),
                    })
                }
            }
            (Some(flags.to_string()), None)
        }
        Checker::Kattis(flags) => (Some(flags.to_string()), None),
        Checker::Program(p) => match &p.protocol {
            CheckerProtocol::Kattis { flags } => (Some(flags.join(" ")), Some(p.source.clone())),
            CheckerProtocol::Testlib => {
                return Err(Error::Config {
                    at: Location::file(format!("{shown}/problem.toml")),
                    message: "its checker speaks testlib's protocol, and a package's output validator speaks Kattis' (`validator INPUT ANSWER FEEDBACK_DIR < OUTPUT`, exit 42 or 43)".into(),
                    fix: "rewrite the checker for the Kattis protocol and set `checker_protocol = \"kattis\"`".into(),
                })
            }
        },
    })
}

/// An interactive problem's interactor and its flags, to be the package's output validator; a
/// protocol the format does not speak is refused.
fn interactor(problem: &Problem, shown: &str) -> Result<Option<(PathBuf, Vec<String>)>> {
    let Some(i) = &problem.interactor else {
        return Ok(None);
    };
    let refuse = |message: &str, fix: &str| Error::Config {
        at: Location::file(format!("{shown}/problem.toml")),
        message: message.into(),
        fix: fix.into(),
    };
    match (&i.program, &i.protocol) {
        (InteractorProgram::Source(source), InteractorProtocol::Kattis { flags }) => {
            Ok(Some((source.clone(), flags.clone())))
        }
        (InteractorProgram::Source(_), InteractorProtocol::Testlib) => Err(refuse(
            "its interactor speaks testlib's protocol, and a package's interactor speaks Kattis' (`interactor INPUT ANSWER FEEDBACK_DIR`, exit 42 or 43)",
            "rewrite the interactor for the Kattis protocol and set `interactor_protocol = \"kattis\"`",
        )),
        (InteractorProgram::Replay, _) => Err(refuse(
            "its interactor is the judge's replay of .interaction files, which a package cannot carry",
            "write an interactor program for the Kattis protocol",
        )),
    }
}

/// The package's folder name is the problem's short name to Kattis and problemtools: lowercase
/// letters and digits only.
fn short_name(dir: &Path, id: &str) -> Result<()> {
    let name = file_name(dir);
    if !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        return Ok(());
    }
    let suggested: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    Err(Error::Config {
        at: Location::file(dir),
        message: format!(
            "`{name}` cannot be a package's folder: its name is the problem's short name, which is lowercase letters and digits only"
        ),
        fix: format!(
            "name the folder `{}`, for instance",
            if suggested.is_empty() { "problem" } else { &suggested }
        ),
    })
}

/// A folder to write the package in: made if missing; refused when it holds anything unless
/// `force`, which removes the entries the export writes (and nothing else).
fn prepare(dir: &Path, force: bool) -> Result<()> {
    let not_empty = std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some());
    if not_empty && !force {
        return Err(Error::Config {
            at: Location::file(dir),
            message: "the folder is not empty; the export writes only into a new or empty one".into(),
            fix: "name a new folder, or pass --force to replace the package there (problem.yaml, statement/, data/, submissions/, input_validators/, output_validator/)".into(),
        });
    }
    for entry in ENTRIES {
        let p = dir.join(entry);
        let removed = if p.is_dir() {
            std::fs::remove_dir_all(&p)
        } else if p.exists() {
            std::fs::remove_file(&p)
        } else {
            Ok(())
        };
        removed.map_err(|e| Error::remove(&p, e))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::create(dir, e))
}

fn problem_yaml(
    problem: &Problem,
    version: Version,
    interactive: bool,
    notes: &mut Vec<String>,
) -> String {
    let mib = |bytes: u64, what: &str, notes: &mut Vec<String>| {
        let m = bytes.div_ceil(1 << 20);
        if m << 20 != bytes {
            notes.push(format!("the {what} limit is rounded up to {m} MiB"));
        }
        m
    };
    let limits = &problem.limits;
    let rule = &problem.time_rule;
    let mut y = String::new();
    let _ = writeln!(y, "problem_format_version: {}", version.label());
    let _ = writeln!(y, "name: {}", json_string(&problem.title));
    let _ = writeln!(y, "uuid: {}", uuid(&problem.id));
    if interactive {
        let _ = writeln!(y, "type: interactive");
    }
    if let Some(url) = &problem.url {
        let _ = writeln!(y, "source: {}", json_string(url));
    }
    let _ = writeln!(y, "limits:");
    let _ = writeln!(y, "  time_limit: {}", seconds(limits.time));
    let _ = writeln!(y, "  time_multipliers:");
    let _ = writeln!(y, "    ac_to_time_limit: {}", rule.ac_to_limit);
    let _ = writeln!(y, "    time_limit_to_tle: {}", rule.limit_to_tle);
    let _ = writeln!(y, "  memory: {}", mib(limits.memory_bytes, "memory", notes));
    let _ = writeln!(y, "  output: {}", mib(limits.output_bytes, "output", notes));
    y
}

/// Seconds as YAML writes a number: `4`, `1.5`.
fn seconds(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s}")
    }
}

/// A UUID that stays the same for a problem id across exports (the format wants one).
fn uuid(id: &str) -> String {
    let h = blake3::hash(format!("judge problem {id}").as_bytes());
    let b = h.as_bytes();
    let hex: String = b[..16].iter().map(|x| format!("{x:02x}")).collect();
    // Version 8 (custom), RFC 9562 variant.
    format!(
        "{}-{}-8{}-{:x}{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        8 | (b[8] & 0x3),
        &hex[17..20],
        &hex[20..32]
    )
}

/// A YAML scalar that says `s` exactly: a JSON string is a YAML double-quoted one.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// The statement without its first line when that is the title as a heading: the package's
/// statement gets its title from problem.yaml.
fn without_title(text: &str, title: &str) -> String {
    let mut lines = text.lines();
    match lines.next() {
        Some(first) if first.trim_start_matches('#').trim() == title && first.starts_with('#') => {
            lines
                .collect::<Vec<_>>()
                .join("\n")
                .trim_start()
                .to_string()
                + "\n"
        }
        _ => text.to_string(),
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn write(path: &Path, text: impl AsRef<[u8]>) -> Result<()> {
    judge_core::atomic::replace(path, text.as_ref())
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    judge_core::atomic::copy(from, to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::verdict::Verdict;

    #[test]
    fn validator_flags_are_written_as_each_version_says() {
        let dir = tempfile::tempdir().unwrap();
        write_validator_flags(dir.path(), Version::V2023_07, "float_tolerance 1e-6").unwrap();
        let old = std::fs::read_to_string(dir.path().join("data/testdata.yaml")).unwrap();
        assert_eq!(old, "output_validator_flags: \"float_tolerance 1e-6\"\n");
        write_validator_flags(dir.path(), Version::V2025_09, "float_tolerance 1e-6").unwrap();
        let new = std::fs::read_to_string(dir.path().join("data/test_group.yaml")).unwrap();
        assert_eq!(
            new,
            "output_validator_args: [\"float_tolerance\", \"1e-6\"]\n"
        );
    }

    #[test]
    fn each_expectation_goes_to_the_folder_that_admits_it() {
        let e = |v: &[Verdict]| Expectation(v.iter().copied().collect());
        assert_eq!(folder_of(&e(&[Verdict::Ac])), Some("accepted"));
        assert_eq!(folder_of(&e(&[Verdict::Tle])), Some("time_limit_exceeded"));
        assert_eq!(folder_of(&e(&[Verdict::Wa])), Some("wrong_answer"));
        assert_eq!(folder_of(&e(&[Verdict::Re])), Some("run_time_error"));
        assert_eq!(folder_of(&e(&[Verdict::Ac, Verdict::Tle])), None);
    }

    #[test]
    fn uuids_are_stable_and_well_formed() {
        let u = uuid("nqueens-ii");
        assert_eq!(u, uuid("nqueens-ii"));
        assert_ne!(u, uuid("nqueens"));
        let parts: Vec<usize> = u.split('-').map(str::len).collect();
        assert_eq!(parts, [8, 4, 4, 4, 12]);
        assert_eq!(&u[14..15], "8");
    }

    #[test]
    fn a_title_heading_is_dropped_from_the_statement() {
        assert_eq!(without_title("# T\n\nText\n", "T"), "Text\n");
        assert_eq!(without_title("Text\n", "T"), "Text\n");
        assert_eq!(without_title("# Other\nText\n", "T"), "# Other\nText\n");
    }
}
