//! The settings resolved once, each with where it came from (ripgrep's one step, nextest's
//! recorded sources): a flag, else the judge's environment variable, else the workspace's
//! `judge.toml`, else the user's config file, else the default. Every command is handed the
//! one value; `judge config` prints it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use judge_core::env;
use judge_core::lang::ClusterSettings;
use judge_core::user_config::UserConfig;
use judge_core::workspace::Workspace;
use judge_history::History;

use super::cluster::ClusterArgs;

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Origin {
    /// A flag on the command line: `--history`.
    Flag(&'static str),
    /// One of the judge's environment variables (`judge_core::env`).
    Env(&'static str),
    /// The workspace's `judge.toml`, at this path.
    Workspace(PathBuf),
    /// The user's config file, at this path.
    User(PathBuf),
    Default,
}

impl Origin {
    /// Its kind, as `judge config --json` names it.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Origin::Flag(_) => "flag",
            Origin::Env(_) => "env",
            Origin::Workspace(_) => "judge.toml",
            Origin::User(_) => "user config",
            Origin::Default => "default",
        }
    }

    /// The flag, the variable or the file; `None` for the default.
    pub(crate) fn source(&self) -> Option<String> {
        match self {
            Origin::Flag(s) | Origin::Env(s) => Some(s.to_string()),
            Origin::Workspace(p) | Origin::User(p) => Some(p.display().to_string()),
            Origin::Default => None,
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Flag(flag) => write!(f, "flag {flag}"),
            Origin::Env(name) => write!(f, "environment variable {name}"),
            Origin::Workspace(p) => write!(f, "judge.toml {}", p.display()),
            Origin::User(p) => write!(f, "user config {}", p.display()),
            Origin::Default => f.write_str("default"),
        }
    }
}

/// A value and where it came from.
#[derive(Debug, Clone)]
pub(crate) struct Setting<T> {
    pub(crate) value: T,
    pub(crate) origin: Origin,
}

/// The first layer that has a value (they come highest first), else the default.
fn pick<T>(layers: impl IntoIterator<Item = (Option<T>, Origin)>, default: T) -> Setting<T> {
    layers
        .into_iter()
        .find_map(|(value, origin)| value.map(|value| Setting { value, origin }))
        .unwrap_or(Setting {
            value: default,
            origin: Origin::Default,
        })
}

/// The flags that are settings of every command.
pub(crate) struct Flags<'a> {
    pub(crate) history: Option<&'a Path>,
    pub(crate) no_sandbox: bool,
    pub(crate) no_transcript: bool,
}

/// The layers below the flags, each read once: the workspace's `judge.toml` and the user's
/// config file (the environment is read as each setting is resolved, once).
#[derive(Debug, Clone, Default)]
pub(crate) struct Sources {
    /// `judge.toml` when the workspace has one: its path, its root, its `[cluster]`.
    workspace: Option<(PathBuf, PathBuf, ClusterSettings)>,
    /// The user's config file: where it is looked for, and what it says when it is there.
    pub(crate) user_path: Option<PathBuf>,
    pub(crate) user: Option<UserConfig>,
}

impl Sources {
    /// The user's config file, and the workspace's `judge.toml` when `ws` has one (a loose
    /// workspace, a package's stand-in, has none).
    pub(crate) fn read(ws: Option<&Workspace>) -> Result<Sources> {
        let user_path = judge_core::paths::user_config();
        let user = match &user_path {
            Some(p) => UserConfig::load(p)?,
            None => None,
        };
        let workspace = ws.and_then(|ws| {
            let path = ws.root.join("judge.toml");
            path.is_file()
                .then(|| (path, ws.root.clone(), ws.config.cluster.clone()))
        });
        Ok(Sources {
            workspace,
            user_path,
            user,
        })
    }

    /// Every setting but the cluster's (which its command's flags decide too), for `ws`.
    pub(crate) fn resolve(self, flags: &Flags, ws: &Workspace) -> Resolved {
        let user = |f: &dyn Fn(&UserConfig) -> Option<PathBuf>| {
            let u = self.user.as_ref()?;
            Some((f(u)?, Origin::User(u.path.clone())))
        };
        let env_path = |v: env::Var| v.get().map(|s| (PathBuf::from(s), Origin::Env(v.name)));
        let split = |layer: Option<(PathBuf, Origin)>| match layer {
            Some((v, o)) => (Some(v), o),
            None => (None, Origin::Default),
        };
        let history = pick(
            [
                (
                    flags.history.map(Path::to_path_buf),
                    Origin::Flag("--history"),
                ),
                split(env_path(env::HISTORY)),
            ],
            History::default_path(&ws.state_dir()),
        );
        let cache = pick(
            [
                split(env_path(env::CACHE_DIR)),
                split(user(&|u| u.cache.clone())),
            ],
            ws.cache_dir(),
        );
        let off = |yes: bool| yes.then_some(false);
        Resolved {
            history,
            cache,
            sandbox: pick(
                [(off(flags.no_sandbox), Origin::Flag("--no-sandbox"))],
                true,
            ),
            transcripts: pick(
                [(off(flags.no_transcript), Origin::Flag("--no-transcript"))],
                true,
            ),
            rustc: pick([split(env_path(env::RUSTC))], PathBuf::from("rustc")),
            sources: self,
        }
    }

