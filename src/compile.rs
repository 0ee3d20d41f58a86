//! Compiling solutions like an online judge, and the binary cache that makes an unchanged source never compile twice.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::run::{self, Executor, Outcome};
use crate::verdict::{describe_stop, Limits, Measurement};

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
/// The largest file a compiler may write (the binary among them).
const COMPILE_OUTPUT: u64 = 1 << 30;
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

    /// Like [`Toolchain::detect`], but remembers `rustc -vV` in `memo_dir` under a fingerprint of
    /// everything that decides which compiler `rustc` is, so that a warm start does not pay for
    /// running the compiler (10-30 ms through rustup's proxy). See [`compiler_fingerprint`] for
    /// why a remembered identity cannot be stale. Anything unusual falls back to running it.
    pub fn detect_memoized(workspace_root: &Path, memo_dir: &Path) -> Result<Toolchain> {
        let rustc = std::env::var_os("JUDGE_RUSTC")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("rustc"));
        let Some(fingerprint) = compiler_fingerprint(&rustc, workspace_root) else {
            return Toolchain::detect(workspace_root);
        };
        let memo = memo_dir.join(fingerprint);
        if let Ok(verbose_version) = std::fs::read_to_string(&memo) {
            if verbose_version.starts_with("rustc ") {
                return Ok(Toolchain {
                    rustc,
                    verbose_version,
                });
            }
        }
        let toolchain = Toolchain::detect(workspace_root)?;
        // Written whole then renamed: a judge starting meanwhile reads all of it or nothing.
        if std::fs::create_dir_all(memo_dir).is_ok() {
            if let Ok(tmp) = tempfile::NamedTempFile::new_in(memo_dir) {
                if std::fs::write(tmp.path(), &toolchain.verbose_version).is_ok() {
                    let _ = tmp.persist(&memo);
                }
            }
        }
        Ok(toolchain)
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
    executor: &mut dyn Executor,
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
    let result = compile_in(tmp.path(), &code, &file_name, toolchain, executor, options);
    run::interrupt::unregister_temp_dir(tmp.path());
    let (response, diagnostics) = result?;
    let duration = started.elapsed();
    let out = tmp.path().join("solution");
    let stopped = describe_stop(&Measurement::of(&response), &compile_limits(options));
    match (&response.outcome, stopped) {
        (Outcome::SpawnFailed(why), _) => {
            Err(Error::Toolchain(format!("starting the compiler: {why}")))
        }
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
        (_, stopped) => {
            let reason = stopped
                .map(|why| format!("compilation stopped: {why}\n"))
                .unwrap_or_default();
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
    executor: &mut dyn Executor,
    options: &CompileOptions,
) -> Result<(run::Response, String)> {
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
            file_size_bytes: Some(COMPILE_OUTPUT),
            open_files: None,
            stderr_keep_bytes: DIAGNOSTICS_KEEP,
        },
    };
    let response = executor.run(&request)?;
    let stderr = std::fs::read(dir.join("rustc.stderr")).unwrap_or_default();
    Ok((response, String::from_utf8_lossy(&stderr).into_owned()))
}

