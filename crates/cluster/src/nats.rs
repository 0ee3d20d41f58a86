//! The engine: a NATS server with JetStream, and what the cluster keeps there. Work goes through
//! a work-queue stream with explicit acknowledgement; outcomes through a stream of their own,
//! kept and de-duplicated by job; files through the object store, named by their content hash;
//! workers say who they are in a key-value bucket.

use std::time::Duration;

use async_nats::jetstream::{self, consumer, kv, object_store, stream};

use crate::error::Error;

/// Where work is queued: one message per case (`judge.work`).
pub const WORK_STREAM: &str = "JUDGE_WORK";
pub const WORK_SUBJECT: &str = "judge.work";
/// The durable consumer every worker pulls from: each job goes to one worker at a time.
pub const CONSUMER: &str = "workers";
/// What workers found: `judge.outcomes.SUBMISSION`.
pub const OUTCOMES_STREAM: &str = "JUDGE_OUTCOMES";
pub const OUTCOMES_SUBJECTS: &str = "judge.outcomes.>";
/// Files by content hash.
pub const FILES: &str = "judge-files";
/// Workers by name.
pub const WORKERS: &str = "judge-workers";
/// How many times a first JetStream request that timed out is asked again (half a second apart).
const JETSTREAM_TRIES: u32 = 20;

/// How often a worker says again that it is there.
pub const WORKER_HEARTBEAT: Duration = Duration::from_secs(10);
/// A worker not heard of for this long is no longer listed.
pub const WORKER_GONE_AFTER: Duration = Duration::from_secs(35);

/// How long outcomes are kept, and over how long a second outcome of one job is dropped.
const OUTCOMES_KEPT: Duration = Duration::from_secs(24 * 3600);

/// How the cluster is reached and how patient it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// `nats://host:4222` (credentials in the URL, `nats://user:password@host`, or a
    /// credentials file).
    pub url: String,
    /// A NATS credentials file (`.creds`: a JWT and an nkey seed).
    pub credentials: Option<std::path::PathBuf>,
    /// A job not acknowledged within this goes to another worker. Workers send progress while a
    /// case runs, so only a dead or cut-off worker loses its job.
    pub ack_wait: Duration,
    /// Deliveries of a job before it is given up: its case is then an internal error.
    pub max_deliver: i64,
}

impl Config {
    pub fn new(url: &str) -> Config {
        Config {
            url: url.to_string(),
            credentials: None,
            ack_wait: Duration::from_secs(30),
            max_deliver: 3,
        }
    }
}

/// A connection, and the streams, consumer and buckets of the cluster (made when missing).
#[derive(Clone)]
pub struct Nats {
    pub client: async_nats::Client,
    pub js: jetstream::Context,
    pub files: object_store::ObjectStore,
    pub workers: kv::Store,
    pub config: Config,
}

impl Nats {
    pub async fn connect(config: &Config, name: &str) -> Result<Nats, Error> {
        let client = client(config, name).await?;
        let js = jetstream::new(client.clone());
        work_queue(&js, config).await?;
        js.get_or_create_stream(stream::Config {
            name: OUTCOMES_STREAM.into(),
            subjects: vec![OUTCOMES_SUBJECTS.into()],
            storage: stream::StorageType::File,
            max_age: OUTCOMES_KEPT,
            // One outcome per job: a redelivered job's second outcome is dropped.
            duplicate_window: OUTCOMES_KEPT,
            ..Default::default()
        })
        .await
        .map_err(Error::nats)?;
        let files = match js.get_object_store(FILES).await {
            Ok(f) => f,
            Err(_) => js
                .create_object_store(object_store::Config {
                    bucket: FILES.into(),
                    storage: stream::StorageType::File,
                    ..Default::default()
                })
                .await
                .map_err(Error::nats)?,
        };
        let workers = match js.get_key_value(WORKERS).await {
            Ok(w) => w,
            Err(_) => js
                .create_key_value(kv::Config {
                    bucket: WORKERS.into(),
                    history: 1,
                    // A worker killed without a word drops out of the list by itself: each
                    // live worker puts its entry again every WORKER_HEARTBEAT.
                    max_age: WORKER_GONE_AFTER,
                    ..Default::default()
                })
                .await
                .map_err(Error::nats)?,
        };
        Ok(Nats {
            client,
            js,
            files,
            workers,
            config: config.clone(),
        })
    }

    /// The workers registered now (those that started and did not stop).
    pub async fn registered(&self) -> Vec<crate::wire::WorkerInfo> {
        use futures_util::StreamExt;
        let mut out = Vec::new();
        if let Ok(mut keys) = self.workers.keys().await {
            while let Some(Ok(key)) = keys.next().await {
                if let Ok(Some(v)) = self.workers.get(&key).await {
                    if let Ok(info) = serde_json::from_slice(&v) {
                        out.push(info);
                    }
                }
            }
        }
        out
    }

    /// The advisories of the jobs given up on (delivered the most times, never finished): each
    /// names the job's stream sequence (`stream_seq`) and its `deliveries`.
    pub async fn given_up(&self) -> Result<async_nats::Subscriber, Error> {
        self.client
            .subscribe(format!(
                "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.{WORK_STREAM}.{CONSUMER}"
            ))
            .await
            .map_err(Error::nats)
    }

    /// The consumer workers pull jobs from.
    pub async fn consumer(&self) -> Result<consumer::PullConsumer, Error> {
        self.js
            .get_consumer_from_stream(CONSUMER, WORK_STREAM)
            .await
            .map_err(Error::nats)
    }
}

/// A connection to the server, by the configured credentials when there are some.
async fn client(config: &Config, name: &str) -> Result<async_nats::Client, Error> {
    let unreachable = |reason: String| Error::Unreachable {
        url: config.url.clone(),
        reason,
    };
    let mut options = async_nats::ConnectOptions::new()
        .name(name)
        .connection_timeout(Duration::from_secs(5));
    if let Some(path) = &config.credentials {
        options = options
            .credentials_file(path)
            .await
            .map_err(|e| unreachable(format!("reading {}: {e}", path.display())))?;
    }
    options
        .connect(config.url.as_str())
        .await
        .map_err(|e| unreachable(e.to_string()))
}

/// The work queue and the consumer workers pull from it with; the server's first JetStream
/// request, so a server without JetStream is said here.
async fn work_queue(js: &jetstream::Context, config: &Config) -> Result<(), Error> {
    let work_config = stream::Config {
        name: WORK_STREAM.into(),
        subjects: vec![WORK_SUBJECT.into()],
        retention: stream::RetentionPolicy::WorkQueue,
        storage: stream::StorageType::File,
        // A job published twice (a client that tried again) is queued once.
        duplicate_window: Duration::from_secs(600),
        ..Default::default()
    };
    // A server that has just started (or a busy one) may take a while to answer its first
    // JetStream request: asked again for a few seconds before it is said to have none.
    let mut tries = 0;
    let work = loop {
        match js.get_or_create_stream(work_config.clone()).await {
            Ok(work) => break work,
            Err(e) if tries < JETSTREAM_TRIES && e.to_string().contains("timed out") => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(e) => {
                return Err(Error::NoJetStream {
                    url: config.url.clone(),
                    reason: e.to_string(),
                })
            }
        }
    };
    work.get_or_create_consumer(
        CONSUMER,
        consumer::pull::Config {
            durable_name: Some(CONSUMER.into()),
            ack_policy: consumer::AckPolicy::Explicit,
            ack_wait: config.ack_wait,
            max_deliver: config.max_deliver,
            ..Default::default()
        },
    )
    .await
    .map_err(Error::nats)?;
    Ok(())
}
