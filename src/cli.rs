//! The command line: clap definitions and the commands built on the library.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use judge::report;
use judge::session::{CaseReport, CompileReport, Judge, Observer, Options, SolutionReport};
use judge::verdict::{Limits, Verdict};
use judge::workspace::{self, Solution, TestCase, Workspace};

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
    Run(RunArgs),
    /// Show the problems with their limits, test counts and solutions.
    List(ListArgs),
}

#[derive(clap::Args)]
struct RunArgs {
    /// A solution's name (`bitmask`, `nqueens-ii/bitmask`) or the path to any .rs file.
    solution: String,

    /// The problem to judge against, when the solution's path does not tell.
    #[arg(long, short)]
    problem: Option<String>,

    /// Override the time limit: milliseconds, or with a unit ("500ms", "2s").
    #[arg(long, value_name = "MS", value_parser = parse_duration)]
    time_limit: Option<Duration>,

    /// Override the memory limit: MiB, or with a unit ("512MiB", "1GiB").
    #[arg(long, value_name = "MIB", value_parser = parse_size)]
    memory_limit: Option<u64>,

    /// Override the output limit: MiB, or with a unit.
    #[arg(long, value_name = "MIB", value_parser = parse_size)]
    output_limit: Option<u64>,

    /// Stop at the first case that is not accepted, like Codeforces.
    #[arg(long)]
    stop_on_fail: bool,

    /// Wall-clock limit of the compilation (seconds, or with a unit).
    #[arg(long, value_name = "S", default_value = "60s", value_parser = parse_seconds)]
    compile_time_limit: Duration,

    /// Print one JSON document instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct ListArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    workspace::parse_duration(s)
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    if s.chars().all(|c| c.is_ascii_digit()) {
        workspace::parse_duration(&format!("{s}s"))
    } else {
        workspace::parse_duration(s)
    }
}

fn parse_size(s: &str) -> Result<u64, String> {
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
        Command::Run(args) => run(ws, &cwd, args),
        Command::List(args) => list(ws, args),
    }
}

fn run(ws: Workspace, cwd: &std::path::Path, args: RunArgs) -> Result<ExitCode> {
    let solution = ws.resolve_solution(&args.solution, args.problem.as_deref(), cwd)?;
    let problem = ws.problem(&solution.problem)?;
    let cases = ws.testcases(&problem)?;
    let options = Options {
        time_limit: args.time_limit,
        memory_limit: args.memory_limit,
        output_limit: args.output_limit,
        stop_on_fail: args.stop_on_fail,
        compile_time_limit: args.compile_time_limit,
    };
    let mut judge = Judge::new(ws.clone())?;
    let report = if args.json {
        judge.judge(
            &problem,
            &solution,
            &cases,
            &options,
            &mut judge::session::Quiet,
        )?
    } else {
        let limits = options.limits(&problem);
        let mut live = Live::new(&ws, &limits);
        let report = judge.judge(&problem, &solution, &cases, &options, &mut live)?;
        live.finish(&report);
        report
    };
    if args.json {
        print_json(&report)?;
    }
    Ok(exit_for(report.verdict))
}

fn exit_for(v: Verdict) -> ExitCode {
    ExitCode::from(match v {
        Verdict::Ac => EXIT_OK,
        Verdict::Ie => EXIT_ERROR,
        _ => EXIT_VERDICT,
    })
}

fn print_json(report: &SolutionReport) -> Result<()> {
    let mut report = report.clone();
    if let Some(d) = report.compile.diagnostics.as_mut() {
        *d = anstream::adapter::strip_str(d).to_string();
    }
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &report)?;
    writeln!(out)?;
    Ok(())
}

/// Prints the table as cases finish, with a progress line on a terminal.
struct Live<'a> {
    ws: &'a Workspace,
    out: anstream::AutoStream<std::io::Stdout>,
    bar: ProgressBar,
    limits: Limits,
    started: Instant,
}

impl<'a> Live<'a> {
    fn new(ws: &'a Workspace, limits: &Limits) -> Live<'a> {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("  {spinner} {msg} {elapsed_precise:.dim}")
                .expect("valid template"),
        );
        if std::env::var_os("NO_COLOR").is_some() {
            // Colour off does not mean progress off; indicatif hides itself off-terminal.
        }
        Live {
            ws,
            out: anstream::stdout(),
            bar,
            limits: *limits,
            started: Instant::now(),
        }
    }

