//! Finding the programs a language needs and telling which version they are: the compiler's identity in the cache key.
//!
//! Asking a compiler for its version costs 10 to 30 ms (more through rustup's proxy or pyenv's
//! shims), on every start. So each answer is remembered in the cache under a fingerprint of
//! everything that decides which program runs: change any of it and the program is asked again.
//! A stale fingerprint could only ever cause a miss, never a wrong hit.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::lang::{Command, Kind, Language, Vars};

/// A program a language runs, found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    /// What to execute: an absolute path, the real interpreter behind a launcher.
    pub program: PathBuf,
    /// What the program says of its version: part of the cache key.
    pub identity: String,
}

impl Tool {
    /// The first line of the version, named: "rustc 1.95.0 (...)", "node v20.20.2".
    pub fn version_line(&self) -> String {
        let line = self
            .identity
            .lines()
            .map(str::trim)
            // A JVM's warnings come before kotlinc's version.
            .find(|l| !l.is_empty() && !l.to_ascii_lowercase().contains("warning:"))
            .unwrap_or("")
            .to_string();
        let name = self
            .program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bare = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        if line
            .to_ascii_lowercase()
            .contains(&bare.to_ascii_lowercase())
            || bare.is_empty()
        {
            line
        } else {
            format!("{name} {line}")
        }
    }
}

impl Tool {
    /// The folders it needs to read to run, sandboxed: its installation (the folder above its
    /// `bin/`, as pyenv's Pythons, nvm's Nodes and JVMs are laid out; the file alone elsewhere),
    /// followed through links, and rustup's home behind rustup's proxies.
    pub fn install_roots(&self) -> Vec<PathBuf> {
        let installation = |exe: &Path| match exe.parent() {
            Some(bin) if bin.file_name().is_some_and(|n| n == "bin") => {
                bin.parent().unwrap_or(bin).to_path_buf()
            }
            _ => exe.to_path_buf(),
        };
        let mut roots = vec![installation(&self.program)];
        if let Ok(real) = std::fs::canonicalize(&self.program) {
            if real.file_name().is_some_and(|n| n == "rustup") {
                let home = std::env::var_os("RUSTUP_HOME")
                    .map(PathBuf::from)
                    .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".rustup")));
                roots.extend(home);
            }
            roots.push(installation(&real));
        }
        roots.dedup();
        roots
    }
}

/// The programs found so far, shared by every build of one judge.
#[derive(Debug)]
pub struct Toolchains {
    /// The workspace root: programs given by a relative path, and rustup's per-folder
    /// toolchain files, are read from there.
    root: PathBuf,
    memo_dir: PathBuf,
    found: Mutex<HashMap<String, Arc<Tool>>>,
    /// The Rust compiler run where a command says `rustc` (the `rustc` setting), when not the
    /// one on PATH.
    rustc: Option<PathBuf>,
}

impl Toolchains {
    pub fn new(root: &Path, memo_dir: PathBuf) -> Toolchains {
        Toolchains {
            root: root.to_path_buf(),
            memo_dir,
            found: Mutex::new(HashMap::new()),
            rustc: None,
        }
    }

    /// These toolchains, running `rustc` where a command says `rustc` (`None`: PATH's).
    pub fn with_rustc(self, rustc: Option<PathBuf>) -> Toolchains {
        Toolchains { rustc, ..self }
    }

    /// The program of `command` (a language's compile or run command), found and identified.
    /// `None` when the command runs what the build made (`{binary}`).
    pub fn tool(
        &self,
        language: &Language,
        command: &Command,
        vars: &Vars,
    ) -> Result<Option<Arc<Tool>>> {
        if command.runs_build_output() {
            return Ok(None);
        }
        let mut name = command.program().to_string();
        if language.kind == Kind::Rust && name == "rustc" {
            if let Some(r) = &self.rustc {
                name = r.to_string_lossy().into_owned();
            }
        }
        let key = format!("{}\0{name}\0{}", language.id, vars.toolchain);
        if let Some(t) = self.found.lock().ok().and_then(|f| f.get(&key).cloned()) {
            return Ok(Some(t));
        }
        let tool = Arc::new(self.find(language, &name, vars)?);
        if let Ok(mut f) = self.found.lock() {
            f.insert(key, tool.clone());
        }
        Ok(Some(tool))
    }

