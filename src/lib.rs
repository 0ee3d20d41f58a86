//! judge: compile a solution, run it on every test case under the problem's limits, check, report.
//!
//! Data flows one way: [`workspace`] (problems, cases, solutions) -> [`compile`] (rustc + cache)
//! -> [`run`] (the runner process: limits, measurement, cleanup) -> [`check`] (comparison, diff)
//! -> [`verdict`] (a pure decision) -> [`report`] (what the user sees). [`session`] drives it;
//! [`scale`] fits how a solution's time grows with the input size.

pub mod check;
pub mod compare;
pub mod compile;
pub mod error;
pub mod history;
pub mod report;
pub mod run;
pub mod scaffold;
pub mod scale;
pub mod session;
pub mod stats;
pub mod stress;
pub mod verdict;
pub mod verify;
pub mod workspace;

pub use error::{Error, Result};
