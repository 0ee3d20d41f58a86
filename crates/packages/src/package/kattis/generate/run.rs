//! Making the cases of a plan: the hash of what makes each, building and running its
//! generator and solution (through the judge, sandboxed, each in a folder of its own), and
//! writing what they made into `data/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::plan::{Case, Plan, Source};
use super::{hash_file, package_path, unlisted, Entry, Generated, Made, Manifest, Status, KEPT};
use crate::package::dir_name;
use judge_core::compile::source::program_language;
use judge_core::compile::{Program, Source as Build};
use judge_core::error::{Error, Location, Result};
use judge_core::session::{Judge, Options};
use judge_core::text;
use judge_core::verdict::{Limits, Verdict};
use judge_core::workspace::Problem;

/// What a generator or a solution may use while it makes a case: a minute of CPU time, 2 GiB
/// of memory, 1 GiB of files (the format's tools give generators the validators' limits).
fn limits() -> Limits {
    Limits::new(Duration::from_secs(60), 2 << 30, 1 << 30)
}

/// Makes every case of the package in `dir` that needs it (its makers changed, or its files
/// did), writes the settings files, and says what became of each case. `problem` is the one
/// whose settings programs are built with.
pub fn generate(judge: &mut Judge, dir: &Path, problem: &Problem) -> crate::Result<Generated> {
    let Some(plan) = super::plan::read(dir)? else {
        return Err(Error::TestData {
            at: Location::file(format!("{}/generators/generators.yaml", dir_name(dir))),
            message: "the package has no generators.yaml".into(),
            fix: "write generators/generators.yaml (see the guide: docs/src/format/generators.md)"
                .into(),
        }
        .into());
    };
    let data = dir.join("data");
    std::fs::create_dir_all(&data).map_err(|e| Error::create(&data, e))?;
    let mut manifest = Manifest::read(dir);
    let mut keys = BTreeMap::new();
    let mut made = Vec::new();
    let mut maker = Maker {
        judge,
        dir,
        plan: &plan,
        problem,
        built: BTreeMap::new(),
    };
    for case in &plan.cases {
        let made_by = case.made_by();
        if case.source == Source::Manual {
            if !data.join(format!("{}.in", case.name)).is_file() {
                return Err(failed(
                    dir,
                    case,
                    "it is made by hand, and data/ has no such case".into(),
                )
                .into());
            }
            maker.answer_manual(case)?;
            made.push(Made {
                name: case.name.clone(),
                made_by,
                status: Status::Kept,
            });
            continue;
        }
        let key = key(dir, &plan, case, &mut keys)?;
        let before = manifest.cases.get(&case.name).cloned();
        let intact = |e: &Entry| {
            e.files.iter().all(|(ext, h)| {
                hash_file(&data.join(format!("{}.{ext}", case.name))).as_deref() == Some(h.as_str())
            })
        };
        if before.as_ref().is_some_and(|e| e.key == key && intact(e)) {
            made.push(Made {
                name: case.name.clone(),
                made_by,
                status: Status::Cached,
            });
            continue;
        }
        let files = maker.make(case)?;
        let status = write_case(&data, case, &files, before.as_ref())?;
        let entry = Entry {
            key,
            files: files
                .iter()
                .map(|(ext, bytes)| (ext.clone(), blake3::hash(bytes).to_hex()[..32].to_string()))
                .collect(),
        };
        manifest.cases.insert(case.name.clone(), entry);
        made.push(Made {
            name: case.name.clone(),
            made_by,
            status,
        });
    }
    let mut settings = Vec::new();
    for (folder, file, yaml) in &plan.settings {
        let to = data.join(folder).join(file);
        std::fs::create_dir_all(data.join(folder)).map_err(|e| Error::create(&to, e))?;
        if std::fs::read_to_string(&to).ok().as_deref() != Some(yaml.as_str()) {
            std::fs::write(&to, yaml).map_err(|e| Error::write(&to, e))?;
            settings.push(format!("data/{folder}/{file}"));
        }
    }
    manifest
        .cases
        .retain(|name, _| plan.cases.iter().any(|c| &c.name == name));
    manifest.write(dir)?;
    Ok(Generated {
        problem: dir_name(dir),
        cases: made,
        settings,
        unlisted: unlisted(dir, &plan),
    })
}

