//! The command line: clap definitions and the commands built on the library (one file per command).

mod api;
mod batch;
mod clean;
mod cluster;
mod compare;
mod config;
mod context;
mod eval;
pub(crate) mod exit;
mod export;
mod generate;
mod history;
mod import;
mod judges;
mod list;
mod listen;
mod new;
mod run;
mod scale;
mod serve;
mod settings;
mod shell;
mod show;
mod stress;
mod validate;
mod verify;
mod verify_cut;
mod watch;
mod worker;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context as _, Result};
use clap::{Parser, Subcommand, ValueEnum};

use context::Context;
use judge_core::model::SolutionReport;
use judge_core::session::Settings;
use judge_core::workspace::Workspace;

pub(crate) use exit::{exit_for, EXIT_ERROR, EXIT_OK, EXIT_UNJUDGED, EXIT_VERDICT};

#[derive(Parser)]
#[command(
    name = "judge",
    version,
    about = "A local competitive-programming judge: compile, run under limits, check, report like an online judge",
    after_help = exit::summary()
)]
pub(crate) struct Cli {
    /// The workspace (the folder holding problems/); found from the current folder by default.
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,

    /// When to use colour (NO_COLOR is honoured in auto mode).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,

    /// The submission history database (default: .judge/history.db; also $JUDGE_HISTORY).
    #[arg(long, global = true, value_name = "PATH")]
    history: Option<PathBuf>,

    /// Run programs without the sandbox (for this run only): they can then read and change
    /// every file you can, use the network and signal your processes.
    #[arg(long, global = true)]
    no_sandbox: bool,

    /// Interactive problems: join the solution and the interactor pipe to pipe, with no
    /// transcript of what they say (the verdict is the same; the run a little faster).
    #[arg(long, global = true)]
    no_transcript: bool,

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
    #[command(after_help = run::default_rule())]
    Run(run::RunArgs),
    /// Show the problems with their limits, test counts and solutions.
    List(list::ListArgs),
    /// Run an attempt against a reference on generated inputs until they disagree.
    Stress(stress::StressArgs),
    /// Show a problem: statement, limits, samples with their answers, solutions.
    Show(show::ShowArgs),
    /// Start an attempt: solutions/PROBLEM/NAME.rs from the template or a copy.
    New(new::NewArgs),
    /// Create a practice workspace with an example problem.
    Init(new::InitArgs),
    /// Create a problem: problem.toml, statement.md, a generator stub, testcases/ID/.
    NewProblem(new::NewProblemArgs),
    /// Import problems: an online-judge-tools folder, a cph .prob, a cargo-compete .yml, a
    /// Competitive Companion .json, a Kattis or Polygon package.
    Import(import::ImportArgs),
    /// Receive problems from the Competitive Companion browser extension (127.0.0.1 only).
    Listen(listen::ListenArgs),
    /// The judge as an execution service for evaluation harnesses: SandboxFusion's and
    /// Piston's APIs, its own /v1/judge and /v1/batch, /health and /metrics (127.0.0.1 only
    /// unless --bind with --token).
    Api(api::ApiArgs),
    /// The online judge's pages in the browser: problems, status, submissions, submit (127.0.0.1 only).
    Serve(serve::ServeArgs),
    /// Judge several solutions of a problem and show the matrix of cases x solutions.
    Compare(compare::CompareArgs),
    /// Check that every reference solution gets its expected verdict; report the time limit they justify.
    Verify(verify::VerifyArgs),
    /// Judge many submissions from a JSON Lines file (a problem, a language, a source per line);
    /// a result per line; run again, it goes on where it stopped.
    Batch(batch::BatchArgs),
    #[command(after_help = exit::eval_summary())]
    /// Judge a code-generation data set (code_contests, APPS/TACO, LiveCodeBench, codeforces) in place:
    /// a model's samples, or the data set's own solutions; pass@k, a resumable results file.
    Eval(eval::EvalArgs),
    /// Run the problem's input validators on every input; say which inputs fail which.
    Validate(validate::ValidateArgs),
    /// Write a problem as a Kattis problem package (for problemtools, Kattis, DOMjudge).
    Export(export::ExportArgs),
    /// Make a package's data/ from its generators/generators.yaml (only what changed).
    Generate(generate::GenerateArgs),
    /// Show the submissions recorded by `judge run`, newest first.
    History(history::HistoryArgs),
    /// Measure how solutions' CPU time grows with the input size; fit growth models, draw a chart.
    Scale(scale::ScaleArgs),
    /// Remove the judge's cached binaries and kept outputs (.judge/); --all removes the history too.
    Clean(clean::CleanArgs),
    /// Show each setting, its value and where it came from (a flag, an environment variable,
    /// judge.toml, the user's config file, the default).
    Config(config::ConfigArgs),
    /// Print the shell's completion script for judge (bash, zsh, fish).
    Completions(shell::CompletionsArgs),
    /// Print judge's man page (roff), or write a page per command into a folder.
    Man(shell::ManArgs),
    /// Judge for others: take cases from a NATS server's queue (`--nats URL`), judge them
    /// here, send back what was found (no workspace needed).
    Worker(worker::WorkerArgs),
}

