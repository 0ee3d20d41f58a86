//! `judge compare`: judge several solutions of a problem and print the invocation matrix.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Result};

use judge_core::compare::Matrix;
use judge_core::model::{Skipped, SolutionReport};
use judge_core::session::{Judging, Observer, Options};
use judge_core::verdict::Verdict;
use judge_core::workspace::{Problem, Solution, TestCase};

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
fn problem_and_solutions(ctx: &Context, names: &[String]) -> Result<(Problem, Vec<Solution>)> {
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
        let problem = ws.problem(id)?;
        let solutions = ws.solutions(&problem.id)?;
        return Ok((problem, solutions));
    }
    let solutions = ws.resolve_solutions(names, told, &ctx.cwd)?;
    Ok((ws.problem(&solutions[0].problem)?, solutions))
}

pub(crate) fn compare(ctx: &Context, args: CompareArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    let (mut problem, solutions) = problem_and_solutions(ctx, &args.names)?;
    if solutions.is_empty() {
        bail!(
            "problem `{}` has no solutions: add solutions/{}/{}",
            problem.id,
            problem.id,
            ws.example_file("NAME", Some(&problem.id))
        );
    }
    let mut judge = ctx.judging(&args.cluster)?;
    if args.limits.time_limit.is_none() {
        super::settle_time_limit(judge.as_mut(), &mut problem, args.json)?;
    }
    let cases = ws.testcases(&problem)?;
    let options = Options {
        repeat: args.repeat,
        after_tle: judge_core::session::AfterTle::whole_or_skip(args.skip_after_tle),
        ..args.limits.options()
    };
    let (reports, skipped) = judge_all(judge.as_mut(), &problem, &solutions, &cases, &options)?;
    let matrix = Matrix::new(
        &problem,
        &cases,
        options.limits(&problem),
        options.repeat,
        &reports,
        &skipped,
    );
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
    Ok(ExitCode::from(
        if reports.iter().any(|r| r.verdict == Verdict::Ie) {
            EXIT_ERROR
        } else if matrix.mismatches().is_empty() {
            EXIT_OK
        } else {
            EXIT_VERDICT
        },
    ))
}

/// Judges each solution in turn with one judge, one case at a time (see
/// [`Judging::judge_all`]), with a progress line on a terminal.
fn judge_all(
    judge: &mut dyn Judging,
    problem: &Problem,
    solutions: &[Solution],
    cases: &[TestCase],
    options: &Options,
) -> Result<(Vec<SolutionReport>, Vec<Skipped>)> {
    let mut progress = Progress::new(problem);
    let reports = judge.judge_all(problem, solutions, cases, options, &mut progress)?;
    progress.bar.finish_and_clear();
    Ok(reports)
}

/// A spinner saying which solution and which case is being judged.
pub(crate) struct Progress {
    pub(crate) bar: indicatif::ProgressBar,
    problem: String,
}

impl Progress {
    pub(crate) fn new(problem: &Problem) -> Progress {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(100));
        Progress {
            bar,
            problem: problem.id.clone(),
        }
    }
}

impl Observer for Progress {
    fn solution_started(&mut self, s: &Solution, index: usize, total: usize) {
        self.bar.set_prefix(format!(
            "{}/{} ({}/{})",
            self.problem,
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
}
