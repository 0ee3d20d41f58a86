//! cargo-compete's test suites: `testcases/NAME.yml` in a cargo-compete package (`type: Batch`,
//! `timelimit`, `match`, `cases`, `extend`), or the `testcases/` folder for all of them. The
//! problem's URL is in the package's `Cargo.toml` (`[package.metadata.cargo-compete.bin]`).
//!
//! `match` becomes the judge's checker: `Exact` is `exact`, `SplitWhitespace` is `tokens`,
//! `Lines` is `lines`, `Float` is `float` with its tolerances (a missing one is zero, as there),
//! and `Checker { cmd }` becomes a checker program, `checker.sh`, that runs the command as
//! cargo-compete does: in the package's folder, with the paths in `INPUT`, `ACTUAL_OUTPUT`
//! and `EXPECTED_OUTPUT`, its exit status 0 accepting.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::companion::file_name;
use super::{
    has_extension, head, id, read_text, Draft, DraftCase, DraftChecker, DraftProgram, Format,
};
use crate::error::{Error, Result};
use judge_core::check::{CheckerMode, CompareOptions};
use judge_core::units::{parse_duration, UnitError};
use judge_core::workspace::{glob_match, natural_cmp, CheckerProtocol, FileIo};

/// A test-suite file, or a folder of them.
pub(super) struct TestSuite;

#[derive(Deserialize)]
#[serde(tag = "type")]
enum Suite {
    Batch(Batch),
    Interactive {},
    Unsubmittable,
}

#[derive(Deserialize)]
struct Batch {
    #[serde(default)]
    timelimit: Option<String>,
    #[serde(rename = "match")]
    matching: Match,
    #[serde(default)]
    cases: Vec<Case>,
    #[serde(default)]
    extend: Vec<Extend>,
}

#[derive(Deserialize, Clone, PartialEq)]
enum Match {
    Exact,
    SplitWhitespace,
    Lines,
    Float {
        #[serde(default)]
        relative_error: Option<f64>,
        #[serde(default)]
        absolute_error: Option<f64>,
    },
    Checker {
        cmd: String,
        #[serde(default)]
        shell: Option<String>,
    },
}

#[derive(Deserialize)]
struct Case {
    #[serde(default)]
    name: Option<String>,
    #[serde(rename = "in")]
    input: String,
    #[serde(default)]
    out: Option<String>,
    #[serde(default)]
    timelimit: Option<String>,
    #[serde(default, rename = "match")]
    matching: Option<Match>,
}

#[derive(Deserialize)]
#[serde(tag = "type")]
enum Extend {
    Text {
        path: String,
        #[serde(rename = "in")]
        input: String,
        out: String,
    },
    SystemTestCases {},
}

impl Format for TestSuite {
    fn name(&self) -> &'static str {
        "a cargo-compete test suite (testcases/NAME.yml, or the testcases folder)"
    }

    fn detect(&self, path: &Path) -> bool {
        if path.is_dir() {
            return !suite_files(path).is_empty();
        }
        is_suite(path)
    }

    fn read(&self, path: &Path) -> Result<Vec<Draft>> {
        if path.is_dir() {
            return suite_files(path).iter().map(|f| read_suite(f)).collect();
        }
        Ok(vec![read_suite(path)?])
    }
}

/// A YAML file that says what type of suite it is.
fn is_suite(path: &Path) -> bool {
    path.is_file()
        && has_extension(path, &["yml", "yaml"])
        && String::from_utf8_lossy(&head(path)).contains("type:")
}

/// The test-suite files of a folder, in natural order.
fn suite_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| is_suite(p))
                .collect()
        })
        .unwrap_or_default();
    files.sort_by(|a, b| natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
    files
}

fn read_suite(path: &Path) -> Result<Draft> {
    let bad = |message: String| Error::Import {
        path: path.display().to_string(),
        message,
        fix: "give the test suite as cargo-compete wrote it (`type: Batch`, `match`, `cases`)"
            .into(),
    };
    let batch = read_batch(path, &bad)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let package = package_of(dir, &stem);
    let mut notes = Vec::new();
    let time = match &batch.timelimit {
        Some(t) => Some(humantime(t).map_err(|m| bad(format!("timelimit: {m}")))?),
        None => None,
    };
    let mut cases = listed_cases(&batch, &bad, &mut notes)?;
    for extend in &batch.extend {
        match extend {
            Extend::Text {
                path: base,
                input,
                out,
            } => cases.extend(text_cases(dir, base, input, out, &batch.matching).map_err(bad)?),
            Extend::SystemTestCases {} => notes.push(
                "`extend: SystemTestCases` is in cargo-compete's own cache: not imported".into(),
            ),
        }
    }
    let folder = package.as_ref().map_or(dir, |p| p.dir.as_path());
    let checker = checker_of(&batch.matching, folder, path, &bad)?;
    let url = package.as_ref().and_then(|p| p.problem.clone());
    let title = package.map_or(stem, |p| p.bin);
    Ok(Draft {
        origin: format!("the cargo-compete test suite {}", file_name(path)),
        id: id::suggest(url.as_deref(), &title),
        title,
        url,
        contest: None,
        time,
        memory_bytes: None,
        checker,
        interactor: None,
        io: FileIo::default(),
        cases,
        interactions: Vec::new(),
        solutions: Vec::new(),
        notes,
    })
}

