//! `judge api --nats`: the service as a thin front of a cluster. Every door is the same as on
//! one machine, and each request is admitted here as it is there (the token or the `Host`, JSON
//! sent as JSON, the body's cap, at most `--jobs` in the cluster's hands and `--queue` waiting,
//! 429 past that), then handed to a worker as it came, with this service's caps; the worker
//! answers it with the service's own code (`local`) and the answer comes back part by part. A
//! workspace problem a request names goes to the workers as a bundle through the store.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::{mpsc, Semaphore};

use futures_util::future::BoxFuture;

use judge_core::workspace::Workspace;

use super::access;
use super::metrics::Metrics;
use super::pool::Load;
use super::{json, Door, Refusal, Settings};
use crate::http::Server;
use crate::serve::guard::Hosts;

/// The cluster as the front sees it, made by the binary from the cluster's own front (the web
/// does not know the cluster).
pub trait Cluster: Send + Sync + 'static {
    /// The names of the workers registered now; `Err`: why no request may be handed out (no
    /// worker, or one of another version).
    fn workers(&self) -> BoxFuture<'_, Result<Vec<String>, String>>;
    /// Puts the workspace problems `ids` of `ws` where the workers find them: the bundle's name.
    fn put_problems<'a>(
        &'a self,
        ws: &'a Workspace,
        ids: &'a [String],
    ) -> BoxFuture<'a, Result<String, String>>;
    /// Hands `call` out: its answer's parts on the receiver; dropping it withdraws the call.
    fn call(&self, call: Call) -> mpsc::Receiver<Part>;
}

/// A request handed to the cluster as it came, with the front's caps.
#[derive(Debug, Clone)]
pub struct Call {
    pub method: String,
    /// The path with its query.
    pub path: String,
    pub body: Vec<u8>,
    pub caps: Caps,
    /// The bundle of the front's workspace problems the request names.
    pub workspace: Option<String>,
}

/// The service's caps, which a request answered elsewhere keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Caps {
    pub max_time: Duration,
    pub max_memory: u64,
    pub output_limit: u64,
}

/// An answer's first part.
#[derive(Debug, Clone)]
pub struct Head {
    pub status: u16,
    pub content_type: String,
    /// How the request ended, as the service counts it (`ok`, `bad_request`, ...).
    pub outcome: String,
}

/// What the front hears of a call, in order.
#[derive(Debug)]
pub enum Part {
    Head(Head),
    Body(Vec<u8>),
    /// The worker answering stopped: another answers from the start.
    Again,
    /// The answer is whole: what its programs did, as the worker's service wrote it.
    End(Vec<u8>),
    /// No answer can come, and why.
    Failed(String),
    /// No worker is there to answer.
    Unavailable(String),
}

/// How long the list of workers is taken as it was read: every request asks whether one is
/// there, and reading the list is a round trip per worker.
const WORKERS_FRESH: Duration = Duration::from_secs(2);

/// The workers' names, or why none may be handed work.
type Workers = Result<Vec<String>, String>;

struct Forwarding {
    front: Arc<dyn Cluster>,
    workspace: Workspace,
    settings: Settings,
    hosts: Hosts,
    metrics: Metrics,
    /// Requests in the cluster's hands (at most `--jobs`).
    in_flight: Arc<Semaphore>,
    /// Requests admitted and not answered: in the cluster's hands and waiting.
    admitted: Arc<AtomicUsize>,
    workers: Mutex<Option<(Instant, Workers)>>,
}

impl Door for Forwarding {
    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn hosts(&self) -> &Hosts {
        &self.hosts
    }

    fn metrics(&self) -> &Metrics {
        &self.metrics
    }
}

impl Forwarding {
    fn load(&self) -> Load {
        let admitted = self.admitted.load(Ordering::SeqCst);
        let running = self.settings.jobs - self.in_flight.available_permits();
        Load {
            running,
            waiting: admitted.saturating_sub(running),
            jobs: self.settings.jobs,
            queue: self.settings.queue,
        }
    }