/// Limit overrides shared by the commands that judge (`run`, `compare`, `stress`).
#[derive(clap::Args)]
pub(crate) struct LimitArgs {
    /// Override the time limit: milliseconds, or with a unit ("500ms", "2s").
    #[arg(long, value_name = "MS", value_parser = parse_duration)]
    pub time_limit: Option<Duration>,

    /// Override the memory limit: MiB, or with a unit ("512MiB", "1GiB").
    #[arg(long, value_name = "MIB", value_parser = parse_size)]
    pub memory_limit: Option<u64>,

    /// Wall-clock limit of each compilation (seconds, or with a unit).
    #[arg(long, value_name = "S", default_value = "60s", value_parser = parse_seconds)]
    pub compile_time_limit: Duration,

    /// Build with the language's extra checks: Rust's overflow checks and debug assertions,
    /// C and C++'s undefined-behaviour sanitizer (and the debug mode of C++'s library).
    #[arg(long)]
    pub checks: bool,
}

impl LimitArgs {
    /// Judging options with these overrides, the rest at their defaults.
    pub(crate) fn options(&self) -> judge_core::session::Options {
        judge_core::session::Options {
            time_limit: self.time_limit,
            memory_limit: self.memory_limit,
            compile_time_limit: self.compile_time_limit,
            checks: self.checks,
            ..Default::default()
        }
    }
}

pub(crate) use judge_core::units::{parse_duration, parse_seconds, parse_size};

