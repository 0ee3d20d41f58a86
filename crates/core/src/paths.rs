//! Every place the judge keeps things, written once for the library and the binary alike: a
//! workspace's `.judge/` folder and what is in it, the build cache's folders, and the user's
//! cache and config folders by the XDG rule.

use std::path::{Path, PathBuf};

/// The workspace's own folder of the judge's state, at its root: never committed.
pub const STATE_DIR: &str = ".judge";

/// `.judge/` of the workspace at `root`.
pub fn state(root: &Path) -> PathBuf {
    root.join(STATE_DIR)
}

/// The build cache's folder by default: `cache/` in the state folder.
pub fn cache(state: &Path) -> PathBuf {
    state.join("cache")
}

/// The submission history's database by default.
pub fn history(state: &Path) -> PathBuf {
    state.join("history.db")
}

/// The history's files: the database and SQLite's write-ahead log and its index beside it.
pub fn history_files(history: &Path) -> Vec<PathBuf> {
    ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| {
            let mut name = history.as_os_str().to_owned();
            name.push(suffix);
            PathBuf::from(name)
        })
        .collect()
}

/// The outputs of the cases that failed, kept to be read: `last/PROBLEM/SOLUTION/`.
pub fn last(state: &Path) -> PathBuf {
    state.join("last")
}

/// Code pasted into `judge serve`'s submit form: `pastes/PROBLEM/pasted-N.EXT`.
pub fn pastes(state: &Path) -> PathBuf {
    state.join("pastes")
}

/// `judge batch`'s submissions, each written to a file: `batch/PROBLEM/STEM/`.
pub fn batch(state: &Path) -> PathBuf {
    state.join("batch")
}

/// The time limits derived for packages that fix none, remembered by what decides them.
pub fn derived(state: &Path) -> PathBuf {
    state.join("derived")
}

/// The folders of a build cache, by what they hold.
pub mod cache {
    use std::path::{Path, PathBuf};

    /// Builds, a folder each under the hash of what decides them.
    pub fn builds(cache: &Path) -> PathBuf {
        cache.join("build")
    }

    /// Compile errors, a file each under the same hash.
    pub fn compile_errors(cache: &Path) -> PathBuf {
        cache.join("ce")
    }

    /// Where a build is made before it is placed (and where the cache is tried for writing).
    pub fn tmp(cache: &Path) -> PathBuf {
        cache.join("tmp")
    }

    /// The compilers' identities and this machine's calibration, remembered.
    pub fn identities(cache: &Path) -> PathBuf {
        cache.join("identity")
    }

    /// Zipped problem packages, each unpacked once to be judged.
    pub fn packages(cache: &Path) -> PathBuf {
        cache.join("packages")
    }

    /// `judge eval`'s data sets' problems, each written once: `eval/DATASET/PROBLEM/`.
    pub fn evaluations(cache: &Path) -> PathBuf {
        cache.join("eval")
    }

    /// Every folder the judge makes in a cache, for `judge clean`: the ones above, and `bin`
    /// and `rustc`, where judges before languages kept binaries and rustc's identity.
    pub fn all(cache: &Path) -> Vec<PathBuf> {
        vec![
            builds(cache),
            compile_errors(cache),
            tmp(cache),
            identities(cache),
            cache.join("bin"),
            cache.join("rustc"),
            packages(cache),
            evaluations(cache),
        ]
    }
}

/// The judge's folder in the user's cache: `$XDG_CACHE_HOME/judge` when it is set (and not
/// empty, as the XDG rule says), `~/.cache/judge` otherwise, and under the temporary folder
/// when there is no home either.
pub fn user_cache() -> PathBuf {
    xdg("XDG_CACHE_HOME", ".cache")
        .unwrap_or_else(std::env::temp_dir)
        .join("judge")
}

/// A worker's folder of bundles and builds, when `--cache` gives none.
pub fn worker_cache() -> PathBuf {
    user_cache().join("worker")
}

/// The user's config file: `$XDG_CONFIG_HOME/judge/config.toml`, else
/// `~/.config/judge/config.toml`; none without a home.
pub fn user_config() -> Option<PathBuf> {
    xdg("XDG_CONFIG_HOME", ".config").map(|d| d.join("judge").join("config.toml"))
}

/// An XDG base folder: the variable when set and not empty, else `HOME/fallback`.
fn xdg(var: &str, fallback: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(fallback)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_keeps_its_log_beside_it() {
        let files = history_files(Path::new("/w/.judge/history.db"));
        assert_eq!(
            files,
            [
                "/w/.judge/history.db",
                "/w/.judge/history.db-wal",
                "/w/.judge/history.db-shm"
            ]
            .map(PathBuf::from)
        );
    }

    #[test]
    fn the_state_and_its_defaults_are_under_the_root() {
        let state = state(Path::new("/w"));
        assert_eq!(state, Path::new("/w/.judge"));
        assert_eq!(cache(&state), Path::new("/w/.judge/cache"));
        assert_eq!(history(&state), Path::new("/w/.judge/history.db"));
        assert!(cache::all(&cache(&state))
            .iter()
            .all(|d| d.starts_with("/w/.judge/cache")));
    }
}
