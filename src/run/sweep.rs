//! What a program leaves behind: processes (found in /proc, killed, reaped) and files in its working folder.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use super::sys::{self, Pid};

/// How long the final sweep keeps killing and reaping before it gives up.
const SWEEP_PATIENCE: Duration = Duration::from_secs(5);

/// After the main process is reaped: could anything it started still exist?
pub(super) fn leftovers_possible(pgid: Pid) -> bool {
    // Orphans are re-parented to us (the subreaper), whatever their process group.
    sys::group_exists(pgid) || sys::reap_any() >= 0
}

/// Kills every descendant of the runner and reaps them all. Returns how many live
/// processes were found and how many would not die.
pub(super) fn sweep() -> (u32, u32) {
    let me = sys::getpid();
    let started = Instant::now();
    let mut seen = HashSet::new();
    loop {
        for (pid, zombie) in descendants(me) {
            if !zombie {
                seen.insert(pid);
            }
            sys::kill(pid, libc::SIGKILL);
        }
        loop {
            match sys::reap_any() {
                r if r > 0 => continue,
                // ECHILD: every descendant is gone (orphans always come to us).
                r if r < 0 => return (seen.len() as u32, 0),
                _ => break,
            }
        }
        if started.elapsed() > SWEEP_PATIENCE {
            let stuck = descendants(me).iter().filter(|(_, z)| !z).count() as u32;
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

/// A program may have removed write permission from what it created.
fn make_writable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
        if entry.file_type().is_dir() {
            let _ = fs::set_permissions(entry.path(), fs::Permissions::from_mode(0o700));
        }
    }
}
