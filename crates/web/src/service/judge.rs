//! The judge's own door: `POST /v1/judge`, a submission judged on a problem of the workspace or
//! on tests sent with it, answered with `judge run --json`'s report, the score and a record per
//! test (with `?stream=1`, a JSON line per test as it is decided, then the answer's); and
//! `POST /v1/batch`, many such requests at once, answered in their order. Each request is one
//! `judge_ops::judge::judge_request` on a judge of the pool; a batch takes as many places in
//! the pool as it has requests, all at once or none (429).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;
use serde::Serialize;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use judge_core::model::{CaseReport, CompileReport, SolutionReport};
use judge_core::schema::tagged;
use judge_core::session::{Judge, Observer};
use judge_core::verdict::Limits;
use judge_core::workspace::Solution;
use judge_ops::judge::{
    self as door, BatchAnswer, BatchItem, BatchRequest, Judged, Refused, Request, TestRecord,
};

use super::access::admit;
use super::{json, Refusal, Service, Withdraw};

/// What a request's job tells the handler waiting for it.
enum Event {
    /// The request was read and its language found: what follows is its judging.
    Started,
    Test(TestRecord),
    Done(Result<Box<Judged>, Refused>),
}

/// Work for a judge of the pool.
type Job = Box<dyn FnOnce(Result<&mut Judge, &str>) + Send>;

pub(super) async fn judge(
    State(service): State<Arc<Service>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    const ROUTE: &str = "/v1/judge";
    let request = match admit::<Request>(&service, &headers, body).await {
        Ok(request) => prepare(&service, request),
        Err(refusal) => Err(refusal),
    };
    let request = match request {
        Ok(request) => request,
        Err(refusal) => return refusal.into_response(&service, ROUTE),
    };
    let (job, events) = job(&service, request);
    let guard = match super::submit_all(&service, vec![job]) {
        Ok(mut guards) => guards.pop(),
        Err(refusal) => return refusal.into_response(&service, ROUTE),
    };
    let Some(guard) = guard else {
        return failed().into_response(&service, ROUTE);
    };
    match streams(query.as_deref()) {
        true => streamed(&service, events, guard).await,
        false => match answer(events, guard).await {
            Ok(judged) => {
                service.metrics.answered(ROUTE, "ok");
                json(StatusCode::OK, &tagged(&*judged))
            }
            Err(refused) => refusal(refused).into_response(&service, ROUTE),
        },
    }
}

pub(super) async fn batch(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    const ROUTE: &str = "/v1/batch";
    let batch = match admit::<BatchRequest>(&service, &headers, body).await {
        Ok(batch) if batch.requests.is_empty() => {
            let why = "`requests` is empty: send at least one";
            return Refusal::new(StatusCode::BAD_REQUEST, "bad_request", why)
                .into_response(&service, ROUTE);
        }
        Ok(batch) => batch,
        Err(refusal) => return refusal.into_response(&service, ROUTE),
    };
    // A request refused alone is refused in its place; the others are judged.
    let mut places = Vec::new();
    let mut jobs = Vec::new();
    for request in batch.requests {
        places.push(match prepare(&service, request) {
            Ok(request) => {
                let (job, events) = job(&service, request);
                jobs.push(job);
                Ok(events)
            }
            Err(refusal) => Err(Refused {
                status: refusal.status.as_u16(),
                message: refusal.message,
            }),
        });
    }
    let mut guards = match super::submit_all(&service, jobs) {
        Ok(guards) => guards.into_iter(),
        Err(refusal) => return refusal.into_response(&service, ROUTE),
    };
    let mut answers = Vec::with_capacity(places.len());
    for place in places {
        // The guards are the jobs', in order: a request refused alone has none.
        let item = match place.map(|events| (events, guards.next())) {
            Ok((events, Some(guard))) => match answer(events, guard).await {
                Ok(judged) => BatchItem::Judged(judged),
                Err(refused) => BatchItem::Refused(refused),
            },
            Ok((_, None)) => BatchItem::Refused(refused(&failed())),
            Err(refused) => BatchItem::Refused(refused),
        };
        answers.push(item);
    }
    service.metrics.answered(ROUTE, "ok");
    json(StatusCode::OK, &tagged(&BatchAnswer { answers }))
}

