//! The one writer of imports: a [`Draft`] becomes `problems/ID/` and `testcases/ID/`, or is
//! merged into the problem already there without losing anything of it.
//!
//! A new problem is made in a hidden folder of `problems/` and renamed into place, so it is
//! never seen half-made. An existing one is never overwritten: new tests are added under new
//! names, identical ones are recognised, a test whose input is there with another answer is
//! left out and reported, and a limit (checker, input or output file) that differs is kept and
//! reported unless `--force`. Nothing an import does removes or rewrites a user's file but
//! problem.toml, which is edited in place (comments and order kept) and replaced atomically.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::cases::{plan_cases, CasePlan};
use super::newfiles::{
    checker_text, draft_checker_text, problem_toml, statement, toml_duration, toml_size,
};
use super::{Draft, DraftChecker, Options, DEFAULT_MEMORY, DEFAULT_TIME};
use crate::check::CheckerMode;
use crate::error::{Error, Result};
use crate::run::interrupt;
use crate::scaffold;
use crate::workspace::{Checker, FileIo, Problem, Workspace};

/// The name of the attempt `--new` starts.
pub const ATTEMPT: &str = "main";

/// What an import did to one problem.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub id: String,
    pub origin: String,
    /// A new problem (otherwise an existing one was merged into).
    pub created: bool,
    /// Tests written, by name, and whether each is a sample.
    pub added: Vec<(String, bool)>,
    /// Tests of the import that were there already, identical (by their names there).
    pub already: Vec<String>,
    /// Tests left out: their input is an existing case's (named), with another answer.
    pub conflicting: Vec<String>,
    /// The problem's limits after the import.
    pub time: Duration,
    pub memory_bytes: u64,
    pub io: FileIo,
    /// Differences from the existing problem that were kept (without `--force`).
    pub kept: Vec<LimitConflict>,
    /// Differences that `--force` replaced.
    pub replaced: Vec<LimitConflict>,
    /// Samples in the import.
    pub samples: usize,
    pub notes: Vec<String>,
    /// The attempt `solutions/ID/main.*`, when there is one now, and whether this made it.
    pub attempt: Option<(PathBuf, bool)>,
}

/// A setting of the problem that differs between the workspace and the import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitConflict {
    /// "time limit", "memory limit", "checker", "input file", "output file".
    pub what: &'static str,
    pub problem: String,
    pub import: String,
    /// Whether `--force` replaces it (a program is the user's own file: never).
    pub replaceable: bool,
}

/// Writes `draft` into the workspace (see the module's comment); `options.name` overrides its
/// id, `options.force` replaces differing settings, `options.new_attempt` starts an attempt.
pub fn write(ws: &Workspace, draft: &Draft, options: &Options) -> Result<Imported> {
    let language = match &options.new_attempt {
        Some(l) => {
            let language = scaffold::attempt_language(ws, l.as_deref())?;
            if !scaffold::has_template(&language) {
                return Err(Error::NoTemplate {
                    language: language.name.clone(),
                });
            }
            Some(language.id.clone())
        }
        None => None,
    };
    let (id, existing) = target(ws, draft, options)?;
    let mut imported = interrupt::uninterruptible(|| match &existing {
        Some(problem) => merge(ws, draft, problem, options.force),
        None => create(ws, draft, &id),
    })?;
    let attempt = ws
        .solutions(&imported.id)?
        .into_iter()
        .find(|s| s.name == ATTEMPT);
    imported.attempt = match (attempt, language) {
        (Some(s), _) => Some((s.path, false)),
        (None, Some(l)) => Some((
            scaffold::new_solution(ws, &imported.id, ATTEMPT, Some(&l), None)?,
            true,
        )),
        (None, None) => None,
    };
    Ok(imported)
}

/// The id to write to, and the problem there when there is one. A problem there from another
/// URL is another problem: the import goes to `ID-2` (or the next free one, or the one from
/// the same URL) unless `--name` chose the id.
fn target(ws: &Workspace, draft: &Draft, options: &Options) -> Result<(String, Option<Problem>)> {
    let base = options.name.clone().unwrap_or_else(|| draft.id.clone());
    scaffold::check_name(&base, "problem")?;
    for n in 1.. {
        let id = if n == 1 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        let dir = ws.problems_dir().join(&id);
        if !dir.exists() {
            return Ok((id, None));
        }
        if !dir.join("problem.toml").is_file() {
            return Err(Error::Import {
                path: ws.show(&dir),
                message: "the folder is there without a problem.toml: it is left as it is".into(),
                fix: "finish or remove that problem, or import under another id with --name".into(),
            });
        }
        let problem = ws.problem(&id)?;
        let other = matches!((&problem.url, &draft.url), (Some(a), Some(b)) if a != b);
        if !other || options.name.is_some() {
            return Ok((id, Some(problem)));
        }
    }
    unreachable!("some id is free")
}