    fn print(&mut self, f: impl FnOnce(&mut dyn Write)) {
        let out = &mut self.out;
        self.bar.suspend(|| {
            f(out);
            let _ = out.flush();
        });
    }

    fn finish(&mut self, report: &SolutionReport) {
        self.bar.finish_and_clear();
        let r = report.clone();
        self.print(|o| report::summary(o, &r));
    }
}

impl Observer for Live<'_> {
    fn compiling(&mut self, solution: &Solution) {
        let path = self.ws.show(&solution.path);
        let (problem, name, limits) =
            (solution.problem.clone(), solution.name.clone(), self.limits);
        self.print(|o| report::header(o, &problem, &name, &path, &limits));
        self.bar.set_message(format!("compiling {}", solution.name));
        self.bar.enable_steady_tick(Duration::from_millis(100));
    }

    fn compiled(&mut self, c: &CompileReport) {
        let c = c.clone();
        self.print(|o| {
            report::compile_line(o, &c);
            if c.diagnostics.is_none() {
                report::table_head(o);
            }
        });
    }

    fn case_started(&mut self, case: &TestCase, index: usize, total: usize) {
        self.bar.reset_elapsed();
        self.bar
            .set_message(format!("case {} ({}/{})", case.name, index + 1, total));
        let _ = self.started;
    }

    fn case_finished(&mut self, c: &CaseReport, limits: &Limits) {
        let (c, limits) = (c.clone(), *limits);
        self.print(|o| report::case_row(o, &c, &limits));
    }
}

fn list(ws: Workspace, args: ListArgs) -> Result<ExitCode> {
    let mut out = anstream::stdout();
    let mut problems = Vec::new();
    let mut failed = false;
    for id in ws.problem_ids()? {
        let loaded = ws
            .problem(&id)
            .and_then(|p| ws.testcases(&p).map(|c| (p, c)))
            .and_then(|(p, c)| ws.solutions(&id).map(|s| (p, c, s)));
        match loaded {
            Ok(x) => problems.push(x),
            Err(e) => {
                failed = true;
                eprintln!("error: {e}");
            }
        }
    }
    if args.json {
        let doc: Vec<serde_json::Value> = problems
            .iter()
            .map(|(p, cases, sols)| {
                serde_json::json!({
                    "id": p.id,
                    "title": p.title,
                    "time_limit_ms": p.limits.time.as_millis() as u64,
                    "memory_limit_kb": p.limits.memory_bytes / 1024,
                    "output_limit_kb": p.limits.output_bytes / 1024,
                    "checker": p.checker.to_string(),
                    "cases": cases.len(),
                    "samples": cases.iter().filter(|c| c.sample).map(|c| c.name.clone()).collect::<Vec<_>>(),
                    "solutions": sols.iter().map(|s| serde_json::json!({
                        "name": s.name,
                        "expected": p.expected.get(&s.name).map(|e| e.to_string()),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        for (p, cases, sols) in &problems {
            let samples = cases.iter().filter(|c| c.sample).count();
            writeln!(
                out,
                "{}  {}",
                report::paint(anstyle::Style::new().bold(), &p.id),
                p.title
            )?;
            writeln!(
                out,
                "  {} · {} test case{} ({} sample{}) · checker {}",
                p.limits,
                cases.len(),
                if cases.len() == 1 { "" } else { "s" },
                samples,
                if samples == 1 { "" } else { "s" },
                p.checker
            )?;
            let width = sols.iter().map(|s| s.name.len()).max().unwrap_or(0);
            for s in sols {
                let expected = match p.expected.get(&s.name) {
                    Some(e) => {
                        let first = *e.0.iter().next().expect("non-empty");
                        report::paint(report::verdict_style(first), &e.to_string())
                    }
                    None => report::dim("no expected verdict"),
                };
                writeln!(out, "    {:<width$}  {}", s.name, expected)?;
            }
            for name in p
                .expected
                .keys()
                .filter(|n| !sols.iter().any(|s| &&s.name == n))
            {
                writeln!(
                    out,
                    "    {}",
                    report::dim(&format!("warning: problem.toml expects a verdict of `{name}`, which has no source file"))
                )?;
            }
            writeln!(out)?;
        }
    }
    Ok(ExitCode::from(if failed { EXIT_ERROR } else { EXIT_OK }))
}
