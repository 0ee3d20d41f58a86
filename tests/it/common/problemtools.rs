//! problemtools' example packages (`examples/hello`, `different`, `oddecho`...), from its pinned
//! source release on PyPI: downloaded by pip once into the tests' temporary folder, its sha256
//! checked, extracted. Never copied into the repository.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The release whose examples the tests judge, and the sha256 of its source archive.
pub(crate) const VERSION: &str = "1.20260907";
const SHA256: &str = "55f19b6a72ef5cb07daf0a4e612be963a15e7972891a3afb0fff89244b6228c6";

/// The extracted `examples/` folder, downloaded and extracted the first time. A file lock makes
/// tests in parallel (threads, or processes under nextest) download it once.
pub(crate) fn examples() -> PathBuf {
    let home = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("problemtools-{VERSION}"));
    std::fs::create_dir_all(&home).unwrap();
    let lock = std::fs::File::create(home.join("lock")).unwrap();
    lock.lock().unwrap();
    let tree = home.join(format!("problemtools-{VERSION}"));
    let done = home.join("extracted");
    if !done.is_file() {
        // pip, sha256sum and tar run outside the harness.
        let _guard = super::Test::guard();
        let archive = download(&home);
        let _ = std::fs::remove_dir_all(&tree);
        let status = Command::new("tar")
            .arg("-xzf")
            .arg(&archive)
            .arg("-C")
            .arg(&home)
            .status()
            .expect("tar runs");
        assert!(
            status.success(),
            "tar could not extract {}",
            archive.display()
        );
        std::fs::write(&done, VERSION).unwrap();
    }
    let examples = tree.join("examples");
    assert!(examples.is_dir(), "{} is missing", examples.display());
    examples
}

/// The archive in `home`, downloaded by pip when it is not there yet, with its sha256 checked.
fn download(home: &Path) -> PathBuf {
    let archive = home.join(format!("problemtools-{VERSION}.tar.gz"));
    if !archive.is_file() || sha256(&archive) != SHA256 {
        let pip = ["pip3", "pip"]
            .into_iter()
            .find(|p| Command::new(p).arg("--version").output().is_ok())
            .expect("needs pip (Debian: apt-get install python3-pip) to download problemtools");
        let out = Command::new(pip)
            .args(["download", "--no-deps", "--no-binary", ":all:"])
            .arg(format!("problemtools=={VERSION}"))
            .arg("-d")
            .arg(home)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "pip could not download problemtools {VERSION} (needs the network): {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let got = sha256(&archive);
    assert_eq!(
        got,
        SHA256,
        "{} is not the pinned release",
        archive.display()
    );
    archive
}

fn sha256(file: &Path) -> String {
    let out = Command::new("sha256sum")
        .arg(file)
        .output()
        .expect("sha256sum runs");
    assert!(out.status.success(), "sha256sum {}", file.display());
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}
