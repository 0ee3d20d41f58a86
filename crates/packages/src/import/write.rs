//! The one writer of imports: a [`Draft`] becomes `problems/ID/` and `testcases/ID/`, or is
//! merged into the problem already there without losing anything of it.
//!
//! A new problem is made in a hidden folder of `problems/` and renamed into place, so it is
//! never seen half-made. An existing one is never overwritten: new tests are added under new
//! names, identical ones are recognised, a test whose input is there with another answer is
//! left out and reported, and a limit (checker, input or output file) that differs is kept and
//! reported unless `--force`. Nothing an import does removes or rewrites a user's file but
//! problem.toml, which is edited in place (comments and order kept) and replaced atomically.

use std::path::PathBuf;
use std::time::Duration;

use super::cases::{plan_cases, CasePlan};
use super::newfiles::{
    checker_text, draft_checker_text, draft_interactor_text, interactor_text, problem_toml,
    statement, toml_duration, toml_size,
};
use super::{Draft, DraftChecker, DraftInteractor, Options, DEFAULT_MEMORY, DEFAULT_TIME};
use crate::error::{Error, Result};
use judge_core::check::CheckerMode;
use judge_core::error::Location;
use judge_core::scaffold;
use judge_core::workspace::{
    Checker, FileIo, Interactor, Problem, Workspace, DEFAULT_CHECKER_MEMORY, DEFAULT_CHECKER_TIME,
};
use judge_core::Error as CoreError;
use judge_runner::interrupt;

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
    /// The problem's interactor after the import, as said (`validate.cc (Kattis protocol)`):
    /// `None` for a problem that is not interactive.
    pub interactor: Option<String>,
    /// Sample interactions written, by name (`testcases/ID/NAME.interaction`).
    pub interactions: Vec<String>,
    pub notes: Vec<String>,
    /// The attempt `solutions/ID/main.*`, when there is one now, and whether this made it.
    pub attempt: Option<(PathBuf, bool)>,
}

/// How `--force` replaces a difference in problem.toml (`None`: never, the user's own file).
type Edit = Option<Box<dyn Fn(&mut toml_edit::DocumentMut)>>;

/// A setting of the problem that differs between the workspace and the import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitConflict {
    /// "time limit", "memory limit", "checker", "interactor", "input file", "output file".
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
                return Err(CoreError::NoTemplate {
                    language: language.name.clone(),
                }
                .into());
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
            scaffold::new_solution(
                ws,
                &imported.id,
                ATTEMPT,
                Some(&l),
                scaffold::Start::Template,
            )?
            .path,
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
        .map_err(|e| CoreError::create(&problems, e))?;
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
    let files = draft.program_files().map_err(|unfit| Error::Import {
        path: draft.origin.clone(),
        message: unfit.to_string(),
        fix: "rename one of the two in the source".into(),
    })?;
    for (name, bytes) in files {
        scaffold::create(&problem_dir.join(name), bytes)?;
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
        if plan.writes.is_empty() && plan.interactions.is_empty() {
            // Git keeps no empty folder; the judge skips hidden files.
            scaffold::create(&tests_dir.join(".gitkeep"), b"")?;
        }
        let parent = ws.root.join("testcases");
        std::fs::create_dir_all(&parent).map_err(|e| CoreError::create(&parent, e))?;
        std::fs::rename(&tests_dir, &final_tests)
            .map_err(|e| CoreError::rename(&final_tests, e))?;
    }
    let mut notes = draft.notes.clone();
    write_solutions(ws, draft, id, &mut notes)?;
    let dir = problems.join(id);
    std::fs::rename(&problem_dir, &dir).map_err(|e| CoreError::rename(&dir, e))?;
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
        (
            draft.io.clone(),
            draft.interactor.as_ref().map(draft_interactor_text),
        ),
        notes,
        true,
    ))
}

