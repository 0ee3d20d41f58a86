//! `judge api`: the judge as an execution service for evaluation harnesses and training loops,
//! behind the doors they already call (SandboxFusion's `/run_code`, Piston's `/api/v2/...`),
//! the judge's own `/v1/judge` and `/v1/batch`, with `/health` and `/metrics`. Every program goes
//! through `judge_ops::execute` (or `judge_ops::judge`) on one of `--jobs` judges; at most
//! `--queue` requests wait, and past that the answer is 429 at once. With no `--token`, only
//! requests that name this service in `Host` and send JSON as JSON are served.

mod access;
mod caps;
pub mod forward;
pub mod fusion;
pub mod judge;
pub mod local;
pub mod metrics;
pub mod names;
pub mod piston;
pub mod pool;
pub mod submit;

use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Serialize;

use judge_ops::execute::{self, Executed, Runtime};

use crate::http::Server;
use crate::serve::guard::Hosts;
use crate::serve::Token;
use caps::{limits, seconds, DEFAULT_TIME};
use metrics::Metrics;
use pool::{Busy, MakeJudge, Pool};

/// What the service allows and how much it takes at once.
pub struct Settings {
    /// The address it is bound to: what a `Host` header must name when there is no token.
    pub bound: IpAddr,
    /// Programs run at once.
    pub jobs: usize,
    /// Requests that may wait for a judge; more are refused with 429.
    pub queue: usize,
    /// When set, every request must carry `Authorization: Bearer TOKEN`.
    pub token: Option<Token>,
    /// The most CPU time a request may ask for its program.
    pub max_time: Duration,
    /// The most memory a request may ask for its program, in bytes.
    pub max_memory: u64,
    /// What a program may write to stdout, in bytes.
    pub output_limit: u64,
}

/// The largest request body read.
const BODY_CAP: usize = 64 << 20;

struct Service {
    pool: Pool,
    settings: Settings,
    /// The `Host` headers that name this service.
    hosts: Hosts,
    metrics: Metrics,
    /// The languages installed here, found once by a judge.
    runtimes: OnceLock<Vec<Runtime>>,
}

/// What every door's checks and refusals need: the settings, the names the service answers
/// to, and its metrics (the service that judges here, or the front of a cluster's).
trait Door: Send + Sync {
    fn settings(&self) -> &Settings;
    fn hosts(&self) -> &Hosts;
    fn metrics(&self) -> &Metrics;
}

impl Door for Service {
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

impl<T: Door> Door for Arc<T> {
    fn settings(&self) -> &Settings {
        (**self).settings()
    }

    fn hosts(&self) -> &Hosts {
        (**self).hosts()
    }

