//! What `GET /metrics` tells Prometheus: requests by route and outcome, the programs running
//! and the requests waiting, builds taken from the cache, and the programs' CPU times.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use super::pool::Load;

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
    }

    /// A program built (or taken from the cache) and, when it ran, its CPU time.
    pub fn executed(&self, cached: bool, cpu_seconds: Option<f64>) {
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
    pub fn ran(&self, cpu_seconds: f64) {
        self.run_seconds.observe(cpu_seconds);
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
