//! judge: compile a solution, run it on every test case under the problem's limits, check, report.
//!
//! Data flows one way: [`workspace`] (problems, cases, solutions, [`lang`]uages) -> [`compile`]
//! (any language, cached)
//! -> [`run`] (the runner process: limits, measurement, cleanup; the only `unsafe`) -> [`check`]
//! (comparison, diff) -> [`verdict`] (a pure decision) -> [`model`] (what was judged, as data)
//! -> [`report`] (what the user reads). [`session`] drives it; [`stress`], [`compare`],
//! [`verify`], [`scale`] and [`history`] are built on it. [`units`] and [`text`] are leaves
//! every layer may use.

pub mod check;
pub mod compare;
pub mod compile;
pub mod derive;
pub mod error;
pub mod export;
pub mod grading;
pub mod history;
pub mod http;
pub mod import;
pub mod lang;
pub mod listen;
pub mod model;
pub mod package;
pub mod replay;
pub mod report;
pub mod run;
pub mod scaffold;
pub mod scale;
pub mod serve;
pub mod session;
pub mod stats;
pub mod stress;
pub mod text;
pub mod units;
pub mod validate;
pub mod verdict;
pub mod verify;
pub mod workspace;

pub use error::{Error, Result};
