//! `judge listen`: Competitive Companion's receiving end. The browser extension POSTs each
//! problem as JSON to `http://localhost:PORT/`; each becomes a problem of the workspace through
//! the importer's writer, and a whole contest arrives as a batch of such POSTs, counted so that
//! `--once` can stop after one batch.
//!
//! Bad input (not Competitive Companion's JSON, a test without output, a body over 16 MiB, a
//! body cut short) is answered 4xx with the reason, and nothing of that problem is written.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::get;
use tokio::sync::Notify;

use crate::error::Result;
use crate::http::{self, BodyError, Server};
use judge_core::workspace::Workspace;
use judge_packages::import::{self, companion, Imported};

/// The port cph listens on, one Competitive Companion sends to without being told.
pub const DEFAULT_PORT: u16 = 27121;
/// The largest problem taken: samples are small, and a runaway request must not fill the disk.
pub const MAX_BODY: usize = 16 << 20;

/// What happened to one request, as it happens.
#[derive(Debug, Clone)]
pub enum Event {
    /// A problem was written (created or merged into).
    Imported(Box<Imported>),
    /// A request was refused: its HTTP status and the reason (the response's body).
    Rejected { status: u16, reason: String },
    /// Every problem of a batch of more than one has arrived.
    BatchDone {
        size: usize,
        contest: Option<String>,
    },
}

/// How `judge listen` behaves.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// How each problem is written (`--force`, `--new`).
    pub import: import::Options,
    /// Stop after the first whole batch.
    pub once: bool,
}

/// What a listener did, when it stops.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub imported: usize,
    pub rejected: usize,
}

struct Listener {
    ws: Workspace,
    settings: Settings,
    on_event: Box<dyn Fn(Event) + Send + Sync>,
    /// Problems received of each batch not yet complete.
    batches: Mutex<HashMap<String, usize>>,
    /// One problem is written at a time.
    writing: Mutex<()>,
    stop: Arc<Notify>,
    imported: AtomicUsize,
    rejected: AtomicUsize,
}

/// Serves Competitive Companion on `server` until the first whole batch with `once`, or
/// until the process is stopped; `on_event` hears of every request.
pub fn listen(
    server: Server,
    ws: Workspace,
    settings: Settings,
    on_event: impl Fn(Event) + Send + Sync + 'static,
) -> Result<Summary> {
    let stop = Arc::new(Notify::new());
    let listener = Arc::new(Listener {
        ws,
        settings,
        on_event: Box::new(on_event),
        batches: Mutex::new(HashMap::new()),
        writing: Mutex::new(()),
        stop: stop.clone(),
        imported: AtomicUsize::new(0),
        rejected: AtomicUsize::new(0),
    });
    let app = axum::Router::new()
        .route("/", get(hello).post(receive))
        .with_state(listener.clone());
    server.serve(app, stop)?;
    Ok(Summary {
        imported: listener.imported.load(Ordering::SeqCst),
        rejected: listener.rejected.load(Ordering::SeqCst),
    })
}

/// A page for whoever opens the address in a browser.
async fn hello() -> &'static str {
    "judge listen: waiting for Competitive Companion to POST problems here (click its green plus on a problem's page)\n"
}

/// One problem from Competitive Companion.
async fn receive(
    State(listener): State<Arc<Listener>>,
    headers: HeaderMap,
    body: Body,
) -> (StatusCode, String) {
    let reject = |status: StatusCode, reason: String| {
        listener.rejected.fetch_add(1, Ordering::SeqCst);
        (listener.on_event)(Event::Rejected {
            status: status.as_u16(),
            reason: reason.clone(),
        });
        (status, format!("{reason}\n"))
    };
    if http::from_web_page(&headers) {
        return reject(
            StatusCode::FORBIDDEN,
            "a web page cannot send problems to the judge: only Competitive Companion and local tools".into(),
        );
    }
    let body = match http::read_body(body, MAX_BODY).await {
        Ok(b) => b,
        Err(BodyError::TooLarge { cap }) => {
            return reject(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request is over {} MiB: no problem is that large",
                    cap >> 20
                ),
            )
        }
        Err(BodyError::Cut(why)) => {
            return reject(
                StatusCode::BAD_REQUEST,
                format!("the request was cut short: {why}"),
            )
        }
    };
    let parsed = companion::parse(&body).map_err(|e| e.to_string());
    let (draft, batch) = match parsed.and_then(|(d, b)| {
        import::check(&d).map_err(|e| e.to_string())?;
        Ok((d, b))
    }) {
        Ok(parsed) => parsed,
        Err(reason) => return reject(StatusCode::BAD_REQUEST, reason),
    };
    let written = {
        let _one_at_a_time = listener
            .writing
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        import::write(&listener.ws, &draft, &listener.settings.import)
    };
    let answer = match written {
        Ok(imported) => {
            listener.imported.fetch_add(1, Ordering::SeqCst);
            let what = match (imported.created, imported.added.is_empty()) {
                (true, _) => "created",
                (false, false) => "updated",
                (false, true) => "already here:",
            };
            let text = format!("{what} {}\n", imported.id);
            (listener.on_event)(Event::Imported(Box::new(imported)));
            (StatusCode::OK, text)
        }
        Err(e) => reject(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("`{}` could not be written: {e}", draft.title),
        ),
    };
    listener.arrived(batch, draft.contest);
    answer
}

impl Listener {
    /// Counts a problem of its batch (one of its own when it has none), and stops after a whole
    /// batch with `once`.
    fn arrived(&self, batch: Option<companion::Batch>, contest: Option<String>) {
        let done = match batch {
            None => Some(1),
            Some(b) => {
                let mut batches = self.batches.lock().unwrap_or_else(PoisonError::into_inner);
                let received = batches.entry(b.id.clone()).or_insert(0);
                *received += 1;
                let whole = *received >= b.size;
                if whole {
                    batches.remove(&b.id);
                }
                whole.then_some(b.size)
            }
        };
        let Some(size) = done else { return };
        if size > 1 {
            (self.on_event)(Event::BatchDone { size, contest });
        }
        if self.settings.once {
            self.stop.notify_one();
        }
    }
}
