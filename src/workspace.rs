//! The workspace on disk: finding its root, loading `problem.toml`, pairing test inputs with answers, listing solutions.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::check::{CheckerMode, CompareOptions};
use crate::error::{Error, Result};
use crate::verdict::Expectation;

/// Default output limit when `problem.toml` names none.
pub const DEFAULT_OUTPUT_LIMIT: u64 = 64 << 20;
/// A custom checker's CPU time limit per case when `problem.toml` names none.
pub const DEFAULT_CHECKER_TIME: Duration = Duration::from_secs(10);
/// A custom checker's memory limit when `problem.toml` names none.
pub const DEFAULT_CHECKER_MEMORY: u64 = 1 << 30;

/// A folder holding `problems/`, `testcases/` and `solutions/`.
#[derive(Debug, Clone)]
pub struct Workspace {
    pub root: PathBuf,
}

/// One problem, as `problems/ID/problem.toml` describes it.
#[derive(Debug, Clone)]
pub struct Problem {
    pub id: String,
    pub dir: PathBuf,
    pub title: String,
    pub limits: ProblemLimits,
    pub checker: CheckerMode,
    /// Settings of the built-in checker modes.
    pub compare: CompareOptions,
    /// The checker program, when `checker = "custom"`.
    pub checker_program: Option<CheckerProgram>,
    pub samples: Vec<String>,
    /// Expected verdict of each reference solution, by solution name.
    pub expected: BTreeMap<String, Expectation>,
    /// A program printing one random input for `SEED [SIZE]` (`generator = "gen.rs"`).
    pub generator: Option<PathBuf>,
}

/// A custom checker: a single Rust file in the problem's folder, compiled like a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckerProgram {
    pub source: PathBuf,
    /// CPU time per case.
    pub time: Duration,
    pub memory_bytes: u64,
}