/// Writes the files made for `case` into `data/`, removing those a previous generation made
/// that this one did not; says whether the case is new, changed or the same.
fn write_case(
    data: &Path,
    case: &Case,
    files: &BTreeMap<String, Vec<u8>>,
    before: Option<&Entry>,
) -> Result<Status> {
    let path = |ext: &str| data.join(format!("{}.{ext}", case.name));
    let existed = path("in").is_file();
    let mut changed = false;
    for (ext, bytes) in files {
        let to = path(ext);
        if std::fs::read(&to).ok().as_deref() != Some(bytes.as_slice()) {
            changed = true;
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(|e| Error::create(parent, e))?;
            }
            std::fs::write(&to, bytes).map_err(|e| Error::write(&to, e))?;
        }
    }
    for ext in before
        .map(|e| e.files.keys().collect::<Vec<_>>())
        .unwrap_or_default()
    {
        if !files.contains_key(ext) {
            changed = true;
            let _ = std::fs::remove_file(path(ext));
        }
    }
    Ok(match (existed, changed) {
        (false, _) => Status::New,
        (true, true) => Status::Changed,
        (true, false) => Status::Same,
    })
}

/// The hash of what makes `case`: its generator's files and command, the file it copies, the
/// text it is given, the case it includes; its solution's files and command.
pub(super) fn key(
    dir: &Path,
    plan: &Plan,
    case: &Case,
    keys: &mut BTreeMap<String, String>,
) -> Result<String> {
    if let Some(k) = keys.get(&case.name) {
        return Ok(k.clone());
    }
    let mut h = blake3::Hasher::new();
    match &case.source {
        Source::Manual => {
            h.update(b"manual");
        }
        Source::Copy(p) => {
            h.update(b"copy");
            for f in copied(dir, p) {
                h.update(f.1.as_bytes());
                h.update(&std::fs::read(&f.0).unwrap_or_default());
            }
        }
        Source::Inline(t) => {
            h.update(b"inline");
            h.update(t.as_bytes());
        }
        Source::Command(c) => {
            h.update(b"command");
            h.update(c.as_bytes());
            let name = c.split_whitespace().next().unwrap_or_default();
            for f in generator_files(dir, plan, name) {
                h.update(&std::fs::read(&f).unwrap_or_default());
            }
        }
        Source::Include(other) => {
            h.update(b"include");
            let other = plan
                .cases
                .iter()
                .find(|c| &c.name == other)
                .expect("includes are resolved when read");
            h.update(key(dir, plan, other, keys)?.as_bytes());
        }
    }
    if let Some(sol) = &case.solution {
        h.update(b"solution");
        h.update(sol.as_bytes());
        let path = package_path(dir, "", sol.split_whitespace().next().unwrap_or_default());
        for f in files_of(&path) {
            h.update(&std::fs::read(&f).unwrap_or_default());
        }
    }
    for (ext, text) in &case.inline {
        h.update(ext.as_bytes());
        h.update(text.as_bytes());
    }
    let k = h.finalize().to_hex()[..32].to_string();
    keys.insert(case.name.clone(), k.clone());
    Ok(k)
}

/// The files a generator named `name` is made of.
fn generator_files(dir: &Path, plan: &Plan, name: &str) -> Vec<PathBuf> {
    match plan.programs.get(name) {
        Some(deps) => deps
            .iter()
            .map(|d| package_path(dir, "generators", d))
            .collect(),
        None => files_of(&dir.join("generators").join(name)),
    }
}

/// A program's files: the file, or every file of its folder.
/// Whether a case has an answer: an invalid input has none (the format's rule), so no
/// solution is run on it.
fn has_answer(case: &Case) -> bool {
    !case.name.starts_with("invalid_input/")
}

fn files_of(path: &Path) -> Vec<PathBuf> {
    if path.is_dir() {
        let mut v: Vec<PathBuf> = walkdir::WalkDir::new(path)
            .sort_by_file_name()
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file())
            .map(|e| e.path().to_path_buf())
            .collect();
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    }
}

/// The files a copied case takes: `generators/P` (with `.in` or without) and its siblings of
/// the kept extensions, each with its extension.
fn copied(dir: &Path, written: &str) -> Vec<(PathBuf, String)> {
    let base = package_path(
        dir,
        "generators",
        written.strip_suffix(".in").unwrap_or(written),
    );
    KEPT.iter()
        .map(|ext| (base.with_extension(ext), ext.to_string()))
        .filter(|(p, _)| p.is_file())
        .collect()
}

