//! Files written whole or not at all: every file the judge makes or changes for the user goes
//! through here, so that a judge killed at any moment (SIGKILL, the out-of-memory killer, a
//! full disk) leaves each file as it was or completely written, never half.
//!
//! The bytes go to a hidden temporary file beside the target (`.NAME.XXXXXX.tmp`: hidden, and
//! with an extension no language or test file has, so nothing the judge reads takes it for
//! one), which is then renamed over the target in one step. A judge killed before the rename
//! leaves that temporary file behind and the target untouched. A file that replaces another is
//! flushed to the disk before the rename, so that not even a power cut can leave neither the
//! old content nor the new; a new file is not (the worst a power cut does to it is leave it
//! out).
//!
//! Folders of several files are made whole the same way: built in a hidden folder beside their
//! place ([`staging`]), then renamed into it ([`place`]).
//!
//! A file takes the mode it would have had written directly: a new one the user's umask
//! (0644 under umask 022), a copy the executable bits of its source as well, a replaced one the
//! mode of the file it replaces. The temporary file is made with that mode, never left at the
//! 0600 a temporary file has, so that a package exported or a workspace shared stays readable
//! to the other accounts the user's umask lets read it.

use std::fs::Permissions;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Creates `path` with `content`; an error when it exists ([`Error::Exists`]). Its folder is
/// made when missing.
pub fn create(path: &Path, content: &[u8]) -> Result<()> {
    create_together(&[(path, content)])
}

/// Creates files that belong together (a test's input and its answer), each as [`create`]
/// does: all are written first, then renamed into place one right after the other in the order
/// given, so that a judge killed while writing leaves none of them, and only a kill in the
/// microseconds between two renames leaves some. A file that exists already stops the renames
/// there, with [`Error::Exists`].
pub fn create_together(files: &[(&Path, &[u8])]) -> Result<()> {
    let written = files
        .iter()
        .map(|(path, content)| written(path, NEW_FILE, |f| f.write_all(content)))
        .collect::<Result<Vec<_>>>()?;
    for (tmp, (path, _)) in written.into_iter().zip(files) {
        tmp.persist_noclobber(path)
            .map_err(|e| match e.error.kind() {
                std::io::ErrorKind::AlreadyExists => Error::Exists {
                    path: path.to_path_buf(),
                },
                _ => Error::create(path, e.error),
            })?;
    }
    Ok(())
}

/// The mode a new file is opened with, the umask then taking its bits away: what `touch`, a
/// shell's `>` and editors use.
const NEW_FILE: u32 = 0o666;

/// Writes `path` with `content`, replacing the file there.
pub fn replace(path: &Path, content: &[u8]) -> Result<()> {
    persist(written(path, NEW_FILE, |f| f.write_all(content))?, path)
}

/// Makes `to` a copy of the file `from`, replacing the file there: a script stays executable.
pub fn copy(from: &Path, to: &Path) -> Result<()> {
    let mut source = std::fs::File::open(from).map_err(|e| Error::read(from, e))?;
    let executable = source
        .metadata()
        .map_err(|e| Error::read(from, e))?
        .permissions()
        .mode()
        & 0o111;
    let tmp = written(to, NEW_FILE | executable, |f| {
        std::io::copy(&mut source, f).map(|_| ())
    })?;
    persist(tmp, to)
}

