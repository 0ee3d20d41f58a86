//! `Error`: what stops the cluster: the core's and the packages' errors as they are, and the
//! cluster's own (a NATS server not reached or without JetStream, a message not read, a worker
//! of another protocol), each message with its fix.

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The engine's: a problem that does not load, a build that cannot start.
    #[error(transparent)]
    Core(#[from] judge_core::Error),
    /// A package's: a bundled package that does not load.
    #[error(transparent)]
    Packages(#[from] judge_packages::Error),
    #[error("cannot reach the NATS server at {url}: {reason}\n  fix: start it (`nats-server -js`), or check the address given with --nats (or [cluster] url in judge.toml)")]
    Unreachable { url: String, reason: String },
    #[error("the NATS server at {url} has no JetStream: {reason}\n  fix: start it with JetStream on (`nats-server -js`, or `jetstream {{}}` in its configuration)")]
    NoJetStream { url: String, reason: String },
    #[error("the cluster failed: {0}")]
    Nats(String),
    #[error("a message of the cluster could not be read: {0}")]
    Malformed(String),
    /// No worker had what the submission needs (`worker NAME: ...` says what), by its job's
    /// last delivery.
    #[error("no worker can judge it: {0}")]
    NoWorkerCan(String),
    /// A worker registered that speaks another version of the cluster's messages: it would
    /// take this judge's jobs and read them as something else.
    #[error("worker {worker} speaks version {theirs} of the cluster's protocol, this judge version {ours}\n  fix: run the same build of the judge on every machine of the cluster (stop worker {worker}, or install this build there)")]
    Protocol {
        worker: String,
        theirs: u32,
        ours: u32,
    },
}

impl Error {
    pub(crate) fn nats(e: impl std::fmt::Display) -> Error {
        Error::Nats(e.to_string())
    }
}