/// An existing problem: new tests added, differences kept or (`force`) replaced.
fn merge(ws: &Workspace, draft: &Draft, problem: &Problem, force: bool) -> Result<Imported> {
    let path = problem.dir.join("problem.toml");
    if let Some(message) = other_kind(draft, problem) {
        // Not a setting to keep or replace: one kind's tests judged as the other's would get
        // untrue verdicts, whichever kind the problem ends up.
        return Err(Error::Import {
            path: ws.show(&path),
            message,
            fix: format!(
                "import it as a problem of its own, with --name {}-2",
                problem.id
            ),
        });
    }
    let tests = ws.root.join("testcases").join(&problem.id);
    let plan = plan_cases(&tests, draft)?;
    let text = std::fs::read_to_string(&path).map_err(|e| CoreError::read(&path, e))?;
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| CoreError::Config {
        at: Location::file(ws.show(&path)),
        message: format!("{e}"),
        fix: "correct the file".into(),
    })?;
    add_samples(&mut doc, &plan, problem);
    let mut settings = Settings {
        time: problem.limits.time,
        memory_bytes: problem.limits.memory_bytes,
        io: problem.io.clone(),
        differences: Vec::new(),
    };
    settings.limits(draft, force);
    settings
        .differences
        .extend(checker_difference(draft, problem));
    if let (Some(now), Some(wanted)) = (&problem.interactor, &draft.interactor) {
        settings
            .differences
            .extend(interactor_differences(now, wanted));
    }
    settings.files(draft, force);
    let Settings {
        time,
        memory_bytes,
        io,
        differences,
    } = settings;
    let (kept, replaced) = apply(differences, &mut doc, force);
    let edited = doc.to_string();
    if edited != text {
        ws.problem_from_text(&problem.id, &problem.dir, &edited)?;
    }
    plan.write(&tests)?;
    if edited != text {
        judge_core::atomic::replace(&path, edited.as_bytes())?;
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
        (io, problem.interactor.as_ref().map(interactor_text)),
        notes,
        false,
    );
    imported.kept = kept;
    imported.replaced = replaced;
    Ok(imported)
}

/// Lists the import's samples that the problem does not have yet among its `samples`.
fn add_samples(doc: &mut toml_edit::DocumentMut, plan: &CasePlan<'_>, problem: &Problem) {
    let new_samples: Vec<String> = plan
        .sample_names()
        .into_iter()
        .filter(|n| !problem.samples.contains(n))
        .collect();
    if new_samples.is_empty() {
        return;
    }
    match doc.get_mut("samples").and_then(|i| i.as_array_mut()) {
        Some(a) => new_samples.iter().for_each(|n| a.push(n.as_str())),
        None => {
            let mut a = toml_edit::Array::new();
            new_samples.iter().for_each(|n| a.push(n.as_str()));
            doc.insert("samples", toml_edit::value(a));
        }
    }
}

/// A merged problem's settings as they end up, and how each differs from the import's.
struct Settings {
    time: Duration,
    memory_bytes: u64,
    io: FileIo,
    differences: Vec<(LimitConflict, Edit)>,
}

impl Settings {
    /// The time and memory limits: each differing one said, and taken with `force`.
    fn limits(&mut self, draft: &Draft, force: bool) {
        if let Some(t) = draft.time.filter(|&t| t != self.time) {
            let c = conflict("time limit", toml_duration(self.time), toml_duration(t));
            self.differences.push((
                c,
                Some(Box::new(move |d| set(d, "time_limit", &toml_duration(t)))),
            ));
            if force {
                self.time = t;
            }
        }
        if let Some(m) = draft.memory_bytes.filter(|&m| m != self.memory_bytes) {
            let c = conflict("memory limit", toml_size(self.memory_bytes), toml_size(m));
            self.differences.push((
                c,
                Some(Box::new(move |d| set(d, "memory_limit", &toml_size(m)))),
            ));
            if force {
                self.memory_bytes = m;
            }
        }
    }

    /// The input and output files: each differing one said, and taken with `force`.
    fn files(&mut self, draft: &Draft, force: bool) {
        let now = self.io.clone();
        for (what, key, now, wanted) in [
            ("input file", "input_file", &now.input, &draft.io.input),
            ("output file", "output_file", &now.output, &draft.io.output),
        ] {
            if now == wanted {
                continue;
            }
            let shown =
                |f: &Option<String>| f.clone().unwrap_or_else(|| "none (stdin/stdout)".into());
            let c = conflict(what, shown(now), shown(wanted));
            let value = wanted.clone();
            self.differences.push((
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
                    &mut self.io.input
                } else {
                    &mut self.io.output
                };
                slot.clone_from(wanted);
            }
        }
    }
}

