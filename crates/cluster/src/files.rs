//! Files through the object store, each named by its content hash: put once by whoever hands out
//! work, fetched by a worker only when its own cache lacks it. A bundle (every file a job needs)
//! is made on a worker once, from its manifest, and shared by every job of it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::io::AsyncReadExt;

use crate::error::Error;
use crate::nats::Nats;
use crate::wire::{hash, Manifest};

/// Puts `bytes` in the store under their hash, unless it holds them already: the hash.
pub async fn put(nats: &Nats, bytes: &[u8]) -> Result<String, Error> {
    let name = hash(bytes);
    if nats.files.info(&name).await.is_err() {
        nats.files
            .put(name.as_str(), &mut &bytes[..])
            .await
            .map_err(Error::nats)?;
    }
    Ok(name)
}

/// A problem of this many files or more has them packed in one object.
pub const PACK_FROM: usize = 16;

/// Files in one object: each, in the order of their hashes and once, as a line `HASH LENGTH`
/// and then its bytes. A pack is named by its own hash like any object.
pub fn pack(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let unique: std::collections::BTreeMap<&String, &Vec<u8>> =
        files.iter().map(|(h, b)| (h, b)).collect();
    let mut out = Vec::new();
    for (hash, bytes) in unique {
        out.extend_from_slice(format!("{hash} {}\n", bytes.len()).as_bytes());
        out.extend_from_slice(bytes);
    }
    out
}

/// What is wrong with a pack's bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    #[error("a pack's entry has no header line")]
    NoHeader,
    #[error("a pack's header is not text")]
    NotText,
    /// The header line as it is.
    #[error("a pack's header `{0}` has no length")]
    NoLength(String),
    /// The hash of the file cut short.
    #[error("the pack ends inside file {0}")]
    CutShort(String),
}

/// The files of a pack, each with the hash it is named by; `Err` says what is wrong.
pub fn unpack(mut bytes: &[u8]) -> Result<Vec<(&str, &[u8])>, PackError> {
    let mut files = Vec::new();
    while !bytes.is_empty() {
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or(PackError::NoHeader)?;
        let header = std::str::from_utf8(&bytes[..end]).map_err(|_| PackError::NotText)?;
        let no_length = || PackError::NoLength(header.to_string());
        let (hash, len) = header.split_once(' ').ok_or_else(no_length)?;
        let len: usize = len.parse().map_err(|_| no_length())?;
        let rest = &bytes[end + 1..];
        if rest.len() < len {
            return Err(PackError::CutShort(hash.to_string()));
        }
        files.push((hash, &rest[..len]));
        bytes = &rest[len..];
    }
    Ok(files)
}

/// A worker's cache: `objects/HASH` (files as fetched) and `bundles/HASH/` (the files of a
/// manifest in their places).
#[derive(Debug, Clone)]
pub struct Cache {
    pub dir: PathBuf,
}

impl Cache {
    pub fn new(dir: &Path) -> Cache {
        Cache {
            dir: dir.to_path_buf(),
        }
    }

    fn object(&self, hash: &str) -> PathBuf {
        self.dir.join("objects").join(hash)
    }

    /// The file of `hash`, fetched when missing; what was fetched must hash to its name.
    pub async fn fetch(&self, nats: &Nats, hash: &str) -> Result<PathBuf, Error> {
        let path = self.object(hash);
        if path.is_file() {
            return Ok(path);
        }
        // Each read of the store is a short-lived consumer on the server, and a server holds
        // only so many at once: a bundle of thousands of files may meet that limit, which
        // frees itself as the earlier ones expire. Asked again until then, never failed on.
        let mut waited = Duration::ZERO;
        let bytes = loop {
            match read(nats, hash).await {
                Err(why) if why.contains("maximum consumers") && waited < CONSUMERS_PATIENCE => {
                    tokio::time::sleep(Duration::from_millis(250)).await;
                    waited += Duration::from_millis(250);
                }
                Err(why) => return Err(Error::Nats(why)),
                Ok(bytes) => break bytes,
            }
        };
        if crate::wire::hash(&bytes) != hash {
            return Err(Error::Malformed(format!(
                "file {hash} from the store has other contents"
            )));
        }
        write_new(&path, &bytes).map_err(|e| local(&path, e))?;
        Ok(path)
    }