    /// The workers registered, as read within the last [`WORKERS_FRESH`]; `Err`: why none
    /// may be handed work.
    async fn workers(&self) -> Result<Vec<String>, String> {
        if let Ok(kept) = self.workers.lock() {
            if let Some((at, list)) = &*kept {
                if at.elapsed() < WORKERS_FRESH {
                    return list.clone();
                }
            }
        }
        let list = self.front.workers().await;
        if let Ok(mut kept) = self.workers.lock() {
            *kept = Some((Instant::now(), list.clone()));
        }
        list
    }
}

/// Serves the front on `server` until the process is stopped.
pub fn serve(
    server: Server,
    settings: Settings,
    front: Arc<dyn Cluster>,
    workspace: Workspace,
) -> crate::Result<()> {
    let (port, stop) = (server.port(), Arc::new(tokio::sync::Notify::new()));
    server.serve(router(settings, port, front, workspace), stop)
}

/// The front's routes on `port`: the service's doors, each handed to the cluster.
pub fn router(
    settings: Settings,
    port: u16,
    front: Arc<dyn Cluster>,
    workspace: Workspace,
) -> Router {
    let forwarding = Arc::new(Forwarding {
        front,
        workspace,
        in_flight: Arc::new(Semaphore::new(settings.jobs.max(1))),
        admitted: Arc::new(AtomicUsize::new(0)),
        hosts: Hosts {
            bound: settings.bound,
            port,
        },
        settings,
        metrics: Metrics::new(),
        workers: Mutex::new(None),
    });
    Router::new()
        .route("/run_code", post(forward))
        .route("/submit", post(forward))
        .route("/api/v2/runtimes", get(forward))
        .route("/api/v2/execute", post(forward))
        .route("/v1/judge", post(forward))
        .route("/v1/batch", post(forward))
        .route("/health", get(health))
        .route("/metrics", get(metrics))
        .with_state(forwarding)
}

/// A request admitted: its places given back when it is answered (or its client went away).
struct Admitted {
    admitted: Arc<AtomicUsize>,
    places: usize,
    _running: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.admitted.fetch_sub(self.places, Ordering::SeqCst);
    }
}

async fn forward(
    State(front): State<Arc<Forwarding>>,
    method: Method,
    uri: Uri,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let route = uri.path().to_string();
    match answer(&front, &method, &uri, query.as_deref(), &headers, body).await {
        Ok(response) => response,
        Err(refusal) => refusal.into_response(&front, &route),
    }
}

async fn answer(
    front: &Arc<Forwarding>,
    method: &Method,
    uri: &Uri,
    query: Option<&str>,
    headers: &HeaderMap,
    body: Body,
) -> Result<Response, Refusal> {
    let with_body = method == Method::POST;
    access::allowed(front, headers, with_body)?;
    let body = match with_body {
        true => access::read(body).await?,
        false => Vec::new(),
    };
    let (problems, places) = named(uri.path(), &body);
    if places > front.settings.jobs + front.settings.queue {
        let most = front.settings.jobs + front.settings.queue;
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "over_cap",
            format!("{places} requests at once are more than this service takes ({most}: judge api --jobs plus --queue); send at most {most}"),
        ));
    }
    if let Err(why) = front.workers().await {
        return Err(Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            why,
        ));
    }
    let mut admitted = admit(front, places)?;
    let workspace = match problems.is_empty() {
        true => None,
        false => Some(bundle(front, problems).await?),
    };
    let permit = front.in_flight.clone().acquire_owned().await;
    admitted._running = permit.ok();
    let settings = &front.settings;
    let call = Call {
        method: method.to_string(),
        path: uri
            .path_and_query()
            .map_or_else(|| uri.path().to_string(), |p| p.to_string()),
        body,
        caps: Caps {
            max_time: settings.max_time,
            max_memory: settings.max_memory,
            output_limit: settings.output_limit,
        },
        workspace,
    };
    let parts = front.front.call(call);
    let streams = uri.path() == "/v1/judge" && super::judge::streams(query);
    relay(front, uri.path(), parts, admitted, streams).await
}