/// A new problem: made in a hidden folder of problems/, then renamed into place.
fn create(ws: &Workspace, draft: &Draft, id: &str) -> Result<Imported> {
    let problems = ws.problems_dir();
    let staging = tempfile::Builder::new()
        .prefix(".import-")
        .tempdir_in(&problems)
        .map_err(|e| Error::io(&problems, e))?;
    let (problem_dir, tests_dir) = (staging.path().join("problem"), staging.path().join("tests"));
    let final_tests = ws.root.join("testcases").join(id);
    // An orphan folder of tests is kept and added to, like an existing problem's.
    let plan = plan_cases(
        if final_tests.is_dir() {
            &final_tests
        } else {
            &tests_dir
        },
        draft,
    )?;
    let samples: Vec<String> = plan.sample_names().into_iter().collect();
    let (time, memory_bytes) = (
        draft.time.unwrap_or(DEFAULT_TIME),
        draft.memory_bytes.unwrap_or(DEFAULT_MEMORY),
    );
    let text = problem_toml(draft, time, memory_bytes, &samples);
    if let DraftChecker::Program {
        file,
        source,
        headers,
        ..
    } = &draft.checker
    {
        scaffold::create(&problem_dir.join(file), source.as_bytes())?;
        for (name, bytes) in headers {
            scaffold::create(&problem_dir.join(name), bytes)?;
        }
    }
    scaffold::create(
        &problem_dir.join("statement.md"),
        statement(draft).as_bytes(),
    )?;
    ws.problem_from_text(id, &problem_dir, &text)?;
    scaffold::create(&problem_dir.join("problem.toml"), text.as_bytes())?;
    if final_tests.is_dir() {
        plan.write(&final_tests)?;
    } else {
        plan.write(&tests_dir)?;
        if plan.writes.is_empty() {
            // Git keeps no empty folder; the judge skips hidden files.
            scaffold::create(&tests_dir.join(".gitkeep"), b"")?;
        }
        let parent = ws.root.join("testcases");
        std::fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
        std::fs::rename(&tests_dir, &final_tests).map_err(|e| Error::io(&final_tests, e))?;
    }
    let mut notes = draft.notes.clone();
    write_solutions(ws, draft, id, &mut notes)?;
    let dir = problems.join(id);
    std::fs::rename(&problem_dir, &dir).map_err(|e| Error::io(&dir, e))?;
    let assumed = match (draft.time, draft.memory_bytes) {
        (None, None) => Some(format!(
            "no limits: time {} and memory {}",
            toml_duration(time),
            toml_size(memory_bytes)
        )),
        (None, Some(_)) => Some(format!("no time limit: {}", toml_duration(time))),
        (Some(_), None) => Some(format!("no memory limit: {}", toml_size(memory_bytes))),
        (Some(_), Some(_)) => None,
    };
    if let Some(assumed) = assumed {
        notes.push(format!(
            "{} gives {assumed} assumed (see problems/{id}/problem.toml)",
            draft.origin
        ));
    }
    Ok(imported(
        &plan,
        id,
        draft,
        (time, memory_bytes),
        draft.io.clone(),
        notes,
        true,
    ))
}