/// The suite at `path`, which must be a batch problem's.
fn read_batch(path: &Path, bad: &dyn Fn(String) -> Error) -> Result<Batch> {
    let text = read_text(path)?;
    let suite: Suite = crate::yaml::from_str(&text).map_err(|e| Error::Import {
        path: match e.line {
            Some(line) => format!("{}:{line}", path.display()),
            None => path.display().to_string(),
        },
        message: format!("not a cargo-compete test suite: {}", e.message),
        fix: "give the test suite as cargo-compete wrote it (`type: Batch`, `match`, `cases`)"
            .into(),
    })?;
    match suite {
        Suite::Batch(b) => Ok(b),
        Suite::Interactive {} => Err(bad(
            "an interactive problem: the judge has no interactor to run it with".into(),
        )),
        Suite::Unsubmittable => Err(bad(
            "cargo-compete marks this problem unsubmittable: there is nothing to judge".into(),
        )),
    }
}

/// The suite's own `cases`, all samples; a case's own `match` or timelimit, which the
/// judge cannot keep, said in `notes`.
fn listed_cases(
    batch: &Batch,
    bad: &dyn Fn(String) -> Error,
    notes: &mut Vec<String>,
) -> Result<Vec<DraftCase>> {
    let mut cases = Vec::new();
    for (i, case) in batch.cases.iter().enumerate() {
        let name = case.name.clone().unwrap_or_else(|| (i + 1).to_string());
        if case.matching.as_ref().is_some_and(|m| *m != batch.matching) {
            notes.push(format!(
                "case `{name}` has a `match` of its own: the problem's is used for every case"
            ));
        }
        if case.timelimit.is_some() {
            notes.push(format!(
                "case `{name}` has a timelimit of its own: the problem's is used for every case"
            ));
        }
        let answer = answer(case.out.clone(), &batch.matching)
            .ok_or_else(|| bad(format!("case `{name}` has no `out`: a test without output")))?;
        cases.push(DraftCase {
            name: Some(name),
            input: case.input.clone().into_bytes(),
            answer: answer.into_bytes(),
            sample: true,
        });
    }
    Ok(cases)
}

/// The checker `match` means; a checker command is run by Bash in `folder` (the package's,
/// when the suite is in one).
fn checker_of(
    matching: &Match,
    folder: &Path,
    path: &Path,
    bad: &dyn Fn(String) -> Error,
) -> Result<DraftChecker> {
    Ok(match matching {
        Match::Exact => builtin(CheckerMode::Exact, 0.0, 0.0),
        Match::SplitWhitespace => builtin(CheckerMode::Tokens, 0.0, 0.0),
        Match::Lines => builtin(CheckerMode::Lines, 0.0, 0.0),
        Match::Float {
            relative_error,
            absolute_error,
        } => builtin(
            CheckerMode::Float,
            absolute_error.unwrap_or(0.0),
            relative_error.unwrap_or(0.0),
        ),
        Match::Checker { cmd, shell } => {
            if let Some(shell) = shell.as_deref().filter(|s| *s != "Bash") {
                return Err(bad(format!(
                    "a checker for the shell `{shell}`: only Bash is known"
                )));
            }
            DraftChecker::Program {
                program: DraftProgram {
                    file: "checker.sh".into(),
                    source: checker_script(
                        cmd,
                        &folder.canonicalize().unwrap_or(folder.into()),
                        path,
                    ),
                    headers: Vec::new(),
                },
                protocol: CheckerProtocol::Testlib,
            }
        }
    })
}

fn builtin(mode: CheckerMode, absolute: f64, relative: f64) -> DraftChecker {
    let mut options = CompareOptions::default();
    if mode == CheckerMode::Float {
        options.float_absolute = absolute;
        options.float_relative = relative;
    }
    DraftChecker::Builtin { mode, options }
}