/// How the problem's checker differs from the import's: a built-in one's mode and options are
/// replaceable; a checker program is the user's own file, never replaced.
fn checker_difference(draft: &Draft, problem: &Problem) -> Option<(LimitConflict, Edit)> {
    let (now, wanted) = (
        checker_text(&problem.checker),
        draft_checker_text(&draft.checker),
    );
    if now == wanted {
        return None;
    }
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
        _ => None,
    };
    Some((conflict("checker", now, wanted), edit))
}

/// Applies the replaceable differences to `doc` with `force`: the ones kept, and the ones
/// replaced.
fn apply(
    differences: Vec<(LimitConflict, Edit)>,
    doc: &mut toml_edit::DocumentMut,
    force: bool,
) -> (Vec<LimitConflict>, Vec<LimitConflict>) {
    let (mut kept, mut replaced) = (Vec::new(), Vec::new());
    for (mut difference, edit) in differences {
        difference.replaceable = edit.is_some();
        match edit.filter(|_| force) {
            Some(edit) => {
                edit(doc);
                replaced.push(difference);
            }
            None => kept.push(difference),
        }
    }
    (kept, replaced)
}

/// Why `draft` cannot be merged into `problem`: one is interactive and the other is not.
fn other_kind(draft: &Draft, problem: &Problem) -> Option<String> {
    match (&draft.interactor, &problem.interactor) {
        (Some(i), None) => Some(format!(
            "{} is not interactive, and the import is (interactor {}): its tests would be judged without their interactor",
            problem.id,
            draft_interactor_text(i)
        )),
        (None, Some(i)) => Some(format!(
            "{} is interactive (interactor {}), and the import is not: its tests would be given to an interactor not made for them",
            problem.id,
            interactor_text(i)
        )),
        _ => None,
    }
}

