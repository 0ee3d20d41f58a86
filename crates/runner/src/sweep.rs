//! What a program leaves behind: processes (found in /proc, killed, reaped) and files in its working folder.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::sys::{self, Pid};

/// How long the final sweep keeps killing and reaping before it gives up.
const SWEEP_PATIENCE: Duration = Duration::from_secs(5);

/// After the main process is reaped: could anything it started still exist? `launcher` is the
/// runner's one child that is not a program's.
pub(super) fn leftovers_possible(pgid: Pid, launcher: Pid) -> bool {
    // Orphans are re-parented to us (the subreaper), whatever their process group.
    sys::group_exists(pgid) || sys::reap_any() > 0 || other_children(launcher)
}

/// Whether the runner has a child besides the launcher; true when it cannot be told.
fn other_children(launcher: Pid) -> bool {
    use std::os::unix::fs::FileExt;
    // Opened once and read again from the start: the kernel makes the list afresh each time,
    // and the runner asks after every program.
    static LIST: OnceLock<Option<fs::File>> = OnceLock::new();
    let list = LIST.get_or_init(|| {
        let me = sys::getpid();
        fs::File::open(format!("/proc/{me}/task/{me}/children")).ok()
    });
    let mut buf = [0u8; 256];
    let Some(n) = list.as_ref().and_then(|f| f.read_at(&mut buf, 0).ok()) else {
        return true;
    };
    // A full buffer may hold more than it shows: then there are others anyway.
    n == buf.len()
        || String::from_utf8_lossy(&buf[..n])
            .split_whitespace()
            .any(|p| p.parse::<Pid>().is_ok_and(|p| p != launcher))
}

/// Kills every descendant of the runner but the `launcher` and reaps them all. Returns how
/// many live processes were found and how many would not die.
pub(super) fn sweep(launcher: Pid) -> (u32, u32) {
    let me = sys::getpid();
    let started = Instant::now();
    let mut seen = HashSet::new();
    loop {
        let found: Vec<(Pid, bool)> = descendants(me)
            .into_iter()
            .filter(|(pid, _)| *pid != launcher)
            .collect();
        for &(pid, zombie) in &found {
            if !zombie {
                seen.insert(pid);
            }
            sys::kill(pid, libc::SIGKILL);
        }
        // Reaps the zombies (the launcher too, should it have died: it is started anew).
        while sys::reap_any() > 0 {}
        // Orphans always come to us: none left below us means every one is gone.
        if found.is_empty() {
            return (seen.len() as u32, 0);
        }
        if started.elapsed() > SWEEP_PATIENCE {
            let stuck = found.iter().filter(|(_, z)| !z).count() as u32;
            return (seen.len() as u32, stuck);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// (pid, is_zombie) of every process below `root`, from /proc.
pub fn descendants(root: Pid) -> Vec<(Pid, bool)> {
    let mut children: HashMap<Pid, Vec<(Pid, bool)>> = HashMap::new();
    let Ok(dir) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<Pid>().ok())
        else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // The command name may hold spaces and parentheses: fields start after the last ')'.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let state = fields.next().unwrap_or("");
        let Some(ppid) = fields.next().and_then(|s| s.parse().ok()) else {
            continue;
        };
        children.entry(ppid).or_default().push((pid, state == "Z"));
    }
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(p) = stack.pop() {
        if let Some(kids) = children.get(&p) {
            for &(kid, zombie) in kids {
                out.push((kid, zombie));
                stack.push(kid);
            }
        }
    }
    out
}

/// Empties a program's working folder, whatever it made there. The folder itself stays (the
/// sandbox's rule for it holds on to it).
pub(super) fn clean_folder(dir: &Path) {
    let dirty = fs::read_dir(dir)
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    if dirty {
        make_writable(dir);
        for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                let _ = fs::remove_dir_all(&path);
            } else {
                let _ = fs::remove_file(&path);
            }
        }
    }
}

/// Removes `dir` and all it holds, even folders a program made unwritable (a scratch folder a
/// killed judge left behind).
pub fn remove_folder(dir: &Path) -> std::io::Result<()> {
    make_writable(dir);
    fs::remove_dir_all(dir)
}

/// A program may have removed write permission from what it created.
fn make_writable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
        if entry.file_type().is_dir() {
            let _ = fs::set_permissions(entry.path(), fs::Permissions::from_mode(0o700));
        }
    }
}