    fn metrics(&self) -> &Metrics {
        (**self).metrics()
    }
}

/// Serves the service on `server` until the process is stopped (Ctrl-C: the judges' scratch
/// folders are removed by the runner's interrupt handling, as for every command).
pub fn serve(server: Server, settings: Settings, make: MakeJudge) -> crate::Result<()> {
    let (port, stop) = (server.port(), Arc::new(tokio::sync::Notify::new()));
    server.serve(router(settings, port, make), stop)
}

/// The service's routes on `port`, its judges made by `make` on their threads.
pub fn router(settings: Settings, port: u16, make: MakeJudge) -> Router {
    let service = Arc::new(Service {
        pool: Pool::start(settings.jobs, settings.queue, make),
        hosts: Hosts {
            bound: settings.bound,
            port,
        },
        settings,
        metrics: Metrics::new(),
        runtimes: OnceLock::new(),
    });
    Router::new()
        .route("/run_code", post(run_code))
        .route("/submit", post(submit))
        .route("/api/v2/runtimes", get(runtimes))
        .route("/api/v2/execute", post(piston_execute))
        .route("/v1/judge", post(judge::judge))
        .route("/v1/batch", post(judge::batch))
        .route("/health", get(metrics::health))
        .route("/metrics", get(metrics::metrics))
        .with_state(service)
}

/// `value` as a JSON answer with `status`.
fn json(status: StatusCode, value: &impl Serialize) -> Response {
    let body = serde_json::to_vec(value).unwrap_or_default();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A refusal before any work: its status and message, and the outcome counted.
struct Refusal {
    status: StatusCode,
    message: String,
    outcome: &'static str,
}

impl Refusal {
    fn new(status: StatusCode, outcome: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
            outcome,
        }
    }

    /// The answer: `{"message": ...}` (Piston's error shape; SandboxFusion's client shows the
    /// body of any answer that is not 200), with `Retry-After` on 429.
    fn into_response(self, service: &dyn Door, route: &str) -> Response {
        service.metrics().answered(route, self.outcome);
        let body = serde_json::json!({ "message": self.message });
        let mut response = json(self.status, &body);
        if self.status == StatusCode::TOO_MANY_REQUESTS {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        }
        response
    }
}

/// What a program's run on a judge's thread gives.
enum Done {
    Executed(Box<Executed>),
    /// The judge's own failure (no runner, a language not installed): said to the client.
    Failed(String),
}

/// Runs `request` on a free judge; `Busy` when the pool is full.
async fn execute(service: &Arc<Service>, request: execute::Request) -> Result<Done, Busy> {
    let (shared, tally) = (service.clone(), metrics::Tally::here());
    let done = on_judge(service, move |judge| {
        execute::execute(judge, &request)
            .map(|executed| {
                let cpu = executed.run.as_ref().map(|r| r.cpu.as_secs_f64());
                shared.metrics.executed(&tally, executed.build.cached, cpu);
                Box::new(executed)
            })
            .map_err(|e| e.to_string())
    })
    .await?;
    Ok(match done {
        Ok(executed) => Done::Executed(executed),
        Err(why) => Done::Failed(why),
    })
}

/// Does `work` on a free judge and answers what it gives, or the judge's own failure (none
/// could be made, its thread panicked); `Busy` when the pool is full. A client that goes away
/// drops this future: its job is withdrawn, never started or its program stopped.
async fn on_judge<T: Send + 'static>(
    service: &Arc<Service>,
    work: impl FnOnce(&mut judge_core::session::Judge) -> Result<T, String> + Send + 'static,
) -> Result<Result<T, String>, Busy> {
    let (send, receive) = tokio::sync::oneshot::channel();
    let ticket = pool::Ticket::default();
    let withdraw = Withdraw(Some(ticket.clone()));
    service.pool.submit_withdrawable(
        Box::new(move |judge| {
            let done = match judge {
                Err(why) => Err(why.to_string()),
                Ok(judge) => work(judge),
            };
            let _ = send.send(done);
        }),
        ticket,
    )?;
    let answer = receive.await;
    withdraw.answered();
    // A job dropped without an answer (its thread panicked) is the service's failure.
    Ok(answer.unwrap_or_else(|_| Err("the judge running this request failed".into())))
}

/// Hands `jobs` to the pool all at once or none: the guards that withdraw them, in order; 429
/// when they do not fit beside the requests admitted, 400 when they never could.
fn submit_all(service: &Service, jobs: Vec<pool::Job>) -> Result<Vec<Withdraw>, Refusal> {
    let places = service.pool.places();
    if jobs.len() > places {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "over_cap",
            format!(
                "{} requests at once are more than this service takes ({places}: judge api --jobs plus --queue); send at most {places}",
                jobs.len()
            ),
        ));
    }
    let tickets: Vec<pool::Ticket> = jobs.iter().map(|_| pool::Ticket::default()).collect();
    let guards = tickets.iter().map(|t| Withdraw(Some(t.clone()))).collect();
    let jobs = jobs.into_iter().zip(tickets).collect();
    service
        .pool
        .submit_all(jobs)
        .map_err(|Busy| busy(service))?;
    Ok(guards)
}

/// Withdraws its ticket's job when dropped before the job answered: the request's future was
/// dropped, so its client went away.
struct Withdraw(Option<pool::Ticket>);

impl Withdraw {
    fn answered(mut self) {
        self.0 = None;
    }
}

impl Drop for Withdraw {
    fn drop(&mut self) {
        if let Some(ticket) = self.0.take() {
            ticket.withdraw();
        }
    }
}

fn busy(service: &Service) -> Refusal {
    let load = service.pool.load();
    Refusal::new(
        StatusCode::TOO_MANY_REQUESTS,
        "busy",
        format!(
            "busy: {} programs running and {} requests waiting; retry later",
            load.running, load.waiting
        ),
    )
}

async fn run_code(State(service): State<Arc<Service>>, headers: HeaderMap, body: Body) -> Response {
    const ROUTE: &str = "/run_code";
    match run_code_answer(&service, &headers, body).await {
        Ok((answer, outcome)) => {
            service.metrics.answered(ROUTE, outcome);
            json(StatusCode::OK, &answer)
        }
        Err(refusal) => refusal.into_response(&service, ROUTE),
    }
}

