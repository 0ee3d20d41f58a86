//! proptest's regression files lie where proptest reads them, so that every seed kept is
//! replayed: proptest's default (`SourceParallel("proptest-regressions")`) reads the failures of
//! `D/a/b.rs`, where `D` is the nearest folder above it holding `lib.rs` or `main.rs`, from
//! `proptest-regressions/a/b.txt` beside `D`. A file left behind when a test moves is never read.

use std::path::Path;

use crate::common::repo;

/// Whether `folder` is where proptest stops climbing: a crate's root module is in it.
fn holds_root_module(folder: &Path) -> bool {
    folder.join("lib.rs").is_file() || folder.join("main.rs").is_file()
}

/// Whether some source file has its regressions read from the file at `relative` (`a/b.txt`)
/// in the `proptest-regressions` folder inside `parent`.
fn is_read(parent: &Path, relative: &Path) -> bool {
    let Ok(folders) = std::fs::read_dir(parent) else {
        return false;
    };
    folders.flatten().any(|entry| {
        let root = entry.path();
        let source = root.join(relative).with_extension("rs");
        // The nearest folder above the source holding a root module must be `root` itself.
        source.is_file()
            && source
                .ancestors()
                .skip(1)
                .find(|folder| holds_root_module(folder))
                == Some(root.as_path())
    })
}

#[test]
fn every_regression_file_is_read_by_its_property() {
    let repo = repo();
    let files: Vec<_> = walkdir::WalkDir::new(&repo)
        .into_iter()
        .filter_entry(|e| !matches!(e.file_name().to_str(), Some("target" | ".git")))
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            p.components()
                .any(|c| c.as_os_str() == "proptest-regressions")
        })
        .collect();
    assert!(
        !files.is_empty(),
        "no regression file found under {}",
        repo.display()
    );
    let unread: Vec<_> = files
        .iter()
        .filter(|file| {
            let folder = file
                .ancestors()
                .find(|a| a.file_name().is_some_and(|n| n == "proptest-regressions"))
                .unwrap();
            !is_read(folder.parent().unwrap(), file.strip_prefix(folder).unwrap())
        })
        .collect();
    assert!(
        unread.is_empty(),
        "regression files no property reads (move each beside the crate root of its test's source, as proptest resolves it): {unread:?}"
    );
}
