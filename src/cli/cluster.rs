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

/// `judge api --nats`'s front as the web's service sees a cluster: the cluster's own front, its
/// parts passed on as the web's.
pub(crate) struct ServiceFront(pub(crate) judge_cluster::service::Front);

impl judge_web::service::forward::Cluster for ServiceFront {
    fn workers(&self) -> futures_util::future::BoxFuture<'_, Result<Vec<String>, String>> {
        Box::pin(async move {
            let workers = self.0.workers().await;
            let ours = judge_cluster::wire::PROTOCOL;
            if let Some(w) = workers.iter().find(|w| w.protocol != ours) {
                return Err(format!(
                    "worker {} speaks version {} of the cluster's protocol, this front version {ours}: run the same build of the judge on every machine of the cluster",
                    w.name, w.protocol
                ));
            }
            if workers.is_empty() {
                return Err(judge_cluster::service::NO_WORKER.to_string());
            }
            Ok(workers.into_iter().map(|w| w.name).collect())
        })
    }

    fn put_problems<'a>(
        &'a self,
        ws: &'a judge_core::workspace::Workspace,
        ids: &'a [String],
    ) -> futures_util::future::BoxFuture<'a, Result<String, String>> {
        Box::pin(async move {
            self.0
                .put_problems(ws, ids)
                .await
                .map_err(|e| e.to_string())
        })
    }

    fn call(
        &self,
        call: judge_web::service::forward::Call,
    ) -> tokio::sync::mpsc::Receiver<judge_web::service::forward::Part> {
        use judge_cluster::service::Part as Theirs;
        use judge_web::service::forward::{Head, Part};
        let wire = judge_cluster::wire::Call {
            protocol: 0,
            key: String::new(),
            method: call.method,
            path: call.path,
            body: judge_cluster::wire::Carried::Inline {
                base64: String::new(),
            },
            caps: judge_cluster::wire::Caps {
                max_time_us: call.caps.max_time.as_micros() as u64,
                max_memory: call.caps.max_memory,
                output_limit: call.caps.output_limit,
            },
            workspace: call.workspace,
            reply: String::new(),
        };
        let mut theirs = self.0.call(wire, call.body);
        let (send, ours) = tokio::sync::mpsc::channel(64);
        // Passed on until either side is gone: the web's receiver dropped drops the cluster's,
        // which withdraws the call.
        tokio::spawn(async move {
            loop {
                let part = tokio::select! {
                    _ = send.closed() => return,
                    part = theirs.recv() => match part {
                        Some(part) => part,
                        None => return,
                    },
                };
                let part = match part {
                    Theirs::Head(h) => Part::Head(Head {
                        status: h.status,
                        content_type: h.content_type,
                        outcome: h.outcome,
                    }),
                    Theirs::Body(bytes) => Part::Body(bytes),
                    Theirs::Again => Part::Again,
                    Theirs::End(trailer) => Part::End(trailer),
                    Theirs::Failed(why) => Part::Failed(why),
                    Theirs::Unavailable(why) => Part::Unavailable(why),
                };
                if send.send(part).await.is_err() {
                    return;
                }
            }
        });
        ours
    }
}

/// What answers the service's calls on a worker: the web's service routes (`Local`), the
/// cluster's request and answer passed as the web's.
pub(crate) fn answering(
    local: std::sync::Arc<judge_web::service::local::Local>,
) -> judge_cluster::service::Handler {
    std::sync::Arc::new(move |request: judge_cluster::service::Request| {
        let local = local.clone();
        Box::pin(async move {
            let request = judge_web::service::local::Request {
                method: request.method,
                path: request.path,
                body: request.body,
                caps: judge_web::service::forward::Caps {
                    max_time: std::time::Duration::from_micros(request.caps.max_time_us),
                    max_memory: request.caps.max_memory,
                    output_limit: request.caps.output_limit,
                },
                workspace: request.workspace,
            };
            let answer = local.answer(request).await;
            let trailer = Box::new(answer.facts());
            judge_cluster::service::Response {
                status: answer.status,
                content_type: answer.content_type,
                outcome: answer.outcome,
                body: answer.body,
                trailer,
            }
        })
    })
}