/// A hidden temporary file beside `path` with what `write` put in it; its folder made when
/// missing. Its mode is `mode` less the umask, or the mode of the file at `path` it is to
/// replace.
fn written(
    path: &Path,
    mode: u32,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> Result<tempfile::NamedTempFile> {
    let dir = folder(path);
    std::fs::create_dir_all(dir).map_err(|e| Error::create(dir, e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(Permissions::from_mode(mode))
        .tempfile_in(dir)
        .map_err(|e| Error::create(path, plain(e)))?;
    if let Ok(replaced) = std::fs::metadata(path) {
        tmp.as_file()
            .set_permissions(replaced.permissions())
            .map_err(|e| Error::write(path, e))?;
    }
    write(tmp.as_file_mut()).map_err(|e| Error::write(path, e))?;
    Ok(tmp)
}

/// Flushes `tmp` to the disk and renames it over `path`.
fn persist(tmp: tempfile::NamedTempFile, path: &Path) -> Result<()> {
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::write(path, e))?;
    tmp.persist(path)
        .map_err(|e| Error::rename(path, e.error))?;
    Ok(())
}

/// The folder a file is in (`.` for a bare name).
fn folder(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// A hidden folder in `parent` (made when missing) to build a folder in before [`place`]
/// moves it: removed when dropped, so a refusal half-way leaves nothing; left behind, hidden,
/// only by a judge killed meanwhile.
pub fn staging(parent: &Path, what: &str) -> Result<tempfile::TempDir> {
    std::fs::create_dir_all(parent).map_err(|e| Error::create(parent, e))?;
    tempfile::Builder::new()
        .prefix(&format!(".{what}-"))
        .tempdir_in(parent)
        .map_err(|e| Error::create(parent, plain(e)))
}

/// What went wrong making a temporary file, without the temporary file's name (`tempfile` adds
/// it, twice): the error names the user's file, and the name of a file never made says nothing.
fn plain(e: std::io::Error) -> std::io::Error {
    std::io::Error::from(e.kind())
}

/// Moves the folder `built` (made in a [`staging`] folder) to `to` in one step: an error when
/// something is there already, which is left as it is.
pub fn place(built: &Path, to: &Path) -> Result<()> {
    if std::fs::symlink_metadata(to).is_ok() {
        return Err(Error::Exists {
            path: to.to_path_buf(),
        });
    }
    std::fs::rename(built, to).map_err(|e| match e.kind() {
        // A folder made there meanwhile, by another judge: theirs is kept.
        std::io::ErrorKind::DirectoryNotEmpty | std::io::ErrorKind::AlreadyExists => {
            Error::Exists {
                path: to.to_path_buf(),
            }
        }
        _ => Error::rename(to, e),
    })
}

/// The hidden temporary files a killed judge may have left in `dir`: the `.NAME.XXXXXX.tmp`
/// files of [`create`], [`replace`] and [`copy`].
pub fn leftovers(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.') && n.ends_with(".tmp"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_never_overwrites_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/a.rs");
        create(&path, b"one").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        let err = create(&path, b"two").unwrap_err();
        assert!(matches!(err, Error::Exists { .. }), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        assert!(leftovers(&dir.path().join("sub")).is_empty());
    }

    #[test]
    fn a_file_that_cannot_be_made_is_named_once() {
        // A folder no file can be made in, even by root.
        let err = create(Path::new("/proc/self/1.in"), b"x")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("cannot create /proc/self/1.in: "), "{err}");
        assert_eq!(err.matches("1.in").count(), 1, "{err}");
        assert!(!err.contains(".tmp"), "{err}");
    }

    #[test]
    fn files_together_are_written_before_any_is_placed() {
        let dir = tempfile::tempdir().unwrap();
        let (input, answer) = (dir.path().join("t/1.in"), dir.path().join("t/1.out"));
        create_together(&[(&answer, b"42\n"), (&input, b"21\n")]).unwrap();
        assert_eq!(std::fs::read(&input).unwrap(), b"21\n");
        let err = create_together(&[(&dir.path().join("t/2.out"), b"x"), (&input, b"y")]);
        assert!(matches!(err, Err(Error::Exists { .. })), "{err:?}");
        assert_eq!(std::fs::read(&input).unwrap(), b"21\n");
        assert!(leftovers(&dir.path().join("t")).is_empty());
    }

    #[test]
    fn replace_and_copy_swap_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("problem.toml");
        replace(&path, b"old").unwrap();
        replace(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let to = dir.path().join("kept/1.out");
        copy(&path, &to).unwrap();
        assert_eq!(std::fs::read(&to).unwrap(), b"new");
        assert!(leftovers(dir.path()).is_empty());
        let err = copy(&dir.path().join("missing"), &to).unwrap_err();
        assert!(err.to_string().contains("cannot read"), "{err}");
        assert_eq!(std::fs::read(&to).unwrap(), b"new");
    }

    /// This process's umask, as the kernel reports it.
    fn umask() -> u32 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status
            .lines()
            .find_map(|l| l.strip_prefix("Umask:"))
            .unwrap();
        u32::from_str_radix(line.trim(), 8).unwrap()
    }

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn files_take_the_umask_a_copy_its_source_s_execution_a_replaced_file_its_mode() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("a.in");
        create(&new, b"1").unwrap();
        assert_eq!(mode(&new), 0o666 & !umask());
        let script = dir.path().join("build");
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&script, Permissions::from_mode(0o755)).unwrap();
        let copied = dir.path().join("out/build");
        copy(&script, &copied).unwrap();
        assert_eq!(mode(&copied), 0o777 & !umask());
        std::fs::set_permissions(&new, Permissions::from_mode(0o640)).unwrap();
        replace(&new, b"2").unwrap();
        assert_eq!(mode(&new), 0o640);
    }

    #[test]
    fn a_staged_folder_is_placed_whole_or_refused() {
        let dir = tempfile::tempdir().unwrap();
        let staged = staging(dir.path(), "new").unwrap();
        create(&staged.path().join("x/problem.toml"), b"t").unwrap();
        let to = dir.path().join("x");
        place(&staged.path().join("x"), &to).unwrap();
        assert_eq!(std::fs::read(to.join("problem.toml")).unwrap(), b"t");
        let again = staging(dir.path(), "new").unwrap();
        create(&again.path().join("x/other"), b"o").unwrap();
        let err = place(&again.path().join("x"), &to).unwrap_err();
        assert!(matches!(err, Error::Exists { .. }), "{err}");
        assert!(!to.join("other").exists());
        drop((staged, again));
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }
}
