//! One build in a fresh folder: the folders made, the compiler run, what its end says of the source, and what the cache keeps of it.

use std::path::Path;
use std::time::{Duration, Instant};

use tempfile::TempDir;

use super::compiler::{compile_limits, run_compiler, tool_killed, toolchain_files};
use super::{source, Cache, Kept, Plan};
use crate::error::{Error, Result};
use crate::lang::{Kind, Language, Vars};
use crate::verdict::{describe_stop, Measurement};
use judge_runner::{self as run, Executor, Outcome};

/// Where a build happens: the cache it is kept in, under `key`; the folder the compiler runs
/// from; when the build began (its duration counts the lookup before it).
pub(super) struct At<'a> {
    pub(super) cache: &'a Cache,
    pub(super) key: &'a str,
    pub(super) cwd: &'a Path,
    pub(super) started: Instant,
}

/// Builds `files` as `plan` says, and keeps the result under the key when it says something of
/// the source: the program, or a compile error that would come again.
pub(super) fn build(
    plan: &Plan,
    files: &[source::File],
    at: At,
    executor: &mut dyn Executor,
) -> Result<(Kept, Duration)> {
    let store = at.cache.store()?;
    let (tmp, scratch) = folders(&store)?;
    let result = run(plan, files, (tmp.path(), scratch.path(), at.cwd), executor);
    for dir in [&tmp, &scratch] {
        run::interrupt::unregister_temp_dir(dir.path());
    }
    // Ctrl-C or SIGTERM meanwhile removed the build folder under the compiler, which then
    // fails for that alone: nothing of it is kept (the handler is ending the process).
    run::interrupt::wait_if_interrupted();
    let duration = at.started.elapsed();
    let ending = Ending::of(&plan.toolchain.language, &plan.toolchain.settings, result?)?;
    let language = &plan.toolchain.language;
    let made = made(language, tmp.path())?;
    if ending.clean && made {
        let dir = store.build(at.key);
        keep(tmp, &dir)?;
        return Ok((Kept::Program(dir), duration));
    }
    let diagnostics = failure(language, ending, made)?;
    // Only a compiler's own verdict is deterministic enough to cache: not a stop, nor one of
    // its tools (the linker, cc1plus) killed by a signal, which its driver reports as a failure.
    if diagnostics.deterministic {
        let _ = crate::atomic::replace(&store.diagnostics(at.key), diagnostics.text.as_bytes());
    }
    Ok((Kept::Diagnostics(diagnostics.text), duration))
}

/// The cache's folders made, and two fresh folders in its `tmp`: the build's, and the
/// compiler's own files (GCC's assembly and object files), beside the build, never in it.
/// Both are removed by an interrupt until they are unregistered.
fn folders(store: &Cache) -> Result<(TempDir, TempDir)> {
    let tmp_root = crate::paths::cache::tmp(&store.dir);
    for d in [
        &tmp_root,
        &crate::paths::cache::builds(&store.dir),
        &crate::paths::cache::compile_errors(&store.dir),
    ] {
        std::fs::create_dir_all(d).map_err(|e| Error::create(d, e))?;
    }
    let temp_dir = |prefix| {
        let dir = tempfile::Builder::new()
            .prefix(prefix)
            .tempdir_in(&tmp_root);
        let dir = dir.map_err(|e| Error::create(&tmp_root, e))?;
        run::interrupt::register_temp_dir(dir.path());
        Ok::<_, Error>(dir)
    };
    Ok((temp_dir("build-")?, temp_dir("compiler-")?))
}

/// Writes the files into `tmp` and runs the compiler, or the format's `build` script, there:
/// what was measured and said, or `None` when there is nothing to run.
fn run(
    plan: &Plan,
    files: &[source::File],
    (tmp, scratch, cwd): (&Path, &Path, &Path),
    executor: &mut dyn Executor,
) -> Result<Option<(run::Response, String)>> {
    let toolchain = plan.toolchain;
    let (language, settings) = (&toolchain.language, &toolchain.settings);
    source::write(tmp, files)?;
    let vars = plan.program(tmp.to_path_buf()).vars;
    let env = compile_env(language, &vars);
    match (&language.compile, &toolchain.compiler) {
        (Some(command), Some(tool)) => {
            let mut argv = command.render(&vars);
            argv[0] = tool.program.display().to_string();
            let reads = [
                tool.install_roots(),
                toolchain_files(cwd),
                language.compile_reads.clone(),
            ]
            .concat();
            let at = (tmp, scratch, cwd);
            run_compiler(at, argv, (reads, env), executor, settings).map(Some)
        }
        // The format's `build` script, run in the copy of its folder.
        (Some(_), None) if language.kind == Kind::Scripts => {
            match source::prepare_scripts(tmp)? {
                Some(build) => {
                    let argv = vec![build.display().to_string()];
                    let at = (tmp, scratch, tmp);
                    // The copy is written and also run from: `build` itself, and what it
                    // makes and calls (a generated program, a helper script).
                    let reads = vec![tmp.to_path_buf()];
                    run_compiler(at, argv, (reads, env), executor, settings).map(Some)
                }
                None => Ok(None),
            }
        }
        _ => Ok(None),
    }
}