async fn run_code_answer(
    service: &Arc<Service>,
    headers: &HeaderMap,
    body: Body,
) -> Result<(fusion::RunCodeResponse, &'static str), Refusal> {
    let request: fusion::RunCode = access::admit(service, headers, body).await?;
    let language = match names::fusion(&request.language) {
        names::Named::Judge(id) => id,
        names::Named::Unsupported(why) => {
            let message = format!("language `{}`: {why}", request.language);
            return Ok((
                fusion::RunCodeResponse::sandbox_error(message),
                "unsupported",
            ));
        }
        names::Named::Unknown => {
            let message = format!(
                "language `{}` is not one of SandboxFusion's",
                request.language
            );
            return Ok((
                fusion::RunCodeResponse::sandbox_error(message),
                "unsupported",
            ));
        }
    };
    let files = fusion::files(&request)
        .map_err(|why| Refusal::new(StatusCode::BAD_REQUEST, "bad_request", why))?;
    let memory = request
        .memory_limit_mb
        .filter(|mb| *mb > 0)
        .map(|mb| (mb as u64) << 20);
    let run_time = seconds("run_timeout", request.run_timeout)?;
    let limits = limits(&service.settings, Some(run_time), memory)?;
    let run = execute::Request {
        language: language.to_string(),
        code: request.code,
        file_name: None,
        stdin: request.stdin.unwrap_or_default().into_bytes(),
        args: Vec::new(),
        files,
        fetch: request.fetch_files.iter().map(PathBuf::from).collect(),
        compile_time: seconds("compile_timeout", request.compile_timeout)?,
        limits,
    };
    match execute(service, run).await.map_err(|Busy| busy(service))? {
        Done::Executed(executed) => Ok((fusion::answer(&executed), "ok")),
        Done::Failed(why) => Ok((fusion::RunCodeResponse::sandbox_error(why), "error")),
    }
}

async fn submit(State(service): State<Arc<Service>>, headers: HeaderMap, body: Body) -> Response {
    const ROUTE: &str = "/submit";
    match submit_answer(&service, &headers, body).await {
        Ok(answer) => {
            let outcome = if answer.accepted {
                "accepted"
            } else {
                "rejected"
            };
            service.metrics.answered(ROUTE, outcome);
            json(StatusCode::OK, &answer)
        }
        Err(refusal) => refusal.into_response(&service, ROUTE),
    }
}

/// SandboxFusion's `/submit`: the record read and its limits checked against the caps before
/// anything runs, then the answer judged on every test by a free judge.
async fn submit_answer(
    service: &Arc<Service>,
    headers: &HeaderMap,
    body: Body,
) -> Result<submit::EvalResult, Refusal> {
    let request: submit::Submit = access::admit(service, headers, body).await?;
    let bad = |why: String| Refusal::new(StatusCode::BAD_REQUEST, "bad_request", why);
    if request.config.custom_extract_logic.is_some() {
        return Err(bad("config.custom_extract_logic is Python code, which this service does not run: send the code in a fenced block of the completion, or the completion as the code".into()));
    }
    let Some(name) = request.config.language.as_deref() else {
        return Err(bad("config.language is missing: name the answer's language as SandboxFusion does (python, cpp, java, ...)".into()));
    };
    let language = match names::fusion(name) {
        names::Named::Judge(id) => id,
        names::Named::Unsupported(why) => return Err(bad(format!("language `{name}`: {why}"))),
        names::Named::Unknown => {
            return Err(bad(format!(
                "language `{name}` is not one of SandboxFusion's"
            )))
        }
    };
    let row = submit::provided(&request).map_err(bad)?;
    let mut record = judge_eval::single::record(row, None).map_err(|why| {
        bad(format!(
            "the record of `{}` given for `{}` cannot be judged: {why}",
            request.id, request.dataset
        ))
    })?;
    if let Some(s) = request.config.run_timeout {
        record.spec.time = seconds("config.run_timeout", s)?;
    }
    // The record's limits (or the request's) within the service's caps, else refused.
    limits(
        &service.settings,
        Some(record.spec.time),
        Some(record.spec.memory_bytes),
    )?;
    let compile = match request.config.compile_timeout {
        Some(s) => seconds("config.compile_timeout", s)?,
        None => DEFAULT_TIME,
    };
    let (judged, completion, shared) =
        (record.clone(), request.completion.clone(), service.clone());
    let tally = metrics::Tally::here();
    let done = on_judge(service, move |judge| {
        let submitted = judge_eval::single::judge(judge, &judged, language, &completion, compile)
            .map_err(|e| e.to_string())?;
        if let Ok(s) = &submitted {
            if let Some(report) = &s.report {
                shared.metrics.executed(&tally, report.compile.cached, None);
                report
                    .cases
                    .iter()
                    .for_each(|c| shared.metrics.ran(&tally, c.cpu.as_secs_f64()));
            }
        }
        Ok(submitted)
    })
    .await
    .map_err(|Busy| busy(service))?;
    match done {
        Ok(Ok(submitted)) => Ok(submit::answer(&request, &record, &submitted)),
        Ok(Err(why)) => Err(bad(format!(
            "the record of `{}` given for `{}` cannot be judged: {why}",
            request.id, request.dataset
        ))),
        Err(why) => Err(Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "error",
            why,
        )),
    }
}

