//! `judge compare`: the problem and solutions named, compared by `judge_ops::compare`, and the
//! matrix printed.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Result};

use judge_core::model::SolutionReport;
use judge_core::session::{Observer, Options};
use judge_core::workspace::{Problem, Solution, TestCase};
use judge_ops::compare::CompareOptions;

use super::{Context, EXIT_ERROR, EXIT_OK, EXIT_VERDICT};

#[derive(clap::Args)]
pub(crate) struct CompareArgs {
    /// The problem (optional in a workspace with a single problem), then the solutions to
    /// compare (default: all of the problem's).
    #[arg(value_name = "PROBLEM] [SOLUTION")]
    pub(super) names: Vec<String>,

    /// Run each case N times; cells show the min and median CPU time.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    repeat: u32,

    /// After a solution goes over the time limit on a case, skip its remaining cases.
    #[arg(long)]
    skip_after_tle: bool,

    #[command(flatten)]
    limits: super::LimitArgs,

    /// Print the matrix as one JSON document.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    cluster: super::cluster::ClusterArgs,
}

/// Splits `[PROBLEM] [SOLUTION...]`: the first name is the problem when a problem has that id
/// (or it is a package's path); otherwise the problem is the only one, or the one the named
/// solutions belong to.
fn problem_and_solutions(
    ctx: &Context,
    names: &[String],
) -> Result<(Problem, Option<Vec<Solution>>)> {
    let ws = &ctx.ws;
    let ids = ws.problem_ids()?;
    let first = names.first().map(|f| ctx.problem_id(f));
    let (told, names) = match first.filter(|f| ids.iter().any(|id| id == f)) {
        Some(first) => (Some(first), &names[1..]),
        None => (None, names),
    };
    let told = told.or(match ids.as_slice() {
        [only] => Some(only.as_str()),
        _ => None,
    });
    if names.is_empty() {
        let Some(id) = told else {
            bail!(
                "name the problem: judge compare PROBLEM [SOLUTION...] (problems: {})",
                ids.join(", ")
            );
        };
        return Ok((ws.problem(id)?, None));
    }
    let solutions = ws.resolve_solutions(names, told, &ctx.cwd)?;
    Ok((ws.problem(&solutions[0].problem)?, Some(solutions)))
}

pub(crate) fn compare(ctx: &Context, args: CompareArgs) -> Result<ExitCode> {
    let (problem, solutions) = problem_and_solutions(ctx, &args.names)?;
    let options = CompareOptions {
        problem: problem.id,
        solutions,
        judging: Options {
            repeat: args.repeat,
            after_tle: judge_core::session::AfterTle::whole_or_skip(args.skip_after_tle),
            ..args.limits.options()
        },
    };
    let mut judge = ctx.judging(&args.cluster)?;
    let mut progress = Progress::quiet(false).notes(!args.json);
    let compared = judge_ops::compare::compare(&ctx.ws, judge.as_mut(), &options, &mut progress);
    progress.bar.finish_and_clear();
    let compared = compared?;
    let matrix = compared.matrix();
    let mut out = anstream::stdout();
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&judge_core::schema::tagged(&matrix.to_json()))?
        )?;
    } else {
        write!(out, "{}", judge_report::compare::render(&matrix))?;
    }
    Ok(ExitCode::from(if compared.internal_error() {
        EXIT_ERROR
    } else if matrix.mismatches().is_empty() {
        EXIT_OK
    } else {
        EXIT_VERDICT
    }))
}

/// A spinner saying which solution and which case is being judged; the notes it is told
/// (the time limit derived for a package) go to stderr.
pub(crate) struct Progress {
    pub(crate) bar: indicatif::ProgressBar,
    notes: bool,
}

impl Progress {
    /// A spinner, hidden when `quiet` (whose notes are not shown either).
    pub(crate) fn quiet(quiet: bool) -> Progress {
        let bar = indicatif::ProgressBar::new_spinner();
        if quiet {
            bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        bar.enable_steady_tick(Duration::from_millis(100));
        Progress { bar, notes: !quiet }
    }

    /// The notes shown, or not.
    pub(crate) fn notes(self, notes: bool) -> Progress {
        Progress { notes, ..self }
    }
}

impl Observer for Progress {
    fn solution_started(&mut self, s: &Solution, index: usize, total: usize) {
        self.bar.set_prefix(format!(
            "{}/{} ({}/{})",
            s.problem,
            s.name,
            index + 1,
            total
        ));
    }

    fn compiling(&mut self, s: &Solution, _: &SolutionReport) {
        self.bar.set_message(format!("compiling {}", s.name));
    }

    fn case_started(&mut self, case: &TestCase, index: usize, total: usize) {
        self.bar
            .set_message(format!("case {} ({}/{})", case.name, index + 1, total));
    }

    fn note(&mut self, text: &str) {
        if self.notes {
            let line = judge_report::dim(&format!("note: {text}"));
            self.bar.suspend(|| anstream::eprintln!("{line}"));
        }
    }
}
