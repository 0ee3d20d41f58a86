//! `--nats URL`: the commands that judge whole solutions can hand their cases to the workers of
//! a NATS server (`judge worker`), or to `[cluster]` in judge.toml; without either, nothing
//! changes. Which of them wins is the settings' rule (`settings.rs`).

use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct ClusterArgs {
    /// The cluster's NATS server (`nats://HOST:4222`): a judging command hands its cases to the
    /// workers there instead of running them here; `judge worker` takes them. Also $JUDGE_NATS,
    /// or `[cluster] url` in judge.toml or in your config file (see `judge config`).
    #[arg(long, value_name = "URL")]
    pub(crate) nats: Option<String>,

    /// A NATS credentials file (`.creds`) for the server (also $JUDGE_NATS_CREDENTIALS).
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