/// A compilation's limits as the verdict rules read them: no CPU limit, only the wall clock.
fn compile_limits(options: &CompileOptions) -> Limits {
    Limits {
        time: Duration::MAX,
        wall: options.time_limit,
        memory_bytes: COMPILE_MEMORY,
        output_bytes: COMPILE_OUTPUT,
    }
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

/// A hash of everything that decides which compiler `rustc` (as run from `workspace_root`) is,
/// read from the file system without running anything; `None` when that cannot be told.
///
/// The compiler's identity (`rustc -vV`) is part of the binary cache key, so a stale identity
/// would hand out a binary built by another compiler. The fingerprint therefore covers every
/// input of the two ways `rustc` is resolved:
/// - the program itself: the file PATH (or `$JUDGE_RUSTC`) resolves to, and the file it finally
///   is (device, inode, size, mtime, ctime: replacing or rewriting it changes them), and the
///   `lib` folder beside it (a new `librustc_driver-*.so` changes the folder's times);
/// - rustup's choice of toolchain, when that program is rustup's proxy: the environment it reads
///   (`RUSTUP_*`, `CARGO_HOME`, `HOME`), its `settings.toml` (default toolchain, per-folder
///   overrides), the `rust-toolchain` and `rust-toolchain.toml` files from the workspace root
///   up to `/` with the root's own path, the `toolchains` folder (a toolchain installed, removed
///   or linked changes its times) and, for every toolchain, its `bin/rustc` and the manifest
///   rustup rewrites on every update (following links, so a linked local build is covered).
///
/// These are hashed whether or not the program is rustup: an input that does not matter can
/// only cause a miss, never a stale hit. A program that is not an ELF executable (a wrapper
/// script may pick a compiler by any rule) is never fingerprinted: it is always run.
fn compiler_fingerprint(rustc: &Path, workspace_root: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let resolved = if rustc.components().count() > 1 {
        // A relative path is run from the workspace root, as `detect` and the compiler are.
        workspace_root.join(rustc)
    } else {
        std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|dir| dir.join(rustc))
            .find(|p| p.is_file())?
    };
    let real = std::fs::canonicalize(&resolved).ok()?;
    let mut magic = [0u8; 4];
    std::io::Read::read_exact(&mut std::fs::File::open(&real).ok()?, &mut magic).ok()?;
    if &magic != b"\x7fELF" {
        return None;
    }

    let mut h = blake3::Hasher::new();
    let mut part = |bytes: &[u8]| {
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    let stat = |p: &Path| -> Vec<u8> {
        match std::fs::metadata(p) {
            Ok(m) => format!(
                "{} {} {} {}.{} {}.{}",
                m.dev(),
                m.ino(),
                m.len(),
                m.mtime(),
                m.mtime_nsec(),
                m.ctime(),
                m.ctime_nsec()
            )
            .into_bytes(),
            Err(_) => b"absent".to_vec(),
        }
    };
    part(resolved.as_os_str().as_encoded_bytes());
    part(real.as_os_str().as_encoded_bytes());
    part(&stat(&real));
    if let Some(dir) = real.parent().and_then(Path::parent) {
        part(&stat(&dir.join("lib")));
    }

    let mut env: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.to_string_lossy().into_owned())))
        .filter(|(k, _)| k.starts_with("RUSTUP_") || k == "CARGO_HOME" || k == "HOME")
        .collect();
    env.sort();
    for (k, v) in &env {
        part(format!("{k}={v}").as_bytes());
    }
    let rustup_home = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".rustup")));
    if let Some(home) = rustup_home {
        part(&std::fs::read(home.join("settings.toml")).unwrap_or_default());
        let toolchains = home.join("toolchains");
        part(&stat(&toolchains));
        let mut names: Vec<PathBuf> = std::fs::read_dir(&toolchains)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        names.sort();
        for t in names {
            part(t.as_os_str().as_encoded_bytes());
            part(&stat(&t.join("bin").join("rustc")));
            part(&stat(
                &t.join("lib/rustlib/multirust-channel-manifest.toml"),
            ));
        }
    }
    let root = std::fs::canonicalize(workspace_root).ok()?;
    part(root.as_os_str().as_encoded_bytes());
    for dir in root.ancestors() {
        for name in ["rust-toolchain", "rust-toolchain.toml"] {
            match std::fs::read(dir.join(name)) {
                Ok(text) => part(&text),
                Err(_) => part(b"absent"),
            }
        }
    }
    Some(h.finalize().to_hex()[..32].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in compiler: any ELF file will do for the fingerprint, which never runs it.
    fn fake_rustc(dir: &Path) -> PathBuf {
        let bin = dir.join("toolchain/bin");
        std::fs::create_dir_all(&bin).unwrap();
        let rustc = bin.join("rustc");
        std::fs::write(&rustc, b"\x7fELF and the rest").unwrap();
        rustc
    }

    #[test]
    fn the_fingerprint_follows_the_compiler_and_the_toolchain_files() {
        let dir = tempfile::tempdir().unwrap();
        let rustc = fake_rustc(dir.path());
        let root = dir.path().join("ws");
        std::fs::create_dir_all(&root).unwrap();
        let first = compiler_fingerprint(&rustc, &root).unwrap();
        assert_eq!(compiler_fingerprint(&rustc, &root).unwrap(), first);

        // rustup picks a toolchain per folder: a rust-toolchain file changes the answer.
        std::fs::write(dir.path().join("rust-toolchain.toml"), "[toolchain]\n").unwrap();
        let pinned = compiler_fingerprint(&rustc, &root).unwrap();
        assert_ne!(pinned, first);
        std::fs::write(
            dir.path().join("rust-toolchain.toml"),
            "[toolchain]\nchannel = \"nightly\"\n",
        )
        .unwrap();
        assert_ne!(compiler_fingerprint(&rustc, &root).unwrap(), pinned);

        // A replaced compiler (a new inode, new times) is a new compiler.
        let now = compiler_fingerprint(&rustc, &root).unwrap();
        std::fs::remove_file(&rustc).unwrap();
        std::fs::write(&rustc, b"\x7fELF, another build").unwrap();
        assert_ne!(compiler_fingerprint(&rustc, &root).unwrap(), now);
    }

    #[test]
    fn a_script_is_never_fingerprinted() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("rustc");
        std::fs::write(&script, "#!/bin/sh\nexec rustc \"$@\"\n").unwrap();
        assert_eq!(compiler_fingerprint(&script, dir.path()), None);
        assert_eq!(
            compiler_fingerprint(&dir.path().join("missing"), dir.path()),
            None
        );
    }
}
