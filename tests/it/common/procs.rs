//! Live processes, from a scan of `/proc`: how a test sees what the judge started and whether
//! anything survived it.

use std::path::{Path, PathBuf};

/// A live process.
#[derive(Debug)]
pub(crate) struct Process {
    pub(crate) pid: u32,
    pub(crate) ppid: u32,
    pub(crate) exe: PathBuf,
    /// Its arguments, joined by spaces (an interpreter's script is one of them).
    pub(crate) cmdline: String,
}

/// Every live process that `keep` accepts. Those whose executable cannot be read (kernel
/// threads, zombies, processes that ended during the scan) are left out.
pub(crate) fn processes(keep: impl Fn(&Process) -> bool) -> Vec<Process> {
    std::fs::read_dir("/proc")
        .expect("/proc is readable")
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse().ok()?;
            let exe = std::fs::read_link(e.path().join("exe")).ok()?;
            // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses.
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            let ppid = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?;
            let cmdline = std::fs::read(e.path().join("cmdline"))
                .ok()?
                .split(|&b| b == 0)
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect::<Vec<_>>()
                .join(" ");
            let p = Process {
                pid,
                ppid: ppid.parse().ok()?,
                exe,
                cmdline,
            };
            keep(&p).then_some(p)
        })
        .collect()
}

/// Live processes whose executable lies below `dir` (a build cache, or its `build/`).
pub(crate) fn running_from(dir: &Path) -> Vec<Process> {
    let dir = dir
        .canonicalize()
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    processes(|p| p.exe.starts_with(&dir))
}

/// Live processes that run anything from below `dir`: a native program built there, or an
/// interpreter (python3, java, node) given a script or classes from there.
pub(crate) fn using(dir: &Path) -> Vec<Process> {
    let dir = dir
        .canonicalize()
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let text = dir.display().to_string();
    processes(|p| p.exe.starts_with(&dir) || p.cmdline.contains(&text))
}

/// Live processes whose environment holds `KEY=VALUE`: a command started with a mark of its own
/// in its environment, and every process it started that kept it.
pub(crate) fn marked(key: &str, value: &str) -> Vec<u32> {
    let mark = format!("{key}={value}").into_bytes();
    std::fs::read_dir("/proc")
        .expect("/proc is readable")
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let environ = std::fs::read(e.path().join("environ")).ok()?;
            environ.split(|&b| b == 0).any(|v| v == mark).then_some(pid)
        })
        .collect()
}
