//! The compare, scale and verify pages: a form that starts the task (with the token), and the latest
//! task of the chosen problem, followed live.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Extension;
use serde::{Deserialize, Serialize};

use super::pages::{ctx, page};
use super::routes::posted;
use super::tasks::{Kind, Task};
use super::{App, Known};
use judge_core::scale::SizesError;

/// The form of the pages (sizes and input only for scale).
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(super) struct TaskForm {
    #[serde(default)]
    problem: String,
    #[serde(default)]
    sizes: String,
    #[serde(default)]
    input: String,
}

/// Why a form started no task, said above it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Refused {
    #[error("there is no problem `{0}` in this workspace")]
    NoProblem(String),
    /// The sizes as the form gave them, and what is wrong with them.
    #[error("the sizes `{sizes}`: {source}")]
    Sizes { sizes: String, source: SizesError },
}

/// What differs between the pages.
struct Page {
    kind: &'static str,
    heading: &'static str,
    button: &'static str,
    nothing: &'static str,
}

const COMPARE: Page = Page {
    kind: "compare",
    heading: "Compare",
    button: "Judge every solution",
    nothing: "Judges every solution of the problem on every case, one at a time: the matrix, each solution against its expected verdict, and their relative speed.",
};

const SCALE: Page = Page {
    kind: "scale",
    heading: "Scale",
    button: "Measure",
    nothing: "Runs every solution of the problem at each size and fits growth models: the chart of CPU time against n.",
};

const VERIFY: Page = Page {
    kind: "verify",
    heading: "Verify",
    button: "Verify the solutions",
    nothing: "Judges every reference solution of the problem and checks it gets its expected verdict, under the problem's time limit (or the one its accepted solutions justify), as judge verify does.",
};

fn show(app: &App, known: Known, p: &Page, form: TaskForm, refused: Option<Refused>) -> Response {
    let problems = app.ws.problem_ids().unwrap_or_default();
    let problem = if form.problem.is_empty() {
        problems.first().cloned().unwrap_or_default()
    } else {
        form.problem.clone()
    };
    let state = app.runs.task(&problem, p.kind).map(|t| t.state());
    let (progress, result, failed) = match state {
        Some(s) => match s.result {
            Some(Ok(html)) => (None, Some(html), None),
            Some(Err(why)) => (None, None, Some(why.to_string())),
            None => (Some(s.progress), None, None),
        },
        None => (None, None, None),
    };
    let token = if known.0 { app.token.as_str() } else { "" };
    let error = refused.map(|r| r.to_string());
    page(
        if error.is_some() {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::OK
        },
        "task.html",
        ctx! {
            title => p.heading, nav => p.kind, heading => p.heading, button => p.button,
            nothing => p.nothing, action => format!("/{}", p.kind), problems, problem, form,
            token, error, progress, result, failed,
        },
    )
}

pub(super) async fn compare_page(
    State(app): State<Arc<App>>,
    Extension(known): Extension<Known>,
    Query(form): Query<TaskForm>,
) -> Response {
    show(&app, known, &COMPARE, form, None)
}

pub(super) async fn scale_page(
    State(app): State<Arc<App>>,
    Extension(known): Extension<Known>,
    Query(form): Query<TaskForm>,
) -> Response {
    show(&app, known, &SCALE, form, None)
}

pub(super) async fn verify_page(
    State(app): State<Arc<App>>,
    Extension(known): Extension<Known>,
    Query(form): Query<TaskForm>,
) -> Response {
    show(&app, known, &VERIFY, form, None)
}

pub(super) async fn verify(
    State(app): State<Arc<App>>,
    Extension(known): Extension<Known>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    start(&app, known, &VERIFY, &headers, body, |_| Ok(Kind::Verify))
}

pub(super) async fn compare(
    State(app): State<Arc<App>>,
    Extension(known): Extension<Known>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    start(&app, known, &COMPARE, &headers, body, |_| Ok(Kind::Compare))
}

pub(super) async fn scale(
    State(app): State<Arc<App>>,
    Extension(known): Extension<Known>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    start(&app, known, &SCALE, &headers, body, |form| {
        let sizes =
            judge_core::scale::parse_sizes(form.sizes.trim()).map_err(|source| Refused::Sizes {
                sizes: form.sizes.clone(),
                source,
            })?;
        let template = match form.input.trim() {
            "" => "{n}\\n".to_string(),
            t => t.to_string(),
        };
        Ok(Kind::Scale { sizes, template })
    })
}

/// Starts the task a form asks for, then shows its page.
fn start(
    app: &App,
    known: Known,
    p: &Page,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
    kind: impl FnOnce(&TaskForm) -> Result<Kind, Refused>,
) -> Response {
    let form: TaskForm = match posted(app, headers, body) {
        Ok(f) => f,
        Err(refused) => return *refused,
    };
    if !app
        .ws
        .problem_ids()
        .unwrap_or_default()
        .contains(&form.problem)
    {
        let why = Refused::NoProblem(form.problem.clone());
        return show(app, known, p, form, Some(why));
    }
    match kind(&form) {
        Ok(kind) => {
            app.runs.queue(Task::new(form.problem.clone(), kind));
            // The page shows the form as it was sent.
            let query = serde_urlencoded::to_string(&form).unwrap_or_default();
            let to = format!("/{}?{query}", p.kind);
            Redirect::to(&to).into_response()
        }
        Err(why) => show(app, known, p, form, Some(why)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_form_is_said_as_before() {
        assert_eq!(
            Refused::NoProblem("sum".into()).to_string(),
            "there is no problem `sum` in this workspace"
        );
        let source = judge_core::scale::parse_sizes("3,2").unwrap_err();
        let refused = Refused::Sizes {
            sizes: "3,2".into(),
            source,
        };
        assert_eq!(
            refused.to_string(),
            "the sizes `3,2`: `3,2` is not a list of sizes: write `4..16`, `4..16:2` or `4,6,8`: sizes must increase"
        );
    }
}
