//! The judge's scratch folder: in memory when there is room, locked while the judge lives, and the folders of judges killed before they could remove theirs swept away.

use std::fs::{self, File};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::error::{Error, Result};
use crate::reason::FullDisk;

/// The room `/dev/shm` must have for the judge to use it: outputs (64 MiB by default, per case
/// run at once) and working folders must never meet a full file system there, which would
/// turn an output within its limit into a failed write. Docker gives containers 64 MiB.
const SHM_ROOM: u64 = 1 << 30;
/// What every scratch folder's name starts with.
const PREFIX: &str = "judge-";
/// A file in each scratch folder, locked (`flock`) for as long as its judge lives.
const LOCK: &str = ".alive";
/// Less room than this left after a run, and a write of the program may have failed for want
/// of space: no program's output is judged short of a block or two.
const FULL_BELOW: u64 = 64 << 10;

/// Where the judge keeps every case's output and the programs' working folders. Removed when
/// it is dropped (and by the Ctrl-C handler); a judge that is killed (SIGKILL, the machine's
/// out-of-memory killer) cannot remove it, so each new judge removes those whose lock nobody
/// holds: a folder in `/dev/shm` is memory, kept until the machine restarts.
pub(super) struct Scratch {
    dir: tempfile::TempDir,
    /// Held, never read: the lock lives as long as this open file.
    _alive: File,
}

impl Scratch {
    pub(super) fn new() -> Result<Scratch> {
        let dir = place()?;
        let alive = lock(dir.path()).map_err(|e| Error::create(&dir.path().join(LOCK), e))?;
        if let Some(parent) = dir.path().parent() {
            sweep_stale(parent, dir.path());
        }
        Ok(Scratch { dir, _alive: alive })
    }

    pub(super) fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Why a program that failed may have failed through no fault of its own: the file system of
/// its scratch folder `dir` had `free` bytes when it ended, too few, so a write of its output
/// (or of a file in its folder) may have been refused. `None` when there was room.
pub(super) fn full(dir: &Path, free: Option<u64>) -> Option<FullDisk> {
    let free = free?;
    (free < FULL_BELOW).then(|| FullDisk {
        dir: dir.to_path_buf(),
        free,
    })
}

/// The shared memory folder (`/dev/shm`, a tmpfs on Linux) when it has room and the user set
/// no `TMPDIR`: each case writes a fresh output file, and making a file on a disk file system
/// (ext4 looks for a free inode, and skips the recently deleted ones) took about a fifth of the
/// judge's own CPU time on short cases. Outputs are gone after the case.
fn place() -> Result<tempfile::TempDir> {
    let builder = || {
        let mut b = tempfile::Builder::new();
        b.prefix(PREFIX);
        b
    };
    let shm = Path::new("/dev/shm");
    let room = judge_runner::free_bytes(shm).is_some_and(|free| free >= SHM_ROOM);
    if room && std::env::var_os("TMPDIR").is_none() {
        if let Ok(dir) = builder().tempdir_in(shm) {
            return Ok(dir);
        }
    }
    builder()
        .tempdir()
        .map_err(|e| Error::create(&std::env::temp_dir(), e))
}

/// Makes `dir`'s lock file, locked: under another name first, so that the lock file never
/// exists unlocked for another judge to take for a dead one's.
fn lock(dir: &Path) -> std::io::Result<File> {
    let making = dir.join(format!("{LOCK}.new"));
    let file = File::create(&making)?;
    file.try_lock().map_err(std::io::Error::other)?;
    fs::rename(&making, dir.join(LOCK))?;
    Ok(file)
}

/// Removes the scratch folders beside `own` (same owner) whose lock file nobody holds: their
/// judge has ended without removing them. A folder without a lock file is left alone (a judge
/// older than the lock, or someone else's folder of that name).
fn sweep_stale(parent: &Path, own: &Path) {
    let Ok(mine) = fs::metadata(own) else {
        return;
    };
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let named = entry.file_name().to_string_lossy().starts_with(PREFIX);
        // Never through a link; only a real folder of the same owner.
        let ours = fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir() && m.uid() == mine.uid());
        if !named || !ours || path == own {
            continue;
        }
        let Ok(file) = File::open(path.join(LOCK)) else {
            continue;
        };
        if file.try_lock().is_ok() {
            let _ = judge_runner::remove_folder(&path);
        }
    }
}
