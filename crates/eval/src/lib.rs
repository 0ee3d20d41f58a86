//! `judge eval`: the public code-generation data sets judged where they lie, samples by the
//! thousand, and pass@k that can be trusted. A data set's problems are made the engine's
//! problems once (`problem`), each sample judged as `judge run` judges a solution, its result a
//! line of a resumable file (`results`), and the figures computed from the results (`summary`).
//! Nothing here prints.

pub mod against;
pub mod dataset;
pub mod error;
pub mod eval;
pub mod passk;
pub mod problem;
pub mod profile;
pub mod progress;
pub mod results;
pub mod samples;
pub mod single;
pub mod summary;

pub use error::Error;
pub use eval::{evaluate, EvalObserver, EvalOptions};
pub use profile::Profile;