impl Problem {
    /// The checker as `judge list` shows it: "tokens", "float (absolute 1e-6, relative 1e-6)".
    pub fn checker_summary(&self) -> String {
        let mut s = self.checker.to_string();
        match self.checker {
            CheckerMode::Float => s.push_str(&format!(
                " (absolute {:e}, relative {:e})",
                self.compare.float_absolute, self.compare.float_relative
            )),
            CheckerMode::Custom => {
                if let Some(p) = &self.checker_program {
                    let name = p.source.strip_prefix(&self.dir).unwrap_or(&p.source);
                    s.push_str(&format!(" ({})", name.display()));
                }
            }
            _ => {}
        }
        if self.compare.case_insensitive {
            s.push_str(", case-insensitive");
        }
        s
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProblemLimits {
    pub time: Duration,
    pub memory_bytes: u64,
    pub output_bytes: u64,
}

/// One test case: an input and its answer.
#[derive(Debug, Clone)]
pub struct TestCase {
    pub name: String,
    pub input: PathBuf,
    pub answer: PathBuf,
    pub sample: bool,
}

/// A solution source file.
#[derive(Debug, Clone)]
pub struct Solution {
    /// `bitmask`, or the file stem of an attempt outside `solutions/`.
    pub name: String,
    pub problem: String,
    pub path: PathBuf,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProblem {
    title: String,
    time_limit: toml::Spanned<String>,
    memory_limit: toml::Spanned<String>,
    output_limit: Option<toml::Spanned<String>>,
    checker: Option<toml::Spanned<CheckerMode>>,
    case_insensitive: Option<toml::Spanned<bool>>,
    float_absolute: Option<toml::Spanned<f64>>,
    float_relative: Option<toml::Spanned<f64>>,
    checker_program: Option<toml::Spanned<String>>,
    checker_time_limit: Option<toml::Spanned<String>>,
    checker_memory_limit: Option<toml::Spanned<String>>,
    #[serde(default)]
    samples: Vec<String>,
    #[serde(default)]
    expected: BTreeMap<String, toml::Spanned<String>>,
    generator: Option<toml::Spanned<String>>,
}

impl Workspace {
    /// The workspace given by `--root`, or the nearest folder holding `problems/` from `start` up.
    pub fn discover(start: &Path, root: Option<&Path>) -> Result<Workspace> {
        if let Some(root) = root {
            if !root.join("problems").is_dir() {
                return Err(Error::NotAWorkspace {
                    start: root.to_path_buf(),
                    explicit: true,
                });
            }
            return Ok(Workspace {
                root: root.to_path_buf(),
            });
        }
        let start = start.canonicalize().unwrap_or_else(|_| start.to_path_buf());
        for dir in start.ancestors() {
            if dir.join("problems").is_dir() {
                return Ok(Workspace {
                    root: dir.to_path_buf(),
                });
            }
        }
        Err(Error::NotAWorkspace {
            start,
            explicit: false,
        })
    }

    pub fn problems_dir(&self) -> PathBuf {
        self.root.join("problems")
    }

    /// `.judge/`: caches and history, never committed.
    pub fn state_dir(&self) -> PathBuf {
        self.root.join(".judge")
    }

    /// A path shown to the user: relative to the workspace root when inside it.
    pub fn show(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// Ids of every folder under `problems/`, sorted.
    pub fn problem_ids(&self) -> Result<Vec<String>> {
        let dir = self.problems_dir();
        let mut ids = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(|e| Error::io(&dir, e))? {
            let entry = entry.map_err(|e| Error::io(&dir, e))?;
            if entry.path().is_dir() {
                if let Some(name) = entry.file_name().to_str() {
                    if !name.starts_with('.') {
                        ids.push(name.to_string());
                    }
                }
            }
        }
        ids.sort_by(|a, b| natural_cmp(a, b));
        Ok(ids)
    }

    /// Loads and validates `problems/ID/problem.toml`.
    pub fn problem(&self, id: &str) -> Result<Problem> {
        let dir = self.problems_dir().join(id);
        if !dir.is_dir() {
            return Err(Error::UnknownProblem {
                id: id.to_string(),
                known: self.problem_ids().unwrap_or_default(),
            });
        }
        let path = dir.join("problem.toml");
        let shown = self.show(&path);
        let text = std::fs::read(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::Config {
                path: shown.clone(),
                line: None,
                message: "the problem has no problem.toml".into(),
                fix: "create it with at least `title`, `time_limit` and `memory_limit` (see the README, \"problem.toml\")".into(),
            },
            _ => Error::io(&path, e),
        })?;
        let text = String::from_utf8(text).map_err(|_| Error::Config {
            path: shown.clone(),
            line: None,
            message: "the file is not UTF-8 text".into(),
            fix: "save it as UTF-8".into(),
        })?;
        parse_problem(id, &dir, &shown, &text)
    }

    /// The test cases of a problem, in natural order, every input paired with its answer.
    pub fn testcases(&self, problem: &Problem) -> Result<Vec<TestCase>> {
        let dir = self.root.join("testcases").join(&problem.id);
        let shown_dir = self.show(&dir);
        if !dir.is_dir() {
            return Err(Error::TestData {
                path: shown_dir,
                message: "the folder of test cases is missing".into(),
                fix: "create it and add NAME.in / NAME.out pairs".to_string(),
            });
        }
        let mut inputs: BTreeMap<String, PathBuf> = BTreeMap::new();
        let mut answers: BTreeMap<String, PathBuf> = BTreeMap::new();
        for entry in walkdir::WalkDir::new(&dir).min_depth(1).max_depth(1) {
            let entry = entry.map_err(|e| Error::io(&dir, e.into()))?;
            let path = entry.path().to_path_buf();
            let name = entry.file_name().to_string_lossy().to_string();
            if name.starts_with('.') {
                continue;
            }
            let (stem, ext) = match name.rsplit_once('.') {
                Some((s, e)) if !s.is_empty() => (s.to_string(), e),
                _ => (String::new(), ""),
            };
            if entry.file_type().is_dir() || !matches!(ext, "in" | "out" | "ans") {
                return Err(Error::TestData {
                    path: self.show(&path),
                    message: "not a test file: test cases are NAME.in with NAME.out (or NAME.ans)"
                        .into(),
                    fix: "rename it, or move it out of the folder".into(),
                });
            }
            let slot = if ext == "in" {
                &mut inputs
            } else {
                &mut answers
            };
            if let Some(other) = slot.insert(stem.clone(), path.clone()) {
                return Err(Error::TestData {
                    path: self.show(&path),
                    message: format!(
                        "case `{stem}` has two answer files, this one and {}",
                        self.show(&other)
                    ),
                    fix: "keep one of NAME.out and NAME.ans".into(),
                });
            }
        }
        if let Some((stem, path)) = answers.iter().find(|(s, _)| !inputs.contains_key(*s)) {
            return Err(Error::TestData {
                path: self.show(path),
                message: format!("answer without an input: there is no {stem}.in"),
                fix: format!("add {stem}.in, or remove the answer"),
            });
        }
        let mut cases = Vec::new();
        for (stem, input) in inputs {
            let Some(answer) = answers.remove(&stem) else {
                return Err(Error::TestData {
                    path: self.show(&input),
                    message: "input without an answer".into(),
                    fix: format!("add {stem}.out (or {stem}.ans) with the expected output"),
                });
            };
            cases.push(TestCase {
                sample: problem.samples.contains(&stem),
                name: stem,
                input,
                answer,
            });
        }
        if cases.is_empty() {
            return Err(Error::TestData {
                path: shown_dir,
                message: "the problem has no test cases".into(),
                fix: "add NAME.in / NAME.out pairs".into(),
            });
        }
        if let Some(missing) = problem
            .samples
            .iter()
            .find(|s| !cases.iter().any(|c| &c.name == *s))
        {
            return Err(Error::Config {
                path: self.show(&problem.dir.join("problem.toml")),
                line: None,
                message: format!("sample `{missing}` is not a test case"),
                fix: format!(
                    "add {shown_dir}/{missing}.in and its answer, or remove it from `samples`"
                ),
            });
        }
        cases.sort_by(|a, b| natural_cmp(&a.name, &b.name));
        Ok(cases)
    }

    /// Like [`Workspace::testcases`], except that a problem without cases yet (its folder missing
    /// or empty, as `judge new-problem` leaves it) has none rather than being an error.
    pub fn testcases_if_any(&self, problem: &Problem) -> Result<Vec<TestCase>> {
        let dir = self.root.join("testcases").join(&problem.id);
        let empty = match std::fs::read_dir(&dir) {
            Err(_) => true,
            Ok(entries) => entries
                .filter_map(|e| e.ok())
                .all(|e| e.file_name().to_string_lossy().starts_with('.')),
        };
        if empty {
            Ok(Vec::new())
        } else {
            self.testcases(problem)
        }
    }

    /// Adds a test case (`NAME.in` and `NAME.out`) named to sort after the existing ones; see
    /// [`next_case_name`]. Returns the name.
    pub fn add_case(
        &self,
        problem: &Problem,
        seed: u64,
        input: &[u8],
        answer: &[u8],
    ) -> Result<String> {
        let dir = self.root.join("testcases").join(&problem.id);
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let mut existing = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(|e| Error::io(&dir, e))? {
            let name = entry.map_err(|e| Error::io(&dir, e))?.file_name();
            let name = name.to_string_lossy();
            if let Some((stem, "in" | "out" | "ans")) = name.rsplit_once('.') {
                if !stem.is_empty() && !stem.starts_with('.') {
                    existing.push(stem.to_string());
                }
            }
        }
        let name = next_case_name(&existing, seed);
        let (input_path, answer_path) = (
            dir.join(format!("{name}.in")),
            dir.join(format!("{name}.out")),
        );
        // The answer first: a run started meanwhile sees no input without its answer.
        std::fs::write(&answer_path, answer).map_err(|e| Error::io(&answer_path, e))?;
        std::fs::write(&input_path, input).map_err(|e| Error::io(&input_path, e))?;
        Ok(name)
    }

    /// The reference solutions of a problem (`solutions/ID/*.rs`), sorted by name.
    pub fn solutions(&self, problem: &str) -> Result<Vec<Solution>> {
        let dir = self.root.join("solutions").join(problem);
        let mut out = Vec::new();
        if !dir.is_dir() {
            return Ok(out);
        }
        for entry in std::fs::read_dir(&dir).map_err(|e| Error::io(&dir, e))? {
            let path = entry.map_err(|e| Error::io(&dir, e))?.path();
            if path.extension().is_some_and(|e| e == "rs") && path.is_file() {
                if let Some(name) = path.file_stem().and_then(|s| s.to_str()) {
                    out.push(Solution {
                        name: name.to_string(),
                        problem: problem.to_string(),
                        path: path.clone(),
                    });
                }
            }
        }
        out.sort_by(|a, b| natural_cmp(&a.name, &b.name));
        Ok(out)
    }

    /// Every solution of every problem.
    pub fn all_solutions(&self) -> Result<Vec<Solution>> {
        let mut out = Vec::new();
        for id in self.problem_ids()? {
            out.extend(self.solutions(&id)?);
        }
        Ok(out)
    }

    /// Resolves what the user typed: `bitmask`, `nqueens-ii/bitmask`, or a path to a `.rs` file.
    pub fn resolve_solution(
        &self,
        spec: &str,
        problem: Option<&str>,
        cwd: &Path,
    ) -> Result<Solution> {
        let as_path = cwd.join(spec);
        let looks_like_path =
            spec.ends_with(".rs") || spec.contains(std::path::MAIN_SEPARATOR) && as_path.exists();
        if looks_like_path {
            return self.solution_from_path(&as_path, spec, problem);
        }
        let (wanted_problem, name) = match spec.split_once('/') {
            Some((p, n)) => (Some(p), n),
            None => (problem, spec),
        };
        if let Some(p) = wanted_problem {
            self.problem_exists(p)?;
        }
        let all = self.all_solutions()?;
        let matches: Vec<&Solution> = all
            .iter()
            .filter(|s| s.name == name && wanted_problem.is_none_or(|p| s.problem == p))
            .collect();
        match matches.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(Error::UnknownSolution {
                spec: spec.to_string(),
                known: all
                    .iter()
                    .filter(|s| wanted_problem.is_none_or(|p| s.problem == p))
                    .map(|s| format!("{}/{}", s.problem, s.name))
                    .collect(),
            }),
            many => Err(Error::AmbiguousSolution {
                spec: spec.to_string(),
                candidates: many
                    .iter()
                    .map(|s| format!("{}/{}", s.problem, s.name))
                    .collect(),
            }),
        }
    }

    fn problem_exists(&self, id: &str) -> Result<()> {
        if self.problems_dir().join(id).is_dir() {
            Ok(())
        } else {
            Err(Error::UnknownProblem {
                id: id.to_string(),
                known: self.problem_ids().unwrap_or_default(),
            })
        }
    }

    fn solution_from_path(
        &self,
        path: &Path,
        spec: &str,
        problem: Option<&str>,
    ) -> Result<Solution> {
        let meta = std::fs::metadata(path).map_err(|e| Error::BadSolutionPath {
            path: spec.to_string(),
            message: e.to_string(),
        })?;
        if meta.is_dir() {
            return Err(Error::BadSolutionPath {
                path: spec.to_string(),
                message: "it is a folder; name a single .rs file".into(),
            });
        }
        if path.extension().is_none_or(|e| e != "rs") {
            return Err(Error::BadSolutionPath {
                path: spec.to_string(),
                message: "only Rust solutions (.rs files) can be judged".into(),
            });
        }
        let path = path.canonicalize().map_err(|e| Error::io(path, e))?;
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("attempt")
            .to_string();
        // solutions/P/NAME.rs tells its problem.
        let told = path
            .parent()
            .filter(|d| {
                d.parent()
                    .is_some_and(|s| s.file_name().is_some_and(|n| n == "solutions"))
            })
            .and_then(|d| d.file_name())
            .and_then(|n| n.to_str())
            .filter(|p| self.problems_dir().join(p).is_dir())
            .map(str::to_string);
        let problem = match (problem, told) {
            (Some(p), _) => {
                self.problem_exists(p)?;
                p.to_string()
            }
            (None, Some(p)) => p,
            (None, None) => {
                let ids = self.problem_ids()?;
                match ids.as_slice() {
                    [only] => only.clone(),
                    _ => {
                        return Err(Error::ProblemNeeded {
                            path: spec.to_string(),
                            known: ids,
                        })
                    }
                }
            }
        };
        Ok(Solution {
            name,
            problem,
            path,
        })
    }
}

fn parse_problem(id: &str, dir: &Path, shown: &str, text: &str) -> Result<Problem> {
    let raw: RawProblem = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        let message = e.message().trim().to_string();
        Error::Config {
            path: shown.to_string(),
            line,
            fix: fix_for(&message),
            message,
        }
    })?;
    let bad = |span: std::ops::Range<usize>, message: String, fix: &str| Error::Config {
        path: shown.to_string(),
        line: Some(line_of(text, span.start)),
        message,
        fix: fix.to_string(),
    };
    let time = parse_duration(raw.time_limit.get_ref()).map_err(|m| {
        bad(
            raw.time_limit.span(),
            format!("time_limit: {m}"),
            "write a positive duration such as \"1s\" or \"500ms\"",
        )
    })?;
    let memory = parse_size(raw.memory_limit.get_ref()).map_err(|m| {
        bad(
            raw.memory_limit.span(),
            format!("memory_limit: {m}"),
            "write a positive size such as \"256MiB\" or \"1GiB\"",
        )
    })?;
    let output = match &raw.output_limit {
        Some(s) => parse_size(s.get_ref()).map_err(|m| {
            bad(
                s.span(),
                format!("output_limit: {m}"),
                "write a positive size such as \"64MiB\"",
            )
        })?,
        None => DEFAULT_OUTPUT_LIMIT,
    };
    let mut expected = BTreeMap::new();
    for (name, value) in &raw.expected {
        let e = value.get_ref().parse::<Expectation>().map_err(|m| {
            bad(
                value.span(),
                format!("expected verdict of `{name}`: {m}"),
                "write a verdict such as \"AC\", \"TLE\" or \"TLE or AC\"",
            )
        })?;
        expected.insert(name.clone(), e);
    }
    let (checker, compare, checker_program) = parse_checker(&raw, dir, shown, text)?;
    let generator = match &raw.generator {
        Some(g) => {
            let name = g.get_ref();
            let path = dir.join(name);
            let inside = Path::new(name)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            if !inside || !name.ends_with(".rs") {
                return Err(bad(
                    g.span(),
                    format!("generator: `{name}` is not a .rs file in the problem's folder"),
                    "name a Rust file next to problem.toml, such as \"gen.rs\"",
                ));
            }
            if !path.is_file() {
                return Err(bad(
                    g.span(),
                    format!("generator: there is no file {name} in the problem's folder"),
                    "create it (it prints one input for the seed given as its first argument), or remove the key",
                ));
            }
            Some(path)
        }
        None => None,
    };
    Ok(Problem {
        id: id.to_string(),
        dir: dir.to_path_buf(),
        title: raw.title,
        limits: ProblemLimits {
            time,
            memory_bytes: memory,
            output_bytes: output,
        },
        checker,
        compare,
        checker_program,
        samples: raw.samples,
        expected,
        generator,
    })
}