/// Admits a request of `places` places, or refuses it with 429 when they are not free.
fn admit(front: &Forwarding, places: usize) -> Result<Admitted, Refusal> {
    let cap = front.settings.jobs + front.settings.queue;
    let taken = front
        .admitted
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |a| {
            (a + places <= cap).then_some(a + places)
        });
    if taken.is_err() {
        let load = front.load();
        return Err(Refusal::new(
            StatusCode::TOO_MANY_REQUESTS,
            "busy",
            format!(
                "busy: {} requests in the cluster's hands and {} waiting; retry later",
                load.running, load.waiting
            ),
        ));
    }
    Ok(Admitted {
        admitted: front.admitted.clone(),
        places,
        _running: None,
    })
}

/// The workspace problems a request names, and how many places it takes (a batch: one per
/// request in it). A body that is not the route's JSON is left for the worker to refuse.
fn named(path: &str, body: &[u8]) -> (Vec<String>, usize) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
        return (Vec::new(), 1);
    };
    let problem =
        |v: &serde_json::Value| v.get("problem").and_then(|p| p.as_str()).map(String::from);
    let (mut problems, places): (Vec<String>, usize) = match path {
        "/v1/judge" => (problem(&value).into_iter().collect(), 1),
        "/v1/batch" => match value.get("requests").and_then(|r| r.as_array()) {
            Some(requests) => (
                requests.iter().filter_map(problem).collect(),
                requests.len().max(1),
            ),
            None => (Vec::new(), 1),
        },
        _ => (Vec::new(), 1),
    };
    problems.sort();
    problems.dedup();
    (problems, places)
}

/// The workspace problems `ids` put in the store for the workers: the bundle's name. An id the
/// workspace lacks is 404, named, before anything is handed out.
async fn bundle(front: &Forwarding, ids: Vec<String>) -> Result<String, Refusal> {
    // Said as the service on one machine says it.
    for id in &ids {
        if let Err(e) = front.workspace.problem(id) {
            return Err(Refusal::new(
                StatusCode::NOT_FOUND,
                "bad_request",
                e.to_string(),
            ));
        }
    }
    front
        .front
        .put_problems(&front.workspace, &ids)
        .await
        .map_err(|why| Refusal::new(StatusCode::BAD_REQUEST, "bad_request", why))
}

/// The worker's answer to the client: its head as the status and type, its body part by part
/// (buffered whole unless it streams, so that a worker that stops half way is followed by
/// another without the client seeing it).
async fn relay(
    front: &Arc<Forwarding>,
    route: &str,
    mut parts: mpsc::Receiver<Part>,
    admitted: Admitted,
    streams: bool,
) -> Result<Response, Refusal> {
    let failed = |why: String| Refusal::new(StatusCode::BAD_GATEWAY, "error", why);
    let mut head = None;
    let mut buffered = Vec::new();
    loop {
        match parts.recv().await {
            Some(Part::Head(h)) => {
                head = Some(h);
                if streams {
                    break;
                }
            }
            Some(Part::Body(bytes)) => buffered.extend_from_slice(&bytes),
            Some(Part::Again) => {
                head = None;
                buffered.clear();
            }
            Some(Part::End(facts)) => {
                front.metrics.heard(&read_facts(&facts));
                break;
            }
            Some(Part::Failed(why)) => return Err(failed(why)),
            Some(Part::Unavailable(why)) => {
                return Err(Refusal::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "unavailable",
                    why,
                ))
            }
            None => return Err(failed("the cluster's answer was cut off".into())),
        }
    }
    let Some(head) = head else {
        return Err(failed("the worker's answer had no head".into()));
    };
    front.metrics.answered(route, &head.outcome);
    let status = StatusCode::from_u16(head.status).unwrap_or(StatusCode::BAD_GATEWAY);
    let body = match streams {
        false => {
            drop(admitted);
            Body::from(buffered)
        }
        true => Body::from_stream(rest(front.clone(), parts, admitted)),
    };
    let mut response = Response::new(body);
    *response.status_mut() = status;
    if let Ok(value) = header::HeaderValue::from_str(&head.content_type) {
        response.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    Ok(response)
}

