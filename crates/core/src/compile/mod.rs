//! Building programs like an online judge, in any language, and the cache that makes an unchanged source never build twice.
//!
//! A build copies the source into a fresh folder, runs the language's compile command there
//! (through the runner, under a wall-clock limit, a memory limit and a disk quota, its temporary
//! files in a `TMPDIR` of its own beside the folder) and keeps the folder, renamed
//! atomically into the cache under a hash of everything that decides the result: the source,
//! the commands, the flags and the identity of every program involved ([`identity`]). The
//! folder is what runs: a binary, class files, or the checked copy of a script.

mod cache;
mod compiler;
pub mod identity;
pub mod installed;
pub mod source;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use cache::Cache;
pub use identity::{Tool, Toolchains};
pub use source::Source;

use crate::error::{Error, Result};
use crate::lang::{Kind, Language, RustSettings, Vars};
use crate::model::SourceDigest;
use crate::verdict::{describe_stop, Measurement};
use compiler::{compile_limits, run_compiler, tool_killed, toolchain_files};
use judge_runner::{self as run, Executor, Outcome};

/// Default wall-clock limit of one compilation.
pub const DEFAULT_COMPILE_TIME: Duration = Duration::from_secs(60);
/// The Rust edition when none is set.
pub const DEFAULT_EDITION: &str = "2021";

/// How to build, beyond the language: Rust's settings and `--checks`.
#[derive(Debug, Clone, Default)]
pub struct BuildSettings {
    pub rust: RustSettings,
    /// Compile with the language's extra checks (Rust: overflow checks, debug assertions).
    pub checks: bool,
    pub time_limit: Duration,
    /// The compiler's memory, when a package sets it (`limits.compilation_memory`).
    pub memory_bytes: Option<u64>,
}

/// A built program, ready to run.
#[derive(Debug, Clone)]
pub struct Program {
    pub language: Arc<Language>,
    /// The source it was built from.
    pub source: PathBuf,
    /// The cache folder holding what the build made.
    pub dir: PathBuf,
    /// The interpreter (or virtual machine) it runs on; `None` for a native binary.
    pub runtime: Option<Arc<Tool>>,
    /// Built from a folder: it runs in its build folder (read only), where the package format
    /// puts a program's files, so a `run` script or a program may open them by name.
    pub in_folder: bool,
    vars: Vars,
}

impl Program {
    /// The program and arguments that run it with `memory_bytes` of memory.
    pub fn command(&self, memory_bytes: u64) -> (PathBuf, Vec<String>) {
        let vars = Vars {
            memory_mb: (memory_bytes >> 20).max(1),
            ..self.vars.clone()
        };
        let mut argv = self.language.run.render(&vars);
        let program = match &self.runtime {
            Some(t) => t.program.clone(),
            None => PathBuf::from(&argv[0]),
        };
        argv.remove(0);
        (program, argv)
    }

    /// What running it reads, sandboxed: its build folder and its runtime's installation.
    pub fn read_access(&self) -> Vec<PathBuf> {
        let mut paths = vec![self.dir.clone()];
        if let Some(tool) = &self.runtime {
            paths.extend(tool.install_roots());
        }
        paths
    }

    /// The language's code and the entry point, as a static validator is told them: the
    /// file that starts it, or Java's class.
    pub fn entry_point(&self) -> (String, String) {
        let entry = if self.vars.class.is_empty() {
            self.vars.file.clone()
        } else {
            self.vars.class.clone()
        };
        (self.language.code.clone(), entry)
    }

    /// A program that is not a build (an installed tool, a test's stand-in): `path` run as it is.
    pub fn native(path: &Path) -> Program {
        let language = crate::lang::builtin::languages()
            .into_iter()
            .find(|l| l.id == "c")
            .expect("C is built in");
        Program {
            language: Arc::new(language),
            source: path.to_path_buf(),
            dir: path.parent().unwrap_or(Path::new("/")).to_path_buf(),
            runtime: None,
            in_folder: false,
            vars: Vars {
                binary: path.display().to_string(),
                ..Vars::default()
            },
        }
    }
}