/// How an interactive problem's interactor differs from the import's. Its program is the
/// user's own file, never replaced (a different one is kept and said, as a checker program
/// is); its limits are settings, replaced by `--force`.
fn interactor_differences(
    now: &Interactor,
    wanted: &DraftInteractor,
) -> Vec<(LimitConflict, Edit)> {
    let mut differences: Vec<(LimitConflict, Edit)> = Vec::new();
    let (shown, shown_wanted) = (interactor_text(now), draft_interactor_text(wanted));
    let same_source = now
        .program
        .source()
        .and_then(|p| std::fs::read(p).ok())
        .is_some_and(|s| s == wanted.program.source.as_bytes());
    if shown != shown_wanted || !same_source {
        let import = if shown == shown_wanted {
            format!("{shown_wanted}, another program")
        } else {
            shown_wanted
        };
        differences.push((conflict("interactor", shown, import), None));
    }
    let limits = [
        (
            "interactor time limit",
            "interactor_time_limit",
            (toml_duration(now.time), toml_duration(wanted.time)),
            wanted.time == DEFAULT_CHECKER_TIME,
        ),
        (
            "interactor memory limit",
            "interactor_memory_limit",
            (toml_size(now.memory_bytes), toml_size(wanted.memory_bytes)),
            wanted.memory_bytes == DEFAULT_CHECKER_MEMORY,
        ),
    ];
    for (what, key, (now, wanted), default) in limits {
        if now != wanted {
            let value = wanted.clone();
            differences.push((
                conflict(what, now, wanted),
                Some(Box::new(move |d| {
                    // The default is said by leaving the key out.
                    if default {
                        d.remove(key);
                    } else {
                        set(d, key, &value);
                    }
                })),
            ));
        }
    }
    differences
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

/// What the import did, from its plan.
fn imported(
    plan: &CasePlan<'_>,
    id: &str,
    draft: &Draft,
    (time, memory_bytes): (Duration, u64),
    (io, interactor): (FileIo, Option<String>),
    mut notes: Vec<String>,
    created: bool,
) -> Imported {
    for name in &plan.conflicting_interactions {
        notes.push(format!(
            "left out a sample interaction: testcases/{id}/{name}.interaction is there with another conversation (remove it and import again to take it)"
        ));
    }
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
        interactor,
        interactions: plan.interactions.iter().map(|(n, _)| n.clone()).collect(),
        notes,
        attempt: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{DraftCase, DraftInteraction, DraftProgram};
    use judge_core::workspace::{CheckerProtocol, InteractorProtocol};

    const TESTLIB: &[u8] = b"// testlib\n";

    fn workspace() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("problems")).unwrap();
        let ws = Workspace::at(dir.path()).unwrap();
        (dir, ws)
    }

    fn program(file: &str, source: &str) -> DraftProgram {
        DraftProgram {
            file: file.into(),
            source: source.into(),
            headers: vec![("testlib.h".into(), TESTLIB.to_vec())],
        }
    }

    /// A problem with a sample and its interaction; interactive with `interactor`.
    fn draft(interactor: Option<DraftInteractor>) -> Draft {
        Draft {
            origin: "a test".into(),
            id: "guess".into(),
            title: "Guess".into(),
            url: None,
            contest: None,
            time: Some(Duration::from_secs(1)),
            memory_bytes: Some(256 << 20),
            checker: DraftChecker::default(),
            interactor,
            io: FileIo::default(),
            cases: vec![DraftCase {
                name: Some("sample-1".into()),
                input: b"5\n".to_vec(),
                answer: b"5\n".to_vec(),
                sample: true,
            }],
            interactions: vec![DraftInteraction {
                name: "sample-1".into(),
                text: b">1\n<higher\n>5\n<correct\n".to_vec(),
            }],
            solutions: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn kattis() -> DraftInteractor {
        DraftInteractor {
            program: program("validate.cc", "int main() { return 42; }\n"),
            protocol: InteractorProtocol::Kattis {
                flags: vec!["strict".into()],
            },
            time: Duration::from_secs(60),
            memory_bytes: DEFAULT_CHECKER_MEMORY,
        }
    }

    #[test]
    fn a_kattis_interactor_is_written_and_reads_back() {
        let (_dir, ws) = workspace();
        let imported = write(&ws, &draft(Some(kattis())), &Options::default()).unwrap();
        assert_eq!(
            imported.interactor.as_deref(),
            Some("validate.cc (Kattis protocol, flags strict)")
        );
        assert_eq!(imported.interactions, ["sample-1"]);
        let problem = ws.problem("guess").unwrap();
        let interactor = problem.interactor.clone().expect("interactive");
        assert_eq!(
            interactor.protocol,
            InteractorProtocol::Kattis {
                flags: vec!["strict".into()]
            }
        );
        assert_eq!(interactor.time, Duration::from_secs(60));
        assert_eq!(interactor.memory_bytes, DEFAULT_CHECKER_MEMORY);
        assert_eq!(
            interactor.program.source(),
            Some(problem.dir.join("validate.cc").as_path())
        );
        // No comparing checker beside a Kattis interactor.
        assert_eq!(problem.checker, Checker::default());
        let text = std::fs::read_to_string(problem.dir.join("problem.toml")).unwrap();
        assert!(!text.contains("checker"), "{text}");
        assert!(problem.dir.join("testlib.h").is_file());
        assert_eq!(
            ws.sample_interactions(&problem),
            [ws.root.join("testcases/guess/sample-1.interaction")]
        );
        assert_eq!(problem.samples, ["sample-1"]);
    }

    #[test]
    fn a_testlib_interactor_keeps_its_checker_and_their_header_is_written_once() {
        let (_dir, ws) = workspace();
        let mut d = draft(Some(DraftInteractor {
            program: program("interactor.cpp", "int main() {}\n"),
            protocol: InteractorProtocol::Testlib,
            time: DEFAULT_CHECKER_TIME,
            memory_bytes: DEFAULT_CHECKER_MEMORY,
        }));
        d.checker = DraftChecker::Program {
            program: program("check.cpp", "int main() {}\n"),
            protocol: CheckerProtocol::Testlib,
        };
        assert_eq!(
            d.program_files()
                .unwrap()
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>(),
            ["check.cpp", "testlib.h", "interactor.cpp"]
        );
        assert_eq!(crate::import::check(&d), Ok(()));
        write(&ws, &d, &Options::default()).unwrap();
        let problem = ws.problem("guess").unwrap();
        let interactor = problem.interactor.clone().expect("interactive");
        assert_eq!(interactor.protocol, InteractorProtocol::Testlib);
        assert!(problem.checker.program().is_some(), "{:?}", problem.checker);
        let text = std::fs::read_to_string(problem.dir.join("problem.toml")).unwrap();
        assert!(!text.contains("interactor_time_limit"), "{text}");
        assert!(!text.contains("interactor_memory_limit"), "{text}");
    }

    #[test]
    fn what_cannot_stand_beside_an_interactor_is_refused_before_writing() {
        let mut d = draft(Some(kattis()));
        d.checker = DraftChecker::Kattis(Default::default());
        assert!(crate::import::check(&d).is_err());
        // Two different headers under one name cannot share the problem's folder.
        let mut d = draft(Some(DraftInteractor {
            program: program("interactor.cpp", "int main() {}\n"),
            protocol: InteractorProtocol::Testlib,
            time: DEFAULT_CHECKER_TIME,
            memory_bytes: DEFAULT_CHECKER_MEMORY,
        }));
        let mut other = program("check.cpp", "int main() {}\n");
        other.headers[0].1 = b"// another testlib\n".to_vec();
        d.checker = DraftChecker::Program {
            program: other,
            protocol: CheckerProtocol::Testlib,
        };
        let refused = crate::import::check(&d).unwrap_err();
        assert_eq!(refused, crate::import::Unfit::TwoFiles("testlib.h".into()));
    }

    #[test]
    fn a_merge_never_changes_the_kind_of_a_problem() {
        let force = Options {
            force: true,
            ..Options::default()
        };
        for (there, import) in [(None, Some(kattis())), (Some(kattis()), None)] {
            let (_dir, ws) = workspace();
            write(&ws, &draft(there), &Options::default()).unwrap();
            let toml = ws.problems_dir().join("guess/problem.toml");
            let before = std::fs::read_to_string(&toml).unwrap();
            let mut d = draft(import);
            d.cases[0].input = b"6\n".to_vec();
            let err = write(&ws, &d, &force).unwrap_err().to_string();
            assert!(err.contains("interactive"), "{err}");
            assert!(err.contains("--name guess-2"), "{err}");
            assert_eq!(std::fs::read_to_string(&toml).unwrap(), before);
            assert_eq!(
                ws.testcases(&ws.problem("guess").unwrap()).unwrap().len(),
                1
            );
        }
    }

    #[test]
    fn a_merge_keeps_another_interactor_and_forces_only_its_limits() {
        let (_dir, ws) = workspace();
        write(&ws, &draft(Some(kattis())), &Options::default()).unwrap();
        let mut other = kattis();
        other.program.source = "int main() { return 43; }\n".into();
        other.time = DEFAULT_CHECKER_TIME;
        let mut d = draft(Some(other));
        d.interactions[0].text = b">2\n<correct\n".to_vec();
        let options = Options {
            force: true,
            ..Options::default()
        };
        let imported = write(&ws, &d, &options).unwrap();
        assert_eq!(imported.kept.len(), 1, "{imported:?}");
        assert_eq!(imported.kept[0].what, "interactor");
        assert!(!imported.kept[0].replaceable);
        assert_eq!(imported.replaced.len(), 1, "{imported:?}");
        assert_eq!(imported.replaced[0].what, "interactor time limit");
        let problem = ws.problem("guess").unwrap();
        let interactor = problem.interactor.expect("still interactive");
        assert_eq!(interactor.time, DEFAULT_CHECKER_TIME);
        assert_eq!(
            std::fs::read_to_string(problem.dir.join("validate.cc")).unwrap(),
            "int main() { return 42; }\n"
        );
        // The sample is there already, and its name holds another conversation.
        assert!(imported.interactions.is_empty());
        assert!(
            imported
                .notes
                .iter()
                .any(|n| n.contains("sample-1.interaction")),
            "{imported:?}"
        );
    }
}
