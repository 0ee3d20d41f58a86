//! Building programs like an online judge, in any language, and the cache that makes an unchanged source never build twice.
//!
//! A build copies the source into a fresh folder, runs the language's compile command there
//! (through the runner, under a wall-clock limit, a memory limit and a disk quota, its temporary
//! files in a `TMPDIR` of its own beside the folder) and keeps the folder, renamed
//! atomically into the cache under a hash of everything that decides the result: the source,
//! the commands, the flags and the identity of every program involved ([`identity`]). The
//! folder is what runs: a binary, class files, or the checked copy of a script.

mod build;
mod cache;
mod compiler;
pub mod identity;
pub mod source;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use cache::Cache;
pub use identity::{Tool, Toolchains};
pub use source::Source;

use crate::error::Result;
use crate::lang::{Kind, Language, RustSettings, Vars};
use crate::model::SourceDigest;
use judge_runner::Executor;

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
    /// A function problem's solution in LeetCode's form, built with its harness: a run that
    /// ends with the harness's exit status is judged by what the harness said.
    pub harness: bool,
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
            harness: false,
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
    let started = Instant::now();
    // The exact bytes hashed are the bytes compiled: an editor saving meanwhile cannot
    // put one version's build under another version's key.
    let mut files = source::files(source)?;
    let digest = source::digest(source, &files);
    let ce = |diagnostics: String| CompileError {
        diagnostics: format!("{diagnostics}\n"),
        cached: false,
        duration: started.elapsed(),
        source: digest.clone(),
    };
    let harness = match source::with_harness(source, &toolchain.language, &mut files) {
        Ok(wrapped) => wrapped,
        Err(missing) => return Ok(Err(ce(missing.0))),
    };
    let plan = match Plan::new(source, toolchain, &mut files) {
        Ok(plan) => plan,
        Err(why) => return Ok(Err(ce(why.to_string()))),
    };
    // A build made with the files open (`--no-sandbox`, or by a judge without the sandbox)
    // may hold any file the compiler could read (an `include_str!` of an answer): never one
    // for a sandboxed run, nor a sandboxed build's error for an open one.
    let sandboxed = executor.sandbox().isolates("files");
    let key = cache_key(&files, &plan, sandboxed);
    let (kept, cached, duration) = match lookup(cache, &key) {
        Some(kept) => (kept, true, started.elapsed()),
        None => {
            let at = build::At {
                cache,
                key: &key,
                cwd,
                started,
            };
            let (kept, duration) = build::build(&plan, &files, at, executor)?;
            (kept, false, duration)
        }
    };
    Ok(match kept {
        Kept::Program(dir) => Ok(Built {
            program: Program {
                harness,
                ..plan.program(dir)
            },
            cached,
            duration,
            source: digest,
        }),
        Kept::Diagnostics(diagnostics) => Err(CompileError {
            diagnostics,
            cached,
            duration,
            source: digest,
        }),
    })
}

/// What a build of one source is, worked out before anything runs or is looked up: the
/// toolchain, the variables its commands are rendered with, and where the program starts.
struct Plan<'a> {
    source: &'a Source,
    toolchain: &'a Toolchain,
    vars: Vars,
    /// The file the program starts from, in the build folder (`run` for a folder of scripts).
    entry: PathBuf,
    /// Every source file the compiler is given, in the build folder.
    sources: Vec<PathBuf>,
    in_folder: bool,
}

impl<'a> Plan<'a> {
    /// The plan of `source`, or why its files make no program (its CE).
    fn new(
        source: &'a Source,
        toolchain: &'a Toolchain,
        files: &mut [source::File],
    ) -> std::result::Result<Plan<'a>, source::LayoutError> {
        let Toolchain {
            language, settings, ..
        } = toolchain;
        let mut vars = rust_vars(settings);
        if settings.checks {
            vars.checks = language.checks.clone();
        }
        let in_folder = source.path.is_dir();
        let (entry, sources) = if language.kind == Kind::Scripts {
            (PathBuf::from(source::RUN), Vec::new())
        } else {
            let folder = source.path.file_name().and_then(|n| n.to_str());
            let lone = source
                .path
                .file_name()
                .map(Path::new)
                .filter(|_| !in_folder);
            let place = (folder.filter(|_| in_folder), lone);
            let layout = source::layout(files, language, place, source.entry.as_deref())?;
            if let Some(class) = layout.class {
                vars.class = class;
            }
            (layout.entry, layout.sources)
        };
        vars.file = entry
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        vars.stem = entry
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Plan {
            source,
            toolchain,
            vars,
            entry,
            sources,
            in_folder,
        })
    }

    /// The program as built in `dir`: its commands' paths point there.
    fn program(&self, dir: PathBuf) -> Program {
        let mut vars = self.vars.clone();
        vars.dir = dir.display().to_string();
        vars.binary = dir.join("solution").display().to_string();
        vars.source = dir.join(&self.entry).display().to_string();
        vars.sources = self
            .sources
            .iter()
            .map(|s| dir.join(s).display().to_string())
            .collect();
        Program {
            language: self.toolchain.language.clone(),
            source: self.source.path.clone(),
            dir,
            runtime: self.toolchain.runtime.clone(),
            in_folder: self.in_folder,
            harness: false,
            vars,
        }
    }
}

/// What a build leaves in the cache: the folder holding the program, or the compile error.
enum Kept {
    Program(PathBuf),
    Diagnostics(String),
}

/// What the cache holds under `key`, in the cache then its spare. A build folder counts only
/// with its `.built` mark, written last: a folder half made, or emptied since, is built again.
fn lookup(cache: &Cache, key: &str) -> Option<Kept> {
    for place in cache.places() {
        let dir = place.build(key);
        if dir.join(".built").is_file() {
            return Some(Kept::Program(dir));
        }
        if let Ok(diagnostics) = std::fs::read_to_string(place.diagnostics(key)) {
            return Some(Kept::Diagnostics(diagnostics));
        }
    }
    None
}

/// The hash of everything that decides a build's result: the files, the commands and their
/// settings, the identity of every program involved, and whether the compiler ran sandboxed.
fn cache_key(files: &[source::File], plan: &Plan, sandboxed: bool) -> String {
    let (language, vars) = (&plan.toolchain.language, &plan.vars);
    let entry = plan.source.entry.as_deref();
    let tools = [&plan.toolchain.compiler, &plan.toolchain.runtime];
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
