//! `GET /health` (ready or not, and why) and what `GET /metrics` tells Prometheus: requests by route and outcome, the programs running
//! and the requests waiting, builds taken from the cache, and the programs' CPU times.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::pool::Load;
use super::{json, Service};

tokio::task_local! {
    /// How the request answered within this task ended: a worker answering a call of a
    /// cluster's front hears it here, for the front to count.
    pub static OUTCOME: std::cell::RefCell<Option<String>>;
    /// What the programs of the request answered within this task did: a worker answering a
    /// call gathers it here, for the front's figures.
    pub static FACTS: Arc<Mutex<Facts>>;
}

/// What a request's programs did: each build (taken from the cache or not) and each CPU time
/// observed, as the service counts them.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Facts {
    pub builds: Vec<bool>,
    pub runs: Vec<f64>,
}

/// Where the programs of a request are told besides the service's own figures: the task's
/// [`FACTS`] when a worker answers a call. Taken in the request's task, before its job goes to
/// a judge's thread.
#[derive(Clone, Default)]
pub struct Tally(Option<Arc<Mutex<Facts>>>);

impl Tally {
    pub fn here() -> Tally {
        Tally(FACTS.try_with(Arc::clone).ok())
    }

    fn note(&self, note: impl FnOnce(&mut Facts)) {
        if let Some(mut facts) = self.0.as_ref().and_then(|f| f.lock().ok()) {
            note(&mut facts);
        }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Request {
    route: String,
    outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Build {
    cached: String,
}

pub struct Metrics {
    registry: Registry,
    requests: Family<Request, Counter>,
    builds: Family<Build, Counter>,
    running: Gauge,
    waiting: Gauge,
    run_seconds: Histogram,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("judge_api");
        let requests = Family::<Request, Counter>::default();
        let builds = Family::<Build, Counter>::default();
        let (running, waiting) = (Gauge::default(), Gauge::default());
        // 1 ms to about 33 s of CPU time.
        let run_seconds = Histogram::new(exponential_buckets(0.001, 2.0, 16));
        registry.register(
            "requests",
            "Requests answered, by route and outcome",
            requests.clone(),
        );
        registry.register(
            "builds",
            "Programs built for requests; cached=\"true\": taken from the build cache",
            builds.clone(),
        );
        registry.register("running", "Programs running now", running.clone());
        registry.register(
            "queue_length",
            "Requests waiting for a judge",
            waiting.clone(),
        );
        registry.register(
            "run_cpu_seconds",
            "CPU time of the programs run",
            run_seconds.clone(),
        );
        Metrics {
            registry,
            requests,
            builds,
            running,
            waiting,
            run_seconds,
        }
    }

    /// A request to `route` answered with `outcome` (`ok`, `busy`, `bad_request`...).
    pub fn answered(&self, route: &str, outcome: &str) {
        let labels = Request {
            route: route.to_string(),
            outcome: outcome.to_string(),
        };
        self.requests.get_or_create(&labels).inc();
        let _ = OUTCOME.try_with(|o| *o.borrow_mut() = Some(outcome.to_string()));
    }

    /// A program built (or taken from the cache) and, when it ran, its CPU time.
    pub fn executed(&self, tally: &Tally, cached: bool, cpu_seconds: Option<f64>) {
        tally.note(|f| {
            f.builds.push(cached);
            f.runs.extend(cpu_seconds);
        });
        let labels = Build {
            cached: cached.to_string(),
        };
        self.builds.get_or_create(&labels).inc();
        if let Some(s) = cpu_seconds {
            self.run_seconds.observe(s);
        }
    }

    /// A test of a judged answer run, with its CPU time (its build is counted once, by
    /// [`Metrics::executed`]).
    pub fn ran(&self, tally: &Tally, cpu_seconds: f64) {
        tally.note(|f| f.runs.push(cpu_seconds));
        self.run_seconds.observe(cpu_seconds);
    }

    /// What a worker's programs did for a request a front handed out, counted as the front's.
    pub fn heard(&self, facts: &Facts) {
        for &cached in &facts.builds {
            let labels = Build {
                cached: cached.to_string(),
            };
            self.builds.get_or_create(&labels).inc();
        }
        facts.runs.iter().for_each(|&s| self.run_seconds.observe(s));
    }

    /// The text Prometheus reads, with the pool's load as it is now.
    pub fn render(&self, load: Load) -> String {
        self.running.set(load.running as i64);
        self.waiting.set(load.waiting as i64);
        let mut text = String::new();
        // Writing to a String does not fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

/// What `/health` answers, here and on a cluster's front (which names its workers).
#[derive(Serialize)]
pub(super) struct Health {
    pub ready: bool,
    pub why: Option<String>,
    pub running: usize,
    pub waiting: usize,
    pub jobs: usize,
    pub queue: usize,
    /// A front's workers, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<Vec<String>>,
}

/// Ready when a request would be taken now; else why not (all judges busy and the queue full).
pub(super) async fn health(State(service): State<Arc<Service>>, headers: HeaderMap) -> Response {
    // Open to monitoring with a token too; with none, only under this service's name.
    if let Err(refusal) = super::access::watched(&service, &headers) {
        return refusal.into_response(&service, "/health");
    }
    let load = service.pool.load();
    let full = load.running >= load.jobs && load.waiting >= load.queue;
    let health = Health {
        ready: !full,
        why: full.then(|| {
            format!(
                "every judge is busy ({} running) and the queue is full ({} waiting)",
                load.running, load.waiting
            )
        }),
        running: load.running,
        waiting: load.waiting,
        jobs: load.jobs,
        queue: load.queue,
        workers: None,
    };
    let status = match full {
        true => StatusCode::SERVICE_UNAVAILABLE,
        false => StatusCode::OK,
    };
    json(status, &health)
}

pub(super) async fn metrics(State(service): State<Arc<Service>>, headers: HeaderMap) -> Response {
    // Open to monitoring with a token too; with none, only under this service's name.
    if let Err(refusal) = super::access::watched(&service, &headers) {
        return refusal.into_response(&service, "/metrics");
    }
    exposition(service.metrics.render(service.pool.load()))
}

/// Metrics' text as Prometheus reads it.
pub(super) fn exposition(text: String) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    )
        .into_response()
}
