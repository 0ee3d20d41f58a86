//! `--nats URL`: the commands that judge whole solutions can hand their cases to the workers of
//! a NATS server (`judge worker`), or to `[cluster]` in judge.toml; without either, nothing
//! changes.

use std::path::{Path, PathBuf};

use judge_cluster::nats::Config;
use judge_core::lang::ClusterSettings;

#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct ClusterArgs {
    /// The cluster's NATS server (`nats://HOST:4222`): a judging command hands its cases to the
    /// workers there instead of running them here; `judge worker` takes them. Also `[cluster]
    /// url` in judge.toml.
    #[arg(long, value_name = "URL")]
    pub(crate) nats: Option<String>,

    /// A NATS credentials file (`.creds`) for the server.
    #[arg(long, value_name = "FILE")]
    pub(crate) nats_credentials: Option<PathBuf>,

    /// When the cluster's queue is made (by the first judge or worker to reach the server):
    /// how long a job may go unacknowledged before another worker gets it (default 30s).
    #[arg(long, value_name = "TIME", value_parser = super::parse_seconds)]
    pub(crate) nats_ack_wait: Option<std::time::Duration>,

    /// When the cluster's queue is made: deliveries of a job before its case is given up as an
    /// internal error (default 3).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i64).range(1..))]
    pub(crate) nats_max_deliver: Option<i64>,
}

impl ClusterArgs {
    /// The cluster to use: the flags, over the workspace's `[cluster]` (paths in it are the
    /// workspace's); `None` for this machine.
    pub(crate) fn config(
        &self,
        settings: Option<(&ClusterSettings, &Path)>,
        cwd: &Path,
    ) -> Option<Config> {
        let (from_file, root) = match settings {
            Some((s, root)) => (Some(s), root),
            None => (None, cwd),
        };
        let url = self
            .nats
            .clone()
            .or_else(|| from_file.and_then(|s| s.url.clone()))?;
        let mut config = Config::new(&url);
        config.credentials = self
            .nats_credentials
            .as_ref()
            .map(|p| cwd.join(p))
            .or_else(|| {
                from_file
                    .and_then(|s| s.credentials.as_ref())
                    .map(|p| root.join(p))
            });
        if let Some(s) = from_file {
            if let Some(wait) = s
                .ack_wait
                .as_deref()
                .and_then(|w| judge_core::units::parse_duration(w).ok())
            {
                config.ack_wait = wait;
            }
            if let Some(n) = s.max_deliver {
                config.max_deliver = n;
            }
        }
        if let Some(wait) = self.nats_ack_wait {
            config.ack_wait = wait;
        }
        if let Some(n) = self.nats_max_deliver {
            config.max_deliver = n;
        }
        Some(config)
    }
}
