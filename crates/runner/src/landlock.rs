//! What a sandboxed program may touch of the file system: a Landlock ruleset per program, from the system's locations opened once per runner.
//!
//! A program may read and execute the system's locations (`/usr`, `/lib`..., a few files of
//! `/etc`), read and write a few devices, read its stdin, write its stdout, and use what its
//! [`Access`](super::protocol::Access) lists; nothing else. The same ruleset forbids TCP, and
//! signals and abstract unix sockets beyond it, where the kernel knows these rights.
//!
//! Landlock rulesets cannot be copied or shrunk, and each program's differs (its stdin is the
//! case's input), so one is made per program: from descriptors of the system's locations opened
//! when the runner starts, with their rights worked out then, so that per program it costs a
//! system call per rule and an `open` per path of its own. The crate `landlock` would `fstat`
//! every rule again; these few raw calls are in [`sys`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use super::protocol::Request;
use super::sys;

/// Landlock's access rights (`linux/landlock.h`).
mod access {
    pub(super) const EXECUTE: u64 = 1 << 0;
    pub(super) const WRITE_FILE: u64 = 1 << 1;
    pub(super) const READ_FILE: u64 = 1 << 2;
    pub(super) const READ_DIR: u64 = 1 << 3;
    /// REMOVE_DIR to MAKE_SYM: what changes a folder's entries.
    pub(super) const CHANGE_DIR: u64 = 0x1ff0;
    pub(super) const REFER: u64 = 1 << 13;
    pub(super) const TRUNCATE: u64 = 1 << 14;
    pub(super) const IOCTL_DEV: u64 = 1 << 15;
    pub(super) const NET_TCP: u64 = 0b11;
    pub(super) const SCOPE_UNIX_AND_SIGNAL: u64 = 0b11;
}
use access::*;

/// Rights that apply to a file (the others are a folder's).
const FILE_RIGHTS: u64 = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV;
const READ: u64 = EXECUTE | READ_FILE | READ_DIR;
/// Read, write, make and remove; never execute what it wrote.
const WRITE: u64 = READ_FILE | READ_DIR | WRITE_FILE | CHANGE_DIR | REFER | TRUNCATE;
const DEVICE: u64 = READ_FILE | WRITE_FILE | TRUNCATE | IOCTL_DEV;

/// Read-only (and executable) for every program, where they exist: what dynamically linked
/// programs, interpreters and compilers need. `/proc` is the runner's own (its pid namespace),
/// and `/sys` only informs (CPU count, cgroup limits).
const SYSTEM_READ: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/sys",
];

/// Of `/etc`, only what a runtime reads: the loader's cache, the time zone, users and groups
/// (a JVM looks up the current user), and OpenSSL's configuration (Node reads it). Never all
/// of it: as root, a program is uid 0 (without capabilities) and would read `/etc/shadow` by
/// its owner's bits. Links (`/etc/alternatives`) need no rule: only where they lead is checked.
/// Each rule costs every program a little (Landlock copies them into its domain): few, then.
const SYSTEM_ETC: &[&str] = &[
    "ld.so.cache",
    "localtime",
    "nsswitch.conf",
    "passwd",
    "group",
    "ssl/openssl.cnf",
];

/// `/etc` folders named after a runtime that keeps its configuration there (Debian's JVMs link
/// `jvm.cfg` and their security files to `/etc/java-17-openjdk`; Python its `sitecustomize`;
/// Mono the map of its native libraries, without which it finds no file at all).
const SYSTEM_ETC_PREFIXES: &[&str] = &["java", "python", "pypy", "mono"];

/// Devices every program may read and write.
const SYSTEM_DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"];

/// The rights the running kernel knows, by its Landlock ABI version.
#[derive(Clone, Copy)]
struct Known {
    abi: i32,
    fs: u64,
    net: u64,
    scoped: u64,
}

