//! Compiling solutions like an online judge, and the binary cache that makes an unchanged source never compile twice.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::run::{self, KilledBy, Outcome, Runner};

/// The flags every solution is compiled with (part of the cache key).
pub const FLAGS: &[&str] = &[
    "--edition",
    "2021",
    "-O",
    "--cfg",
    "online_judge",
    "--crate-type",
    "bin",
    "--crate-name",
    "solution",
];

/// Default wall-clock limit of one compilation.
pub const DEFAULT_COMPILE_TIME: Duration = Duration::from_secs(60);
/// The compiler is stopped if its resident memory goes over this.
const COMPILE_MEMORY: u64 = 4 << 30;
/// Diagnostics kept from one compilation.
const DIAGNOSTICS_KEEP: u64 = 256 << 10;

/// The Rust compiler in use.
#[derive(Debug, Clone)]
pub struct Toolchain {
    pub rustc: PathBuf,
    /// `rustc -vV`, the compiler's identity in the cache key.
    pub verbose_version: String,
}

impl Toolchain {
    /// `$JUDGE_RUSTC` or `rustc` from PATH, as rustup resolves it in the workspace.
    pub fn detect(workspace_root: &Path) -> Result<Toolchain> {
        let rustc = std::env::var_os("JUDGE_RUSTC")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("rustc"));
        let out = std::process::Command::new(&rustc)
            .arg("-vV")
            .current_dir(workspace_root)
            .output()
            .map_err(|e| Error::Toolchain(format!("running `{} -vV`: {e}", rustc.display())))?;
        if !out.status.success() {
            return Err(Error::Toolchain(format!(
                "`{} -vV` failed: {}",
                rustc.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        Ok(Toolchain {
            rustc,
            verbose_version: String::from_utf8_lossy(&out.stdout).into_owned(),
        })
    }

    /// "rustc 1.95.0 (59807616e 2026-04-14)"
    pub fn version(&self) -> &str {
        self.verbose_version
            .lines()
            .next()
            .unwrap_or("rustc")
            .trim()
    }
}

/// A compiled solution.
#[derive(Debug, Clone)]
pub struct Binary {
    pub path: PathBuf,
    /// Taken from the cache: nothing was compiled.
    pub cached: bool,
    pub duration: Duration,
    /// The cache key: a hash of the source, the compiler and the flags.
    pub key: String,
}

/// Why a solution did not compile. Its verdict is CE.
#[derive(Debug, Clone)]
pub struct CompileError {
    pub diagnostics: String,
    pub cached: bool,
    pub duration: Duration,
}

/// The binary cache under `.judge/cache` (or `$JUDGE_CACHE_DIR`).
#[derive(Debug, Clone)]
pub struct Cache {
    pub dir: PathBuf,
}

impl Cache {
    pub fn new(default_dir: PathBuf) -> Cache {
        Cache {
            dir: std::env::var_os("JUDGE_CACHE_DIR")
                .map(PathBuf::from)
                .unwrap_or(default_dir),
        }
    }

    fn binary(&self, key: &str) -> PathBuf {
        self.dir.join("bin").join(key)
    }

    fn diagnostics(&self, key: &str) -> PathBuf {
        self.dir.join("ce").join(format!("{key}.txt"))
    }
}

/// Options of one compilation.
#[derive(Debug, Clone)]
pub struct CompileOptions {
    pub time_limit: Duration,
    /// Working directory of the compiler (rustup reads rust-toolchain files from there).
    pub cwd: PathBuf,
}

/// Compiles `source` unless the cache already holds its binary (or its compile error).
pub fn compile(
    source: &Path,
    toolchain: &Toolchain,
    cache: &Cache,
    runner: &mut Runner,
    options: &CompileOptions,
) -> Result<std::result::Result<Binary, CompileError>> {
    let started = Instant::now();
    // The exact bytes hashed are the bytes compiled: an editor saving meanwhile cannot
    // put one version's binary under another version's key.
    let code = std::fs::read(source).map_err(|e| Error::io(source, e))?;
    let file_name = source
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("solution.rs")
        .to_string();
    let key = cache_key(&code, &file_name, toolchain);
    let bin = cache.binary(&key);
    if bin.is_file() {
        return Ok(Ok(Binary {
            path: bin,
            cached: true,
            duration: started.elapsed(),
            key,
        }));
    }
    let ce = cache.diagnostics(&key);
    if let Ok(diagnostics) = std::fs::read_to_string(&ce) {
        return Ok(Err(CompileError {
            diagnostics,
            cached: true,
            duration: started.elapsed(),
        }));
    }

    let tmp_root = cache.dir.join("tmp");
    for d in [&tmp_root, &cache.dir.join("bin"), &cache.dir.join("ce")] {
        std::fs::create_dir_all(d).map_err(|e| Error::io(d, e))?;
    }
    let tmp = tempfile::Builder::new()
        .prefix("build-")
        .tempdir_in(&tmp_root)
        .map_err(|e| Error::io(&tmp_root, e))?;
    run::interrupt::register_temp_dir(tmp.path());
    let result = compile_in(tmp.path(), &code, &file_name, toolchain, runner, options);
    run::interrupt::unregister_temp_dir(tmp.path());
    let (outcome, killed_by, diagnostics) = result?;
    let duration = started.elapsed();
    let out = tmp.path().join("solution");
    match (outcome, killed_by) {
        (Outcome::Exited(0), None) if out.is_file() => {
            // rename is atomic: a concurrent judge sees either no binary or a whole one.
            std::fs::rename(&out, &bin).map_err(|e| Error::io(&bin, e))?;
            Ok(Ok(Binary {
                path: bin,
                cached: false,
                duration,
                key,
            }))
        }
        (outcome, killed_by) => {
            let reason = match (killed_by, &outcome) {
                (Some(KilledBy::WallCap), _) => format!(
                    "compilation stopped: it took longer than {} s\n",
                    options.time_limit.as_secs_f64()
                ),
                (Some(KilledBy::MemoryLimit), _) => format!(
                    "compilation stopped: the compiler used more than {} GiB of memory\n",
                    COMPILE_MEMORY >> 30
                ),
                (_, Outcome::SpawnFailed(why)) => {
                    return Err(Error::Toolchain(format!("starting the compiler: {why}")))
                }
                (_, Outcome::Signaled(sig)) => {
                    format!("the compiler was killed by {}\n", run::signal_name(*sig))
                }
                _ => String::new(),
            };
            let diagnostics = format!("{reason}{diagnostics}");
            // Only a compiler's own verdict is deterministic enough to cache.
            if reason.is_empty() {
                let _ = std::fs::write(&ce, &diagnostics);
            }
            Ok(Err(CompileError {
                diagnostics,
                cached: false,
                duration,
            }))
        }
    }
}

fn compile_in(
    dir: &Path,
    code: &[u8],
    file_name: &str,
    toolchain: &Toolchain,
    runner: &mut Runner,
    options: &CompileOptions,
) -> Result<(Outcome, Option<KilledBy>, String)> {
    let src = dir.join(file_name);
    std::fs::write(&src, code).map_err(|e| Error::io(&src, e))?;
    let mut args: Vec<String> = FLAGS.iter().map(|s| s.to_string()).collect();
    args.extend([
        "-o".to_string(),
        dir.join("solution").display().to_string(),
        // Diagnostics and panic locations name the file alone, never the temp dir.
        "--remap-path-prefix".to_string(),
        format!("{}/=", dir.display()),
        "--color".to_string(),
        "always".to_string(),
        src.display().to_string(),
    ]);
    let box_dir = dir.join("box");
    std::fs::create_dir_all(&box_dir).map_err(|e| Error::io(&box_dir, e))?;
    let request = run::Request {
        program: toolchain.rustc.clone(),
        args,
        env: None,
        cwd: options.cwd.clone(),
        clean_cwd: false,
        stdin: None,
        stdout: dir.join("rustc.stdout"),
        stderr: dir.join("rustc.stderr"),
        limits: run::Limits {
            cpu_ms: None,
            wall_ms: options.time_limit.as_millis() as u64,
            memory_bytes: Some(COMPILE_MEMORY),
            address_space_bytes: None,
            stack_bytes: None,
            file_size_bytes: Some(1 << 30),
            open_files: None,
            stderr_keep_bytes: DIAGNOSTICS_KEEP,
        },
    };
    let response = runner.run(&request)?;
    let stderr = std::fs::read(dir.join("rustc.stderr")).unwrap_or_default();
    Ok((
        response.outcome,
        response.killed_by,
        String::from_utf8_lossy(&stderr).into_owned(),
    ))
}

fn cache_key(code: &[u8], file_name: &str, toolchain: &Toolchain) -> String {
    let mut h = blake3::Hasher::new();
    for part in [
        code,
        file_name.as_bytes(),
        toolchain.verbose_version.as_bytes(),
        FLAGS.join(" ").as_bytes(),
    ] {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part);
    }
    h.finalize().to_hex()[..32].to_string()
}