/// Whether the query asks for a stream: `stream=1` (or `true`).
pub(super) fn streams(query: Option<&str>) -> bool {
    query
        .unwrap_or_default()
        .split('&')
        .any(|pair| matches!(pair, "stream=1" | "stream=true"))
}

/// `request` checked before anything runs (its shape, its limits against the service's caps),
/// with the defaults of tests sent filled in within the caps.
fn prepare(service: &Service, mut request: Request) -> Result<Request, Refusal> {
    door::check(&request)
        .map_err(|e| Refusal::new(StatusCode::BAD_REQUEST, "bad_request", e.to_string()))?;
    let time = request.time_limit_ms.map(Duration::from_millis);
    let memory = request.memory_limit_mb.map(|mb| mb << 20);
    super::limits(&service.settings, time, memory)?;
    if request.tests.is_some() {
        let settings = &service.settings;
        let time = door::DEFAULT_TIME.min(settings.max_time);
        let memory = door::DEFAULT_MEMORY.min(settings.max_memory);
        request.time_limit_ms.get_or_insert(time.as_millis() as u64);
        request.memory_limit_mb.get_or_insert((memory >> 20).max(1));
    }
    Ok(request)
}

/// The job that judges `request`, and what it tells as it goes.
fn job(service: &Arc<Service>, request: Request) -> (Job, UnboundedReceiver<Event>) {
    let (send, receive) = unbounded_channel();
    let (shared, tally) = (service.clone(), super::metrics::Tally::here());
    let job: Job = Box::new(move |judge| {
        let done = match judge {
            Err(why) => Err(Refused {
                status: StatusCode::INTERNAL_SERVER_ERROR.as_u16(),
                message: why.to_string(),
            }),
            Ok(judge) => match over_caps(&shared.settings, judge, &request) {
                Some(refused) => Err(refused),
                None => {
                    let mut lines = Lines {
                        send: send.clone(),
                        total: 0,
                        test: 0,
                    };
                    match door::judge_request(judge, &request, &mut lines) {
                        Ok(judged) => {
                            let cpu = judged.report.cases.iter().map(|c| c.cpu.as_secs_f64());
                            let cpu = cpu.reduce(f64::max);
                            shared
                                .metrics
                                .executed(&tally, judged.report.compile.cached, cpu);
                            Ok(Box::new(judged))
                        }
                        Err(e) => Err(refused_for(&e)),
                    }
                }
            },
        };
        let _ = send.send(Event::Done(done));
    });
    (job, receive)
}

/// A problem of the workspace is judged under its own limits unless the request gives lower
/// ones: limits over the service's caps are refused as a request's are, before anything runs
/// (an unknown problem is left for the judging to say).
fn over_caps(settings: &super::Settings, judge: &Judge, request: &Request) -> Option<Refused> {
    let id = request.problem.as_deref()?;
    let problem = judge.workspace.problem(id).ok()?;
    let time = request
        .time_limit_ms
        .map_or(problem.limits.time, Duration::from_millis);
    let memory = request
        .memory_limit_mb
        .map_or(problem.limits.memory_bytes, |mb| mb << 20);
    let refusal = super::limits(settings, Some(time), Some(memory)).err()?;
    Some(Refused {
        status: refusal.status.as_u16(),
        message: format!(
            "problem `{id}` is judged under its own limits: {}; send lower ones (`time_limit_ms`, `memory_limit_mb`)",
            refusal.message
        ),
    })
}

/// Tells each test as it is decided.
struct Lines {
    send: UnboundedSender<Event>,
    total: usize,
    test: usize,
}

impl Observer for Lines {
    fn compiling(&mut self, _solution: &Solution, report: &SolutionReport) {
        self.total = report.total;
        let _ = self.send.send(Event::Started);
    }

    fn compiled(&mut self, _report: &CompileReport) {}

    fn case_finished(&mut self, report: &CaseReport, limits: &Limits) {
        self.test += 1;
        let record = TestRecord::of(self.test, self.total, report, limits);
        let _ = self.send.send(Event::Test(record));
    }
}

