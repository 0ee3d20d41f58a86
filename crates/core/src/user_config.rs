//! The user's config file (`$XDG_CONFIG_HOME/judge/config.toml`, see [`crate::paths::user_config`]):
//! the settings that make sense for every workspace of one user, read once; errors name the
//! file, the line and the fix.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Error, Location, Result};
use crate::lang::ClusterSettings;
use crate::units::parse_duration;

/// What the user's config file says; every key optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserConfig {
    /// The file it was read from.
    pub path: PathBuf,
    /// The build cache's folder for every workspace (relative paths are the file's folder's).
    pub cache: Option<PathBuf>,
    /// `[cluster]`, as in judge.toml (a relative `credentials` is the file's folder's).
    pub cluster: ClusterSettings,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    cache: Option<PathBuf>,
    cluster: Option<toml::Spanned<ClusterSettings>>,
}

/// How to correct the file, said by every error of it.
const FIX: &str = "correct the file (the guide's \"Settings\" page lists its keys), or remove it";

impl UserConfig {
    /// The file at `path`; `None` when there is none.
    pub fn load(path: &Path) -> Result<Option<UserConfig>> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::read(path, e)),
        };
        let bad = |line: Option<usize>, message: String| Error::Config {
            at: Location::file(path).with_line(line),
            message,
            fix: FIX.into(),
        };
        let text =
            String::from_utf8(bytes).map_err(|_| bad(None, "the file is not UTF-8 text".into()))?;
        let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
        let raw: Raw = toml::from_str(&text).map_err(|e| {
            bad(
                e.span().map(|s| line_of(s.start)),
                e.message().trim().to_string(),
            )
        })?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut config = UserConfig {
            path: path.to_path_buf(),
            cache: raw.cache.map(|c| dir.join(c)),
            cluster: ClusterSettings::default(),
        };
        if let Some(cluster) = raw.cluster {
            let line = Some(line_of(cluster.span().start));
            let mut cluster = cluster.into_inner();
            if let Some(wait) = &cluster.ack_wait {
                parse_duration(wait).map_err(|m| bad(line, format!("cluster.ack_wait: {m}")))?;
            }
            if cluster.max_deliver.is_some_and(|n| n < 1) {
                return Err(bad(line, "cluster.max_deliver must be at least 1".into()));
            }
            cluster.credentials = cluster.credentials.map(|c| dir.join(c));
            config.cluster = cluster;
        }
        Ok(Some(config))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> (tempfile::TempDir, Result<Option<UserConfig>>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        let config = UserConfig::load(&path);
        (dir, config)
    }

    #[test]
    fn no_file_is_no_settings() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            UserConfig::load(&dir.path().join("config.toml")).unwrap(),
            None
        );
    }

    #[test]
    fn relative_paths_are_the_files_folders() {
        let (dir, config) = load(
            "cache = \"builds\"\n[cluster]\nurl = \"nats://h:4222\"\ncredentials = \"me.creds\"\n",
        );
        let config = config.unwrap().unwrap();
        assert_eq!(config.cache, Some(dir.path().join("builds")));
        assert_eq!(
            config.cluster.credentials,
            Some(dir.path().join("me.creds"))
        );
        assert_eq!(config.cluster.url.as_deref(), Some("nats://h:4222"));
    }

    #[test]
    fn an_error_names_the_file_its_line_and_the_fix() {
        let (dir, config) = load("cache = \"b\"\nsandbox = false\n");
        let message = config.unwrap_err().to_string();
        let path = dir.path().join("config.toml");
        assert!(
            message.starts_with(&format!("{}:2: unknown field `sandbox`", path.display())),
            "{message}"
        );
        assert!(message.contains("fix: correct the file"), "{message}");
        let (_dir, config) = load("[cluster]\nmax_deliver = 0\n");
        assert!(config
            .unwrap_err()
            .to_string()
            .contains(":1: cluster.max_deliver must be at least 1"));
    }
}
