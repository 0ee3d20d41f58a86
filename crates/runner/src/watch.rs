//! Sampling a running program's CPU time and resident memory, and killing its group the moment a limit is crossed.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::protocol::{KilledBy, Limits};
use super::sys::{self, Pid};

/// How often a running program's CPU time and memory are sampled.
const TICK: Duration = Duration::from_millis(5);

/// Samples a running program and kills its group when a limit is crossed.
pub(super) struct Watch {
    pid: Pid,
    clock: Option<libc::clockid_t>,
    statm: Option<File>,
    cpu_limit: Option<Duration>,
    memory_limit: Option<u64>,
    deadline: Instant,
    page_size: u64,
    folders: Option<Folders>,
    /// Who killed the program, once someone has.
    pub(super) killed_by: Option<KilledBy>,
}

/// The folders a program may write, and what it may add to them.
struct Folders {
    paths: Vec<PathBuf>,
    /// The first folder, open: its file system's free space is the cheap sample.
    probe: File,
    limit: u64,
    /// Free bytes and inodes when last found within the limit.
    baseline: (u64, u64),
}

/// What one file costs at least: a block, and an inode.
const FILE_COST: u64 = 4096;

impl Folders {
    fn new(paths: &[PathBuf], limit: Option<u64>) -> Option<Folders> {
        let probe = File::open(paths.first()?).ok()?;
        let baseline = sys::free_space(probe.as_raw_fd())?;
        Some(Folders {
            paths: paths.to_vec(),
            probe,
            limit: limit?,
            baseline,
        })
    }

    /// Whether the program has added more than its limit. The file system's free space is
    /// one system call; only when it fell by more than the limit (others may write there
    /// too) are the folders themselves measured.
    fn over(&mut self) -> bool {
        let Some((bytes, inodes)) = sys::free_space(self.probe.as_raw_fd()) else {
            return false;
        };
        let used = self.baseline.0.saturating_sub(bytes)
            + self.baseline.1.saturating_sub(inodes) * FILE_COST;
        if used <= self.limit {
            return false;
        }
        let held: u64 = self.paths.iter().map(|p| size(p)).sum();
        if held > self.limit {
            return true;
        }
        self.baseline = (bytes, inodes);
        false
    }
}

/// What the files below `dir` take: their blocks, at least [`FILE_COST`] each.
fn size(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .map(|m| (m.blocks() * 512).max(FILE_COST))
        .sum()
}

impl Watch {
    pub(super) fn new(pid: Pid, limits: &Limits, start: Instant, folders: &[PathBuf]) -> Watch {
        Watch {
            pid,
            clock: sys::cpu_clock(pid),
            statm: limits
                .memory_bytes
                .and_then(|_| File::open(format!("/proc/{pid}/statm")).ok()),
            cpu_limit: limits.cpu_ms.map(Duration::from_millis),
            memory_limit: limits.memory_bytes,
            deadline: start + Duration::from_millis(limits.wall_ms),
            page_size: sys::page_size(),
            folders: limits
                .folder_bytes
                .and_then(|limit| Folders::new(folders, Some(limit))),
            killed_by: None,
        }
    }

    /// Takes a sample; kills the group if a limit is crossed.
    pub(super) fn check(&mut self) {
        if self.killed_by.is_some() {
            return;
        }
        let reason = if Instant::now() >= self.deadline {
            Some(KilledBy::WallCap)
        } else if matches!((self.cpu_limit, self.cpu_time()), (Some(limit), Some(used)) if used > limit)
        {
            Some(KilledBy::CpuLimit)
        } else if matches!((self.memory_limit, self.resident()), (Some(limit), Some(used)) if used > limit)
        {
            Some(KilledBy::MemoryLimit)
        } else if self.folders.as_mut().is_some_and(Folders::over) {
            Some(KilledBy::FolderLimit)
        } else {
            None
        };
        if let Some(reason) = reason {
            sys::kill_group(self.pid);
            self.killed_by = Some(reason);
        }
    }

    /// Milliseconds until the next sample (poll's timeout).
    pub(super) fn next_timeout(&self) -> i32 {
        if self.killed_by.is_some() {
            return TICK.as_millis() as i32;
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        let wait =
            if self.cpu_limit.is_some() || self.memory_limit.is_some() || self.folders.is_some() {
                left.min(TICK)
            } else {
                left
            };
        wait.as_millis().clamp(1, i32::MAX as u128) as i32
    }

    fn cpu_time(&self) -> Option<Duration> {
        sys::clock_time(self.clock?)
    }

    fn resident(&mut self) -> Option<u64> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 128];
        let n = self.statm.as_ref()?.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
        Some(pages * self.page_size)
    }
}
