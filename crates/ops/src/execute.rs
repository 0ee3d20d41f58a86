//! Running one program once on one input and handing back what it did (the execution services'
//! door, `judge api`): the source built through the build cache, so that a source seen before
//! (same language, flags and bytes) is never built again; then run under CPU-time, memory and
//! output limits with the sandbox on, in a working folder of its own holding the files sent
//! with it, and what it printed and the files asked for taken back.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use judge_core::lang::Language;
use judge_core::model::CompileReport;
use judge_core::reason::Reason;
use judge_core::session::{Judge, Options};
use judge_core::verdict::{Limits, MemoryRule, Verdict};
use judge_core::workspace::{Problem, ProblemLimits};
use judge_runner::Outcome;

use crate::Error;

/// One program to run: its language (an id of the judge's: `python`, `cpp`), its source, what
/// it reads, and the limits it runs under.
#[derive(Debug, Clone)]
pub struct Request {
    pub language: String,
    pub code: String,
    /// The source's file name, where the caller gives one (Piston's `files[0].name`); else
    /// `main` with the language's first extension.
    pub file_name: Option<String>,
    pub stdin: Vec<u8>,
    pub args: Vec<String>,
    /// Files put in the program's working folder before it starts, by relative path.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// Files of the working folder taken back after the run, by relative path.
    pub fetch: Vec<PathBuf>,
    pub compile_time: Duration,
    /// CPU time, memory and output.
    pub limits: Limits,
}

/// What the build said.
#[derive(Debug, Clone)]
pub struct Built {
    pub ok: bool,
    /// Taken from the cache: nothing was compiled.
    pub cached: bool,
    /// Took longer than the compile time allowed.
    pub timed_out: bool,
    pub duration: Duration,
    /// The compiler's messages when it failed.
    pub log: String,
}

/// What the run did.
#[derive(Debug, Clone)]
pub struct Ran {
    /// AC for a clean run (exit status 0 within the limits); TLE, MLE, OLE, RE; IE when it
    /// could not be started.
    pub verdict: Verdict,
    pub reason: Reason,
    pub cpu: Duration,
    pub wall: Duration,
    pub memory_bytes: u64,
    /// Its exit status, when it exited.
    pub exit_code: Option<i32>,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// A request's result: the language it ran as, the build, and the run unless the build failed.
#[derive(Debug, Clone)]
pub struct Executed {
    pub language: Arc<Language>,
    pub build: Built,
    pub run: Option<Ran>,
    /// The files asked for, each with its bytes, or `None` when the program left none there.
    pub fetched: Vec<(PathBuf, Option<Vec<u8>>)>,
}

/// Builds and runs `request` with `judge` (this machine's).
pub fn execute(judge: &mut Judge, request: &Request) -> Result<Executed, Error> {
    let language = language(judge, &request.language)?;
    let place = place(judge)?;
    let source = write_source(
        place.path(),
        &request.code,
        request.file_name.as_deref(),
        &language,
    )?;
    let problem = Problem::bare("execute", place.path(), problem_limits(&request.limits));
    let options = Options {
        compile_time_limit: request.compile_time,
        ..Options::default()
    };
    let (report, program) = judge.build(&source, &problem, &options, false)?;
    let build = built(&report, request.compile_time);
    let Some(program) = program else {
        return Ok(Executed {
            language,
            build,
            run: None,
            fetched: Vec::new(),
        });
    };
    let folder = place.path().join("work");
    make_folder(&folder)?;
    for (rel, bytes) in &request.files {
        write(&folder.join(relative(rel)?), bytes)?;
    }
    let input = place.path().join("stdin");
    write(&input, &request.stdin)?;
    let (verdict, reason, execution) = judge.run_in(
        &program,
        &request.args,
        Some(&input),
        &folder,
        &request.limits,
    )?;
    let m = &execution.measurement;
    let run = Ran {
        verdict,
        reason,
        cpu: m.cpu,
        wall: m.wall,
        memory_bytes: m.peak_memory_bytes,
        exit_code: match m.outcome {
            Outcome::Exited(code) => Some(code),
            _ => None,
        },
        signal: match m.outcome {
            Outcome::Signaled(signal) => Some(signal),
            _ => None,
        },
        stdout: std::fs::read(&execution.stdout).unwrap_or_default(),
        stderr: std::fs::read(&execution.stderr).unwrap_or_default(),
    };
    let fetched = request
        .fetch
        .iter()
        .map(|rel| {
            let bytes = relative(rel)
                .ok()
                .and_then(|r| std::fs::read(folder.join(r)).ok());
            (rel.clone(), bytes)
        })
        .collect();
    Ok(Executed {
        language,
        build,
        run: Some(run),
        fetched,
    })
}

/// A language this machine runs: the judge's language and its toolchain's identity
/// (`g++ (Debian 12.2.0-14) 12.2.0`) with the version number in it (`12.2.0`).
#[derive(Debug, Clone)]
pub struct Runtime {
    pub language: Arc<Language>,
    pub identity: String,
    pub version: String,
}

/// The languages whose toolchains are installed here, in the judge's order of languages.
pub fn runtimes(judge: &Judge) -> Vec<Runtime> {
    let languages = &judge.workspace.config.languages;
    let mut all: Vec<Arc<Language>> = languages
        .all()
        .filter(|l| !l.extensions.is_empty())
        .cloned()
        .collect();
    all.sort_by(|a, b| a.id.cmp(&b.id));
    all.into_iter()
        .filter_map(|language| {
            let identity = judge.toolchain_of(language.clone()).ok()?.identity;
            Some(Runtime {
                version: version_number(&identity),
                language,
                identity,
            })
        })
        .collect()
}

/// The first dotted number in a toolchain's identity (`Python 3.11.7` → `3.11.7`), else the
/// identity itself.
pub fn version_number(identity: &str) -> String {
    identity
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|w| w.trim_matches('.'))
        .find(|w| w.contains('.') && w.split('.').all(|p| !p.is_empty()))
        .unwrap_or(identity)
        .to_string()
}