/// A case's answer: its `out`, or nothing with a checker that needs none.
fn answer(out: Option<String>, matching: &Match) -> Option<String> {
    match (out, matching) {
        (Some(o), _) => Some(o),
        (None, Match::Checker { .. }) => Some(String::new()),
        (None, _) => None,
    }
}

/// `2s`, `1500ms`, `1s 500ms` (humantime, as cargo-compete writes it).
fn humantime(text: &str) -> std::result::Result<Duration, UnitError> {
    text.split_whitespace()
        .map(parse_duration)
        .try_fold(Duration::ZERO, |sum, d| d.map(|d| sum + d))
        .and_then(|d| {
            (!d.is_zero())
                .then_some(d)
                .ok_or_else(|| UnitError::NotADuration(text.to_string()))
        })
}

/// `extend: - type: Text`: the files under `dir/base` whose paths match the globs `input` and
/// `out` (gitignore-like: a leading `/` anchors at `base`), paired by file stem.
fn text_cases(
    dir: &Path,
    base: &str,
    input: &str,
    out: &str,
    matching: &Match,
) -> std::result::Result<Vec<DraftCase>, String> {
    let root = dir.join(base.strip_prefix("./").unwrap_or(base));
    if !root.exists() {
        // cargo-compete writes this entry before `download --full` makes the folder.
        return Ok(Vec::new());
    }
    let mut found: BTreeMap<String, (Option<PathBuf>, Option<PathBuf>)> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&root).min_depth(1).max_depth(128) {
        let entry = entry.map_err(|e| format!("reading {}: {e}", root.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(&root).unwrap_or(entry.path());
        let relative = relative.to_string_lossy().replace('\\', "/");
        let stem = entry
            .path()
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        for (glob, is_input) in [(input, true), (out, false)] {
            if !path_glob(glob, &relative) {
                continue;
            }
            let slot = found.entry(stem.clone()).or_default();
            let slot = if is_input { &mut slot.0 } else { &mut slot.1 };
            if slot.replace(entry.path().to_path_buf()).is_some() {
                return Err(format!("two files for the case `{stem}` match `{glob}`"));
            }
        }
    }
    let mut names: Vec<&String> = found.keys().collect();
    names.sort_by(|a, b| natural_cmp(a, b));
    let mut cases = Vec::new();
    for name in names {
        let (input, out) = &found[name];
        let Some(input) = input else {
            return Err(format!("the case `{name}` has an output but no input"));
        };
        let read = |p: &Path| std::fs::read(p).map_err(|e| format!("reading {}: {e}", p.display()));
        let answer = match out {
            Some(o) => read(o)?,
            None => answer(None, matching)
                .ok_or(format!(
                    "the case `{name}` has no output: a test without output"
                ))?
                .into_bytes(),
        };
        cases.push(DraftCase {
            name: Some(name.clone()),
            input: read(input)?,
            answer,
            sample: false,
        });
    }
    Ok(cases)
}

/// Whether a `/`-separated relative path matches a glob: `*` and `?` stay within a part; a
/// glob with a `/` (a leading one aside) is anchored, one without matches the last parts.
fn path_glob(glob: &str, path: &str) -> bool {
    let anchored = glob.trim_start_matches('/').contains('/') || glob.starts_with('/');
    let glob: Vec<&str> = glob.trim_start_matches('/').split('/').collect();
    let parts: Vec<&str> = path.split('/').collect();
    let matches = |parts: &[&str]| {
        parts.len() == glob.len() && glob.iter().zip(parts).all(|(g, p)| glob_match(g, p))
    };
    if anchored {
        matches(&parts)
    } else {
        parts.len() >= glob.len() && matches(&parts[parts.len() - glob.len()..])
    }
}

/// What the package's Cargo.toml says of the binary whose test suite is `stem`.
struct Package {
    dir: PathBuf,
    bin: String,
    problem: Option<String>,
}

/// The cargo-compete package a test suite in `dir` belongs to: the Cargo.toml nearest above
/// with a `[package.metadata.cargo-compete.bin]` entry named, or aliased, `stem`.
fn package_of(dir: &Path, stem: &str) -> Option<Package> {
    let dir = dir.canonicalize().ok()?;
    for candidate in dir.ancestors().take(3) {
        let Ok(text) = std::fs::read_to_string(candidate.join("Cargo.toml")) else {
            continue;
        };
        let Ok(manifest) = text.parse::<toml::Table>() else {
            continue;
        };
        let bins = manifest
            .get("package")
            .and_then(|p| p.get("metadata"))
            .and_then(|m| m.get("cargo-compete"))
            .and_then(|c| c.get("bin"))
            .and_then(|b| b.as_table())?;
        for (key, entry) in bins {
            let alias = entry.get("alias").and_then(|a| a.as_str());
            let name = entry.get("name").and_then(|a| a.as_str());
            if key != stem && alias != Some(stem) && name != Some(stem) {
                continue;
            }
            let problem = match entry.get("problem") {
                Some(toml::Value::String(url)) => Some(url.clone()),
                Some(toml::Value::Table(t)) => {
                    t.get("url").and_then(|u| u.as_str()).map(str::to_string)
                }
                _ => None,
            };
            return Some(Package {
                dir: candidate.to_path_buf(),
                bin: name.filter(|n| !n.is_empty()).unwrap_or(key).to_string(),
                problem,
            });
        }
    }
    None
}

/// The checker program for `match: Checker { cmd }`.
fn checker_script(cmd: &str, folder: &Path, suite: &Path) -> String {
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    // The judge runs checkers with an empty environment; the command ran in the user's.
    let env: Vec<String> = ["PATH", "HOME", "CARGO_HOME", "RUSTUP_HOME"]
        .iter()
        .filter_map(|k| {
            std::env::var(k)
                .ok()
                .map(|v| format!("export {k}={}", quote(&v)))
        })
        .collect();
    format!(
        "#!/usr/bin/env bash\n\
         # The checker of the cargo-compete test suite {suite} (`match: Checker`), made by\n\
         # `judge import`. The judge runs it as `checker.sh INPUT OUTPUT ANSWER`; the command\n\
         # gets those paths as cargo-compete gives them, in INPUT, ACTUAL_OUTPUT and\n\
         # EXPECTED_OUTPUT, and runs where cargo-compete runs it. Exit 0 accepts, any other\n\
         # status rejects; a command that cannot be run (126, 127) is the checker's failure.\n\
         export INPUT=\"$1\" ACTUAL_OUTPUT=\"$2\" EXPECTED_OUTPUT=\"$3\"\n\
         {env}\n\
         cd {folder} || exit 3\n\
         bash -c {cmd}\n\
         case $? in\n\
         \x20 0) exit 0 ;;\n\
         \x20 126 | 127) exit 3 ;;\n\
         \x20 *) exit 1 ;;\n\
         esac\n",
        suite = file_name(suite),
        env = env.join("\n"),
        folder = quote(&folder.to_string_lossy()),
        cmd = quote(cmd),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_over_paths() {
        assert!(path_glob("/in/*.txt", "in/01.txt"));
        assert!(!path_glob("/in/*.txt", "x/in/01.txt"));
        assert!(path_glob("*.txt", "x/in/01.txt"));
        assert!(path_glob("in/*.txt", "in/01.txt"));
        assert!(!path_glob("/in/*.txt", "out/01.txt"));
    }

    #[test]
    fn durations_as_cargo_compete_writes_them() {
        assert_eq!(humantime("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(humantime("1s 500ms"), Ok(Duration::from_millis(1500)));
        assert!(humantime("soon").is_err());
    }

    #[test]
    fn the_suite_yaml() {
        let suite: Suite = crate::yaml::from_str(
            "---\ntype: Batch\ntimelimit: 2s\nmatch:\n  Float:\n    relative_error: 0.01\n    absolute_error: 0.01\n\ncases:\n  - name: sample1\n    in: |\n      1\n    out: |\n      6.28\n\nextend:\n  - type: Text\n    path: \"./a\"\n    in: /in/*.txt\n    out: /out/*.txt\n",
        )
        .unwrap();
        let Suite::Batch(b) = suite else {
            panic!("a batch")
        };
        assert!(matches!(b.matching, Match::Float { relative_error: Some(r), .. } if r == 0.01));
        assert_eq!(b.cases[0].input, "1\n");
        assert_eq!(b.extend.len(), 1);
        let checker: Suite = crate::yaml::from_str(
            "type: Batch\nmatch:\n  Checker:\n    cmd: cat \"$ACTUAL_OUTPUT\"\n    shell: Bash\ncases: []\n",
        )
        .unwrap();
        let Suite::Batch(b) = checker else {
            panic!("a batch")
        };
        assert!(matches!(b.matching, Match::Checker { .. }));
        let lines: Suite = crate::yaml::from_str("type: Batch\nmatch: Lines\n").unwrap();
        assert!(matches!(
            lines,
            Suite::Batch(Batch {
                matching: Match::Lines,
                ..
            })
        ));
        let interactive: Suite =
            crate::yaml::from_str("type: Interactive\ntimelimit: 2s\n").unwrap();
        assert!(matches!(interactive, Suite::Interactive {}));
    }
}