impl Known {
    fn of(abi: i32) -> Known {
        let mut fs = EXECUTE | WRITE_FILE | READ_FILE | READ_DIR | CHANGE_DIR;
        if abi >= 2 {
            fs |= REFER;
        }
        if abi >= 3 {
            fs |= TRUNCATE;
        }
        if abi >= 5 {
            fs |= IOCTL_DEV;
        }
        Known {
            abi,
            fs,
            net: if abi >= 4 { NET_TCP } else { 0 },
            scoped: if abi >= 6 { SCOPE_UNIX_AND_SIGNAL } else { 0 },
        }
    }

    /// `wanted` as the kernel takes it for a file or a folder.
    fn rights(&self, wanted: u64, is_dir: bool) -> u64 {
        wanted & self.fs & if is_dir { u64::MAX } else { FILE_RIGHTS }
    }
}

/// A file's device and inode: what a Landlock rule is attached to.
type Identity = (u64, u64);

/// A folder as opened for its rules: its identity then, and the descriptor (none where
/// nothing was there), with whether it is a folder.
type KeptFolder = (Option<Identity>, Option<(OwnedFd, bool)>);

fn identity(path: &Path) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Folders of requests kept open, at most: a judge's few builds, runtimes and working folders.
const KEPT_FOLDERS: usize = 64;

/// The Landlock part of a runner's sandbox: the system's locations, opened once.
pub(super) struct Files {
    known: Known,
    /// Each location's descriptor and its rights, as the kernel takes them.
    system: Vec<(OwnedFd, u64)>,
    /// The folders requests name (builds, runtimes, working folders), opened once each: the
    /// same for every case. Never a file: a program's stdout is made afresh for each run, and
    /// a rule follows the file it was made for. A folder made again under the same path (a
    /// feedback folder, a build compiled anew) is another inode, so each is kept with its
    /// identity and opened again when that changed: a rule on the old one would refuse it all.
    folders: RefCell<HashMap<PathBuf, KeptFolder>>,
    /// A ruleset of the system's locations kept for the runner's life: the kernel's records
    /// of those locations then live on, and each program's ruleset only refers to them.
    _anchor: Option<OwnedFd>,
    /// The system's part of the next program's ruleset, made while the runner waits for its
    /// request ([`Files::prepare`]), so that a case waits only for its own rules.
    spare: RefCell<Option<OwnedFd>>,
}

/// Why Landlock cannot guard the files of programs here.
#[derive(Debug, thiserror::Error)]
pub(super) enum Unavailable {
    #[error("Landlock is not enabled in this kernel (add landlock to its lsm= boot option)")]
    NotEnabled,
    #[error("this kernel has no Landlock (Linux 5.13 or later)")]
    NoLandlock,
    #[error("no_new_privs: {0}")]
    NoNewPrivs(io::Error),
    #[error("Landlock refused a ruleset: {0}")]
    Refused(io::Error),
}

