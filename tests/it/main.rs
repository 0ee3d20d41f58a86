//! The integration tests, one test binary: each module drives the built `judge` binary through
//! `common` (throw-away workspaces, one compile cache for the whole run) with real programs and
//! real processes.

// Signals sent by hand to the judge under test (being replaced by one harness).
#![allow(unsafe_code)]

mod common;

mod checkers;
mod compare;
mod corpus;
mod docs;
mod export;
mod file_io;
mod fork_bomb;
mod history;
mod import;
mod interactive;
mod jobs;
mod languages;
mod limits;
mod listen;
mod nqueens;
mod polygon;
mod practice;
mod problemtools;
mod run;
mod run_cases;
mod sandbox;
mod scale;
mod serve;
mod serve_browser;
mod shell;
mod stress;
mod timing;
mod validate;
mod verify;
mod watch;
