//! The integration tests, one test binary: each module drives the built `judge` binary with real
//! programs and real processes, in throw-away workspaces, through one harness (`common::Test`:
//! a command, what it must do, the fork-bomb lock and the compile cache shared by the whole run).

mod api;
mod api_input;
mod api_judge;
mod api_load;
mod api_nats;
mod api_submit;
mod batch;
mod bench_targets;
mod common;

// Tests of the repository itself rather than of the binary: the architecture CONTRIBUTING.md
// states, beside the guide's examples (`docs`).
mod architecture;

mod checkers;
mod cluster;
mod cluster_notes;
mod compare;
mod config_cmd;
mod corpus;
mod docs;
mod eval;
mod eval_parquet;
mod eval_profiles;
mod eval_programs;
mod expectations;
mod export;
mod file_io;
mod fork_bomb;
mod formats;
mod functions;
mod generate;
mod hints;
mod history;
mod import;
mod interactive;
mod interactive_order;
mod jobs;
mod languages;
mod latex;
mod limits;
mod listen;
mod nqueens;
mod package_programs;
mod polygon;
mod practice;
mod problemtools;
mod regressions;
mod reliability;
mod run;
mod run_cases;
mod run_default;
mod sandbox;
mod scale;
mod schemas;
mod scoring;
mod serve;
mod serve_api;
mod serve_browser;
mod shell;
mod spec_languages;
mod stress;
mod timing;
mod validate;
mod verify;
mod verify_stop;
mod watch;
