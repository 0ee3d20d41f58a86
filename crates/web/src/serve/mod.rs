//! `judge serve`: the online judge's pages on the user's own machine: problems, the status
//! table of the history (live), a submission with its diffs, submitting from the browser.
//!
//! Server-rendered HTML (`pages`, `views`), a little plain JavaScript fed by server-sent events
//! (`events`), the submissions judged on a worker thread (`runs`, `submit`), with the longer
//! comparisons, measurements and verifies (`tasks`, `analysis`, `verify`); the same submissions
//! and verifies as JSON for scripts and editors (`api`). Every request
//! passes the [`guard`]: its `Host` must name this server, and a state-changing request carries
//! the server's token.

mod analysis;
mod api;
pub mod events;
pub mod guard;
pub mod latex;
pub mod markdown;
pub mod pages;
mod routes;
pub mod runs;
mod statement;
pub mod submit;
pub mod tasks;
mod verify;
pub mod views;

use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::get;
use tokio::sync::Notify;

use crate::error::Result;
use crate::http::Server;
pub use guard::Token;
use judge_core::workspace::Workspace;

pub use runs::Remote;

/// What a server serves, and how it is reached.
pub struct Settings {
    /// The submission history it shows and records in.
    pub history: PathBuf,
    /// The address it is bound to (127.0.0.1 unless `--bind`).
    pub bound: IpAddr,
    pub token: Token,
    /// How its judge runs programs.
    pub judging: judge_core::session::Settings,
    /// What judges submissions and comparisons when not this machine (`--nats`: a cluster's
    /// workers), made on first use. Growth is always measured here.
    pub remote: Option<runs::Remote>,
}

/// Shared by every request.
struct App {
    ws: Workspace,
    history: PathBuf,
    token: Token,
    hosts: guard::Hosts,
    runs: runs::Runs,
    /// The languages submissions may be in.
    languages: submit::Installed,
}

/// Whether the request proved it knows the token (the address with it, or its cookie): the
/// pages then put it in their forms.
#[derive(Debug, Clone, Copy)]
struct Known(bool);

/// Serves the judge's pages on `server` until the process is stopped.
pub fn serve(server: Server, ws: Workspace, settings: Settings) -> Result<()> {
    let hosts = guard::Hosts {
        bound: settings.bound,
        port: server.port(),
    };
    // Judged on other machines, a submission needs their compilers, not this one's.
    let languages = match settings.remote {
        Some(_) => submit::Installed::any(&ws),
        None => submit::Installed::of(&ws),
    };
    let runs = runs::Runs::start(
        ws.clone(),
        settings.history.clone(),
        settings.judging,
        settings.remote,
    );
    events::watch_history(settings.history.clone(), runs.changed.clone());
    let app = Arc::new(App {
        languages,
        ws,
        history: settings.history,
        token: settings.token,
        hosts,
        runs,
    });
    let router = axum::Router::new()
        .route("/", get(routes::home))
        .route("/problems", get(routes::problems))
        .route("/problems/{id}", get(routes::problem))
        .route("/problems/{id}/statement/{file}", get(statement::file))
        .route("/static/katex/{*file}", get(statement::katex))
        .route(
            "/static/math.js",
            get(|| async { pages::asset("text/javascript; charset=utf-8", pages::MATH) }),
        )
        .route("/status", get(routes::status))
        .route("/submissions/{id}", get(routes::submission))
        .route("/submit", get(routes::submit_form).post(routes::submit))
        .route("/runs/{id}", get(routes::run))
        .route(
            "/compare",
            get(analysis::compare_page).post(analysis::compare),
        )
        .route("/scale", get(analysis::scale_page).post(analysis::scale))
        .route("/verify", get(analysis::verify_page).post(analysis::verify))
        .route("/runs/{id}/events", get(events::run))
        .route("/api/submit", axum::routing::post(api::submit))
        .route("/api/runs/{id}", get(api::run))
        .route("/api/submissions/{id}", get(api::submission))
        .route("/api/verify", axum::routing::post(api::verify))
        .route("/api/verify/{problem}", get(api::verified))
        .route("/events", get(events::status))
        .route(
            "/static/style.css",
            get(|| async { pages::asset("text/css; charset=utf-8", pages::STYLE) }),
        )
        .route(
            "/static/live.js",
            get(|| async { pages::asset("text/javascript; charset=utf-8", pages::SCRIPT) }),
        )
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app);
    server.serve(router, Arc::new(Notify::new()))
}

/// Refuses a request whose `Host` is not this server's; notes whether it knows the token, and
/// keeps the token in a cookie when it came in the address.
async fn guard(State(app): State<Arc<App>>, mut request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !app.hosts.admits(host) {
        return pages::error(
            StatusCode::FORBIDDEN,
            "Refused",
            &format!("`{host}` is not this judge's address: open it as http://127.0.0.1:{}/ (a page elsewhere must not reach the judge)", app.hosts.port),
            None,
        );
    }
    let in_address =
        Query::<std::collections::HashMap<String, String>>::try_from_uri(request.uri())
            .ok()
            .and_then(|q| q.0.get("token").cloned())
            .is_some_and(|t| app.token.admits(&t));
    let known = in_address || app.token.in_cookie(request.headers());
    request.extensions_mut().insert(Known(known));
    let mut response = next.run(request).await;
    if in_address {
        let cookie = format!(
            "{}={}; Path=/; HttpOnly; SameSite=Strict",
            guard::COOKIE,
            app.token.as_str()
        );
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response
}
