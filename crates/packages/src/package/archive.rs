//! A package given as a `.zip`: extracted once into the cache, under the hash of its bytes,
//! and refused whole when an entry would land outside the folder (zip-slip), is a link, or
//! the archive unpacks to more than the caps allow (a zip bomb). The `.zip` is only read.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use judge_core::error::{Error, Location, Result};

/// What an archive may unpack to.
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    pub total_bytes: u64,
    pub entries: usize,
}

/// Ample for a full Polygon package (its tests included), far below a bomb's.
pub const CAPS: Caps = Caps {
    total_bytes: 2 << 30,
    entries: 100_000,
};

/// Whether `path` is a zip file by its name.
pub fn is_zip(path: &Path) -> bool {
    path.is_file()
        && path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

/// The folder `zip` unpacks to under `cache` (extracting it the first time): the package's
/// folder, the archive's one top folder when it has nothing else.
pub fn unpacked(zip: &Path, cache: &Path, caps: Caps) -> Result<PathBuf> {
    let bytes = std::fs::read(zip).map_err(|e| Error::read(zip, e))?;
    let stem = zip
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "package".into());
    let hash = blake3::hash(&bytes).to_hex();
    // The package's folder keeps the zip's name: messages and ids show it.
    let dest = cache.join(&hash[..32]).join(&stem);
    if !dest.is_dir() {
        std::fs::create_dir_all(cache).map_err(|e| Error::create(cache, e))?;
        let staging = tempfile::Builder::new()
            .prefix(".unpacking-")
            .tempdir_in(cache)
            .map_err(|e| Error::create(cache, e))?;
        let inner = staging.path().join(&stem);
        extract(&bytes, zip, &inner, caps)?;
        let parent = dest.parent().expect("dest has a parent");
        std::fs::create_dir_all(parent).map_err(|e| Error::create(parent, e))?;
        // Another judge may have unpacked the same bytes meanwhile: theirs is as good.
        if std::fs::rename(&inner, &dest).is_err() && !dest.is_dir() {
            return Err(Error::rename(
                &dest,
                std::io::Error::other("cannot move the unpacked package into the cache"),
            ));
        }
    }
    Ok(top_folder(&dest))
}

/// Extracts `zip` into the empty folder `into` (a temporary one): the package's folder.
pub fn unpack_into(zip: &Path, into: &Path, caps: Caps) -> Result<PathBuf> {
    let bytes = std::fs::read(zip).map_err(|e| Error::read(zip, e))?;
    extract(&bytes, zip, into, caps)?;
    Ok(top_folder(into))
}

/// Whether the zip holds `name` at its top or in its one top folder (a cheap look at its
/// directory, never an error).
pub fn holds(zip: &Path, name: &str) -> bool {
    let Ok(archive) = std::fs::File::open(zip).map(zip::ZipArchive::new) else {
        return false;
    };
    archive.is_ok_and(|a| {
        a.file_names().flatten().any(|n| {
            n == name
                || n.strip_suffix(name)
                    .and_then(|top| top.strip_suffix('/'))
                    .is_some_and(|top| !top.is_empty() && !top.contains('/'))
        })
    })
}

/// An archive made of one folder (`problem/...`) is that folder's package.
fn top_folder(dest: &Path) -> PathBuf {
    let entries: Vec<PathBuf> = std::fs::read_dir(dest)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    match entries.as_slice() {
        [one] if one.is_dir() => one.clone(),
        _ => dest.to_path_buf(),
    }
}

