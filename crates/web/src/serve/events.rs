//! Server-sent events: `changed` to the status page whenever the history or a run moves on
//! (runs from the terminal included: the history is polled), and a run's cases as they finish.
//! A client that goes away only ends its own stream.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use tokio::sync::broadcast::{self, error::RecvError};

use super::pages;
use super::routes::{run_limit, running_verdict};
use super::runs::{End, RunEvent, RunState};
use super::views::CaseView;
use super::App;
use judge_history::History;

/// How often the history is looked at for submissions recorded by other judges.
const POLL: Duration = Duration::from_millis(300);

/// Tells `changed` whenever the newest submission of the history at `path` changes.
pub fn watch_history(path: PathBuf, changed: broadcast::Sender<()>) {
    std::thread::spawn(move || {
        let mut seen = None;
        // One connection, kept: opening checks the format, a write the poll need not repeat.
        let mut history: Option<History> = None;
        loop {
            // No history yet is none recorded: the first one is news.
            let latest = if !path.exists() {
                // Removed (`judge clean --all`): a new one is a new file.
                history = None;
                Some(0)
            } else {
                if history.is_none() {
                    history = History::open(&path).ok();
                }
                let latest = history.as_ref().and_then(|h| h.latest_id().ok());
                if latest.is_none() {
                    history = None;
                }
                latest
            };
            if latest.is_some() && latest != seen {
                if seen.is_some() {
                    let _ = changed.send(());
                }
                seen = latest;
            }
            std::thread::sleep(POLL);
        }
    });
}

/// `changed` events for the status page.
pub(super) async fn status(State(app): State<Arc<App>>) -> impl IntoResponse {
    let receiver = app.runs.changed.subscribe();
    let events = stream::unfold(receiver, |mut receiver| async move {
        match receiver.recv().await {
            Ok(()) | Err(RecvError::Lagged(_)) => {
                // Browsers drop an event without data.
                let event = Event::default().event("changed").data("changed");
                Some((Ok::<_, Infallible>(event), receiver))
            }
            Err(RecvError::Closed) => None,
        }
    });
    Sse::new(events).keep_alive(KeepAlive::default())
}

/// A run's events: what is known when the page asks (so nothing is missed), then each change;
/// the stream ends with the run.
pub(super) async fn run(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Some(run) = id.parse().ok().and_then(|id| app.runs.get(id)) else {
        return pages::error(
            axum::http::StatusCode::NOT_FOUND,
            "Not found",
            "no such run",
            None,
        );
    };
    let (state, receiver) = run.follow();
    let mut pending: VecDeque<Event> = VecDeque::new();
    pending.push_back(state_event(&state));
    pending.extend((0..state.cases.len()).map(|i| case_event(&state, i)));
    let ended = state.end.is_some();
    if ended {
        pending.push_back(end_event(&state));
    }
    let events = stream::unfold(
        (pending, receiver, run, ended),
        |(mut pending, mut receiver, run, mut ended)| async move {
            loop {
                if let Some(event) = pending.pop_front() {
                    return Some((Ok::<_, Infallible>(event), (pending, receiver, run, ended)));
                }
                if ended {
                    return None;
                }
                match receiver.recv().await {
                    Ok(event) => {
                        let state = run.state();
                        match event {
                            RunEvent::Compiled => pending.push_back(state_event(&state)),
                            RunEvent::Case(i) => {
                                pending.push_back(case_event(&state, i));
                                pending.push_back(state_event(&state));
                            }
                            RunEvent::Ended => {
                                pending.push_back(end_event(&state));
                                ended = true;
                            }
                        }
                    }
                    // Too far behind: start again from what is known now.
                    Err(RecvError::Lagged(_)) => {
                        let state = run.state();
                        pending.push_back(state_event(&state));
                        pending.extend((0..state.cases.len()).map(|i| case_event(&state, i)));
                    }
                    Err(RecvError::Closed) => ended = true,
                }
            }
        },
    );
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

fn state_event(state: &RunState) -> Event {
    let html = pages::render("verdict.html", pages::ctx! { v => running_verdict(state) })
        .unwrap_or_default();
    Event::default().event("state").data(html.trim())
}

fn case_event(state: &RunState, index: usize) -> Event {
    let view = state.cases.get(index).map(|c| {
        CaseView::of(
            index,
            &serde_json::to_value(c).unwrap_or_default(),
            run_limit(state),
        )
    });
    let html = pages::render("case_row.html", pages::ctx! { case => view }).unwrap_or_default();
    let data = serde_json::json!({ "id": format!("case-{}", index + 1), "html": html.trim() });
    Event::default().event("case").data(data.to_string())
}

fn end_event(state: &RunState) -> Event {
    let data = match &state.end {
        Some(End::Recorded(id)) => serde_json::json!({ "href": format!("/submissions/{id}") }),
        Some(End::Failed(why)) => serde_json::json!({ "error": why }),
        None => serde_json::json!({ "error": "the run stopped" }),
    };
    Event::default().event("end").data(data.to_string())
}