    /// The folder holding the files of the bundle whose manifest is `manifest`, made when
    /// missing (in a temporary folder, then moved into place whole).
    pub async fn bundle(&self, nats: &Nats, manifest: &str) -> Result<PathBuf, Error> {
        let dir = self.dir.join("bundles").join(manifest);
        if dir.is_dir() {
            return Ok(dir);
        }
        let listed = self.fetch(nats, manifest).await?;
        let text = std::fs::read(&listed).map_err(|e| local(&listed, e))?;
        let manifest_of: Manifest = serde_json::from_slice(&text)
            .map_err(|e| Error::Malformed(format!("manifest {manifest}: {e}")))?;
        let parent = self.dir.join("bundles");
        std::fs::create_dir_all(&parent).map_err(|e| local(&parent, e))?;
        let staging = tempfile::Builder::new()
            .prefix(".new-")
            .tempdir_in(&parent)
            .map_err(|e| local(&parent, e))?;
        // A problem's many files come at once, in its pack, when some are not here yet.
        if let Some(pack) = &manifest_of.pack {
            let lacking = |e: &crate::wire::Entry| e.packed && !self.object(&e.hash).is_file();
            if manifest_of.files.values().any(lacking) {
                self.unpack_into_cache(nats, pack).await?;
            }
        }
        // The rest (the solution; a problem's files without a pack) fetched several at once:
        // each is a round trip or more to the server.
        let wanted: std::collections::BTreeSet<String> =
            manifest_of.files.values().map(|e| e.hash.clone()).collect();
        futures_util::stream::iter(wanted)
            .map(|hash| async move { self.fetch(nats, &hash).await })
            .buffer_unordered(FETCHES_AT_ONCE)
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        for (rel, entry) in &manifest_of.files {
            let relative = safe_relative(rel)
                .ok_or_else(|| Error::Malformed(format!("manifest {manifest} names `{rel}`")))?;
            let from = self.fetch(nats, &entry.hash).await?;
            let to = staging.path().join(relative);
            if let Some(d) = to.parent() {
                std::fs::create_dir_all(d).map_err(|e| local(d, e))?;
            }
            // A copy, not a link: a program of the bundle may be given write access to its
            // folder, and must not change the cache's object.
            std::fs::copy(&from, &to).map_err(|e| local(&to, e))?;
            let mode = if entry.executable { 0o755 } else { 0o644 };
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&to, std::fs::Permissions::from_mode(mode))
                .map_err(|e| local(&to, e))?;
        }
        let staged = staging.keep();
        // Another slot may have made it meanwhile: theirs is the same.
        if std::fs::rename(&staged, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&staged);
            if !dir.is_dir() {
                return Err(Error::Nats(format!(
                    "cannot move bundle {manifest} into {}",
                    dir.display()
                )));
            }
        }
        Ok(dir)
    }
}

impl Cache {
    /// Fetches the pack `hash` and keeps each of its files as an object, each checked against
    /// the hash it is named by.
    async fn unpack_into_cache(&self, nats: &Nats, hash: &str) -> Result<(), Error> {
        let bytes = read(nats, hash).await.map_err(Error::Nats)?;
        if crate::wire::hash(&bytes) != hash {
            return Err(Error::Malformed(format!(
                "pack {hash} from the store has other contents"
            )));
        }
        let files = unpack(&bytes).map_err(|e| Error::Malformed(format!("pack {hash}: {e}")))?;
        for (name, contents) in files {
            let path = self.object(name);
            if path.is_file() {
                continue;
            }
            if crate::wire::hash(contents) != name {
                return Err(Error::Malformed(format!(
                    "file {name} of pack {hash} has other contents"
                )));
            }
            write_new(&path, contents).map_err(|e| local(&path, e))?;
        }
        Ok(())
    }
}

/// Files fetched at once for a bundle.
const FETCHES_AT_ONCE: usize = 8;

/// How long a fetch waits for the server's consumers to free up.
const CONSUMERS_PATIENCE: Duration = Duration::from_secs(120);

/// The bytes of the object `hash`, or what went wrong, said.
async fn read(nats: &Nats, hash: &str) -> Result<Vec<u8>, String> {
    let mut object = nats
        .files
        .get(hash)
        .await
        .map_err(|e| format!("fetching file {hash} from the store: {e}"))?;
    let mut bytes = Vec::new();
    object
        .read_to_end(&mut bytes)
        .await
        .map_err(|e| format!("reading file {hash} from the store: {e}"))?;
    Ok(bytes)
}

/// `rel` as a path inside a folder: plain names only (no `..`, no root, nothing hidden by it).
fn safe_relative(rel: &str) -> Option<PathBuf> {
    let path = Path::new(rel);
    let plain = path
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    (plain && path.components().next().is_some()).then(|| path.to_path_buf())
}

/// Writes a file whole: to a temporary beside it, then renamed into place.
fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().expect("an object has a folder");
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, bytes)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

fn local(path: &Path, e: std::io::Error) -> Error {
    Error::Nats(format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::{pack, safe_relative, unpack};
    use crate::wire::hash;

    #[test]
    fn a_pack_holds_each_file_once_and_gives_it_back_whole() {
        let files: Vec<(String, Vec<u8>)> = [&b"1\n"[..], b"", b"two\nlines\n", b"1\n"]
            .iter()
            .map(|b| (hash(b), b.to_vec()))
            .collect();
        let packed = pack(&files);
        let back = unpack(&packed).unwrap();
        assert_eq!(back.len(), 3, "the same file twice is packed once");
        for (name, bytes) in back {
            assert_eq!(hash(bytes), name);
        }
        // Cut short, or no pack at all: said, never read past.
        let said = |bytes: &[u8]| unpack(bytes).unwrap_err().to_string();
        let last = &packed[..packed.len() - 1];
        assert!(said(last).starts_with("the pack ends inside file "));
        assert_eq!(said(b"no header"), "a pack's entry has no header line");
        assert_eq!(said(b"\xff 1\n"), "a pack's header is not text");
        assert_eq!(
            said(b"abc notanumber\n"),
            "a pack's header `abc notanumber` has no length"
        );
        assert_eq!(said(b"abc\n"), "a pack's header `abc` has no length");
        assert_eq!(said(b"abc 5\nxy"), "the pack ends inside file abc");
    }

    #[test]
    fn a_manifest_names_only_paths_inside_its_bundle() {
        assert!(safe_relative("problems/p/problem.toml").is_some());
        for bad in ["../x", "/etc/passwd", "a/../../b", "", "./x"] {
            assert!(safe_relative(bad).is_none(), "{bad}");
        }
    }
}
