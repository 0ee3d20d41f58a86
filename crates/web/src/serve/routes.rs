//! The pages: each handler gathers its data, turns it into views, renders its template.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Extension;
use serde::Serialize;
use serde_json::Value;

use super::pages::{self, ctx, page};
use super::runs::{End, Run, RunState};
use super::submit;
use super::views::{CaseView, StatusRow, VerdictView};
use super::{statement, App, Known};
use judge_core::model::not_timed_time;
use judge_core::units::{format_bytes, format_duration};
use judge_core::workspace::Problem;
use judge_history::{Entry, Filter, History};

/// The most rows the status page shows.
const STATUS_ROWS: usize = 100;

pub(super) async fn home() -> Redirect {
    Redirect::to("/status")
}

/// A problem in the list: limits, tests, solutions with their expected verdicts.
#[derive(Serialize)]
struct ProblemView {
    id: String,
    title: String,
    time: String,
    memory: String,
    tests: usize,
    samples: usize,
    solutions: Vec<SolutionView>,
}

#[derive(Serialize)]
struct SolutionView {
    name: String,
    expected: Option<String>,
}

fn problem_view(app: &App, p: &Problem) -> ProblemView {
    let cases = app.ws.testcases_if_any(p).unwrap_or_default();
    ProblemView {
        id: p.id.clone(),
        title: p.title.clone(),
        time: format_duration(p.limits.time),
        memory: format_bytes(p.limits.memory_bytes),
        tests: cases.len(),
        samples: cases.iter().filter(|c| c.sample).count(),
        solutions: app
            .ws
            .solutions(&p.id)
            .unwrap_or_default()
            .into_iter()
            .map(|s| SolutionView {
                expected: p.expected.get(&s.name).map(ToString::to_string),
                name: s.name,
            })
            .collect(),
    }
}

/// Every problem of the workspace that loads.
fn problem_views(app: &App) -> Vec<ProblemView> {
    app.ws
        .problem_ids()
        .unwrap_or_default()
        .iter()
        .filter_map(|id| app.ws.problem(id).ok())
        .map(|p| problem_view(app, &p))
        .collect()
}

pub(super) async fn problems(State(app): State<Arc<App>>) -> Response {
    page(
        StatusCode::OK,
        "problems.html",
        ctx! { title => "Problems", nav => "problems", problems => problem_views(&app) },
    )
}

pub(super) async fn problem(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let known = app.ws.problem_ids().unwrap_or_default();
    let problem = match known.contains(&id).then(|| app.ws.problem(&id)) {
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            return pages::error(StatusCode::INTERNAL_SERVER_ERROR, &id, &e.to_string(), None)
        }
        None => return not_found(&format!("there is no problem `{id}`"), "/problems"),
    };
    let mut samples = statement::samples(&app, &problem);
    // The samples the statement places itself are not shown again below it, nor any when it
    // shows examples of its own.
    let (statement, katex) = statement::render(&problem, &mut samples);
    let interactive = problem.interactor.is_some();
    page(
        StatusCode::OK,
        "problem.html",
        ctx! {
            title => problem.title.clone(), nav => "problems",
            p => problem_view(&app, &problem), statement, samples, katex, interactive,
        },
    )
}

#[derive(Debug, Default, serde::Deserialize, Serialize)]
pub(super) struct StatusQuery {
    #[serde(default)]
    problem: String,
    #[serde(default)]
    solution: String,
}

pub(super) async fn status(
    State(app): State<Arc<App>>,
    Query(query): Query<StatusQuery>,
) -> Response {
    let some = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
    let filter = Filter {
        problem: some(&query.problem),
        solution: some(&query.solution),
        limit: Some(STATUS_ROWS),
    };
    let recorded = if app.history.exists() {
        History::open(&app.history).and_then(|h| {
            let mut subs = h.list(&filter)?;
            h.load_cases(&mut subs)?;
            Ok(subs)
        })
    } else {
        Ok(Vec::new())
    };
    let recorded = match recorded {
        Ok(r) => r,
        Err(e) => return unreadable(&e),
    };
    let admitted = |run: &Run| {
        filter
            .problem
            .as_ref()
            .is_none_or(|p| *p == run.solution.problem)
            && filter
                .solution
                .as_ref()
                .is_none_or(|s| *s == run.solution.name)
    };
    let mut rows: Vec<StatusRow> = app
        .runs
        .in_progress()
        .iter()
        .filter(|(run, _)| admitted(run))
        .map(|(run, state)| running_row(&app, run, state))
        .collect();
    let truncated = recorded.len() == STATUS_ROWS;
    rows.extend(recorded.iter().map(StatusRow::of));
    page(
        StatusCode::OK,
        "status.html",
        ctx! {
            title => "Status", nav => "status", rows, truncated, filter => query,
            problems => app.ws.problem_ids().unwrap_or_default(),
        },
    )
}

