//! The command line: clap definitions and the commands built on the library (one file per command).

mod list;
mod run;
mod scale;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use judge::session::SolutionReport;
use judge::verdict::Verdict;
use judge::workspace::{self, Workspace};

/// Exit status: the verdict was AC (or the command succeeded).
pub const EXIT_OK: u8 = 0;
/// Exit status: a verdict other than AC.
pub const EXIT_VERDICT: u8 = 1;
/// Exit status: a usage, configuration or judge error (also an IE verdict).
pub const EXIT_ERROR: u8 = 2;

#[derive(Parser)]
#[command(
    name = "judge",
    version,
    about = "A local competitive-programming judge: compile, run under limits, check, report like an online judge",
    after_help = "Exit status: 0 accepted (AC), 1 any other verdict, 2 usage, configuration or judge error, 130 interrupted."
)]
pub struct Cli {
    /// The workspace (the folder holding problems/); found from the current folder by default.
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,

    /// When to use colour (NO_COLOR is honoured in auto mode).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,

    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Compile a solution and judge it on every test case of its problem.
    Run(run::RunArgs),
    /// Show the problems with their limits, test counts and solutions.
    List(list::ListArgs),
    /// Measure how solutions' CPU time grows with the input size; fit growth models, draw a chart.
    Scale(scale::ScaleArgs),
}

pub(crate) fn parse_duration(s: &str) -> Result<Duration, String> {
    workspace::parse_duration(s)
}

pub(crate) fn parse_seconds(s: &str) -> Result<Duration, String> {
    if s.chars().all(|c| c.is_ascii_digit()) {
        workspace::parse_duration(&format!("{s}s"))
    } else {
        workspace::parse_duration(s)
    }
}

pub(crate) fn parse_size(s: &str) -> Result<u64, String> {
    workspace::parse_size(s)
}

pub fn main(cli: Cli) -> Result<ExitCode> {
    match cli.color {
        ColorChoice::Auto => {}
        ColorChoice::Always => anstream::ColorChoice::Always.write_global(),
        ColorChoice::Never => anstream::ColorChoice::Never.write_global(),
    }
    judge::run::interrupt::install();
    let cwd = std::env::current_dir().context("reading the current folder")?;
    let ws = Workspace::discover(&cwd, cli.root.as_deref())?;
    match cli.command {
        Command::Run(args) => run::run(ws, &cwd, args),
        Command::List(args) => list::list(ws, args),
        Command::Scale(args) => scale::scale(ws, &cwd, args),
    }
}

pub(crate) fn exit_for(v: Verdict) -> ExitCode {
    ExitCode::from(match v {
        Verdict::Ac => EXIT_OK,
        Verdict::Ie => EXIT_ERROR,
        _ => EXIT_VERDICT,
    })
}

pub(crate) fn print_json(report: &SolutionReport) -> Result<()> {
    let mut report = report.clone();
    if let Some(d) = report.compile.diagnostics.as_mut() {
        *d = anstream::adapter::strip_str(d).to_string();
    }
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &report)?;
    writeln!(out)?;
    Ok(())
}
