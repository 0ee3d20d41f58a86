//! Files through the object store, each named by its content hash: put once by whoever hands out
//! work, fetched by a worker only when its own cache lacks it. A bundle (every file a job needs)
//! is made on a worker once, from its manifest, and shared by every job of it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::io::AsyncReadExt;

use crate::nats::{ClusterError, Nats};
use crate::wire::{hash, Manifest};

/// Puts `bytes` in the store under their hash, unless it holds them already: the hash.
pub async fn put(nats: &Nats, bytes: &[u8]) -> Result<String, ClusterError> {
    let name = hash(bytes);
    if nats.files.info(&name).await.is_err() {
        nats.files
            .put(name.as_str(), &mut &bytes[..])
            .await
            .map_err(ClusterError::nats)?;
    }
    Ok(name)
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
    pub async fn fetch(&self, nats: &Nats, hash: &str) -> Result<PathBuf, ClusterError> {
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
                Err(why) => return Err(ClusterError::Nats(why)),
                Ok(bytes) => break bytes,
            }
        };
        if crate::wire::hash(&bytes) != hash {
            return Err(ClusterError::Malformed(format!(
                "file {hash} from the store has other contents"
            )));
        }
        write_new(&path, &bytes).map_err(|e| local(&path, e))?;
        Ok(path)
    }

    /// The folder holding the files of the bundle whose manifest is `manifest`, made when
    /// missing (in a temporary folder, then moved into place whole).
    pub async fn bundle(&self, nats: &Nats, manifest: &str) -> Result<PathBuf, ClusterError> {
        let dir = self.dir.join("bundles").join(manifest);
        if dir.is_dir() {
            return Ok(dir);
        }
        let listed = self.fetch(nats, manifest).await?;
        let text = std::fs::read(&listed).map_err(|e| local(&listed, e))?;
        let manifest_of: Manifest = serde_json::from_slice(&text)
            .map_err(|e| ClusterError::Malformed(format!("manifest {manifest}: {e}")))?;
        let parent = self.dir.join("bundles");
        std::fs::create_dir_all(&parent).map_err(|e| local(&parent, e))?;
        let staging = tempfile::Builder::new()
            .prefix(".new-")
            .tempdir_in(&parent)
            .map_err(|e| local(&parent, e))?;
        for (rel, entry) in &manifest_of.files {
            let relative = safe_relative(rel).ok_or_else(|| {
                ClusterError::Malformed(format!("manifest {manifest} names `{rel}`"))
            })?;
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
                return Err(ClusterError::Nats(format!(
                    "cannot move bundle {manifest} into {}",
                    dir.display()
                )));
            }
        }
        Ok(dir)
    }
}

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

fn local(path: &Path, e: std::io::Error) -> ClusterError {
    ClusterError::Nats(format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::safe_relative;

    #[test]
    fn a_manifest_names_only_paths_inside_its_bundle() {
        assert!(safe_relative("problems/p/problem.toml").is_some());
        for bad in ["../x", "/etc/passwd", "a/../../b", "", "./x"] {
            assert!(safe_relative(bad).is_none(), "{bad}");
        }
    }
}
