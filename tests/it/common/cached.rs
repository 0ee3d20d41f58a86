//! A build cache as the judge lays it out (`JUDGE_CACHE_DIR`): `build/KEY/solution`. Shared with the benches.

use std::path::{Path, PathBuf};

/// The program the judge compiled into `cache`, a build cache of one native solution.
pub(crate) fn binary(cache: &Path) -> PathBuf {
    std::fs::read_dir(builds(cache))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
        .join("solution")
}

/// Where `cache` keeps its builds: every program built through it runs from under there.
pub(crate) fn builds(cache: &Path) -> PathBuf {
    cache.join("build")
}