/// Extracts `bytes` (the archive `shown`) into `into`, entry by entry, under the caps.
pub fn extract(bytes: &[u8], shown: &Path, into: &Path, caps: Caps) -> Result<()> {
    let refuse = |message: String| Error::TestData {
        at: Location::file(shown),
        message,
        fix: "give the package as Polygon (or the format's tool) makes it".into(),
    };
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| refuse(format!("not a zip archive the judge can read: {e}")))?;
    if archive.len() > caps.entries {
        return Err(refuse(format!(
            "{} entries, more than the {} a package may have",
            archive.len(),
            caps.entries
        )));
    }
    std::fs::create_dir_all(into).map_err(|e| Error::create(into, e))?;
    let mut left = caps.total_bytes;
    for i in 0..archive.len() {
        let mut entry = archive
            .by_index(i)
            .map_err(|e| refuse(format!("entry {i} cannot be read: {e}")))?;
        let raw = entry
            .name()
            .map(|n| n.into_owned())
            .unwrap_or_else(|_| format!("entry {i}"));
        let Some(relative) = entry.enclosed_name() else {
            return Err(refuse(format!(
                "the entry `{raw}` leads outside the package, which the judge does not extract"
            )));
        };
        if entry.is_symlink() {
            return Err(refuse(format!(
                "the entry `{raw}` is a symbolic link, which the judge does not extract"
            )));
        }
        let target = into.join(relative);
        // An entry that clashes with another (the same name twice, a file where a folder is, no
        // name at all) is the archive's fault, said as such.
        let clash =
            |e: std::io::Error| refuse(format!("the entry `{raw}` cannot be unpacked: {e}"));
        if entry.is_dir() {
            std::fs::create_dir_all(&target).map_err(clash)?;
            continue;
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(clash)?;
        }
        let mut out = std::fs::File::create_new(&target).map_err(clash)?;
        // What the entry really unpacks to is counted, not what its header claims.
        let mut limited = (&mut entry).take(left + 1);
        let written = std::io::copy(&mut limited, &mut out)
            .map_err(|e| refuse(format!("the entry `{raw}` cannot be unpacked: {e}")))?;
        if written > left {
            return Err(refuse(format!(
                "it unpacks to more than {} MiB, more than a package may",
                caps.total_bytes >> 20
            )));
        }
        left -= written;
        out.flush().map_err(|e| Error::write(&target, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use zip::write::SimpleFileOptions;

    fn archive(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, data) in entries {
            w.start_file(*name, SimpleFileOptions::default()).unwrap();
            w.write_all(data).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn a_bomb_is_refused_by_what_it_unpacks_to() {
        let tmp = tempfile::tempdir().unwrap();
        let zeros = vec![0u8; 64 << 10];
        let bytes = archive(&[("tests/01", &zeros)]);
        assert!(bytes.len() < 4 << 10, "it compresses well");
        let caps = Caps {
            total_bytes: 16 << 10,
            entries: 10,
        };
        let err = extract(&bytes, Path::new("bomb.zip"), &tmp.path().join("a"), caps)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unpacks to more than"), "{err}");
        let many = archive(&[("a", b"1"), ("b", b"2"), ("c", b"3")]);
        let caps = Caps {
            total_bytes: 1 << 20,
            entries: 2,
        };
        let err = extract(&many, Path::new("many.zip"), &tmp.path().join("b"), caps)
            .unwrap_err()
            .to_string();
        assert!(err.contains("3 entries"), "{err}");
    }

    #[test]
    fn a_zip_is_unpacked_once_and_its_one_top_folder_is_the_package() {
        let tmp = tempfile::tempdir().unwrap();
        let zip = tmp.path().join("sum.zip");
        std::fs::write(
            &zip,
            archive(&[
                ("sum/problem.xml", b"<problem/>"),
                ("sum/tests/01", b"1 2\n"),
            ]),
        )
        .unwrap();
        assert!(holds(&zip, "problem.xml") && !holds(&zip, "problem.yaml"));
        let cache = tmp.path().join("cache");
        let dir = unpacked(&zip, &cache, CAPS).unwrap();
        assert!(dir.ends_with("sum/sum"), "{}", dir.display());
        assert_eq!(std::fs::read(dir.join("tests/01")).unwrap(), b"1 2\n");
        // The same bytes again: the folder there is taken as it is.
        std::fs::write(dir.join("marker"), b"").unwrap();
        assert_eq!(unpacked(&zip, &cache, CAPS).unwrap(), dir);
        assert!(dir.join("marker").exists());
    }

    #[test]
    fn an_entry_outside_the_folder_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let bytes = archive(&[("problem.xml", b"<problem/>"), ("../evil", b"x")]);
        let err = extract(&bytes, Path::new("slip.zip"), &tmp.path().join("p"), CAPS)
            .unwrap_err()
            .to_string();
        assert!(err.contains("`../evil` leads outside"), "{err}");
        assert!(!tmp.path().join("evil").exists());
    }
}