    fn find(&self, language: &Language, name: &str, vars: &Vars) -> Result<Tool> {
        let missing = || Error::MissingProgram {
            language: language.name.clone(),
            program: name.to_string(),
            install: language.install.clone(),
        };
        let resolved = locate(name, &self.root).ok_or_else(missing)?;
        let fingerprint = match language.kind {
            Kind::Rust => {
                rustc_fingerprint(&resolved, &self.root).map(|f| format!("{f}-{}", vars.toolchain))
            }
            _ => program_fingerprint(&resolved, &self.root),
        }
        .map(|f| {
            // The question asked is part of the answer remembered.
            let asked = language
                .version
                .as_ref()
                .map(|v| v.to_string())
                .unwrap_or_default();
            blake3::hash(format!("{}\0{name}\0{f}\0{asked}", language.id).as_bytes()).to_hex()[..32]
                .to_string()
        });
        let memo = fingerprint.map(|f| self.memo_dir.join(f));
        if let Some(tool) = memo.as_deref().and_then(read_memo) {
            return Ok(tool);
        }
        let program = match &language.resolve {
            Some(r)
                if r.program() == name
                    || locate(r.program(), &self.root).as_deref() == Some(&resolved) =>
            {
                let mut argv = r.render(vars);
                argv[0] = resolved.display().to_string();
                let out = self.ask(&argv).map_err(|e| {
                    Error::Toolchain(format!("finding {} behind `{name}`: {e}", language.name))
                })?;
                let real = PathBuf::from(out.trim());
                if !real.is_absolute() || !real.is_file() {
                    return Err(Error::Toolchain(format!(
                        "`{}` named `{}`, which is not a program",
                        argv.join(" "),
                        out.trim()
                    )));
                }
                real
            }
            _ => resolved.clone(),
        };
        let mut argv = match &language.version {
            Some(v) if v.program() == name || language.kind == Kind::Rust => v.render(vars),
            _ => vec![name.to_string(), "--version".into()],
        };
        argv[0] = program.display().to_string();
        if language.kind == Kind::Rust {
            // rustup's proxy reads `+toolchain`: it must be the one asked.
            argv[0] = resolved.display().to_string();
        }
        let identity = self.ask(&argv).map_err(|e| {
            if language.kind == Kind::Rust
                && !vars.toolchain.is_empty()
                && e.contains("not installed")
            {
                Error::MissingRustToolchain {
                    toolchain: vars.toolchain.trim_start_matches('+').to_string(),
                }
            } else {
                Error::Toolchain(format!("`{}` failed: {e}", argv.join(" ")))
            }
        })?;
        let tool = Tool {
            program: if language.kind == Kind::Rust {
                resolved
            } else {
                program
            },
            identity,
        };
        if let Some(memo) = &memo {
            write_memo(memo, &tool);
        }
        Ok(tool)
    }

    /// Runs a probing command (not a contestant's program: no limits, the judge's own
    /// environment) and returns what it printed, stdout then stderr.
    fn ask(&self, argv: &[String]) -> std::result::Result<String, String> {
        let out = std::process::Command::new(&argv[0])
            .args(&argv[1..])
            .current_dir(&self.root)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| e.to_string())?;
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        if out.status.success() {
            Ok(text)
        } else {
            Err(text.trim().to_string())
        }
    }
}

/// Where a program named on a command line is: a path (relative to the workspace root), or
/// the first match on PATH.
pub fn locate(name: &str, root: &Path) -> Option<PathBuf> {
    let is_exec = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if name.contains('/') {
        let p = root.join(name);
        return is_exec(&p).then_some(p);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| is_exec(p))
}

fn read_memo(path: &Path) -> Option<Tool> {
    let text = std::fs::read_to_string(path).ok()?;
    let (program, identity) = text.split_once('\n')?;
    let program = PathBuf::from(program);
    program.is_file().then_some(Tool {
        program,
        identity: identity.to_string(),
    })
}