pub(crate) fn main(cli: Cli) -> Result<ExitCode> {
    match cli.color {
        ColorChoice::Auto => {}
        ColorChoice::Always => anstream::ColorChoice::Always.write_global(),
        ColorChoice::Never => anstream::ColorChoice::Never.write_global(),
    }
    let cwd = std::env::current_dir().context("reading the current folder")?;
    // A worker's Ctrl-C hands back its jobs too: it installs the handler itself. It has no
    // workspace: how its programs run is its flags' alone.
    let command = match cli.command {
        Command::Worker(args) => {
            let settings = Settings {
                sandbox: !cli.no_sandbox,
                transcripts: !cli.no_transcript,
            };
            return worker::worker(args, settings, &cwd);
        }
        c => c,
    };
    judge_runner::interrupt::install();
    // The commands that need no workspace (init makes one).
    let command = match command {
        Command::Init(args) => return new::init(&cwd, args),
        Command::Completions(args) => return shell::completions(args),
        Command::Man(args) => return shell::man(args),
        c => c,
    };
    let packages = command.packages(&cwd);
    let ws = match Workspace::discover(&cwd, cli.root.as_deref()) {
        Ok(ws) => ws,
        // A package is judged where it lies: no workspace is needed.
        // Nor are the languages, nor what `judge generate` makes in a package.
        Err(judge_core::Error::NotAWorkspace { .. })
            if !packages.is_empty()
                || matches!(
                    command,
                    Command::Generate(_) | Command::Config(_) | Command::Eval(_) | Command::Api(_)
                )
                || matches!(&command, Command::List(a) if a.languages) =>
        {
            Workspace::loose(&cwd)
        }
        // A mistyped file is the likelier mistake than the folder.
        Err(e @ judge_core::Error::NotAWorkspace { .. }) => match command.missing_file(&cwd) {
            Some(file) => anyhow::bail!(
                "cannot judge `{file}`: there is no such file\n  fix: check the path (it is read from {})",
                cwd.display()
            ),
            None => return Err(e.into()),
        },
        Err(e) => return Err(e.into()),
    };
    let flags = settings::Flags {
        history: cli.history.as_deref(),
        no_sandbox: cli.no_sandbox,
        no_transcript: cli.no_transcript,
    };
    let resolved = settings::Sources::read(Some(&ws))?.resolve(&flags, &ws);
    let mut ctx = Context::new(ws, cwd, cli.root, resolved);
    for path in packages {
        ctx.mount(&path)?;
    }
    match command {
        Command::Run(args) => run::run(&ctx, args),
        Command::Batch(args) => batch::batch(&mut ctx, args),
        Command::Eval(args) => eval::eval(&ctx, args),
        Command::List(args) => list::list(&ctx, args),
        Command::Compare(args) => compare::compare(&ctx, args),
        Command::Verify(args) => verify::verify(&ctx, args),
        Command::Validate(args) => validate::validate(&ctx, args),
        Command::Export(args) => export::export(&ctx, args),
        Command::Generate(args) => generate::generate(&ctx, args),
        Command::History(args) => history::history(&ctx, args),
        Command::Stress(args) => stress::stress(&ctx, args),
        Command::Show(args) => show::show(&ctx, args),
        Command::New(args) => new::new(&ctx, args),
        Command::NewProblem(args) => new::new_problem(&ctx, args),
        Command::Import(args) => import::import(&ctx, args),
        Command::Listen(args) => listen::listen(&ctx, args),
        Command::Serve(args) => serve::serve(&ctx, args),
        Command::Api(args) => api::api(&ctx, args),
        Command::Init(_) | Command::Completions(_) | Command::Man(_) | Command::Worker(_) => {
            unreachable!("handled above")
        }
        Command::Scale(args) => scale::scale(&ctx, args),
        Command::Clean(args) => clean::clean(&ctx, args),
        Command::Config(args) => config::config(&ctx, args),
    }
}

impl Command {
    /// The packages the command names (by their paths), to mount before it runs.
    fn packages(&self, cwd: &Path) -> Vec<PathBuf> {
        let is = |p: &&String| judge_packages::package::is_package(&cwd.join(p));
        let named: Vec<&String> = match self {
            Command::Run(a) => return a.package(cwd).into_iter().collect(),
            Command::Verify(a) => a.problems.iter().filter(is).collect(),
            Command::Compare(a) => a.names.first().filter(is).into_iter().collect(),
            Command::Show(a) => a.problem.as_ref().filter(is).into_iter().collect(),
            Command::Validate(a) => Some(&a.problem).filter(is).into_iter().collect(),
            Command::Serve(a) => a.packages.iter().filter(is).collect(),
            _ => Vec::new(),
        };
        named.into_iter().map(|p| cwd.join(p)).collect()
    }

    /// The solution file a command names that does not exist, where it names one by its path.
    fn missing_file(&self, cwd: &Path) -> Option<String> {
        let Command::Run(a) = self else { return None };
        let name = &a.solution;
        let path_like = name.contains('/') || Path::new(name).extension().is_some();
        (path_like && !cwd.join(name).exists()).then(|| name.to_string())
    }
}

pub(crate) fn print_json(report: &SolutionReport) -> Result<()> {
    let mut report = report.clone();
    if let Some(d) = report.compile.diagnostics.as_mut() {
        *d = anstream::adapter::strip_str(d).to_string();
    }
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &judge_core::schema::tagged(&report))?;
    writeln!(out)?;
    Ok(())
}