/// A request's own folder in the judge's scratch folder, removed when dropped.
pub(crate) fn place(judge: &Judge) -> Result<tempfile::TempDir, Error> {
    tempfile::Builder::new()
        .prefix("execute.")
        .tempdir_in(judge.scratch_dir())
        .map_err(|source| Error::Io {
            doing: "create",
            path: judge.scratch_dir().to_path_buf(),
            source,
        })
}

/// The judge's language `id`, whose programs are named by an extension of its own.
pub(crate) fn language(judge: &Judge, id: &str) -> Result<Arc<Language>, Error> {
    let languages = &judge.workspace.config.languages;
    match languages.get(id) {
        Some(l) if !l.extensions.is_empty() => Ok(l.clone()),
        _ => Err(Error::UnknownLanguage {
            language: id.to_string(),
            known: languages.known(),
        }),
    }
}

/// Writes the source where it is built from: its own name when it has a fitting one, else
/// `main.EXT`. The name is part of the build cache's key, so a fixed one lets the same bytes
/// hit the cache on every request.
pub(crate) fn write_source(
    dir: &Path,
    code: &str,
    file_name: Option<&str>,
    language: &Language,
) -> Result<PathBuf, Error> {
    let extension = &language.extensions[0];
    let fits = |name: &&str| {
        let path = Path::new(name);
        path.file_name().map(|f| f.to_str() == Some(name)) == Some(true)
            && path
                .extension()
                .is_some_and(|e| language.extensions.iter().any(|x| e == x.as_str()))
    };
    let name = match file_name.filter(fits) {
        Some(name) => name.to_string(),
        None => format!("main.{extension}"),
    };
    let folder = dir.join("source");
    make_folder(&folder)?;
    let path = folder.join(name);
    write(&path, code.as_bytes())?;
    Ok(path)
}

/// The bare problem's limits: the request's.
fn problem_limits(limits: &Limits) -> ProblemLimits {
    ProblemLimits {
        time: limits.time,
        memory_bytes: limits.memory_bytes,
        output_bytes: limits.output_bytes,
        memory_rule: MemoryRule::Resident,
    }
}

/// The build's report as a service tells it.
fn built(report: &CompileReport, allowed: Duration) -> Built {
    let log = report.diagnostics.clone().unwrap_or_default();
    Built {
        ok: report.diagnostics.is_none(),
        cached: report.cached,
        // The compiler is stopped at the limit; what it took then is the limit itself.
        timed_out: report.diagnostics.is_some() && report.duration >= allowed,
        duration: report.duration,
        log,
    }
}

/// `rel` as a path inside the working folder: relative, with no `..`.
pub fn relative(rel: &Path) -> Result<&Path, Error> {
    let inside = !rel.as_os_str().is_empty()
        && rel
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    match inside {
        true => Ok(rel),
        false => Err(Error::OutsideFolder(rel.to_path_buf())),
    }
}

fn make_folder(path: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(path).map_err(|source| Error::Io {
        doing: "create",
        path: path.to_path_buf(),
        source,
    })
}

pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if let Some(parent) = path.parent() {
        make_folder(parent)?;
    }
    std::fs::write(path, bytes).map_err(|source| Error::Io {
        doing: "write",
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toolchains_version_is_its_first_dotted_number() {
        assert_eq!(version_number("g++ (Debian 12.2.0-14) 12.2.0"), "12.2.0");
        assert_eq!(version_number("Python 3.11.7"), "3.11.7");
        assert_eq!(
            version_number("rustc 1.95.0 (59807616e 2026-04-14)"),
            "1.95.0"
        );
        assert_eq!(version_number("bash"), "bash");
    }

    #[test]
    fn a_file_outside_the_working_folder_is_refused() {
        assert!(relative(Path::new("data/in.txt")).is_ok());
        assert!(relative(Path::new("./in.txt")).is_ok());
        for bad in ["../x", "/etc/passwd", "a/../../b", ""] {
            let err = relative(Path::new(bad)).unwrap_err();
            assert!(matches!(err, Error::OutsideFolder(_)), "{bad}");
        }
    }
}
