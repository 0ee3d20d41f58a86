//! `Error`: what stops a server: the core's errors as they are (`Core`), and the web's own (a
//! port another program holds, an address that cannot be served).

use std::net::SocketAddr;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The engine's: a workspace that does not load, say.
    #[error(transparent)]
    Core(#[from] judge_core::Error),

    #[error("port {port} is in use: another program listens there\n  fix: stop that program, or choose another port with --port N")]
    PortInUse { port: u16 },

    #[error("cannot serve on {at}: {source}\n  fix: choose another port with --port N")]
    Serve {
        at: SocketAddr,
        source: std::io::Error,
    },
}
