//! A source release from PyPI, downloaded at test time (never kept in the repository) into a
//! cache beside the test build, its SHA-256 checked each time it is used, and unpacked.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The unpacked source release `name==version` (its top folder), whose archive must have the
/// SHA-256 `sha256`. Needs `python3 -m pip` and `tar`, and the network on first use.
pub(crate) fn pypi_sdist(name: &str, version: &str, sha256: &str) -> PathBuf {
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("downloads");
    std::fs::create_dir_all(&cache).unwrap();
    let archive = cache.join(format!("{name}-{version}.tar.gz"));
    if !archive.is_file() || digest(&archive) != sha256 {
        let _ = std::fs::remove_file(&archive);
        let out = Command::new("python3")
            .args([
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
            ])
            .arg(&cache)
            .arg(format!("{name}=={version}"))
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success() && archive.is_file(),
            "pip download {name}=={version} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let got = digest(&archive);
    assert_eq!(
        got,
        sha256,
        "{} has another SHA-256 than expected",
        archive.display()
    );
    // Unpacked afresh into a folder of this run: tests must not share a tree they may change.
    let into = tempfile::Builder::new()
        .prefix(&format!("{name}-"))
        .tempdir_in(&cache)
        .unwrap()
        .keep();
    let status = Command::new("tar")
        .arg("xzf")
        .arg(&archive)
        .arg("-C")
        .arg(&into)
        .status()
        .expect("tar runs");
    assert!(
        status.success(),
        "tar could not unpack {}",
        archive.display()
    );
    into.join(format!("{name}-{version}"))
}

/// The SHA-256 of a file, in hex, by coreutils' `sha256sum`.
fn digest(path: &Path) -> String {
    let out = Command::new("sha256sum")
        .arg(path)
        .output()
        .expect("sha256sum runs");
    assert!(out.status.success(), "sha256sum {}", path.display());
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string()
}
