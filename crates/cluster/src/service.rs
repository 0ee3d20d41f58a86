//! The execution service's calls through the cluster (`judge api --nats`): the front admits an
//! HTTP request and hands it, as it came (method, path, body) with the front's caps, to the work
//! queue; a worker answers it with the service's own code on its own judges, and streams the
//! answer back to the front (a head, the body in parts, an end) on a subject the front listens
//! on. So every door answers through the cluster exactly as it answers on one machine.

use std::sync::Arc;
use std::time::Duration;

use async_nats::jetstream::{self, AckKind};
use async_nats::HeaderMap;
use base64::Engine;
use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use tokio::sync::mpsc;

use crate::error::Error;
use crate::files::Cache;
use crate::nats::{Config, Nats, WORK_STREAM, WORK_SUBJECT};
use crate::wire::{Call, Caps, Carried, Head, WorkerInfo};

/// The header that tells a call from a job on the work queue.
pub const WORK_KIND: &str = "Judge-Work";
const CALL: &str = "call";
/// Which part of an answer a message is: `head`, `body`, `end`, `failed`.
const PART: &str = "Judge-Part";
/// Which delivery of the call the part is of: a worker that died is followed by another.
const ATTEMPT: &str = "Judge-Attempt";
/// A front whose client went away says so here (`judge.cancel.KEY`): the worker stops.
const CANCEL: &str = "judge.cancel";
/// A body up to this size travels in the call; a larger one through the store.
const INLINE_MOST: usize = 256 << 10;
/// The most bytes of an answer in one message (NATS's default payload limit is 1 MiB).
const PART_MOST: usize = 512 << 10;

/// A call as a worker's service answers it: the body read, the bundle of workspace problems
/// made where it names one.
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: Vec<u8>,
    pub caps: Caps,
    pub workspace: Option<std::path::PathBuf>,
}

/// A worker's service's answer: its head and its body as it is made.
pub struct Response {
    pub status: u16,
    pub content_type: String,
    pub outcome: String,
    pub body: BoxStream<'static, Result<Vec<u8>, String>>,
    /// What the answer's end carries (what its programs did, in the service's words), asked
    /// once the body is sent.
    pub trailer: Box<dyn FnOnce() -> Vec<u8> + Send>,
}

/// What answers calls on a worker: the service itself (`judge_web`), given by the binary.
pub type Handler = Arc<dyn Fn(Request) -> BoxFuture<'static, Response> + Send + Sync>;

/// What the front hears of a call, in order.
#[derive(Debug)]
pub enum Part {
    Head(Head),
    Body(Vec<u8>),
    /// The worker that was answering stopped: another answers from the start.
    Again,
    /// The answer is whole, with its trailer.
    End(Vec<u8>),
    /// No answer can come, and why.
    Failed(String),
    /// No worker is there to answer (the call was taken off the queue).
    Unavailable(String),
}

/// What the front says when no worker is registered.
pub const NO_WORKER: &str =
    "no worker is running in the cluster: start one with `judge worker --nats URL`";

/// How often a call nobody has taken yet looks whether any worker is left to take it.
const LOOK_FOR_WORKERS: Duration = Duration::from_secs(2);

/// The front's connection to the cluster: calls handed out and their answers heard.
pub struct Front {
    runtime: tokio::runtime::Runtime,
    nats: Nats,
}

impl Front {
    pub fn connect(config: &Config) -> Result<Front, Error> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(Error::nats)?;
        let nats = runtime.block_on(Nats::connect(config, "judge api"))?;
        Ok(Front { runtime, nats })
    }

    /// The workers registered now, from outside any runtime (at start).
    pub fn workers_now(&self) -> Vec<WorkerInfo> {
        self.runtime.block_on(self.nats.registered())
    }

    /// The workers registered now (asked on the front's own runtime: callable from any).
    pub async fn workers(&self) -> Vec<WorkerInfo> {
        let nats = self.nats.clone();
        self.runtime
            .spawn(async move { nats.registered().await })
            .await
            .unwrap_or_default()
    }

    /// Puts the workspace problems `ids` of `ws` in the store: the bundle's name.
    pub async fn put_problems(
        &self,
        ws: &judge_core::workspace::Workspace,
        ids: &[String],
    ) -> Result<String, Error> {
        let bundle = crate::bundle::Bundle::of_problems(ws, ids)?;
        let nats = self.nats.clone();
        self.runtime
            .spawn(async move { bundle.put(&nats).await })
            .await
            .map_err(Error::nats)?
    }

    /// Hands `call` (its `key`, `reply` and `protocol` are set here) with `body` to the work
    /// queue: its parts come on the receiver. Dropping the receiver withdraws the call (taken
    /// off the queue, or its worker told to stop).
    pub fn call(&self, mut call: Call, body: Vec<u8>) -> mpsc::Receiver<Part> {
        let (send, receive) = mpsc::channel(64);
        let nats = self.nats.clone();
        call.protocol = crate::wire::PROTOCOL;
        call.key = crate::wire::fresh_key();
        call.reply = nats.client.new_inbox();
        self.runtime.spawn(async move {
            let failed = send.clone();
            if let Err(e) = follow(&nats, call, body, send).await {
                let _ = failed.send(Part::Failed(e.to_string())).await;
            }
        });
        receive
    }
}

