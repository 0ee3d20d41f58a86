//! A compile cache as the judge lays it out (`JUDGE_CACHE_DIR`). Shared with the benches.

use std::path::{Path, PathBuf};

/// The program the judge compiled into `cache`, a compile cache of one solution.
pub fn binary(cache: &Path) -> PathBuf {
    std::fs::read_dir(cache.join("bin"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}
