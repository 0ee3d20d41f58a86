//! A package given as a `.zip`: archives made whole and then mutated, and the ones made to
//! harm (an entry leading outside, a link, a bomb), unpacked as the judge unpacks a package:
//! nothing lands outside the folder, nothing beyond the caps is written, and a refusal names
//! the archive and what to do.

use std::io::Write;
use std::path::Path;

use proptest::prelude::*;
use zip::write::SimpleFileOptions;

use crate::harness::{config, kept, mutants, names_file_and_fix, scratch, watch};
use judge_packages::package::archive::{self, Caps};

/// Small caps, so that a mutated bomb writes little.
const CAPS: Caps = Caps {
    total_bytes: 1 << 20,
    entries: 64,
};

fn zip(entries: &[(&str, &[u8], Option<u32>)], method: zip::CompressionMethod) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data, mode) in entries {
        let mut options = SimpleFileOptions::default().compression_method(method);
        if let Some(mode) = mode {
            options = options.unix_permissions(*mode);
        }
        if name.ends_with('/') {
            w.add_directory(*name, options).unwrap();
        } else if mode.is_some_and(|m| m & 0o170000 == 0o120000) {
            w.add_symlink(*name, std::str::from_utf8(data).unwrap(), options)
                .unwrap();
        } else {
            w.start_file(*name, options).unwrap();
            w.write_all(data).unwrap();
        }
    }
    w.finish().unwrap().into_inner()
}

fn archives() -> Vec<Vec<u8>> {
    let deflate = zip::CompressionMethod::Deflated;
    let stored = zip::CompressionMethod::Stored;
    let zeros = vec![0u8; 4 << 20];
    vec![
        zip(
            &[
                ("sum/", b"", None),
                ("sum/problem.xml", b"<problem short-name=\"sum\"/>", None),
                ("sum/tests/01", b"1 2\n", Some(0o644)),
                ("sum/tests/01.a", b"3\n", None),
            ],
            deflate,
        ),
        zip(
            &[
                ("problem.yaml", b"name: Sum\n", None),
                ("data/sample/1.in", b"1 2\n", None),
                ("data/sample/1.ans", b"3\n", None),
            ],
            stored,
        ),
        zip(
            &[("../evil", b"x", None), ("/etc/evil", b"x", None)],
            deflate,
        ),
        zip(&[("link", b"/etc/passwd", Some(0o120777))], stored),
        zip(&[("bomb/01", &zeros, None)], deflate),
    ]
}

const TOKENS: &[&str] = &[
    "PK\u{3}\u{4}",
    "PK\u{1}\u{2}",
    "PK\u{5}\u{6}",
    "../",
    "/",
    "\\",
];

/// Every file and link under `dir`, and their bytes in all.
fn written(dir: &Path) -> (usize, u64) {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| !e.file_type().is_dir())
        .fold((0, 0), |(n, bytes), e| {
            (n + 1, bytes + e.metadata().map_or(0, |m| m.len()))
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn zip_archive(input in mutants(archives(), TOKENS)) {
        let dir = scratch();
        let into = dir.path().join("inside/package");
        let _watched = watch("a .zip", &kept("zip"), &input);
        let unpacked = archive::extract(&input, Path::new("sum.zip"), &into, CAPS);
        // Nothing beside the folder it unpacks into.
        let beside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        prop_assert!(beside.len() <= 1, "{:?}", beside);
        let links = walkdir::WalkDir::new(dir.path())
            .into_iter()
            .flatten()
            .filter(|e| e.path_is_symlink())
            .count();
        prop_assert_eq!(links, 0);
        // A refusal may leave the byte past the cap that showed it (the caller removes the
        // folder).
        let (files, bytes) = written(dir.path());
        prop_assert!(files <= CAPS.entries && bytes <= CAPS.total_bytes + 1, "{} files, {} bytes", files, bytes);
        if let Err(e) = unpacked {
            names_file_and_fix(&e.to_string(), "sum.zip");
        }
    }
}
