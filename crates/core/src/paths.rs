//! Where the judge keeps things outside a workspace: the user's cache folder, by the XDG rule,
//! written once for the library and the binary alike.

use std::path::PathBuf;

/// The judge's folder in the user's cache: `$XDG_CACHE_HOME/judge` when it is set (and not
/// empty, as the XDG rule says), `~/.cache/judge` otherwise, and under the temporary folder
/// when there is no home either.
pub fn user_cache() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("judge")
}