/// An existing problem: new tests added, differences kept or (`force`) replaced.
fn merge(ws: &Workspace, draft: &Draft, problem: &Problem, force: bool) -> Result<Imported> {
    let tests = ws.root.join("testcases").join(&problem.id);
    let plan = plan_cases(&tests, draft)?;
    let path = problem.dir.join("problem.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| Error::Config {
        path: ws.show(&path),
        line: None,
        message: format!("{e}"),
        fix: "correct the file".into(),
    })?;
    let new_samples: Vec<String> = plan
        .sample_names()
        .into_iter()
        .filter(|n| !problem.samples.contains(n))
        .collect();
    if !new_samples.is_empty() {
        match doc.get_mut("samples").and_then(|i| i.as_array_mut()) {
            Some(a) => new_samples.iter().for_each(|n| a.push(n.as_str())),
            None => {
                let mut a = toml_edit::Array::new();
                new_samples.iter().for_each(|n| a.push(n.as_str()));
                doc.insert("samples", toml_edit::value(a));
            }
        }
    }
    // Each difference, with how --force replaces it (`None`: never, the user's own file).
    type Edit = Option<Box<dyn Fn(&mut toml_edit::DocumentMut)>>;
    let mut differences: Vec<(LimitConflict, Edit)> = Vec::new();
    let (mut time, mut memory_bytes) = (problem.limits.time, problem.limits.memory_bytes);
    if let Some(t) = draft.time.filter(|&t| t != time) {
        let c = conflict("time limit", toml_duration(time), toml_duration(t));
        differences.push((
            c,
            Some(Box::new(move |d| set(d, "time_limit", &toml_duration(t)))),
        ));
        if force {
            time = t;
        }
    }
    if let Some(m) = draft.memory_bytes.filter(|&m| m != memory_bytes) {
        let c = conflict("memory limit", toml_size(memory_bytes), toml_size(m));
        differences.push((
            c,
            Some(Box::new(move |d| set(d, "memory_limit", &toml_size(m)))),
        ));
        if force {
            memory_bytes = m;
        }
    }
    let (now, wanted) = (
        checker_text(&problem.checker),
        draft_checker_text(&draft.checker),
    );
    if now != wanted {
        let edit: Edit = match (&draft.checker, &problem.checker) {
            (DraftChecker::Builtin { mode, options }, Checker::Builtin { .. }) => {
                let (mode, options) = (*mode, *options);
                Some(Box::new(move |d| {
                    set(d, "checker", &mode.to_string());
                    for key in ["float_absolute", "float_relative", "case_insensitive"] {
                        d.remove(key);
                    }
                    if mode == CheckerMode::Float {
                        d.insert("float_absolute", toml_edit::value(options.float_absolute));
                        d.insert("float_relative", toml_edit::value(options.float_relative));
                    }
                }))
            }
            // A checker program is the user's own file: never replaced.
            _ => None,
        };
        differences.push((conflict("checker", now, wanted), edit));
    }
    let mut io = problem.io.clone();
    for (what, key, now, wanted) in [
        (
            "input file",
            "input_file",
            &problem.io.input,
            &draft.io.input,
        ),
        (
            "output file",
            "output_file",
            &problem.io.output,
            &draft.io.output,
        ),
    ] {
        if now == wanted {
            continue;
        }
        let shown = |f: &Option<String>| f.clone().unwrap_or_else(|| "none (stdin/stdout)".into());
        let c = conflict(what, shown(now), shown(wanted));
        let value = wanted.clone();
        differences.push((
            c,
            Some(Box::new(move |d| match &value {
                Some(name) => set(d, key, name),
                None => {
                    d.remove(key);
                }
            })),
        ));
        if force {
            let slot = if key == "input_file" {
                &mut io.input
            } else {
                &mut io.output
            };
            slot.clone_from(wanted);
        }
    }
    let (mut kept, mut replaced) = (Vec::new(), Vec::new());
    for (mut difference, edit) in differences {
        difference.replaceable = edit.is_some();
        match edit.filter(|_| force) {
            Some(edit) => {
                edit(&mut doc);
                replaced.push(difference);
            }
            None => kept.push(difference),
        }
    }
    let edited = doc.to_string();
    if edited != text {
        ws.problem_from_text(&problem.id, &problem.dir, &edited)?;
    }
    plan.write(&tests)?;
    if edited != text {
        replace_file(&path, edited.as_bytes())?;
    }
    let mut notes = draft.notes.clone();
    if !draft.solutions.is_empty() {
        notes.push(format!(
            "its {} solutions are not written into a problem that is there already (import with --name NEW for a problem with them)",
            draft.solutions.len()
        ));
    }
    let mut imported = imported(
        &plan,
        &problem.id,
        draft,
        (time, memory_bytes),
        io,
        notes,
        false,
    );
    imported.kept = kept;
    imported.replaced = replaced;
    Ok(imported)
}

/// A new problem's solutions, into `solutions/ID/`: a file there already is the user's and is
/// kept (said in `notes` when it differs).
fn write_solutions(ws: &Workspace, draft: &Draft, id: &str, notes: &mut Vec<String>) -> Result<()> {
    let dir = ws.root.join("solutions").join(id);
    for s in &draft.solutions {
        let path = dir.join(&s.file);
        match std::fs::read(&path) {
            Ok(there) if there == s.source => {}
            Ok(_) => notes.push(format!(
                "{} is there already with other content: kept, the import's left out",
                ws.show(&path)
            )),
            Err(_) => scaffold::create(&path, &s.source)?,
        }
    }
    Ok(())
}

fn conflict(what: &'static str, problem: String, import: String) -> LimitConflict {
    LimitConflict {
        what,
        problem,
        import,
        replaceable: false,
    }
}

/// Sets a key of problem.toml to a string, keeping the comment after it.
fn set(doc: &mut toml_edit::DocumentMut, key: &str, value: &str) {
    let mut new = toml_edit::Value::from(value);
    if let Some(old) = doc.get(key).and_then(|i| i.as_value()) {
        *new.decor_mut() = old.decor().clone();
    }
    doc.insert(key, toml_edit::Item::Value(new));
}

/// Replaces a file by a complete new one: never a half-written problem.toml.
fn replace_file(path: &Path, content: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
    std::io::Write::write_all(&mut tmp, content).map_err(|e| Error::io(path, e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// What the import did, from its plan.
fn imported(
    plan: &CasePlan<'_>,
    id: &str,
    draft: &Draft,
    (time, memory_bytes): (Duration, u64),
    io: FileIo,
    notes: Vec<String>,
    created: bool,
) -> Imported {
    Imported {
        id: id.to_string(),
        origin: draft.origin.clone(),
        created,
        added: plan
            .writes
            .iter()
            .map(|(n, c)| (n.clone(), c.sample))
            .collect(),
        already: plan.known.iter().map(|(n, _)| n.clone()).collect(),
        conflicting: plan.conflicting.clone(),
        time,
        memory_bytes,
        io,
        kept: Vec::new(),
        replaced: Vec::new(),
        samples: draft.cases.iter().filter(|c| c.sample).count(),
        notes,
        attempt: None,
    }
}
