//! Whether the runner can have a pids cgroup here, found exactly as the runner finds it
//! (`PidsCgroup::create` in src/run/server.rs; keep the two in step). Used by the fork-bomb test
//! and by build.rs (which emits `judge_has_pids_cgroup`), so it needs nothing but std.

use std::fs;
use std::path::{Path, PathBuf};

/// What the runner writes to `pids.max`.
const MAX_PROCESSES: u32 = 512;

/// Makes, fills in and removes a probe cgroup where the runner would make its own, as the runner
/// does. Ok: the folder in which each runner makes its cgroup `judge-PID`; Err: why there is none.
pub(crate) fn probe() -> Result<PathBuf, String> {
    let parent = parent()?;
    let dir = parent.join(format!("judge-probe-{}", std::process::id()));
    fs::create_dir(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let made = fs::write(dir.join("pids.max"), MAX_PROCESSES.to_string()).and_then(|_| {
        fs::OpenOptions::new()
            .write(true)
            .open(dir.join("cgroup.procs"))
            .map(drop)
    });
    let _ = fs::remove_dir(&dir);
    made.map(|_| parent)
        .map_err(|e| format!("cannot set up {}: {e}", dir.display()))
}

/// This process's own cgroup in the cgroup v1 `pids` hierarchy, or in a cgroup v2 tree whose
/// `cgroup.subtree_control` lists `pids`: where the runner, started from here, makes its cgroup.
fn parent() -> Result<PathBuf, String> {
    let own =
        fs::read_to_string("/proc/self/cgroup").map_err(|e| format!("/proc/self/cgroup: {e}"))?;
    own.lines()
        .find_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            let path = path.trim_start_matches('/');
            if controllers.split(',').any(|c| c == "pids") {
                Some(Path::new("/sys/fs/cgroup/pids").join(path))
            } else if controllers.is_empty() {
                let dir = Path::new("/sys/fs/cgroup").join(path);
                let delegated = fs::read_to_string(dir.join("cgroup.subtree_control")).ok()?;
                delegated
                    .split_whitespace()
                    .any(|c| c == "pids")
                    .then_some(dir)
            } else {
                None
            }
        })
        .ok_or_else(|| {
            "no cgroup v1 `pids` controller, and no cgroup v2 tree delegating `pids` \
             (cgroup.subtree_control)"
                .to_string()
        })
}
