//! The judging core: problems, their cases and languages, building programs, judging them, and
//! what judging produced; and the analyses built on it (stress, scale, compare, verify, validate).
//!
//! Data flows one way: [`workspace`] (problems, cases, solutions, [`lang`]uages) -> [`compile`]
//! (any language, cached) -> the runner (`judge_runner`: limits, measurement, cleanup; the only
//! `unsafe`) -> [`check`] (comparison, diff) -> [`verdict`] (a pure decision) -> [`model`] (what
//! was judged, as data). [`session`] drives it; [`stress`], [`compare`], [`verify`], [`scale`],
//! [`validate`] and [`derive`] are built on it. [`units`] and [`text`] are leaves
//! every layer may use, and [`atomic`] the one writer of the user's files. Nothing here speaks
//! HTTP or draws a terminal table.

pub mod atomic;
pub mod batch;
pub mod check;
pub mod compare;
pub mod compile;
pub mod derive;
pub mod env;
pub mod error;
pub mod expect;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
pub mod function;
pub mod grading;
pub mod lang;
pub mod model;
pub mod paths;
pub mod reason;
pub mod replay;
pub mod scaffold;
pub mod scale;
pub mod schema;
pub mod session;
pub mod stats;
pub mod stress;
pub mod text;
pub mod units;
pub mod user_config;
pub mod validate;
pub mod verdict;
pub mod verify;
pub mod workspace;

pub use error::{Error, Result};