/// A streamed answer's body after its head: a worker that stops after lines were sent ends it
/// with a line that says so (as a failure after the judging started is said).
fn rest(
    front: Arc<Forwarding>,
    parts: mpsc::Receiver<Part>,
    admitted: Admitted,
) -> impl futures_util::Stream<Item = Result<Bytes, std::convert::Infallible>> {
    futures_util::stream::unfold(Some((parts, admitted)), move |state| {
        let front = front.clone();
        async move {
            let (mut parts, admitted) = state?;
            let cut = |why: &str| {
                let line = serde_json::json!({ "status": 502, "message": why });
                Bytes::from(format!("{line}\n"))
            };
            match parts.recv().await {
                Some(Part::Body(bytes)) => Some((Ok(Bytes::from(bytes)), Some((parts, admitted)))),
                Some(Part::Head(_)) => Some((Ok(Bytes::new()), Some((parts, admitted)))),
                Some(Part::End(facts)) => {
                    front.metrics.heard(&read_facts(&facts));
                    None
                }
                Some(Part::Again) => Some((
                    Ok(cut(
                        "the worker answering stopped half way; send the request again",
                    )),
                    None,
                )),
                Some(Part::Failed(why) | Part::Unavailable(why)) => Some((Ok(cut(&why)), None)),
                None => Some((Ok(cut("the cluster's answer was cut off")), None)),
            }
        }
    })
}

/// What a worker's programs did for a request, as its service wrote it (nothing, from a worker
/// that wrote nothing readable).
fn read_facts(bytes: &[u8]) -> super::metrics::Facts {
    serde_json::from_slice(bytes).unwrap_or_default()
}

/// Ready when a request would be handed out now: a worker is there and a place is free.
async fn health(State(front): State<Arc<Forwarding>>, headers: HeaderMap) -> Response {
    if let Err(refusal) = access::watched(&front, &headers) {
        return refusal.into_response(&front, "/health");
    }
    let load = front.load();
    let full = load.running >= load.jobs && load.waiting >= load.queue;
    let workers = front.workers().await;
    let why = match &workers {
        Err(why) => Some(why.clone()),
        Ok(_) => full.then(|| {
            format!(
                "{} requests are in the cluster's hands and the queue is full ({} waiting)",
                load.running, load.waiting
            )
        }),
    };
    let mut workers = workers.unwrap_or_default();
    workers.sort();
    let health = super::metrics::Health {
        ready: why.is_none(),
        why,
        running: load.running,
        waiting: load.waiting,
        jobs: load.jobs,
        queue: load.queue,
        workers: Some(workers),
    };
    let status = match health.ready {
        true => StatusCode::OK,
        false => StatusCode::SERVICE_UNAVAILABLE,
    };
    json(status, &health)
}

async fn metrics(State(front): State<Arc<Forwarding>>, headers: HeaderMap) -> Response {
    if let Err(refusal) = access::watched(&front, &headers) {
        return refusal.into_response(&front, "/metrics");
    }
    super::metrics::exposition(front.metrics.render(front.load()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_takes_a_place_per_request_and_names_its_problems_once() {
        let body = br#"{"requests": [{"problem": "b"}, {"problem": "a"}, {"tests": []}, {"problem": "a"}]}"#;
        assert_eq!(named("/v1/batch", body), (vec!["a".into(), "b".into()], 4));
        assert_eq!(
            named("/v1/judge", br#"{"problem": "nqueens-ii"}"#),
            (vec!["nqueens-ii".into()], 1)
        );
        assert_eq!(named("/run_code", br#"{"problem": "x"}"#), (vec![], 1));
        assert_eq!(named("/v1/batch", b"not json"), (vec![], 1));
    }
}
