//! Running a compiler: under a wall-clock limit, a memory limit and a disk quota (the build
//! folder and its own `TMPDIR` together), and what it said, with those folders' paths taken out.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::BuildSettings;
use crate::error::{Error, Result};
use crate::verdict::{Limits, MemoryRule};
use judge_runner::{self as run, Executor};

/// The compiler is stopped if its resident memory goes over this.
const COMPILE_MEMORY: u64 = 4 << 30;
/// A compilation's disk quota, the program and the compiler's temporary files together (a 1 GiB
/// static array makes a 1 GiB object file and a 1 GiB binary): past it, the CE says so.
const COMPILE_DISK: u64 = 4 << 30;
/// Diagnostics kept from one compilation.
const DIAGNOSTICS_KEEP: u64 = 256 << 10;
/// Whether a compiler's driver says that one of its tools was killed by a signal (GCC's
/// "ld terminated with signal 7 [Bus error]" and "Killed signal terminated program cc1plus",
/// clang's "unable to execute command: Killed"): a full disk, the out-of-memory killer, not
/// the source.
pub(super) fn tool_killed(diagnostics: &str) -> bool {
    [
        "terminated with signal",
        "Killed signal terminated program",
        "unable to execute command",
    ]
    .iter()
    .any(|said| diagnostics.contains(said))
}

/// rustup's toolchain files from `dir` up: a sandboxed compiler run from there reads them.
pub(super) fn toolchain_files(dir: &Path) -> Vec<PathBuf> {
    dir.ancestors()
        .flat_map(|d| ["rust-toolchain", "rust-toolchain.toml"].map(|n| d.join(n)))
        .filter(|p| p.is_file())
        .collect()
}

/// Runs the compiler in `dir`, returning what was measured and its diagnostics, the build
/// folder's and `temp`'s paths taken out of them (they name the file alone). Sandboxed, it
/// reads only its toolchain (`reads`) and the build folder, and writes that and `temp` (its
/// `TMPDIR`): both count towards its disk quota.
pub(super) fn run_compiler(
    (dir, temp, cwd): (&Path, &Path, &Path),
    argv: Vec<String>,
    (reads, extra_env): (Vec<PathBuf>, Vec<(String, String)>),
    executor: &mut dyn Executor,
    settings: &BuildSettings,
) -> Result<(run::Response, String)> {
    let mut env: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| k != "TMPDIR" && !extra_env.iter().any(|(e, _)| e == k))
        .collect();
    env.push(("TMPDIR".into(), temp.display().to_string()));
    env.extend(extra_env);
    let request = run::Request {
        program: PathBuf::from(&argv[0]),
        args: argv[1..].to_vec(),
        env: Some(env),
        cwd: cwd.to_path_buf(),
        clean_cwd: false,
        stdin: None,
        stdout: dir.join(".compiler.stdout"),
        stderr: dir.join(".compiler.stderr"),
        limits: run::Limits {
            cpu_ms: None,
            wall_ms: settings.time_limit.as_millis() as u64,
            memory_bytes: Some(settings.memory_bytes.unwrap_or(COMPILE_MEMORY)),
            address_space_bytes: None,
            stack_bytes: None,
            file_size_bytes: None,
            open_files: None,
            folder_bytes: Some(COMPILE_DISK),
            stderr_keep_bytes: DIAGNOSTICS_KEEP,
        },
        input_file: None,
        files: None,
        keep_file: None,
        access: run::Access {
            read: reads,
            write: vec![dir.to_path_buf(), temp.to_path_buf()],
        },
        partner: None,
    };
    let response = executor.run(&request)?;
    // The runner writes what the compiler said once it ends, and only when it said
    // something: a file said but not there (its folder removed meanwhile, as an interrupt's
    // clean-up does) is no silent failure, which would be remembered as the source's.
    let said = |path: &Path, bytes: u64| match std::fs::read(path) {
        Ok(text) => Ok(text),
        Err(_) if bytes == 0 => Ok(Vec::new()),
        Err(e) => Err(Error::read(path, e)),
    };
    let mut text = said(&request.stderr, response.stderr_bytes)?;
    // Some compilers (javac's notes, Python's py_compile) write to stdout too.
    let stdout = said(&request.stdout, response.stdout_bytes)?;
    if !stdout.is_empty() {
        if !text.is_empty() && !text.ends_with(b"\n") {
            text.push(b'\n');
        }
        text.extend_from_slice(&stdout);
    }
    let _ = std::fs::remove_file(&request.stdout);
    let _ = std::fs::remove_file(&request.stderr);
    let text = String::from_utf8_lossy(&text)
        .replace(&format!("{}/", dir.display()), "")
        .replace(&format!("{}/", temp.display()), "");
    Ok((response, text))
}

/// A compilation's limits as the verdict rules read them: no CPU limit, only the wall clock.
pub(super) fn compile_limits(settings: &BuildSettings) -> Limits {
    Limits {
        time: Duration::MAX,
        wall: settings.time_limit,
        memory_bytes: settings.memory_bytes.unwrap_or(COMPILE_MEMORY),
        output_bytes: COMPILE_DISK,
        memory_rule: MemoryRule::Resident,
    }
}
