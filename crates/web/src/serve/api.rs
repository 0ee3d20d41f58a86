//! The JSON API, for scripts and editors: `POST /api/submit` (a solution of the workspace or
//! pasted code, with the server's token as `Authorization: Bearer TOKEN`), `GET /api/runs/ID`
//! (a run's progress; `?wait=S` waits up to S seconds for its end) and `GET /api/submissions/ID`
//! (a recorded submission with its whole report); `POST /api/verify` (a problem's reference
//! solutions verified, as `judge verify` does) and `GET /api/verify/PROBLEM` (its latest
//! verify: its progress, then the verification as `judge verify --json` gives it; `?wait=S`
//! waits up to S seconds for its end). Reading needs no token, as the pages do not.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{json, Value};

use super::runs::{End, Run, RunEvent, RunState};
use super::submit::{self, Chosen};
use super::tasks::{Kind, Task};
use super::App;
use judge_history::{Entry, History};

/// The longest a `GET /api/runs/ID?wait=S` waits.
const MAX_WAIT: Duration = Duration::from_secs(600);

/// A JSON answer.
fn answer(status: StatusCode, body: &impl Serialize) -> Response {
    let text = serde_json::to_string_pretty(body).unwrap_or_else(|_| "{}".into());
    (
        status,
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        text + "\n",
    )
        .into_response()
}

/// A refusal: `{"error": "..."}`.
fn refused(status: StatusCode, why: &str) -> Response {
    answer(status, &json!({ "error": why }))
}

/// A request without the server's token, or not in JSON, refused; `what` it should have sent.
fn unauthorised(app: &App, headers: &HeaderMap, what: &str) -> Option<Response> {
    if !app.hosts.same_origin(headers) || !app.token.in_bearer(headers) {
        return Some(refused(
            StatusCode::UNAUTHORIZED,
            "this request does not carry this server's token: send `Authorization: Bearer TOKEN`, TOKEN being what follows ?token= in the address `judge serve` printed",
        ));
    }
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !json {
        return Some(refused(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            &format!("send {what} as JSON (Content-Type: application/json)"),
        ));
    }
    None
}

/// What `POST /api/submit` answers.
#[derive(Serialize)]
struct SubmitAnswer {
    run: u64,
    /// `GET` it for the run's progress (`?wait=S` to wait for its end).
    status: String,
    /// The run's page, which opens the submission's once it is recorded.
    page: String,
    problem: String,
    solution: String,
    /// The language the pasted code was taken to be in, and how it was chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    language_chosen: Option<Chosen>,
}

