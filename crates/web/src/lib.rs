//! The judge over HTTP: `judge serve` (an online judge's pages) and `judge listen` (Competitive
//! Companion's endpoint), on one small HTTP layer. The only crate that links axum and tokio.

mod error;
pub mod http;
pub mod listen;
pub mod serve;
pub mod service;

pub use error::{Error, Result};