/// The language's compile environment, each value rendered with the build's variables (one
/// that is no command is passed as written).
fn compile_env(language: &Language, vars: &Vars) -> Vec<(String, String)> {
    language
        .compile_env
        .iter()
        .map(|(k, v)| {
            let v = crate::lang::Command::parse(&[v.as_str()])
                .map_or_else(|_| v.clone(), |c| c.render(vars).join(" "));
            (k.clone(), v)
        })
        .collect()
}

/// How the compiler's run ended, as it bears on the source.
struct Ending {
    /// It ran to a success within its limits, or there was nothing to run.
    clean: bool,
    /// Why the judge stopped it, or why it could not start.
    stopped: Option<String>,
    diagnostics: String,
}

impl Ending {
    /// The end of `ran`; an error when it says nothing of the source: the compiler killed by
    /// a signal the judge did not send, or a compiler that could not start.
    fn of(
        language: &Language,
        settings: &super::BuildSettings,
        ran: Option<(run::Response, String)>,
    ) -> Result<Ending> {
        // Nothing to compile: an interpreter without a check, a `run` script without `build`.
        let nothing = ran.is_none();
        let (response, mut diagnostics) =
            ran.unwrap_or_else(|| (run::Response::not_started(String::new()), String::new()));
        let limits = compile_limits(settings);
        let measured = Measurement::of(&response);
        let stopped = describe_stop(&measured, &limits);
        // Killed by a signal the judge did not send (the out-of-memory killer, a person): its
        // build says nothing of the source, so it is no CE, and nothing is remembered.
        if let (false, Outcome::Signaled(signal)) = (nothing, &response.outcome) {
            let within =
                measured.cpu <= limits.time && measured.peak_memory_bytes <= limits.memory_bytes;
            if measured.stopped_by().is_none() && within {
                return Err(Error::CompilerKilled {
                    language: language.name.clone(),
                    signal: run::signal_name(*signal),
                });
            }
        }
        let clean = nothing || response.outcome == Outcome::Exited(0) && stopped.is_none();
        match &response.outcome {
            // A `build` script that cannot start is the package's fault, said as its CE.
            Outcome::SpawnFailed(why) if !nothing && language.kind == Kind::Scripts => {
                diagnostics = format!("the build script could not start: {why}\n");
            }
            Outcome::SpawnFailed(why) if !nothing => {
                return Err(Error::Toolchain(format!("starting the compiler: {why}")));
            }
            _ => {}
        }
        Ok(Ending {
            clean,
            stopped,
            diagnostics,
        })
    }
}

/// Whether the build folder holds a program to run.
fn made(language: &Language, dir: &Path) -> Result<bool> {
    Ok(match language.kind {
        // What `build` left must hold the program: `run`.
        Kind::Scripts => source::finish_scripts(dir)?,
        Kind::Java => true,
        _ => {
            language.kind != Kind::Rust && !language.run.runs_build_output()
                || dir.join("solution").is_file()
        }
    })
}

/// Puts the finished build folder `tmp` in the cache at `dir`, marked whole.
fn keep(tmp: TempDir, dir: &Path) -> Result<()> {
    std::fs::write(tmp.path().join(".built"), b"").map_err(|e| Error::write(tmp.path(), e))?;
    let tmp = tmp.keep();
    // rename is atomic: a concurrent judge sees either no build or a whole one; when
    // another judge got there first, its build (the same one) stands.
    let mut placed = std::fs::rename(&tmp, dir);
    if placed.is_err() && dir.is_dir() && !dir.join(".built").is_file() {
        // A folder without its mark was never whole (builds arrive whole, by rename): what a
        // removal cut short left, which the lookup passed over. It gives way to this build.
        let _ = std::fs::remove_dir_all(dir);
        placed = std::fs::rename(&tmp, dir);
    }
    if placed.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.join(".built").is_file() {
            return Err(Error::rename(
                dir,
                std::io::Error::other("the build could not be kept"),
            ));
        }
    }
    Ok(())
}

/// A compile error's text, and whether the same source would fail the same way again.
struct Failure {
    text: String,
    deterministic: bool,
}

/// The compile error of a build that made no program (`made`) or did not end cleanly.
fn failure(language: &Language, ending: Ending, made: bool) -> Result<Failure> {
    let scripts = language.kind == Kind::Scripts;
    // The compiler said the source was fine and yet there is no program: the build folder was
    // changed under it. No CE: that would be remembered as the source's.
    if ending.clean && !made && !scripts {
        return Err(Error::NoProgramMade {
            language: language.name.clone(),
        });
    }
    let mut reason = ending
        .stopped
        .map(|why| format!("compilation stopped: {why}\n"))
        .unwrap_or_default();
    if ending.clean && !made && scripts {
        reason = format!("the build script made no executable `{}`\n", source::RUN);
    }
    let text = format!("{reason}{}", ending.diagnostics);
    Ok(Failure {
        deterministic: reason.is_empty() && !tool_killed(&text),
        text,
    })
}