/// A build that worked.
#[derive(Debug, Clone)]
pub struct Built {
    pub program: Program,
    /// Taken from the cache: nothing was compiled.
    pub cached: bool,
    pub duration: Duration,
    /// The solution's file as this build read it.
    pub source: Option<SourceDigest>,
}

/// Why a program did not compile. Its verdict is CE.
#[derive(Debug, Clone)]
pub struct CompileError {
    pub diagnostics: String,
    pub cached: bool,
    pub duration: Duration,
    /// The solution's file as this build read it.
    pub source: Option<SourceDigest>,
}

/// A language made ready to build with, worked out once per build: the programs it needs
/// found (an error names the one that is missing), the settings, and the compiler's identity.
#[derive(Debug, Clone)]
pub struct Toolchain {
    pub language: Arc<Language>,
    /// The compiler, for a language that compiles.
    compiler: Option<Arc<Tool>>,
    /// The interpreter (or virtual machine), for a language that has one.
    runtime: Option<Arc<Tool>>,
    pub settings: BuildSettings,
    /// The compiler's identity as reports show it: "g++ (Debian 12.2.0-14) 12.2.0".
    pub identity: String,
}

impl Toolchain {
    pub fn find(
        language: Arc<Language>,
        tools: &Toolchains,
        settings: BuildSettings,
    ) -> Result<Toolchain> {
        let vars = rust_vars(&settings);
        let compiler = match &language.compile {
            Some(c) => tools.tool(&language, c, &vars)?,
            None => None,
        };
        let runtime = tools.tool(&language, &language.run, &vars)?;
        // A folder's own `build` script has no version: it is named for what it is.
        let identity = tools
            .tool(&language, language.identity_program(), &vars)?
            .map_or_else(|| language.name.clone(), |t| t.version_line());
        Ok(Toolchain {
            language,
            compiler,
            runtime,
            settings,
            identity,
        })
    }
}

fn rust_vars(settings: &BuildSettings) -> Vars {
    Vars {
        edition: settings
            .rust
            .edition
            .clone()
            .unwrap_or_else(|| DEFAULT_EDITION.into()),
        toolchain: settings
            .rust
            .toolchain
            .as_ref()
            .map(|t| format!("+{t}"))
            .unwrap_or_default(),
        ..Vars::default()
    }
}

