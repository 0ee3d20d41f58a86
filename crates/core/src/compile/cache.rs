//! The build cache in the folder it is given (`.judge/cache` unless the settings move it):
//! builds and compile errors kept under a hash of what decides them; and where builds go when
//! it cannot be written.

use std::path::PathBuf;

use crate::error::{Error, Result};
use crate::paths;

/// The build cache, and a spare one for builds when it cannot be written.
#[derive(Debug, Clone)]
pub struct Cache {
    pub dir: PathBuf,
    /// Where builds go when `dir` cannot be written (a workspace on a read-only file system):
    /// a folder that lives as long as the judge, so such a workspace is judged all the same,
    /// compiling what its cache does not hold.
    spare: Option<PathBuf>,
}

impl Cache {
    /// The cache in `dir`, as the settings resolved it (the library never looks elsewhere).
    pub fn new(dir: PathBuf) -> Cache {
        Cache { dir, spare: None }
    }

    /// This cache, with `spare` for builds when it cannot be written.
    pub fn with_spare(self, spare: PathBuf) -> Cache {
        Cache {
            spare: Some(spare),
            ..self
        }
    }

    pub(super) fn build(&self, key: &str) -> PathBuf {
        paths::cache::builds(&self.dir).join(key)
    }

    pub(super) fn diagnostics(&self, key: &str) -> PathBuf {
        paths::cache::compile_errors(&self.dir).join(format!("{key}.txt"))
    }

    /// Where a zipped problem package is unpacked, once, to be judged.
    pub fn packages(&self) -> PathBuf {
        paths::cache::packages(&self.dir)
    }

    /// Where the identities of compilers are remembered.
    pub fn identities(&self) -> PathBuf {
        paths::cache::identities(&self.dir)
    }

    /// The caches a build is looked up in: this one, then the spare.
    pub(super) fn places(&self) -> Vec<Cache> {
        let spare = self.spare.clone().map(Cache::at);
        std::iter::once(Cache::at(self.dir.clone()))
            .chain(spare)
            .collect()
    }

    /// The cache new builds are written to: this one, or the spare when this one's file
    /// system is read-only or closed to the judge.
    pub(super) fn store(&self) -> Result<Cache> {
        let tmp = paths::cache::tmp(&self.dir);
        // A folder there may be old: only making one says whether it can be written now.
        let made =
            std::fs::create_dir_all(&tmp).and_then(|()| tempfile::tempdir_in(&tmp).map(drop));
        match (made, &self.spare) {
            (Ok(()), _) => Ok(Cache::at(self.dir.clone())),
            (Err(e), Some(spare)) if unwritable(&e) => Ok(Cache::at(spare.clone())),
            (Err(e), _) => Err(Error::create(&tmp, e)),
        }
    }

    fn at(dir: PathBuf) -> Cache {
        Cache { dir, spare: None }
    }
}

/// The error of a folder that cannot be written, whatever is done.
fn unwritable(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied
    )
}
