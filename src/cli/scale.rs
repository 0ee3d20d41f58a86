//! `judge scale`: each solution at each size, CPU time per size, growth per step, fitted growth models, an SVG chart.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use judge_core::scale::{self, ScaleObserver, Statistic};
use judge_ops::scale::{Input, ScaleRequest};

use super::{parse_duration, Context, EXIT_OK, EXIT_VERDICT};

#[derive(Clone)]
struct Sizes(Vec<u64>);

fn parse_sizes(s: &str) -> Result<Sizes, scale::SizesError> {
    scale::parse_sizes(s).map(Sizes)
}

#[derive(clap::Args)]
pub(crate) struct ScaleArgs {
    /// Solutions: names (`bitmask`, `nqueens-ii/bitmask`) or paths to .rs files, all of one problem.
    #[arg(required = true)]
    solutions: Vec<String>,

    /// The problem, when the solutions do not tell.
    #[arg(long, short)]
    problem: Option<String>,

    /// The sizes: `4..16` (inclusive), `4..16:2` (every second) or `4,6,8`.
    #[arg(long, value_parser = parse_sizes)]
    sizes: Sizes,

    #[arg(
        long,
        value_name = "TEMPLATE",
        default_value = "{n}\\n",
        // Not a doc comment: clap's help reads a literal "{n}" as a line break.
        help = "The input for size n: the template, with n in braces (as in the default) replaced by the size; \\n and \\t are a newline and a tab"
    )]
    input: String,

    /// Make each size's input with the problem's generator (`gen SEED n`) instead of the template.
    #[arg(long, conflicts_with = "input")]
    generator: bool,

    /// The seed given to the generator (with --generator).
    #[arg(long, value_name = "SEED", default_value_t = 1, requires = "generator")]
    seed: u64,

    /// Runs per size; the figure is the minimum CPU time (or the median with --median).
    #[arg(long, value_name = "R", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,

    /// Report the median of the runs instead of the minimum.
    #[arg(long)]
    median: bool,

    /// Stop a solution once a size takes more CPU time than this (default: the time limit).
    #[arg(long, value_name = "MS", value_parser = parse_duration)]
    cap: Option<Duration>,

    /// Write a chart (time on a log scale against size) to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,

    /// Print one JSON document instead of the table.
    #[arg(long)]
    json: bool,
}

pub(crate) fn scale(ctx: &Context, args: ScaleArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    let solutions = ws.resolve_solutions(&args.solutions, args.problem.as_deref(), &ctx.cwd)?;
    let request = ScaleRequest {
        problem: solutions[0].problem.clone(),
        solutions,
        sizes: args.sizes.0.clone(),
        input: if args.generator {
            Input::Generator { seed: args.seed }
        } else {
            Input::Template(args.input.clone())
        },
        repeat: args.repeat,
        statistic: if args.median {
            Statistic::Median
        } else {
            Statistic::Min
        },
        cap: args.cap,
    };
    let mut judge = ctx.judge()?;
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("  {spinner} {msg}").expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(100));
    let report = judge_ops::scale::scale(ws, &mut judge, &request, &mut Progress(&bar));
    bar.finish_and_clear();
    let report = report?;

    if let Some(path) = &args.svg {
        judge_core::atomic::replace(path, judge_report::chart::chart(&report).as_bytes())?;
    }
    let mut out = anstream::stdout();
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&judge_core::schema::tagged(&report))?
        )?;
    } else {
        write!(
            out,
            "{}",
            judge_report::scale::render(&report, args.svg.as_deref())
        )?;
    }
    // A solution that does not compile is a verdict (CE), as in `judge run`.
    let any_compile_error = report.solutions.iter().any(|s| s.compile_error);
    Ok(ExitCode::from(if any_compile_error {
        EXIT_VERDICT
    } else {
        EXIT_OK
    }))
}

struct Progress<'a>(&'a ProgressBar);

impl ScaleObserver for Progress<'_> {
    fn compiling(&mut self, solution: &str) {
        self.0.set_message(format!("compiling {solution}"));
    }

    fn running(&mut self, solution: &str, n: u64, run: u32, of: u32) {
        self.0
            .set_message(format!("{solution} n={n} run {run}/{of}"));
    }
}