/// Publishes the call and passes on its parts until its end, or until the one waiting is gone.
async fn follow(
    nats: &Nats,
    mut call: Call,
    body: Vec<u8>,
    send: mpsc::Sender<Part>,
) -> Result<(), Error> {
    // Listened to before the call is published: nothing of its answer is missed.
    let mut parts = nats
        .client
        .subscribe(call.reply.clone())
        .await
        .map_err(Error::nats)?;
    let mut given_up = nats.given_up().await?;
    let sequence = publish(nats, &mut call, body).await?;
    let withdrawn = || withdraw(nats, &call.key, sequence);
    let mut attempt = 0u64;
    loop {
        tokio::select! {
            _ = send.closed() => {
                withdrawn().await;
                return Ok(());
            }
            message = parts.next() => {
                let Some(message) = message else {
                    return Err(Error::Nats("the connection to the cluster was lost".into()));
                };
                let (of, part) = part_of(&message)?;
                if of < attempt {
                    // A worker taken for dead that still speaks: its delivery was given to
                    // another, whose answer is the one heard.
                    continue;
                }
                let again = of > attempt && attempt > 0;
                attempt = of;
                let last = matches!(part, Part::End(_) | Part::Failed(_));
                let told = !again || send.send(Part::Again).await.is_ok();
                if !told || send.send(part).await.is_err() {
                    withdrawn().await;
                    return Ok(());
                }
                if last {
                    return Ok(());
                }
            }
            _ = tokio::time::sleep(LOOK_FOR_WORKERS), if attempt == 0 => {
                // Not taken yet: a queue with no worker would keep the client waiting.
                if nats.registered().await.is_empty() {
                    withdrawn().await;
                    let _ = send.send(Part::Unavailable(NO_WORKER.into())).await;
                    return Ok(());
                }
            }
            advisory = given_up.next() => {
                if let Some(deliveries) = advisory.and_then(|a| given_up_on(&a.payload, sequence)) {
                    let why = format!("no worker finished the request in {deliveries} deliveries (each worker that took it stopped or was cut off)");
                    let _ = send.send(Part::Failed(why)).await;
                    return Ok(());
                }
            }
        }
    }
}

/// Puts `call` with `body` (in it, or in the store when large) on the jobs stream: its
/// sequence there.
async fn publish(nats: &Nats, call: &mut Call, body: Vec<u8>) -> Result<u64, Error> {
    call.body = if body.len() <= INLINE_MOST {
        Carried::Inline {
            base64: base64::engine::general_purpose::STANDARD.encode(&body),
        }
    } else {
        Carried::Stored {
            hash: crate::files::put(nats, &body).await?,
        }
    };
    let mut headers = HeaderMap::new();
    headers.insert(WORK_KIND, CALL);
    let payload = serde_json::to_vec(&judge_core::schema::tagged(&*call)).expect("plain data");
    Ok(nats
        .js
        .send_publish(
            WORK_SUBJECT,
            jetstream::message::PublishMessage::build()
                .payload(payload.into())
                .headers(headers)
                .message_id(call.key.clone()),
        )
        .await
        .map_err(Error::nats)?
        .await
        .map_err(Error::nats)?
        .sequence)
}

/// A message of an answer: the delivery it is of, and the part it holds.
fn part_of(message: &async_nats::Message) -> Result<(u64, Part), Error> {
    let header = |name: &str| {
        message
            .headers
            .as_ref()
            .and_then(|h| h.get(name))
            .map(|v| v.as_str().to_string())
    };
    let attempt = header(ATTEMPT).and_then(|a| a.parse().ok()).unwrap_or(1);
    let payload = &message.payload;
    let part = match header(PART).unwrap_or_default().as_str() {
        "head" => Part::Head(
            serde_json::from_slice(payload)
                .map_err(|e| Error::Malformed(format!("an answer's head: {e}")))?,
        ),
        "body" => Part::Body(payload.to_vec()),
        "end" => Part::End(payload.to_vec()),
        _ => Part::Failed(String::from_utf8_lossy(payload).into_owned()),
    };
    Ok((attempt, part))
}

/// The deliveries of the job of stream sequence `sequence`, when a max-deliveries advisory
/// (`payload`) is of it.
fn given_up_on(payload: &[u8], sequence: u64) -> Option<u64> {
    let v: serde_json::Value = serde_json::from_slice(payload).ok()?;
    (v.get("stream_seq")?.as_u64()? == sequence)
        .then(|| v.get("deliveries").and_then(|d| d.as_u64()).unwrap_or(0))
}