/// Written whole then renamed: a judge starting meanwhile reads all of it or nothing.
fn write_memo(path: &Path, tool: &Tool) {
    let text = format!("{}\n{}", tool.program.display(), tool.identity);
    let _ = crate::atomic::replace(path, text.as_bytes());
}

fn stat(p: &Path) -> Vec<u8> {
    use std::os::unix::fs::MetadataExt;
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
}

/// A hash of what decides which program `resolved` is: the file it finally is (a replaced or
/// rewritten file changes its inode, size or times). When it is a script (a launcher such as
/// pyenv's shims, which choose among installed versions), also the environment such launchers
/// read and their version files from the workspace up. `None` when the file cannot be read.
fn program_fingerprint(resolved: &Path, root: &Path) -> Option<String> {
    let real = std::fs::canonicalize(resolved).ok()?;
    let mut h = blake3::Hasher::new();
    let mut part = |bytes: &[u8]| {
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    part(resolved.as_os_str().as_encoded_bytes());
    part(real.as_os_str().as_encoded_bytes());
    part(&stat(&real));
    let mut head = [0u8; 2];
    std::io::Read::read_exact(&mut std::fs::File::open(&real).ok()?, &mut head).ok()?;
    if &head == b"#!" {
        let mut env: Vec<(String, String)> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.to_string_lossy().into_owned())))
            .filter(|(k, _)| {
                k == "PATH"
                    || k == "HOME"
                    || k.starts_with("PYENV")
                    || k.starts_with("ASDF")
                    || k.ends_with("_VERSION")
            })
            .collect();
        env.sort();
        for (k, v) in &env {
            part(format!("{k}={v}").as_bytes());
        }
        let pyenv_root = std::env::var_os("PYENV_ROOT")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pyenv")));
        if let Some(r) = pyenv_root {
            part(&std::fs::read(r.join("version")).unwrap_or_default());
            part(&stat(&r.join("versions")));
        }
        let root = std::fs::canonicalize(root).ok()?;
        for dir in root.ancestors() {
            for name in [
                ".python-version",
                ".tool-versions",
                ".node-version",
                ".nvmrc",
            ] {
                part(&std::fs::read(dir.join(name)).unwrap_or_else(|_| b"absent".to_vec()));
            }
        }
    }
    Some(h.finalize().to_hex()[..32].to_string())
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
fn rustc_fingerprint(rustc: &Path, workspace_root: &Path) -> Option<String> {
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
        let first = rustc_fingerprint(&rustc, &root).unwrap();
        assert_eq!(rustc_fingerprint(&rustc, &root).unwrap(), first);

        // rustup picks a toolchain per folder: a rust-toolchain file changes the answer.
        std::fs::write(dir.path().join("rust-toolchain.toml"), "[toolchain]\n").unwrap();
        let pinned = rustc_fingerprint(&rustc, &root).unwrap();
        assert_ne!(pinned, first);
        std::fs::write(
            dir.path().join("rust-toolchain.toml"),
            "[toolchain]\nchannel = \"nightly\"\n",
        )
        .unwrap();
        assert_ne!(rustc_fingerprint(&rustc, &root).unwrap(), pinned);

        // A replaced compiler (a new inode, new times) is a new compiler.
        let now = rustc_fingerprint(&rustc, &root).unwrap();
        std::fs::remove_file(&rustc).unwrap();
        std::fs::write(&rustc, b"\x7fELF, another build").unwrap();
        assert_ne!(rustc_fingerprint(&rustc, &root).unwrap(), now);
    }

    #[test]
    fn a_script_is_never_fingerprinted() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("rustc");
        std::fs::write(&script, "#!/bin/sh\nexec rustc \"$@\"\n").unwrap();
        assert_eq!(rustc_fingerprint(&script, dir.path()), None);
        assert_eq!(
            rustc_fingerprint(&dir.path().join("missing"), dir.path()),
            None
        );
    }
}