/// The checker keys: the mode, its options, and which options go with which mode.
fn parse_checker(
    raw: &RawProblem,
    dir: &Path,
    shown: &str,
    text: &str,
) -> Result<(CheckerMode, CompareOptions, Option<CheckerProgram>)> {
    let bad = |span: std::ops::Range<usize>, message: String, fix: String| Error::Config {
        path: shown.to_string(),
        line: Some(line_of(text, span.start)),
        message,
        fix,
    };
    let mode = raw
        .checker
        .as_ref()
        .map_or(CheckerMode::default(), |c| *c.get_ref());
    let needs = |key: &str, span: std::ops::Range<usize>, modes: &[CheckerMode]| {
        if modes.contains(&mode) {
            return Ok(());
        }
        let names: Vec<String> = modes.iter().map(|m| format!("\"{m}\"")).collect();
        Err(bad(
            span,
            format!(
                "`{key}` applies only to checker = {}, and this problem's checker is \"{mode}\"",
                names.join(" or ")
            ),
            format!("set `checker = \"{}\"`, or remove `{key}`", modes[0]),
        ))
    };
    let mut compare = CompareOptions::default();
    if let Some(ci) = &raw.case_insensitive {
        needs(
            "case_insensitive",
            ci.span(),
            &[CheckerMode::Tokens, CheckerMode::Lines, CheckerMode::Float],
        )?;
        compare.case_insensitive = *ci.get_ref();
    }
    for (key, value, slot) in [
        (
            "float_absolute",
            &raw.float_absolute,
            &mut compare.float_absolute,
        ),
        (
            "float_relative",
            &raw.float_relative,
            &mut compare.float_relative,
        ),
    ] {
        let Some(value) = value else { continue };
        needs(key, value.span(), &[CheckerMode::Float])?;
        let v = *value.get_ref();
        if !(v.is_finite() && v >= 0.0) {
            return Err(bad(
                value.span(),
                format!("{key}: `{v}` is not a tolerance (it must be zero or more)"),
                format!("write a tolerance such as `{key} = 1e-6`"),
            ));
        }
        *slot = v;
    }
    for (key, value) in [
        ("checker_program", &raw.checker_program),
        ("checker_time_limit", &raw.checker_time_limit),
        ("checker_memory_limit", &raw.checker_memory_limit),
    ] {
        if let Some(value) = value {
            needs(key, value.span(), &[CheckerMode::Custom])?;
        }
    }
    if mode != CheckerMode::Custom {
        return Ok((mode, compare, None));
    }
    let shown_dir = Path::new(shown)
        .parent()
        .map_or(String::new(), |d| d.display().to_string());
    let Some(program) = &raw.checker_program else {
        let span = raw.checker.as_ref().map_or(0..0, |c| c.span());
        return Err(bad(
            span,
            "checker = \"custom\" needs the checker's source".into(),
            format!("add `checker_program = \"checker.rs\"`, naming a Rust file in {shown_dir}/"),
        ));
    };
    let name = program.get_ref();
    let source = dir.join(name);
    if !name.ends_with(".rs") {
        return Err(bad(
            program.span(),
            format!("checker_program: `{name}` is not a Rust file"),
            "name a single .rs file (checkers are compiled like solutions)".into(),
        ));
    }
    if !source.is_file() {
        return Err(bad(
            program.span(),
            format!("checker_program: there is no `{name}` in {shown_dir}/"),
            format!("create {shown_dir}/{name}, or correct the name"),
        ));
    }
    let time = match &raw.checker_time_limit {
        Some(t) => parse_duration(t.get_ref()).map_err(|m| {
            bad(
                t.span(),
                format!("checker_time_limit: {m}"),
                "write a positive duration such as \"10s\"".into(),
            )
        })?,
        None => DEFAULT_CHECKER_TIME,
    };
    let memory_bytes = match &raw.checker_memory_limit {
        Some(m) => parse_size(m.get_ref()).map_err(|e| {
            bad(
                m.span(),
                format!("checker_memory_limit: {e}"),
                "write a positive size such as \"1GiB\"".into(),
            )
        })?,
        None => DEFAULT_CHECKER_MEMORY,
    };
    Ok((
        mode,
        compare,
        Some(CheckerProgram {
            source,
            time,
            memory_bytes,
        }),
    ))
}