/// Builds `source` with `toolchain` unless the cache already holds the result (or the compile
/// error: the same source and compiler always fail the same way).
pub fn compile(
    source: &Source,
    toolchain: &Toolchain,
    cache: &Cache,
    executor: &mut dyn Executor,
    cwd: &Path,
) -> Result<std::result::Result<Built, CompileError>> {
    let Toolchain {
        language,
        compiler,
        runtime,
        settings,
        ..
    } = toolchain;
    let started = Instant::now();
    // The exact bytes hashed are the bytes compiled: an editor saving meanwhile cannot
    // put one version's build under another version's key.
    let mut files = source::files(source)?;
    let digest = source::digest(source, &files);
    let mut vars = rust_vars(settings);
    if settings.checks {
        vars.checks = language.checks.clone();
    }
    let in_folder = source.path.is_dir();
    let layout = if language.kind == Kind::Scripts {
        Ok(None)
    } else {
        let folder = source.path.file_name().and_then(|n| n.to_str());
        let lone = source
            .path
            .file_name()
            .map(Path::new)
            .filter(|_| !in_folder);
        let place = (folder.filter(|_| in_folder), lone);
        source::layout(&mut files, language, place, source.entry.as_deref()).map(Some)
    };
    let layout = match layout {
        Ok(l) => l,
        Err(why) => {
            return Ok(Err(CompileError {
                diagnostics: format!("{why}\n"),
                cached: false,
                duration: started.elapsed(),
                source: digest.clone(),
            }))
        }
    };
    let (entry, sources) = match &layout {
        Some(l) => (l.entry.clone(), l.sources.clone()),
        None => (PathBuf::from(source::RUN), Vec::new()),
    };
    if let Some(class) = layout.as_ref().and_then(|l| l.class.clone()) {
        vars.class = class;
    }
    vars.file = entry
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    vars.stem = entry
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    // A build made with the files open (`--no-sandbox`, or by a judge without the sandbox)
    // may hold any file the compiler could read (an `include_str!` of an answer): never one
    // for a sandboxed run, nor a sandboxed build's error for an open one.
    let sandboxed = executor.sandbox().isolates("files");
    let key = cache_key(
        (&files, source.entry.as_deref()),
        language,
        &vars,
        [compiler, runtime],
        sandboxed,
    );
    let program = |dir: PathBuf| {
        let mut vars = vars.clone();
        vars.dir = dir.display().to_string();
        vars.binary = dir.join("solution").display().to_string();
        vars.source = dir.join(&entry).display().to_string();
        vars.sources = sources
            .iter()
            .map(|s| dir.join(s).display().to_string())
            .collect();
        Program {
            language: language.clone(),
            source: source.path.clone(),
            dir,
            runtime: runtime.clone(),
            in_folder,
            vars,
        }
    };
    for kept in cache.places() {
        let dir = kept.build(&key);
        if dir.join(".built").is_file() {
            return Ok(Ok(Built {
                program: program(dir),
                cached: true,
                duration: started.elapsed(),
                source: digest.clone(),
            }));
        }
        if let Ok(diagnostics) = std::fs::read_to_string(kept.diagnostics(&key)) {
            return Ok(Err(CompileError {
                diagnostics,
                cached: true,
                duration: started.elapsed(),
                source: digest.clone(),
            }));
        }
    }

    let store = cache.store()?;
    let (dir, ce) = (store.build(&key), store.diagnostics(&key));
    let tmp_root = crate::paths::cache::tmp(&store.dir);
    let builds = crate::paths::cache::builds(&store.dir);
    for d in [
        &tmp_root,
        &builds,
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
    // The compiler's own files (GCC's assembly and object files) go beside the build, never in it.
    let (tmp, scratch) = (temp_dir("build-")?, temp_dir("compiler-")?);
    let result = (|| {
        source::write(tmp.path(), &files)?;
        let Program { vars, .. } = program(tmp.path().to_path_buf());
        let env = language
            .compile_env
            .iter()
            .map(|(k, v)| {
                let v = crate::lang::Command::parse(&[v.as_str()])
                    .map_or_else(|_| v.clone(), |c| c.render(&vars).join(" "));
                (k.clone(), v)
            })
            .collect();
        match (&language.compile, compiler) {
            (Some(command), Some(tool)) => {
                let mut argv = command.render(&vars);
                argv[0] = tool.program.display().to_string();
                let reads = [
                    tool.install_roots(),
                    toolchain_files(cwd),
                    language.compile_reads.clone(),
                ]
                .concat();
                let at = (tmp.path(), scratch.path(), cwd);
                run_compiler(at, argv, (reads, env), executor, settings).map(Some)
            }
            // The format's `build` script, run in the copy of its folder.
            (Some(_), None) if language.kind == Kind::Scripts => {
                match source::prepare_scripts(tmp.path())? {
                    Some(build) => {
                        let argv = vec![build.display().to_string()];
                        let at = (tmp.path(), scratch.path(), tmp.path());
                        // The copy is written and also run from: `build` itself, and what it
                        // makes and calls (a generated program, a helper script).
                        let reads = vec![tmp.path().to_path_buf()];
                        run_compiler(at, argv, (reads, env), executor, settings).map(Some)
                    }
                    None => Ok(None),
                }
            }
            _ => Ok(None),
        }
    })();
    for dir in [&tmp, &scratch] {
        run::interrupt::unregister_temp_dir(dir.path());
    }
    // Ctrl-C or SIGTERM meanwhile removed the build folder under the compiler, which then
    // fails for that alone: nothing of it is kept (the handler is ending the process).
    run::interrupt::wait_if_interrupted();
    let duration = started.elapsed();
    let result = result?;
    // Nothing to compile: an interpreter without a check, a `run` script without `build`.
    let nothing = result.is_none();
    let (response, diagnostics) = match result {
        Some(r) => r,
        None => (run::Response::not_started(String::new()), String::new()),
    };
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
    let made = match language.kind {
        // What `build` left must hold the program: `run`.
        Kind::Scripts => source::finish_scripts(tmp.path())?,
        Kind::Java => true,
        _ => {
            language.kind != Kind::Rust && !language.run.runs_build_output()
                || tmp.path().join("solution").is_file()
        }
    };
    let mut diagnostics = diagnostics;
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
    if clean && made {
        std::fs::write(tmp.path().join(".built"), b"").map_err(|e| Error::write(tmp.path(), e))?;
        let tmp = tmp.keep();
        // rename is atomic: a concurrent judge sees either no build or a whole one; when
        // another judge got there first, its build (the same one) stands.
        if std::fs::rename(&tmp, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
            if !dir.join(".built").is_file() {
                return Err(Error::rename(
                    &dir,
                    std::io::Error::other("the build could not be kept"),
                ));
            }
        }
        return Ok(Ok(Built {
            program: program(dir),
            cached: false,
            duration,
            source: digest,
        }));
    }
    // The compiler said the source was fine and yet there is no program: the build folder was
    // changed under it. No CE: that would be remembered as the source's.
    if clean && !made && language.kind != Kind::Scripts {
        return Err(Error::NoProgramMade {
            language: language.name.clone(),
        });
    }
    let mut reason = stopped
        .map(|why| format!("compilation stopped: {why}\n"))
        .unwrap_or_default();
    if clean && !made && language.kind == Kind::Scripts {
        reason = format!("the build script made no executable `{}`\n", source::RUN);
    }
    let diagnostics = format!("{reason}{diagnostics}");
    // Only a compiler's own verdict is deterministic enough to cache: not a stop, nor one of
    // its tools (the linker, cc1plus) killed by a signal, which its driver reports as a failure.
    if reason.is_empty() && !tool_killed(&diagnostics) {
        let _ = crate::atomic::replace(&ce, diagnostics.as_bytes());
    }
    Ok(Err(CompileError {
        diagnostics,
        cached: false,
        duration,
        source: digest,
    }))
}

fn cache_key(
    (files, entry): (&[source::File], Option<&str>),
    language: &Language,
    vars: &Vars,
    tools: [&Option<Arc<Tool>>; 2],
    sandboxed: bool,
) -> String {
    let mut h = blake3::Hasher::new();
    let mut part = |bytes: &[u8]| {
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    part(if sandboxed { b"sandboxed" } else { b"open" });
    for f in files {
        part(f.rel.as_os_str().as_encoded_bytes());
        part(&f.bytes);
        part(if f.executable { b"x" } else { b"-" });
    }
    part(language.id.as_bytes());
    let compile = language
        .compile
        .as_ref()
        .map(|c| c.to_string())
        .unwrap_or_default();
    part(compile.as_bytes());
    part(language.run.to_string().as_bytes());
    part(vars.checks.join(" ").as_bytes());
    part(vars.edition.as_bytes());
    part(vars.toolchain.as_bytes());
    part(vars.class.as_bytes());
    // Only where a package names it, so that every other build keeps its key.
    if let Some(entry) = entry {
        part(entry.as_bytes());
    }
    for tool in tools {
        match tool {
            Some(t) => {
                part(t.program.as_os_str().as_encoded_bytes());
                part(t.identity.as_bytes());
            }
            None => part(b"-"),
        }
    }
    h.finalize().to_hex()[..32].to_string()
}

#[cfg(test)]
mod tests;
