//! judge on many machines, over NATS JetStream: workers that judge cases for others, and the
//! side that hands them out and gathers what they found.

pub mod bundle;
pub mod calibrate;
pub mod dispatch;
mod error;
pub mod files;
pub mod nats;
pub mod service;
pub mod wire;
pub mod worker;

pub use error::Error;