/// A fix for the toml crate's own messages (syntax, unknown keys, types).
fn fix_for(message: &str) -> String {
    if message.starts_with("missing field") {
        let field = message.split('`').nth(1).unwrap_or("");
        let example = match field {
            "title" => "title = \"N-Queens II\"",
            "time_limit" => "time_limit = \"1s\"",
            "memory_limit" => "memory_limit = \"256MiB\"",
            _ => "",
        };
        if !example.is_empty() {
            return format!("add a line `{example}`");
        }
    }
    if message.starts_with("unknown field") {
        return "remove or correct the key; the README's \"problem.toml\" section lists every key"
            .into();
    }
    if message.starts_with("unknown variant") {
        return "use one of the values listed above".into();
    }
    "correct the file; the README's \"problem.toml\" section shows a complete example".into()
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// "1s", "1.5s", "500ms", or a bare number of milliseconds.
pub fn parse_duration(s: &str) -> std::result::Result<Duration, String> {
    let t = s.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1000.0)
    } else {
        (t, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a duration"))?;
    let ms = value * scale;
    if !ms.is_finite() || ms <= 0.0 {
        return Err(format!("`{s}` must be more than zero"));
    }
    if ms > 3_600_000.0 {
        return Err(format!("`{s}` is more than an hour"));
    }
    Ok(Duration::from_micros((ms * 1000.0).round() as u64))
}

/// "256MiB", "1 GiB", "64MB" (MB and GB are taken as MiB and GiB, as judges mean them), or a bare number of MiB.
pub fn parse_size(s: &str) -> std::result::Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number.parse().map_err(|_| format!("`{s}` is not a size"))?;
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "mib" | "mb" | "m" => 1u64 << 20,
        "kib" | "kb" | "k" => 1 << 10,
        "gib" | "gb" | "g" => 1 << 30,
        "b" => 1,
        other => {
            return Err(format!(
                "unknown unit `{other}` in `{s}` (use KiB, MiB or GiB)"
            ))
        }
    };
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 {
        return Err(format!("`{s}` must be more than zero"));
    }
    if bytes > (1u64 << 40) as f64 {
        return Err(format!("`{s}` is more than 1 TiB"));
    }
    Ok(bytes as u64)
}