fn failed(dir: &Path, case: &Case, why: String) -> Error {
    Error::TestData {
        at: Location::file(format!("{}/generators/generators.yaml", dir_name(dir)))
            .with_key(format!("case {}", case.name)),
        message: why,
        fix: "correct the generator or its entry in generators.yaml, then run judge generate again"
            .into(),
    }
}

/// Builds and runs what makes the cases.
struct Maker<'a> {
    judge: &'a mut Judge,
    dir: &'a Path,
    plan: &'a Plan,
    problem: &'a Problem,
    /// Programs built, by the path they were built from.
    built: BTreeMap<PathBuf, Program>,
}

impl Maker<'_> {
    /// The files of `case`, by extension: its input, and its answer from the solution when
    /// nothing else gave one.
    fn make(&mut self, case: &Case) -> Result<BTreeMap<String, Vec<u8>>> {
        let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        match &case.source {
            Source::Manual => unreachable!("manual cases are kept"),
            Source::Inline(t) => {
                files.insert("in".into(), t.clone().into_bytes());
            }
            Source::Copy(p) => {
                let found = copied(self.dir, p);
                if !found.iter().any(|(_, e)| e == "in") {
                    return Err(failed(
                        self.dir,
                        case,
                        format!("generators/{p} is not there"),
                    ));
                }
                for (path, ext) in found {
                    let bytes = std::fs::read(&path).map_err(|e| Error::read(&path, e))?;
                    files.insert(ext, bytes);
                }
            }
            Source::Include(other) => {
                for ext in KEPT {
                    let from = self.dir.join("data").join(format!("{other}.{ext}"));
                    if let Ok(bytes) = std::fs::read(&from) {
                        files.insert(ext.to_string(), bytes);
                    }
                }
                if !files.contains_key("in") {
                    return Err(failed(
                        self.dir,
                        case,
                        format!("it includes {other}, which has no input"),
                    ));
                }
            }
            Source::Command(c) => files = self.run_generator(case, c)?,
        }
        for (ext, text) in &case.inline {
            files.insert(ext.clone(), text.clone().into_bytes());
        }
        if !files.contains_key("ans") && has_answer(case) {
            let Some(solution) = &case.solution else {
                return Err(failed(
                    self.dir,
                    case,
                    "nothing makes its .ans: its generator writes none, and no `solution` is given"
                        .into(),
                ));
            };
            let ans = self.answer(case, solution, &files["in"])?;
            files.insert("ans".into(), ans);
        }
        Ok(files)
    }

    /// A manual case without an answer gets one from the solution, when there is one.
    fn answer_manual(&mut self, case: &Case) -> Result<()> {
        let data = self.dir.join("data");
        let ans = data.join(format!("{}.ans", case.name));
        if ans.is_file() || !has_answer(case) {
            return Ok(());
        }
        let Some(solution) = &case.solution else {
            return Ok(());
        };
        let input = std::fs::read(data.join(format!("{}.in", case.name))).unwrap_or_default();
        let bytes = self.answer(case, solution, &input)?;
        std::fs::write(&ans, bytes).map_err(|e| Error::write(&ans, e))
    }

    /// Runs the generator command `command` for `case` in a folder of its own: what it wrote
    /// there as `{name}.EXT`, and its stdout as the input when it wrote no `{name}.in`.
    fn run_generator(&mut self, case: &Case, command: &str) -> Result<BTreeMap<String, Vec<u8>>> {
        let mut words = command.split_whitespace();
        let name = words.next().unwrap_or_default();
        let args: Vec<String> = words.map(|w| w.replace("{name}", case.base())).collect();
        let source = self.generator_source(case, name)?;
        let program = self.build(case, &source)?;
        let work = self.judge.scratch_dir().join("generate");
        fresh(&work)?;
        let (verdict, reason, execution) =
            self.judge.run_in(&program, &args, None, &work, &limits())?;
        if verdict != Verdict::Ac {
            let stderr = std::fs::read(&execution.stderr).unwrap_or_default();
            let tail = text::stderr_tail(&stderr)
                .map(|t| format!("\n{t}"))
                .unwrap_or_default();
            return Err(failed(
                self.dir,
                case,
                format!("the generator `{command}` failed: {verdict} ({reason}){tail}"),
            ));
        }
        let mut files = BTreeMap::new();
        for ext in KEPT {
            let made = work.join(format!("{}.{ext}", case.base()));
            if made.is_file() {
                files.insert(
                    ext.to_string(),
                    std::fs::read(&made).map_err(|e| Error::read(&made, e))?,
                );
            }
        }
        if !files.contains_key("in") {
            let out = std::fs::read(&execution.stdout).unwrap_or_default();
            files.insert("in".into(), out);
        }
        Ok(files)
    }

    /// The source to build for the generator `name`: a program of several files of
    /// `generators/` (the first the entry point, the others copied beside it), a folder of
    /// `generators/` (its one source file, the others beside it), or `generators/NAME`.
    fn generator_source(&mut self, case: &Case, name: &str) -> Result<Build> {
        if let Some(deps) = self.plan.programs.get(name) {
            let mut files = deps.iter().map(|d| package_path(self.dir, "generators", d));
            let path = files.next().expect("a generator lists its files");
            // The others beside the first, by their own names.
            let extras = files
                .filter_map(|f| Some((PathBuf::from(f.file_name()?), f)))
                .collect();
            return Ok(Build {
                path,
                extras,
                entry: None,
                function: None,
            });
        }
        let path = self.dir.join("generators").join(name);
        if path.is_dir() {
            // A program folder, built whole as the format builds one.
            self.check_program(case, &path, &format!("the generator {name}"))?;
            return Ok(Build::alone(&path));
        }
        if !path.is_file() {
            return Err(failed(
                self.dir,
                case,
                format!("there is no generator `{name}`: no generators/{name}, and no `{name}` under `generators:`"),
            ));
        }
        Ok(Build::with_headers(&path))
    }

    /// Refuses a program folder the judge cannot build, with the reason.
    fn check_program(&self, case: &Case, path: &Path, what: &str) -> Result<()> {
        program_language(path, &self.judge.workspace.config.languages)
            .map(|_| ())
            .map_err(|why| failed(self.dir, case, format!("{what}: {why}")))
    }

    /// Builds `source` once per generation (the judge's cache keeps it across generations).
    fn build(&mut self, case: &Case, source: &Build) -> Result<Program> {
        if let Some(p) = self.built.get(&source.path) {
            return Ok(p.clone());
        }
        let (report, program) =
            self.judge
                .build_source(source, self.problem, &Options::default())?;
        let Some(program) = program else {
            return Err(failed(
                self.dir,
                case,
                format!(
                    "{} does not compile:\n{}",
                    source.path.display(),
                    text::diagnostics_excerpt(report.diagnostics.as_deref().unwrap_or(""))
                ),
            ));
        };
        self.built.insert(source.path.clone(), program.clone());
        Ok(program)
    }

    /// The answer the solution `command` gives on `input`: its stdout.
    fn answer(&mut self, case: &Case, command: &str, input: &[u8]) -> Result<Vec<u8>> {
        let mut words = command.split_whitespace();
        let written = words.next().unwrap_or_default();
        let args: Vec<String> = words.map(|w| w.replace("{name}", case.base())).collect();
        let path = package_path(self.dir, "", written);
        let source = if path.is_dir() {
            self.check_program(case, &path, &format!("the solution {written}"))?;
            Build::alone(&path)
        } else if path.is_file() {
            Build::with_headers(&path)
        } else {
            return Err(failed(
                self.dir,
                case,
                format!("the solution {written} is not there"),
            ));
        };
        let program = self.build(case, &source)?;
        let scratch = self.judge.scratch_dir().to_path_buf();
        let stdin = scratch.join("generate.in");
        std::fs::write(&stdin, input).map_err(|e| Error::write(&stdin, e))?;
        let work = scratch.join("solve");
        fresh(&work)?;
        let (verdict, reason, execution) =
            self.judge
                .run_in(&program, &args, Some(&stdin), &work, &limits())?;
        if verdict != Verdict::Ac {
            return Err(failed(
                self.dir,
                case,
                format!("the solution {written} failed on it: {verdict} ({reason})"),
            ));
        }
        std::fs::read(&execution.stdout).map_err(|e| Error::read(&execution.stdout, e))
    }
}

/// `dir`, made empty: its contents removed, the folder itself kept (the runner keeps a folder
/// it has granted open).
fn fresh(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::create(dir, e))?;
    for entry in std::fs::read_dir(dir)
        .map_err(|e| Error::list(dir, e))?
        .flatten()
    {
        let p = entry.path();
        let removed = if p.is_dir() && !p.is_symlink() {
            std::fs::remove_dir_all(&p)
        } else {
            std::fs::remove_file(&p)
        };
        removed.map_err(|e| Error::remove(&p, e))?;
    }
    Ok(())
}