/// A run in progress as a row of the status table.
fn running_row(app: &App, run: &Run, state: &RunState) -> StatusRow {
    let language = app
        .ws
        .config
        .languages
        .of_path(&run.solution.path)
        .map(|l| l.id.clone())
        .unwrap_or_default();
    StatusRow {
        href: format!("/runs/{}", run.id),
        id: "…".into(),
        when: "now".into(),
        problem: run.solution.problem.clone(),
        solution: run.solution.name.clone(),
        language,
        verdict: running_verdict(state),
        time: String::new(),
        memory: String::new(),
    }
}

/// "Running on test N" once compiled, else "In queue / compiling".
pub(super) fn running_verdict(state: &RunState) -> VerdictView {
    VerdictView::running(state.compile.as_ref().map(|_| state.cases.len() + 1))
}

pub(super) async fn submission(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Ok(id) = id.parse::<i64>() else {
        return not_found(&format!("`{id}` is not a submission's number"), "/status");
    };
    if !app.history.exists() {
        return not_found(&format!("there is no submission #{id}"), "/status");
    }
    let found = History::open(&app.history).and_then(|h| Ok((h.get(id)?, h.report(id)?)));
    let (submission, report) = match found {
        Ok((Some(Entry::Read(s)), report)) => (s, report),
        Ok((Some(Entry::Unreadable(u)), _)) => {
            return pages::error(
                StatusCode::OK,
                &format!("Submission #{id} cannot be read"),
                &format!(
                    "Submission #{id} cannot be read: {}. The rest of the history is unaffected.",
                    u.unreadable
                ),
                Some("/status"),
            )
        }
        Ok((None, _)) => return not_found(&format!("there is no submission #{id}"), "/status"),
        Err(e) => return unreadable(&e),
    };
    let report: Option<Value> = report.and_then(|r| serde_json::from_str(&r).ok());
    let limit = Duration::from_millis(submission.time_limit_ms);
    let cases: Vec<CaseView> = match &report {
        Some(r) => r
            .get("cases")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, c)| CaseView::of(i, c, limit))
            .collect(),
        None => submission
            .cases
            .iter()
            .enumerate()
            .map(|(i, c)| CaseView::of(i, &serde_json::to_value(c).unwrap_or_default(), limit))
            .collect(),
    };
    let diagnostics = report
        .as_ref()
        .and_then(|r| r.pointer("/compile/diagnostics"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let source = source_as_judged(&submission);
    // Pasted code is kept apart from the user's solutions; the page says how to keep it.
    let judged_path = std::path::Path::new(&submission.path);
    let pasted = judged_path
        .starts_with(app.ws.pastes_dir())
        .then(|| app.ws.show(judged_path));
    let not_timed = not_timed_views(report.as_ref());
    let row = StatusRow::of(&Entry::Read(submission.clone()));
    page(
        StatusCode::OK,
        "submission.html",
        ctx! {
            title => format!("Submission #{id}"), nav => "status", s => row, cases, diagnostics,
            detailed => report.is_some(), path => app.ws.show(std::path::Path::new(&submission.path)), code_length => submission.code_length,
            compiler => submission.compiler, source, pasted, not_timed,
            time_limit => format_duration(Duration::from_millis(submission.time_limit_ms)),
        },
    )
}

/// The cases of a recorded report that were not timed (run under the shorter cap after a TLE,
/// not finished within it), each with its time: "> 1 s".
fn not_timed_views(report: Option<&Value>) -> Vec<(String, String)> {
    let cases = report
        .and_then(|r| r.get("not_timed"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    cases
        .iter()
        .map(|c| {
            let ms = |k: &str| Duration::from_millis(c.get(k).and_then(Value::as_u64).unwrap_or(0));
            (
                c.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                not_timed_time(ms("time_ms"), ms("cap_ms")),
            )
        })
        .collect()
}

/// What the submit page is filled in with.
#[derive(Debug, Default, Serialize, serde::Deserialize)]
pub(super) struct Prefill {
    #[serde(default)]
    problem: String,
    #[serde(default)]
    solution: String,
    #[serde(default)]
    language: String,
    #[serde(default)]
    code: String,
}

#[derive(Serialize)]
struct LanguageView {
    id: String,
    name: String,
}

fn submit_page(
    app: &App,
    known: Known,
    status: StatusCode,
    form: Prefill,
    error: Option<String>,
) -> Response {
    let languages: Vec<LanguageView> = app
        .languages
        .offered()
        .iter()
        .map(|l| LanguageView {
            id: l.id.clone(),
            name: l.name.clone(),
        })
        .collect();
    let token = if known.0 { app.token.as_str() } else { "" };
    let detect = submit::DETECT;
    page(
        status,
        "submit.html",
        ctx! {
            title => "Submit", nav => "submit", problems => problem_views(app), languages, form,
            token, error, detect,
        },
    )
}

pub(super) async fn submit_form(
    State(app): State<Arc<App>>,
    Extension(known): Extension<Known>,
    Query(prefill): Query<Prefill>,
) -> Response {
    submit_page(&app, known, StatusCode::OK, prefill, None)
}

pub(super) async fn submit(
    State(app): State<Arc<App>>,
    Extension(known): Extension<Known>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let form: submit::Form = match posted(&app, &headers, body) {
        Ok(f) => f,
        Err(refused) => return *refused,
    };
    let checked = {
        let (app, form) = (app.clone(), form.clone());
        tokio::task::spawn_blocking(move || {
            submit::solution(&app.ws, &app.languages, &app.history, &form)
        })
        .await
    };
    match checked {
        Ok(Ok(accepted)) => {
            let run = app.runs.submit(accepted.solution);
            Redirect::to(&format!("/runs/{}", run.id)).into_response()
        }
        Ok(Err(refusal)) => {
            let prefill = Prefill {
                problem: form.problem,
                solution: form.solution,
                language: form.language,
                code: form.code,
            };
            submit_page(
                &app,
                known,
                StatusCode::BAD_REQUEST,
                prefill,
                Some(refusal.to_string()),
            )
        }
        Err(e) => pages::error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Not submitted",
            &e.to_string(),
            None,
        ),
    }
}

/// The form of a state-changing request, once its body is read whole (a client still sending
/// would otherwise see its connection reset instead of the answer), is a form, and carries the
/// token from a page of this server; else the page that says why not.
pub(super) fn posted<T: serde::de::DeserializeOwned>(
    app: &App,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, Box<Response>> {
    #[derive(serde::Deserialize)]
    struct Token {
        #[serde(default)]
        token: String,
    }
    let form = body.map_err(|e| e.body_text()).and_then(|body| {
        let urlencoded = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        if !urlencoded {
            return Err("it is not a form (application/x-www-form-urlencoded)".into());
        }
        let token = serde_urlencoded::from_bytes::<Token>(&body).map_err(|e| e.to_string())?;
        let form = serde_urlencoded::from_bytes::<T>(&body).map_err(|e| e.to_string())?;
        Ok((token.token, form))
    });
    match form {
        Err(why) => Err(Box::new(pages::error(
            StatusCode::BAD_REQUEST,
            "Not a form of this judge",
            &format!("the request is not the page's form: {why}"),
            None,
        ))),
        Ok((token, _)) if !app.hosts.same_origin(headers) || !app.token.admits(&token) => {
            Err(Box::new(pages::error(
                StatusCode::FORBIDDEN,
                "Refused",
                "this request does not carry this server's token, so it may come from another page: nothing was run. Open the address `judge serve` printed (with its ?token=) and start from there.",
                None,
            )))
        }
        Ok((_, form)) => Ok(form),
    }
}

pub(super) async fn run(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let number = id.parse().ok();
    let Some(run) = number.and_then(|id| app.runs.get(id)) else {
        return match number.and_then(|id| app.runs.forgotten(id)) {
            Some(End::Recorded(id)) => Redirect::to(&format!("/submissions/{id}")).into_response(),
            Some(End::Failed(why)) => {
                pages::error(StatusCode::OK, "Not judged", &why, Some("/status"))
            }
            None => not_found(
                &format!("there is no run {id} (runs are kept until the server stops)"),
                "/status",
            ),
        };
    };
    let state = run.state();
    if let Some(End::Recorded(id)) = state.end {
        return Redirect::to(&format!("/submissions/{id}")).into_response();
    }
    let failed = match &state.end {
        Some(End::Failed(why)) => Some(why.clone()),
        _ => None,
    };
    page(
        StatusCode::OK,
        "run.html",
        ctx! {
            title => format!("Judging {}", run.solution.name), nav => "status", id => run.id,
            solution => run.solution.name.clone(), problem => run.solution.problem.clone(),
            state => running_verdict(&state), compile => compile_line(&state), failed,
            cases => case_views(&state),
        },
    )
}

/// The cases of a run so far, as views.
pub(super) fn case_views(state: &RunState) -> Vec<CaseView> {
    state
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            CaseView::of(
                i,
                &serde_json::to_value(c).unwrap_or_default(),
                run_limit(state),
            )
        })
        .collect()
}

/// The time limit a run's cases run under, once known.
pub(super) fn run_limit(state: &RunState) -> Duration {
    state.limits.map_or(Duration::MAX, |l| l.time)
}

/// "compiled in 1.20 s", "taken from the cache", once compiled.
fn compile_line(state: &RunState) -> Option<String> {
    state
        .compile
        .as_ref()
        .map(|c| match (c.cached, &c.diagnostics) {
            (_, Some(_)) => "compilation failed".to_string(),
            (true, None) => "compiled (taken from the cache)".to_string(),
            (false, None) => format!("compiled in {}", format_duration(c.duration)),
        })
}

/// The source as it was judged: the file, when it has not changed since (the history keeps
/// its hash, not its text). `Err` says why it is not shown.
fn source_as_judged(s: &judge_history::Submission) -> Result<String, &'static str> {
    let bytes = std::fs::read(&s.path).map_err(|_| "the file is gone")?;
    if blake3::hash(&bytes).to_hex().as_str() != s.source_hash {
        return Err("the file has changed since");
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn unreadable(e: &judge_history::HistoryError) -> Response {
    pages::error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "The history cannot be read",
        &e.to_string(),
        None,
    )
}

fn not_found(message: &str, back: &str) -> Response {
    pages::error(StatusCode::NOT_FOUND, "Not found", message, Some(back))
}