impl Files {
    /// Opens the system's locations; the error says why Landlock cannot be used.
    pub(super) fn new() -> Result<Files, Unavailable> {
        let abi = match sys::landlock_abi() {
            Ok(abi) => abi,
            Err(e) if e.raw_os_error() == Some(libc::EOPNOTSUPP) => {
                return Err(Unavailable::NotEnabled)
            }
            Err(_) => return Err(Unavailable::NoLandlock),
        };
        sys::no_new_privs().map_err(Unavailable::NoNewPrivs)?;
        let known = Known::of(abi);
        let mut paths: Vec<(String, u64)> = Vec::new();
        paths.extend(SYSTEM_READ.iter().map(|p| (p.to_string(), READ)));
        paths.extend(SYSTEM_ETC.iter().map(|p| (format!("/etc/{p}"), READ)));
        if let Ok(dir) = std::fs::read_dir("/etc") {
            for entry in dir.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if SYSTEM_ETC_PREFIXES.iter().any(|p| name.starts_with(p)) {
                    paths.push((format!("/etc/{name}"), READ));
                }
            }
        }
        paths.extend(SYSTEM_DEVICES.iter().map(|p| (p.to_string(), DEVICE)));
        let mut system = Vec::new();
        let mut granted: Vec<PathBuf> = Vec::new();
        for (path, wanted) in paths {
            // Where /bin, /lib... are links into /usr, they need no rule of their own.
            let Ok(real) = std::fs::canonicalize(&path) else {
                continue;
            };
            if granted.iter().any(|g| real.starts_with(g)) {
                continue;
            }
            if let Ok(Some((fd, is_dir))) = sys::open_path(&real) {
                system.push((fd, known.rights(wanted, is_dir)));
                granted.push(real);
            }
        }
        let mut files = Files {
            known,
            system,
            folders: RefCell::new(HashMap::new()),
            _anchor: None,
            spare: RefCell::new(None),
        };
        // Made now, so that a kernel refusing a ruleset says so here, not at the first program.
        files._anchor = Some(files.build().map_err(Unavailable::Refused)?);
        Ok(files)
    }

    /// The ruleset of one program: the system's locations, its stdin, its stdout and its
    /// access. Paths that do not exist are left out (nothing there to grant).
    pub(super) fn ruleset(&self, req: &Request) -> io::Result<OwnedFd> {
        let spare = self.spare.borrow_mut().take();
        let ruleset = match spare {
            Some(r) => r,
            None => self.build()?,
        };
        let fd = ruleset.as_raw_fd();
        let io_files = req
            .stdin
            .iter()
            .map(|p| (p, READ_FILE))
            .chain([(&req.stdout, READ_FILE | WRITE_FILE | TRUNCATE)]);
        for (path, wanted) in io_files {
            if let Some((file, is_dir)) = sys::open_path(path)? {
                self.allow(fd, path, &file, is_dir, wanted)?;
            }
        }
        let mut folders = self.folders.borrow_mut();
        if folders.len() > KEPT_FOLDERS {
            folders.clear();
        }
        let access = (req.access.read.iter().map(|p| (p, READ)))
            .chain(req.access.write.iter().map(|p| (p, WRITE)));
        for (path, wanted) in access {
            let now = identity(path);
            if folders.get(path).is_none_or(|(was, _)| *was != now) {
                let opened = sys::open_path(path)?;
                if matches!(opened, Some((_, false))) {
                    // A file (a checker's input, output, answer): for this run only.
                    let (file, _) = opened.expect("matched");
                    self.allow(fd, path, &file, false, wanted)?;
                    continue;
                }
                folders.insert(path.clone(), (now, opened));
            }
            if let Some((_, Some((folder, _)))) = folders.get(path) {
                self.allow(fd, path, folder, true, wanted)?;
            }
        }
        Ok(ruleset)
    }

    /// Makes the system's part of the next program's ruleset now, between requests (a failure
    /// is left for the next request to meet and report).
    pub(super) fn prepare(&self) {
        let mut spare = self.spare.borrow_mut();
        if spare.is_none() {
            *spare = self.build().ok();
        }
    }

    /// A ruleset of the system's locations alone.
    fn build(&self) -> io::Result<OwnedFd> {
        let k = self.known;
        let ruleset = sys::landlock_ruleset(k.abi, k.fs, k.net, k.scoped)?;
        for (fd, rights) in &self.system {
            if *rights != 0 {
                sys::landlock_allow(ruleset.as_raw_fd(), fd.as_raw_fd(), *rights)?;
            }
        }
        Ok(ruleset)
    }

    /// Adds the rule that allows `wanted` on `path`, open as `target`.
    fn allow(
        &self,
        ruleset: RawFd,
        path: &Path,
        target: &OwnedFd,
        is_dir: bool,
        wanted: u64,
    ) -> io::Result<()> {
        let rights = self.known.rights(wanted, is_dir);
        if rights == 0 {
            return Ok(());
        }
        sys::landlock_allow(ruleset, target.as_raw_fd(), rights)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    }
}
