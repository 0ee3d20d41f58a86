//! A pids cgroup of the runner's own, so that a fork bomb stops at a cap instead of exhausting the machine.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use super::sys;

/// Processes and threads a program may have at once, when the runner has a pids cgroup.
pub const MAX_PROCESSES: u32 = 512;

/// A pids cgroup of the runner's own (as root, with the cgroup v1 `pids` controller or a cgroup
/// v2 tree that delegates it): the launcher joins it, so every program is born in it, and a
/// fork bomb stops at [`MAX_PROCESSES`] instead of exhausting the machine's PIDs. RLIMIT_NPROC
/// cannot do that for root, whom it does not bind. Without such a cgroup the judge works as
/// before, uncapped.
pub(super) struct PidsCgroup {
    dir: PathBuf,
    /// `cgroup.procs`, open for the launcher to write itself into.
    pub(super) procs: File,
}

impl PidsCgroup {
    pub(super) fn create() -> Option<PidsCgroup> {
        let dir = pids_parent()?.join(format!("judge-{}", sys::getpid()));
        fs::create_dir(&dir).ok()?;
        // One more for the launcher, which lives there so that every program is born there.
        let max = MAX_PROCESSES + 1;
        let made = fs::write(dir.join("pids.max"), max.to_string()).and_then(|_| {
            fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))
        });
        match made {
            Ok(procs) => Some(PidsCgroup { dir, procs }),
            Err(_) => {
                let _ = fs::remove_dir(&dir);
                None
            }
        }
    }
}

impl Drop for PidsCgroup {
    fn drop(&mut self) {
        // Empty by now: every program and what it left was killed and reaped.
        let _ = fs::remove_dir(&self.dir);
    }
}

/// The cgroup folder under which this process could make a pids cgroup: its own cgroup in the
/// v1 `pids` hierarchy, or its own v2 cgroup when that delegates `pids` to its children.
pub fn pids_parent() -> Option<PathBuf> {
    let own = fs::read_to_string("/proc/self/cgroup").ok()?;
    own.lines().find_map(|line| {
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
}