/// The cases picked by `--case PATTERN` (repeatable; `*` and `?` match any run of characters and
/// any one character) and `--samples`; all of them when neither is given. A pattern that matches
/// no case is an error naming the cases.
pub fn select_cases(
    problem: &Problem,
    cases: Vec<TestCase>,
    patterns: &[String],
    samples: bool,
) -> Result<Vec<TestCase>> {
    if patterns.is_empty() && !samples {
        return Ok(cases);
    }
    if let Some(p) = patterns
        .iter()
        .find(|p| !cases.iter().any(|c| glob_match(p, &c.name)))
    {
        return Err(Error::UnknownCase {
            problem: problem.id.clone(),
            pattern: p.clone(),
            known: cases.iter().map(|c| c.name.clone()).collect(),
        });
    }
    if samples && !cases.iter().any(|c| c.sample) {
        return Err(Error::NoSamples {
            problem: problem.id.clone(),
        });
    }
    Ok(cases
        .into_iter()
        .filter(|c| (samples && c.sample) || patterns.iter().any(|p| glob_match(p, &c.name)))
        .collect())
}

/// `*` matches any run of characters, `?` any one character; everything else matches itself.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    // Where the last `*` was, and how much of the text it has swallowed so far.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A new case's name that sorts after every name in `existing` (in natural order): the next
/// number, as wide as the widest zero-padded one, when every name is a number; otherwise
/// `stress-SEED`, made longer if needed so that it still sorts last and is new.
pub fn next_case_name(existing: &[String], seed: u64) -> String {
    let numbers: Option<Vec<(u128, usize)>> = existing
        .iter()
        .map(|n| {
            let padded = n.len() > 1 && n.starts_with('0');
            n.parse::<u128>()
                .ok()
                .filter(|_| n.bytes().all(|b| b.is_ascii_digit()))
                .map(|v| (v, if padded { n.len() } else { 0 }))
        })
        .collect();
    if let Some(numbers) = numbers {
        let next = numbers.iter().map(|(v, _)| v + 1).max().unwrap_or(1);
        let width = numbers.iter().map(|(_, w)| *w).max().unwrap_or(0);
        return format!("{next:0width$}");
    }
    let last = existing
        .iter()
        .max_by(|a, b| natural_cmp(a, b))
        .cloned()
        .unwrap_or_default();
    let mut name = format!("stress-{seed}");
    if natural_cmp(&name, &last) != std::cmp::Ordering::Greater {
        name = format!("{last}-stress-{seed}");
    }
    while existing.contains(&name) {
        name.push('b');
    }
    name
}