/// The call nobody waits for any more: off the queue if it is still there, and its worker told.
async fn withdraw(nats: &Nats, key: &str, sequence: u64) {
    let _ = tokio::time::timeout(Duration::from_secs(3), async {
        if let Ok(stream) = nats.js.get_stream(WORK_STREAM).await {
            let _ = stream.delete_message(sequence).await;
        }
        let _ = nats
            .client
            .publish(format!("{CANCEL}.{key}"), "".into())
            .await;
        let _ = nats.client.flush().await;
    })
    .await;
}

/// Whether a message of the work queue is a call.
pub(crate) fn is_call(message: &jetstream::Message) -> bool {
    message
        .headers
        .as_ref()
        .and_then(|h| h.get(WORK_KIND))
        .is_some_and(|v| v.as_str() == CALL)
}

/// Answers a call on a worker with `handler`, streaming the answer to the front; the message
/// is acknowledged once the answer is sent, or when the front withdrew it.
pub(crate) async fn answer(
    nats: &Nats,
    cache: &Cache,
    worker: &WorkerInfo,
    handler: Option<&Handler>,
    message: &jetstream::Message,
    attempt: u64,
) -> Result<(), Error> {
    let call: Call = serde_json::from_slice(&message.payload)
        .map_err(|e| Error::Malformed(format!("a call: {e}")))?;
    let reply = Reply {
        nats,
        to: call.reply.clone(),
        attempt,
    };
    let request = match prepare(nats, cache, worker, handler, &call).await {
        Ok(request) => request,
        Err(why) => {
            reply.send("failed", why.into_bytes()).await?;
            let _ = message.ack_with(AckKind::Term).await;
            return Ok(());
        }
    };
    let mut cancelled = nats
        .client
        .subscribe(format!("{CANCEL}.{}", call.key))
        .await
        .map_err(Error::nats)?;
    let handler = handler.expect("prepare refuses a call with no handler");
    let answering = async {
        let response = handler(request).await;
        let head = Head {
            status: response.status,
            content_type: response.content_type,
            outcome: response.outcome,
            worker: worker.name.clone(),
        };
        reply
            .send("head", serde_json::to_vec(&head).expect("plain data"))
            .await?;
        let mut body = response.body;
        while let Some(chunk) = body.next().await {
            match chunk {
                Ok(bytes) => {
                    for part in bytes.chunks(PART_MOST) {
                        reply.send("body", part.to_vec()).await?;
                    }
                }
                Err(why) => return reply.send("failed", why.into_bytes()).await,
            }
        }
        reply.send("end", (response.trailer)()).await
    };
    tokio::select! {
        sent = answering => sent?,
        // The front's client went away: the answer is dropped, which stops its programs.
        _ = cancelled.next() => {}
    }
    let _ = nats.client.flush().await;
    let _ = message.double_ack().await;
    Ok(())
}

/// The request a call holds, its body and bundle fetched; `Err` says why it cannot be answered
/// here.
async fn prepare(
    nats: &Nats,
    cache: &Cache,
    worker: &WorkerInfo,
    handler: Option<&Handler>,
    call: &Call,
) -> Result<Request, String> {
    let name = &worker.name;
    if call.protocol != crate::wire::PROTOCOL {
        return Err(format!(
            "worker {name} speaks version {} of the cluster's protocol, the front version {}: run the same build of the judge on every machine of the cluster",
            crate::wire::PROTOCOL,
            call.protocol
        ));
    }
    if handler.is_none() {
        return Err(format!("worker {name} does not answer the service's calls"));
    }
    let body = match &call.body {
        Carried::Inline { base64 } => base64::engine::general_purpose::STANDARD
            .decode(base64)
            .map_err(|e| format!("worker {name}: the call's body is not base64: {e}"))?,
        Carried::Stored { hash } => {
            let path = cache
                .fetch(nats, hash)
                .await
                .map_err(|e| format!("worker {name}: {e}"))?;
            std::fs::read(&path).map_err(|e| format!("worker {name}: {}: {e}", path.display()))?
        }
    };
    let workspace = match &call.workspace {
        Some(manifest) => Some(
            cache
                .bundle(nats, manifest)
                .await
                .map_err(|e| format!("worker {name}: {e}"))?,
        ),
        None => None,
    };
    Ok(Request {
        method: call.method.clone(),
        path: call.path.clone(),
        body,
        caps: call.caps,
        workspace,
    })
}

/// Where a call's answer goes.
struct Reply<'a> {
    nats: &'a Nats,
    to: String,
    attempt: u64,
}

impl Reply<'_> {
    async fn send(&self, part: &str, payload: Vec<u8>) -> Result<(), Error> {
        let mut headers = HeaderMap::new();
        headers.insert(PART, part);
        headers.insert(ATTEMPT, self.attempt.to_string().as_str());
        self.nats
            .client
            .publish_with_headers(self.to.clone(), headers, payload.into())
            .await
            .map_err(Error::nats)
    }
}