pub(super) async fn submit(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    if let Some(refusal) = unauthorised(&app, &headers, "the submission") {
        return refusal;
    }
    let form: submit::Form = match body
        .map_err(|e| e.body_text())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
    {
        Ok(f) => f,
        Err(why) => {
            return refused(
                StatusCode::BAD_REQUEST,
                &format!("not a submission: {why} (fields: problem, solution or code, language)"),
            )
        }
    };
    let checked = {
        let app = app.clone();
        tokio::task::spawn_blocking(move || {
            submit::solution(&app.ws, &app.languages, &app.history, &form)
        })
        .await
    };
    match checked {
        Ok(Ok(accepted)) => {
            let run = app.runs.submit(accepted.solution);
            let (language, language_chosen) = match accepted.pasted {
                Some(p) => (Some(p.language.id.clone()), Some(p.chosen)),
                None => (None, None),
            };
            let body = SubmitAnswer {
                run: run.id,
                status: format!("/api/runs/{}", run.id),
                page: format!("/runs/{}", run.id),
                problem: run.solution.problem.clone(),
                solution: run.solution.name.clone(),
                language,
                language_chosen,
            };
            answer(StatusCode::ACCEPTED, &body)
        }
        Ok(Err(refusal)) => refused(StatusCode::BAD_REQUEST, &refusal.to_string()),
        Err(e) => refused(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct Wait {
    /// Seconds to wait for the run's end.
    #[serde(default)]
    wait: Option<f64>,
}

pub(super) async fn run(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(wait): Query<Wait>,
) -> Response {
    let Some(run) = id.parse().ok().and_then(|id| app.runs.get(id)) else {
        return refused(
            StatusCode::NOT_FOUND,
            &format!("there is no run {id} (runs are kept until the server stops)"),
        );
    };
    let wait = wait
        .wait
        .filter(|w| w.is_finite() && *w > 0.0)
        .map_or(Duration::ZERO, |w| Duration::from_secs_f64(w).min(MAX_WAIT));
    let state = until_ended(&run, wait).await;
    answer(StatusCode::OK, &run_json(&run, &state))
}

/// The run's state once it has ended, or once `wait` is over.
async fn until_ended(run: &Run, wait: Duration) -> RunState {
    let (state, mut events) = run.follow();
    if state.end.is_some() || wait.is_zero() {
        return state;
    }
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, events.recv()).await {
            Ok(Ok(RunEvent::Ended)) | Err(_) => break,
            Ok(Ok(_)) => {}
            // Events missed while this one lagged: the state below says what is known.
            Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => {}
            Ok(Err(tokio::sync::broadcast::error::RecvError::Closed)) => break,
        }
    }
    run.state()
}

/// A run as JSON: `judging` with the cases so far, then `recorded` with the submission, or
/// `failed` with why.
fn run_json(run: &Run, state: &RunState) -> Value {
    let mut doc = json!({
        "run": run.id,
        "problem": run.solution.problem,
        "solution": run.solution.name,
        "cases_judged": state.cases.len(),
        "cases": state.total,
    });
    let (status, more) = match &state.end {
        None => ("judging", json!({})),
        Some(End::Recorded(id)) => (
            "recorded",
            json!({
                "submission": id,
                "verdict": state.verdict,
                "url": format!("/api/submissions/{id}"),
                "page": format!("/submissions/{id}"),
            }),
        ),
        Some(End::Failed(why)) => ("failed", json!({ "error": why })),
    };
    doc["status"] = json!(status);
    if let (Some(doc), Value::Object(more)) = (doc.as_object_mut(), more) {
        doc.extend(more);
    }
    doc
}

pub(super) async fn submission(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Ok(id) = id.parse::<i64>() else {
        return refused(
            StatusCode::NOT_FOUND,
            &format!("`{id}` is not a submission's number"),
        );
    };
    if !app.history.exists() {
        return refused(
            StatusCode::NOT_FOUND,
            &format!("there is no submission #{id}"),
        );
    }
    let history = app.history.clone();
    let found = tokio::task::spawn_blocking(move || {
        History::open(&history).and_then(|h| Ok((h.get(id)?, h.report(id)?)))
    })
    .await;
    match found {
        Ok(Ok((Some(Entry::Read(s)), report))) => {
            let mut doc = serde_json::to_value(&s).unwrap_or_default();
            doc["time"] = json!(s.time_text());
            doc["report"] = report
                .and_then(|r| serde_json::from_str(&r).ok())
                .unwrap_or(Value::Null);
            answer(StatusCode::OK, &doc)
        }
        Ok(Ok((Some(Entry::Unreadable(u)), _))) => refused(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("submission #{id} cannot be read: {}", u.unreadable),
        ),
        Ok(Ok((None, _))) => refused(
            StatusCode::NOT_FOUND,
            &format!("there is no submission #{id}"),
        ),
        Ok(Err(e)) => refused(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
        Err(e) => refused(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// What `POST /api/verify` asks for.
#[derive(serde::Deserialize)]
struct VerifyRequest {
    problem: String,
}

pub(super) async fn verify(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    if let Some(refusal) = unauthorised(&app, &headers, "the problem to verify") {
        return refusal;
    }
    let request: VerifyRequest = match body
        .map_err(|e| e.body_text())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
    {
        Ok(r) => r,
        Err(why) => {
            return refused(
                StatusCode::BAD_REQUEST,
                &format!("not a verify request: {why} (fields: problem)"),
            )
        }
    };
    if !app
        .ws
        .problem_ids()
        .unwrap_or_default()
        .contains(&request.problem)
    {
        return refused(
            StatusCode::NOT_FOUND,
            &format!(
                "there is no problem `{}` in this workspace",
                request.problem
            ),
        );
    }
    let task = app
        .runs
        .queue(Task::new(request.problem.clone(), Kind::Verify));
    answer(
        StatusCode::ACCEPTED,
        &json!({
            "problem": task.problem,
            "status": format!("/api/verify/{}", task.problem),
            "page": format!("/verify?problem={}", task.problem),
        }),
    )
}

pub(super) async fn verified(
    State(app): State<Arc<App>>,
    Path(problem): Path<String>,
    Query(wait): Query<Wait>,
) -> Response {
    let Some(task) = app.runs.task(&problem, Kind::Verify.name()) else {
        return refused(
            StatusCode::NOT_FOUND,
            &format!("problem `{problem}` has not been verified since the server started: POST /api/verify first"),
        );
    };
    let wait = wait
        .wait
        .filter(|w| w.is_finite() && *w > 0.0)
        .map_or(Duration::ZERO, |w| Duration::from_secs_f64(w).min(MAX_WAIT));
    let deadline = tokio::time::Instant::now() + wait;
    let mut changed = app.runs.changed.subscribe();
    let mut state = task.state();
    while state.result.is_none() && tokio::time::Instant::now() < deadline {
        // Any change wakes this up; the task's state says whether it was this one's end.
        let _ = tokio::time::timeout_at(deadline, changed.recv()).await;
        state = task.state();
    }
    let doc = match &state.result {
        None => json!({ "problem": problem, "status": "verifying", "progress": state.progress }),
        Some(Err(why)) => {
            json!({ "problem": problem, "status": "failed", "error": why.to_string() })
        }
        Some(Ok(_)) => {
            let mut doc = json!({ "problem": problem, "status": "verified" });
            if let (Some(doc), Some(Value::Object(data))) = (doc.as_object_mut(), state.data) {
                doc.extend(data);
            }
            doc
        }
    };
    answer(StatusCode::OK, &doc)
}
