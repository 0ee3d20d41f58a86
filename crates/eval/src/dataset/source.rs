//! The files a data set (or `--tests`) is read from: the file named, or a folder's Parquet
//! shards in name order (Hugging Face's `data/` folder too), each with its SHA-256, and the one
//! hash that names them together. A folder whose shard names say they are incomplete, or of
//! several splits, is refused: a part of a data set, or two splits mixed, would give figures
//! that look like the whole.

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::Digest;

use super::{dataset_error, hex, DataFile};
use crate::Error;

/// The files the path names: itself, or the Parquet files of the folder (of its `data/` when
/// it has none of its own), in name order.
pub(super) fn files(path: &Path) -> Result<Vec<PathBuf>, Error> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut shards = parquet_in(path)?;
    if shards.is_empty() && path.join("data").is_dir() {
        shards = parquet_in(&path.join("data"))?;
    }
    if shards.is_empty() {
        return Err(dataset_error(
            path,
            None,
            "the folder holds no `.parquet` files (nor does its `data/`)".into(),
            "give the data set's file, or the folder of its Parquet shards",
        ));
    }
    one_whole_split(path, &shards)?;
    Ok(shards)
}

/// The `.parquet` files directly in `dir`, in name order.
fn parquet_in(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io("read", dir, e))?;
    let mut found = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| Error::io("read", dir, e))?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "parquet") {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

/// Hugging Face's shard names, `SPLIT-00000-of-00003.parquet`: the split and the count.
fn shard_name(path: &Path) -> Option<(String, usize)> {
    let stem = path.file_stem()?.to_str()?;
    let (rest, count) = stem.rsplit_once("-of-")?;
    let (split, index) = rest.rsplit_once('-')?;
    index.parse::<usize>().ok()?;
    Some((split.to_string(), count.parse().ok()?))
}

/// Shards named as Hugging Face names them are all of one split, and all of it.
fn one_whole_split(dir: &Path, shards: &[PathBuf]) -> Result<(), Error> {
    let named: Vec<(String, usize)> = shards.iter().filter_map(|s| shard_name(s)).collect();
    let mut splits: Vec<&str> = named.iter().map(|(s, _)| s.as_str()).collect();
    splits.dedup();
    if splits.len() > 1 {
        return Err(dataset_error(
            dir,
            None,
            format!(
                "the folder holds the shards of several splits ({})",
                splits.join(", ")
            ),
            "give one split: its shard file, or a folder holding its shards alone",
        ));
    }
    if let Some((split, count)) = named.first() {
        if named.len() != *count || named.iter().any(|(_, c)| c != count) {
            return Err(dataset_error(
                dir,
                None,
                format!(
                    "the split `{split}` has {count} shards by their names, and the folder holds {}",
                    named.len()
                ),
                "download every shard of the split",
            ));
        }
    }
    Ok(())
}

/// The file's SHA-256, read in pieces (a shard is often larger than is worth holding twice).
pub(super) fn sha256(path: &Path) -> Result<String, Error> {
    let mut file = std::fs::File::open(path).map_err(|e| Error::io("read", path, e))?;
    let mut hash = sha2::Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = file
            .read(&mut buffer)
            .map_err(|e| Error::io("read", path, e))?;
        if n == 0 {
            break;
        }
        hash.update(&buffer[..n]);
    }
    Ok(hex(&hash.finalize()))
}

/// The hash that names the files together: one file's own hash, else the hash of each file's
/// name and hash in order (so that the problems made from them are made again when any
/// changes).
pub(super) fn combined(files: &[DataFile]) -> String {
    if let [one] = files {
        return one.sha256.clone();
    }
    let mut hash = sha2::Sha256::new();
    for f in files {
        let name = f.path.file_name().map(|n| n.to_string_lossy().into_owned());
        hash.update(name.unwrap_or_default().as_bytes());
        hash.update([0]);
        hash.update(f.sha256.as_bytes());
        hash.update([b'\n']);
    }
    hex(&hash.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugging_face_shard_names_are_read() {
        let name = |s: &str| shard_name(Path::new(s));
        assert_eq!(
            name("data/train-00001-of-00003.parquet"),
            Some(("train".into(), 3))
        );
        assert_eq!(
            name("test-00000-of-00001.parquet"),
            Some(("test".into(), 1))
        );
        assert_eq!(name("test_cases_0001.parquet"), None);
    }

    #[test]
    fn a_missing_shard_and_two_splits_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let touch = |n: &str| std::fs::write(dir.path().join(n), b"PAR1").unwrap();
        touch("train-00000-of-00002.parquet");
        let err = files(dir.path()).unwrap_err().to_string();
        assert!(err.contains("has 2 shards by their names"), "{err}");
        touch("train-00001-of-00002.parquet");
        assert_eq!(files(dir.path()).unwrap().len(), 2);
        touch("test-00000-of-00001.parquet");
        let err = files(dir.path()).unwrap_err().to_string();
        assert!(err.contains("several splits (test, train)"), "{err}");
    }
}
