//! Who may call the service, asked at every door before anything is read or run: not a web
//! page (it carries `Origin`); the token when there is one; with none, a `Host` that names this
//! service and, on a request with a body, JSON declared as JSON. Then a body that fits the cap,
//! read as the route's JSON.

use axum::body::Body;
use axum::http::{header, HeaderMap, StatusCode};

use super::{Door, Refusal, BODY_CAP};
use crate::http::{from_web_page, read_body, BodyError};
use crate::serve::guard::Hosts;

/// The checks every request passes: not from a web page, the token when there is one, a
/// body that fits, parsed as `T`.
pub(super) async fn admit<T: serde::de::DeserializeOwned>(
    service: &dyn Door,
    headers: &HeaderMap,
    body: Body,
) -> Result<T, Refusal> {
    allowed(service, headers, true)?;
    let bytes = read(body).await?;
    serde_json::from_slice(&bytes).map_err(|e| {
        Refusal::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            format!("the request is not the JSON this route reads: {e}"),
        )
    })
}

/// A request's body, within the cap: 413 past it.
pub(super) async fn read(body: Body) -> Result<Vec<u8>, Refusal> {
    read_body(body, BODY_CAP).await.map_err(|e| match e {
        BodyError::TooLarge { cap } => Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("the request is over {} MiB", cap >> 20),
        ),
        BodyError::Cut(why) => Refusal::new(StatusCode::BAD_REQUEST, "bad_request", why),
    })
}

/// The checks every request passes before anything is read: not from a web page; the token
/// when there is one, else a `Host` naming this service and, for a request with a body
/// (`with_body`), JSON sent as JSON.
pub(super) fn allowed(
    service: &dyn Door,
    headers: &HeaderMap,
    with_body: bool,
) -> Result<(), Refusal> {
    // A page the user visits could otherwise make the browser run code here.
    if from_web_page(headers) {
        return Err(Refusal::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "requests from web pages are refused",
        ));
    }
    if let Some(token) = &service.settings().token {
        if !token.in_bearer(headers) {
            return Err(Refusal::new(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "this service needs `Authorization: Bearer TOKEN` (the token given to judge api --token)",
            ));
        }
        return Ok(());
    }
    same_machine(service.hosts(), headers, with_body)
}

/// `/health` and `/metrics`: with no token, a `Host` naming this service.
pub(super) fn watched(service: &dyn Door, headers: &HeaderMap) -> Result<(), Refusal> {
    match service.settings().token {
        Some(_) => Ok(()),
        None => same_machine(service.hosts(), headers, false),
    }
}

/// With no token, what keeps a web page the user visits from running code here: a page can
/// send a `text/plain` or form body to any address without asking the browser, never JSON
/// declared as JSON; and a page on a name of its own that resolves here (DNS rebinding) sends
/// that name in `Host`.
fn same_machine(hosts: &Hosts, headers: &HeaderMap, with_body: bool) -> Result<(), Refusal> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if !host.is_some_and(|h| hosts.admits(h)) {
        return Err(Refusal::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            format!(
                "the Host `{}` does not name this service: call it by its address (127.0.0.1:{}, localhost:{}), or give it a --token",
                host.unwrap_or(""),
                hosts.port,
                hosts.port
            ),
        ));
    }
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if with_body && !json {
        return Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "send the body with `Content-Type: application/json` (other bodies are refused: a web page can send them here)",
        ));
    }
    Ok(())
}