/// Orders "2" before "10" and "case-9" before "case-10".
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (ca, cb) = (chunks(a), chunks(b));
    for ((da, sa), (db, sb)) in ca.iter().zip(cb.iter()) {
        let ord = if *da && *db {
            let (ta, tb) = (sa.trim_start_matches('0'), sb.trim_start_matches('0'));
            ta.len()
                .cmp(&tb.len())
                .then(ta.cmp(tb))
                .then(sa.len().cmp(&sb.len()))
        } else {
            sa.cmp(sb)
        };
        if ord != std::cmp::Ordering::Equal {
            return ord;
        }
    }
    ca.len().cmp(&cb.len())
}

impl fmt::Display for ProblemLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "time {} · memory {} · output {}",
            crate::report::format_duration(self.time),
            crate::report::format_bytes(self.memory_bytes),
            crate::report::format_bytes(self.output_bytes)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_sizes() {
        assert_eq!(parse_duration("1s").unwrap(), Duration::from_secs(1));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("250").unwrap(), Duration::from_millis(250));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("fast").is_err());
        assert_eq!(parse_size("256MiB").unwrap(), 256 << 20);
        assert_eq!(parse_size("256 MB").unwrap(), 256 << 20);
        assert_eq!(parse_size("1GiB").unwrap(), 1 << 30);
        assert_eq!(parse_size("64").unwrap(), 64 << 20);
        assert!(parse_size("0MiB").is_err());
        assert!(parse_size("12 parsecs").is_err());
    }

    #[test]
    fn new_case_names_sort_last() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(next_case_name(&names(&["01", "02", "14"]), 7), "15");
        assert_eq!(next_case_name(&names(&["1", "2", "10"]), 7), "11");
        assert_eq!(next_case_name(&names(&["001", "099"]), 7), "100");
        assert_eq!(next_case_name(&names(&[]), 7), "1");
        assert_eq!(next_case_name(&names(&["a", "b"]), 7), "stress-7");
        assert_eq!(
            next_case_name(&names(&["sample", "stress-3"]), 12),
            "stress-12"
        );
        for existing in [
            names(&["sample", "zeta"]),
            names(&["stress-30", "a"]),
            names(&["x9", "07"]),
            names(&["stress-7"]),
        ] {
            let new = next_case_name(&existing, 7);
            assert!(!existing.contains(&new), "{new}");
            for e in &existing {
                assert_eq!(
                    natural_cmp(&new, e),
                    std::cmp::Ordering::Greater,
                    "{new} vs {e}"
                );
            }
        }
    }

    #[test]
    fn globs() {
        assert!(glob_match("1?", "12"));
        assert!(!glob_match("1?", "1"));
        assert!(glob_match("*", ""));
        assert!(glob_match("0*", "04"));
        assert!(glob_match("a*b*c", "aXXbYbc"));
        assert!(!glob_match("a*b*c", "aXXbYb"));
        assert!(glob_match("stress-*", "stress-17"));
        assert!(!glob_match("04", "004"));
    }

    #[test]
    fn natural_order() {
        let mut v = vec!["10", "2", "01", "b10", "b9", "a"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, ["01", "2", "10", "a", "b9", "b10"]);
    }

    fn parse(text: &str) -> Result<Problem> {
        parse_problem(
            "p",
            Path::new("problems/p"),
            "problems/p/problem.toml",
            text,
        )
    }

    #[test]
    fn problem_toml_errors_name_the_line_and_the_fix() {
        let ok = "title = \"T\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n";
        let p = parse(ok).unwrap();
        assert_eq!(p.limits.output_bytes, DEFAULT_OUTPUT_LIMIT);
        assert_eq!(p.checker, CheckerMode::Tokens);

        let err =
            parse("title = \"T\"\ntime_limit = \"0s\"\nmemory_limit = \"256MiB\"\n").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("problem.toml:2"), "{text}");
        assert!(text.contains("more than zero"), "{text}");

        let err = parse("title = \"T\"\ntime_limt = \"1s\"\nmemory_limit = \"1MiB\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains(":2") && err.contains("unknown field"), "{err}");

        let err = parse("title = \"T\"\nmemory_limit = \"1MiB\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("time_limit = \\\"1s\\\"") || err.contains("time_limit = \"1s\""),
            "{err}"
        );

        let err = parse("title = 3\ntime_limit = \"1s\"\nmemory_limit = \"1MiB\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains(":1"), "{err}");

        let err = parse(&format!("{ok}checker = \"fuzzy\"\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(":4") && err.contains("fuzzy"), "{err}");

        let err = parse(&format!("{ok}generator = \"../gen.rs\"\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(":4") && err.contains("generator"), "{err}");

        let err = parse(&format!("{ok}[expected]\nfast = \"ACE\"\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(":5") && err.contains("fast"), "{err}");
    }

    #[test]
    fn checker_keys_and_their_combinations() {
        let ok = "title = \"T\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n";
        let p = parse(&format!(
            "{ok}checker = \"lines\"\ncase_insensitive = true\n"
        ))
        .unwrap();
        assert_eq!(p.checker, CheckerMode::Lines);
        assert!(p.compare.case_insensitive);
        assert_eq!(p.checker_summary(), "lines, case-insensitive");
        let p = parse(&format!(
            "{ok}checker = \"float\"\nfloat_absolute = 1e-9\nfloat_relative = 0\n"
        ))
        .unwrap();
        assert_eq!(p.compare.float_absolute, 1e-9);
        assert_eq!(p.compare.float_relative, 0.0);
        assert_eq!(p.checker_summary(), "float (absolute 1e-9, relative 0e0)");
        let p = parse(&format!("{ok}checker = \"float\"\n")).unwrap();
        assert_eq!(p.compare, CompareOptions::default());

        let err = |extra: &str| parse(&format!("{ok}{extra}")).unwrap_err().to_string();
        let e = err("float_absolute = 1e-6\n");
        assert!(e.contains("problem.toml:4"), "{e}");
        assert!(
            e.contains("`float_absolute` applies only to checker = \"float\""),
            "{e}"
        );
        assert!(e.contains("set `checker = \"float\"`"), "{e}");
        let e = err("checker = \"float\"\nfloat_relative = -1e-6\n");
        assert!(e.contains(":5") && e.contains("zero or more"), "{e}");
        let e = err("checker = \"float\"\nfloat_absolute = nan\n");
        assert!(e.contains(":5") && e.contains("not a tolerance"), "{e}");
        let e = err("checker = \"exact\"\ncase_insensitive = true\n");
        assert!(e.contains(":5") && e.contains("case_insensitive"), "{e}");
        let e = err("checker_program = \"checker.rs\"\n");
        assert!(
            e.contains(":4") && e.contains("set `checker = \"custom\"`"),
            "{e}"
        );
        let e = err("checker = \"tokens\"\nchecker_time_limit = \"1s\"\n");
        assert!(e.contains(":5") && e.contains("checker_time_limit"), "{e}");
        let e = err("checker = \"custom\"\n");
        assert!(e.contains(":4"), "{e}");
        assert!(e.contains("add `checker_program = \"checker.rs\"`"), "{e}");
        let e = err("checker = \"custom\"\nchecker_program = \"nowhere.rs\"\n");
        assert!(
            e.contains(":5") && e.contains("there is no `nowhere.rs` in problems/p/"),
            "{e}"
        );
        let e = err("checker = \"custom\"\nchecker_program = \"checker.py\"\n");
        assert!(e.contains(":5") && e.contains("not a Rust file"), "{e}");
        let e = err("case_insensitive = \"yes\"\n");
        assert!(e.contains(":4"), "{e}");
    }

    #[test]
    fn a_custom_checker_is_found_in_the_problem_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("check.rs"), "fn main() {}\n").unwrap();
        let text = "title = \"T\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\nchecker = \"custom\"\nchecker_program = \"check.rs\"\nchecker_time_limit = \"2s\"\n";
        let p = parse_problem("p", dir.path(), "problems/p/problem.toml", text).unwrap();
        let c = p.checker_program.clone().unwrap();
        assert_eq!(c.source, dir.path().join("check.rs"));
        assert_eq!(c.time, Duration::from_secs(2));
        assert_eq!(c.memory_bytes, DEFAULT_CHECKER_MEMORY);
        assert_eq!(p.checker_summary(), "custom (check.rs)");
        let e = parse_problem(
            "p",
            dir.path(),
            "problems/p/problem.toml",
            &text.replace("\"2s\"", "\"0s\""),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains(":6") && e.contains("checker_time_limit"), "{e}");
    }
}
