//! The judge's HTTP server, for the commands that serve (`judge listen`, `judge serve`): bound
//! to the loopback address unless `judge serve --bind` says otherwise, run on a tokio runtime that only those commands start, stopped gracefully
//! (requests being answered are finished first).
//!
//! What is served is the caller's [`axum::Router`]; this module owns the setup every server of
//! the judge shares: binding, the runtime, shutdown, reading a request body under a cap, and
//! refusing requests that a web page made.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderMap};
use http_body_util::BodyExt;
use tokio::sync::Notify;

use crate::error::{Error, Result};

/// The address the judge serves on unless told otherwise (`judge serve --bind`): other
/// machines never reach it.
pub const ADDRESS: Ipv4Addr = Ipv4Addr::LOCALHOST;

/// A bound, not yet serving, HTTP server.
pub struct Server {
    listener: TcpListener,
}

impl Server {
    /// Binds 127.0.0.1:`port` (0: any free port). A port in use is an error that names it.
    pub fn bind(port: u16) -> Result<Server> {
        Server::bind_at(ADDRESS.into(), port)
    }

    /// Binds `address:port`: only `judge serve --bind` asks for another address than 127.0.0.1.
    pub fn bind_at(address: IpAddr, port: u16) -> Result<Server> {
        let at = SocketAddr::from((address, port));
        let listener = TcpListener::bind(at).map_err(|source| match source.kind() {
            std::io::ErrorKind::AddrInUse => Error::PortInUse { port },
            _ => Error::Serve { at, source },
        })?;
        Ok(Server { listener })
    }

    /// The port it is bound to.
    pub fn port(&self) -> u16 {
        self.address().port()
    }

    /// The address and port it is bound to.
    fn address(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from((ADDRESS, 0)))
    }

    /// Serves `app` until `stop` is notified, on a tokio runtime started here (one thread: the
    /// judge's servers are for one user). Requests being answered are finished first.
    pub fn serve(self, app: axum::Router, stop: Arc<Notify>) -> Result<()> {
        let at = self.address();
        let failed = |source| Error::Serve { at, source };
        self.listener.set_nonblocking(true).map_err(failed)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(failed)?;
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener).map_err(failed)?;
            axum::serve(listener, app)
                .with_graceful_shutdown(async move { stop.notified().await })
                .await
                .map_err(failed)
        })
    }
}

/// Why a request body was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyError {
    /// More than the cap: the rest was read and dropped (so the client hears the answer).
    TooLarge { cap: usize },
    /// The client stopped sending, or the connection broke.
    Cut(String),
}

/// How long a request body may take to arrive.
pub const BODY_TIME: Duration = Duration::from_secs(30);
/// How much of a body over the cap is read and dropped before the connection is closed.
const DRAIN: usize = 64 << 20;

/// Reads a whole request body of at most `cap` bytes.
pub async fn read_body(body: Body, cap: usize) -> std::result::Result<Vec<u8>, BodyError> {
    let read = async {
        let mut body = body;
        let mut data = Vec::new();
        let mut dropped = 0usize;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| BodyError::Cut(e.to_string()))?;
            let Ok(chunk) = frame.into_data() else {
                continue;
            };
            if dropped == 0 && data.len() + chunk.len() <= cap {
                data.extend_from_slice(&chunk);
            } else {
                dropped += chunk.len();
                data = Vec::new();
                if dropped > DRAIN {
                    break;
                }
            }
        }
        if dropped > 0 {
            return Err(BodyError::TooLarge { cap });
        }
        Ok(data)
    };
    tokio::time::timeout(BODY_TIME, read)
        .await
        .unwrap_or_else(|_| {
            Err(BodyError::Cut(format!(
                "the body did not arrive within {} s",
                BODY_TIME.as_secs()
            )))
        })
}

/// Whether a web page made the request (a browser says so in `Origin`): a page the user
/// visits must not reach the judge, while browser extensions and command-line clients may.
pub fn from_web_page(headers: &HeaderMap) -> bool {
    headers
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .is_some_and(|o| o.starts_with("http://") || o.starts_with("https://"))
}