/// The judge's error as the status a client is answered with: its own request's fault (an
/// unknown problem, a language or checker that is not one) or the service's.
fn refused_for(e: &judge_ops::Error) -> Refused {
    use judge_core::Error as Core;
    use judge_ops::Error as Ops;
    let status = match e {
        Ops::Core(Core::UnknownProblem { .. }) => StatusCode::NOT_FOUND,
        Ops::Request(_)
        | Ops::UnknownLanguage { .. }
        | Ops::Core(
            Core::Config { .. }
            | Core::TestData { .. }
            | Core::Unsupported { .. }
            | Core::Toolchain(_)
            | Core::MissingProgram { .. },
        ) => StatusCode::BAD_REQUEST,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    Refused {
        status: status.as_u16(),
        message: judge_ops::error::chain(e),
    }
}

fn refusal(refused: Refused) -> Refusal {
    let status = StatusCode::from_u16(refused.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let outcome = match status.is_client_error() {
        true => "bad_request",
        false => "error",
    };
    Refusal::new(status, outcome, refused.message)
}

fn refused(refusal: &Refusal) -> Refused {
    Refused {
        status: refusal.status.as_u16(),
        message: refusal.message.clone(),
    }
}

fn failed() -> Refusal {
    Refusal::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "error",
        "the judge running this request failed",
    )
}

/// The job's answer, once it is done; its guard withdraws it if this is dropped before (the
/// client went away).
async fn answer(
    mut events: UnboundedReceiver<Event>,
    guard: Withdraw,
) -> Result<Box<Judged>, Refused> {
    loop {
        match events.recv().await {
            Some(Event::Done(done)) => {
                guard.answered();
                return done;
            }
            Some(_) => continue,
            // Dropped without an answer: its thread panicked.
            None => {
                guard.answered();
                return Err(refused(&failed()));
            }
        }
    }
}

/// `?stream=1`: a line per test as it is decided, then the answer's line. A refusal before the
/// judging starts (an unknown problem, a language not installed) is an answer of its own with
/// its status; once started, the status is 200 and a failure is the last line.
async fn streamed(
    service: &Arc<Service>,
    mut events: UnboundedReceiver<Event>,
    guard: Withdraw,
) -> Response {
    const ROUTE: &str = "/v1/judge";
    loop {
        match events.recv().await {
            Some(Event::Started) => break,
            Some(Event::Test(_)) => continue,
            Some(Event::Done(Ok(judged))) => {
                guard.answered();
                service.metrics.answered(ROUTE, "ok");
                let line = ndjson(&tagged(&*judged));
                return stream_response(Body::from(line));
            }
            Some(Event::Done(Err(refused))) => {
                guard.answered();
                return refusal(refused).into_response(service, ROUTE);
            }
            None => {
                guard.answered();
                return failed().into_response(service, ROUTE);
            }
        }
    }
    service.metrics.answered(ROUTE, "ok");
    let lines = futures_util::stream::unfold(Some((events, guard)), |state| async move {
        let (mut events, guard) = state?;
        let (line, more) = match events.recv().await {
            Some(Event::Test(record)) => (ndjson(&tagged(&record)), true),
            Some(Event::Started) => (Vec::new(), true),
            Some(Event::Done(done)) => {
                guard.answered();
                let line = match done {
                    Ok(judged) => ndjson(&tagged(&*judged)),
                    Err(refused) => ndjson(&refused),
                };
                return Some((Ok::<_, Infallible>(Bytes::from(line)), None));
            }
            None => {
                guard.answered();
                return Some((Ok(Bytes::from(ndjson(&refused(&failed())))), None));
            }
        };
        let state = more.then_some((events, guard));
        Some((Ok(Bytes::from(line)), state))
    });
    stream_response(Body::from_stream(lines))
}

/// A 200 answer of JSON lines.
fn stream_response(body: Body) -> Response {
    let mut response = Response::new(body);
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/x-ndjson"),
    );
    response
}

/// `value` as one JSON line.
fn ndjson(value: &impl Serialize) -> Vec<u8> {
    let mut line = serde_json::to_vec(value).unwrap_or_default();
    line.push(b'\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_asked_for_in_the_query() {
        assert!(streams(Some("stream=1")));
        assert!(streams(Some("a=b&stream=true")));
        assert!(!streams(Some("stream=0")));
        assert!(!streams(None));
    }
}