async fn runtimes(State(service): State<Arc<Service>>, headers: HeaderMap) -> Response {
    const ROUTE: &str = "/api/v2/runtimes";
    if let Err(refusal) = access::allowed(&service, &headers, false) {
        return refusal.into_response(&service, ROUTE);
    }
    match installed(&service).await {
        Ok(list) => {
            service.metrics.answered(ROUTE, "ok");
            json(StatusCode::OK, &piston::runtimes(&list))
        }
        Err(refusal) => refusal.into_response(&service, ROUTE),
    }
}

/// The languages installed here, found by a judge the first time.
async fn installed(service: &Arc<Service>) -> Result<Vec<Runtime>, Refusal> {
    if let Some(list) = service.runtimes.get() {
        return Ok(list.clone());
    }
    let (send, receive) = tokio::sync::oneshot::channel();
    let shared = service.clone();
    service
        .pool
        .submit(Box::new(move |judge| {
            let list = judge.map(|j| shared.runtimes.get_or_init(|| execute::runtimes(j)).clone());
            let _ = send.send(list.map_err(str::to_string));
        }))
        .map_err(|Busy| busy(service))?;
    match receive.await {
        Ok(Ok(list)) => Ok(list),
        Ok(Err(why)) => Err(Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "error",
            why,
        )),
        Err(_) => Err(Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "error",
            "the judge listing the runtimes failed",
        )),
    }
}

async fn piston_execute(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    const ROUTE: &str = "/api/v2/execute";
    match piston_answer(&service, &headers, body).await {
        Ok(answer) => {
            service.metrics.answered(ROUTE, "ok");
            json(StatusCode::OK, &answer)
        }
        Err(refusal) => refusal.into_response(&service, ROUTE),
    }
}

async fn piston_answer(
    service: &Arc<Service>,
    headers: &HeaderMap,
    body: Body,
) -> Result<piston::Answer, Refusal> {
    let request: piston::Execute = access::admit(service, headers, body).await?;
    let bad = |why: String| Refusal::new(StatusCode::BAD_REQUEST, "bad_request", why);
    let language = names::piston(&request.language).to_string();
    let runtime = installed(service)
        .await?
        .into_iter()
        .find(|r| r.language.id == language);
    let version = request.version.as_deref().unwrap_or("*");
    let runtime = match runtime {
        Some(r) if version == "*" || version == r.version => r,
        _ => {
            return Err(bad(format!(
                "{}-{version} runtime is unknown",
                request.language
            )))
        }
    };
    let mut files = request.files.iter().enumerate();
    let Some((_, main)) = files.next() else {
        return Err(bad("a request needs at least one file: the program".into()));
    };
    let code = String::from_utf8(main.bytes().map_err(bad)?)
        .map_err(|_| bad("the program is not UTF-8 text".into()))?;
    let others = files
        .map(|(i, f)| Ok((f.path(i), f.bytes()?)))
        .collect::<Result<Vec<_>, String>>()
        .map_err(bad)?;
    let ms = |v: Option<i64>| {
        v.filter(|v| *v > 0)
            .map(|v| Duration::from_millis(v as u64))
    };
    let memory = request
        .run_memory_limit
        .filter(|b| *b > 0)
        .map(|b| b as u64);
    let run = execute::Request {
        language,
        code,
        file_name: main.name.clone(),
        stdin: request.stdin.into_bytes(),
        args: request.args,
        files: others,
        fetch: Vec::new(),
        compile_time: ms(request.compile_timeout).unwrap_or(DEFAULT_TIME),
        limits: limits(&service.settings, ms(request.run_timeout), memory)?,
    };
    match execute(service, run).await.map_err(|Busy| busy(service))? {
        Done::Executed(executed) => Ok(piston::answer(&executed, &runtime.version)),
        Done::Failed(why) => Err(Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "error",
            why,
        )),
    }
}
