//! `judge compare`: judge several solutions of a problem and print the invocation matrix.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Result};

use judge::compare::Matrix;
use judge::session::{Judge, Options, SolutionReport};
use judge::verdict::Verdict;
use judge::workspace::{Problem, Solution, Workspace};

use super::{EXIT_ERROR, EXIT_OK, EXIT_VERDICT};

#[derive(clap::Args)]
pub struct CompareArgs {
    /// The problem (optional in a workspace with a single problem), then the solutions to
    /// compare (default: all of the problem's).
    #[arg(value_name = "PROBLEM] [SOLUTION")]
    names: Vec<String>,

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
}

/// Splits `[PROBLEM] [SOLUTION...]`: the first name is the problem when a problem has that id;
/// otherwise the problem is the only one, or the one the named solutions belong to.
pub(crate) fn problem_and_rest(
    ws: &Workspace,
    cwd: &Path,
    names: &[String],
) -> Result<(Problem, Vec<String>)> {
    let ids = ws.problem_ids()?;
    if let Some(first) = names.first().filter(|f| ids.contains(f)) {
        return Ok((ws.problem(first)?, names[1..].to_vec()));
    }
    if let [only] = ids.as_slice() {
        return Ok((ws.problem(only)?, names.to_vec()));
    }
    if !names.is_empty() {
        let mut owners: Vec<String> = names
            .iter()
            .map(|n| ws.resolve_solution(n, None, cwd).map(|s| s.problem))
            .collect::<judge::Result<_>>()?;
        owners.sort();
        owners.dedup();
        if let [problem] = owners.as_slice() {
            return Ok((ws.problem(problem)?, names.to_vec()));
        }
        bail!(
            "the solutions belong to different problems ({}): compare solutions of one problem",
            owners.join(", ")
        );
    }
    bail!(
        "name the problem: judge compare PROBLEM [SOLUTION...] (problems: {})",
        ids.join(", ")
    )
}

pub fn compare(ws: Workspace, cwd: &Path, args: CompareArgs) -> Result<ExitCode> {
    let (problem, names) = problem_and_rest(&ws, cwd, &args.names)?;
    let solutions: Vec<Solution> = if names.is_empty() {
        ws.solutions(&problem.id)?
    } else {
        names
            .iter()
            .map(|n| ws.resolve_solution(n, Some(&problem.id), cwd))
            .collect::<judge::Result<_>>()?
    };
    if solutions.is_empty() {
        bail!(
            "problem `{}` has no solutions: add solutions/{}/NAME.rs",
            problem.id,
            problem.id
        );
    }
    let cases = ws.testcases(&problem)?;
    let options = Options {
        repeat: args.repeat,
        skip_after_tle: args.skip_after_tle,
        ..args.limits.options()
    };
    let reports = judge_all(&ws, &problem, &solutions, &cases, &options)?;
    let matrix = Matrix::new(
        &problem,
        &cases,
        options.limits(&problem),
        options.repeat,
        &reports,
    );
    let mut out = anstream::stdout();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&matrix.to_json())?)?;
    } else {
        write!(out, "{}", matrix.render())?;
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

/// Judges each solution in turn with one judge (one runner, one cache), one case at a time:
/// nothing runs in parallel, so the times are not inflated by each other.
pub(crate) fn judge_all(
    ws: &Workspace,
    problem: &Problem,
    solutions: &[Solution],
    cases: &[judge::workspace::TestCase],
    options: &Options,
) -> Result<Vec<SolutionReport>> {
    let mut judge = Judge::new(ws.clone())?;
    let bar = indicatif::ProgressBar::new_spinner();
    bar.enable_steady_tick(Duration::from_millis(100));
    let mut progress = Progress { bar: &bar };
    let mut reports = Vec::new();
    for (i, s) in solutions.iter().enumerate() {
        progress.bar.set_prefix(format!(
            "{}/{} ({}/{})",
            problem.id,
            s.name,
            i + 1,
            solutions.len()
        ));
        reports.push(judge.judge(problem, s, cases, options, &mut progress)?);
    }
    bar.finish_and_clear();
    Ok(reports)
}

struct Progress<'a> {
    bar: &'a indicatif::ProgressBar,
}

impl judge::session::Observer for Progress<'_> {
    fn compiling(&mut self, s: &Solution) {
        self.bar.set_message(format!("compiling {}", s.name));
    }

    fn case_started(&mut self, case: &judge::workspace::TestCase, index: usize, total: usize) {
        self.bar
            .set_message(format!("case {} ({}/{})", case.name, index + 1, total));
    }
}