    /// The cluster: `args`' flags (paths the current folder's), then the environment, then
    /// judge.toml's `[cluster]` (paths the workspace's), then the user's (paths its folder's).
    pub(crate) fn cluster(&self, args: &ClusterArgs, cwd: &Path) -> Cluster {
        let files: Vec<(&ClusterSettings, Option<&Path>, Origin)> = self
            .workspace
            .iter()
            .map(|(path, root, c)| (c, Some(root.as_path()), Origin::Workspace(path.clone())))
            .chain(
                self.user
                    .iter()
                    .map(|u| (&u.cluster, None, Origin::User(u.path.clone()))),
            )
            .collect();
        let env = |v: env::Var| (v.get(), Origin::Env(v.name));
        let (url_env, url_origin) = env(env::NATS);
        let url = pick(
            [
                (args.nats.clone(), Origin::Flag("--nats")),
                (
                    url_env.map(|u| u.to_string_lossy().into_owned()),
                    url_origin,
                ),
            ]
            .into_iter()
            .chain(from_files(&files, |c, _| c.url.clone())),
            String::new(),
        );
        let (creds_env, creds_origin) = env(env::NATS_CREDENTIALS);
        let credentials = pick(
            [
                (
                    args.nats_credentials.as_ref().map(|p| cwd.join(p)),
                    Origin::Flag("--nats-credentials"),
                ),
                (creds_env.map(|p| cwd.join(p)), creds_origin),
            ]
            .into_iter()
            .chain(from_files(&files, |c, root| {
                let p = c.credentials.as_ref()?;
                Some(root.map_or_else(|| p.clone(), |r| r.join(p)))
            })),
            PathBuf::new(),
        );
        let defaults = judge_cluster::nats::Config::new("");
        let ack_wait = pick(
            [(args.nats_ack_wait, Origin::Flag("--nats-ack-wait"))]
                .into_iter()
                .chain(from_files(&files, |c, _| {
                    c.ack_wait
                        .as_deref()
                        .and_then(|w| judge_core::units::parse_duration(w).ok())
                })),
            defaults.ack_wait,
        );
        let max_deliver = pick(
            [(args.nats_max_deliver, Origin::Flag("--nats-max-deliver"))]
                .into_iter()
                .chain(from_files(&files, |c, _| c.max_deliver)),
            defaults.max_deliver,
        );
        Cluster {
            url,
            credentials,
            ack_wait,
            max_deliver,
        }
    }
}

/// The settings of a command, resolved.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    /// The submission history's database.
    pub(crate) history: Setting<PathBuf>,
    /// The build cache's folder.
    pub(crate) cache: Setting<PathBuf>,
    pub(crate) sandbox: Setting<bool>,
    /// Interactive runs relayed with a transcript.
    pub(crate) transcripts: Setting<bool>,
    /// The Rust compiler run for `rustc` (the build reads it where it runs compilers).
    pub(crate) rustc: Setting<PathBuf>,
    /// The layers, for the cluster a command's own flags name.
    pub(crate) sources: Sources,
}

impl Resolved {
    /// The Rust compiler to run for `rustc`; `None` for the one on PATH.
    pub(crate) fn rustc(&self) -> Option<PathBuf> {
        (self.rustc.origin != Origin::Default).then(|| self.rustc.value.clone())
    }

    /// How programs run.
    pub(crate) fn run_settings(&self) -> judge_core::session::Settings {
        judge_core::session::Settings {
            sandbox: self.sandbox.value,
            transcripts: self.transcripts.value,
        }
    }
}

/// The cluster's settings, resolved; an empty URL is none (this machine judges).
#[derive(Debug, Clone)]
pub(crate) struct Cluster {
    pub(crate) url: Setting<String>,
    /// An empty path is none.
    pub(crate) credentials: Setting<PathBuf>,
    pub(crate) ack_wait: Setting<Duration>,
    pub(crate) max_deliver: Setting<i64>,
}

impl Cluster {
    /// The cluster to judge on; `None` for this machine.
    pub(crate) fn config(&self) -> Option<judge_cluster::nats::Config> {
        if self.url.value.is_empty() {
            return None;
        }
        let mut config = judge_cluster::nats::Config::new(&self.url.value);
        config.credentials =
            Some(self.credentials.value.clone()).filter(|p| !p.as_os_str().is_empty());
        config.ack_wait = self.ack_wait.value;
        config.max_deliver = self.max_deliver.value;
        Some(config)
    }
}

/// What each file says of one cluster key, with its origin, highest first.
type Files<'a> = [(&'a ClusterSettings, Option<&'a Path>, Origin)];

fn from_files<T>(
    files: &Files,
    key: impl Fn(&ClusterSettings, Option<&Path>) -> Option<T>,
) -> Vec<(Option<T>, Origin)> {
    files
        .iter()
        .map(|(c, root, o)| (key(c, *root), o.clone()))
        .collect()
}
