//! `judge verify`: every reference solution against its expected verdict, and the time limit checks.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;

use judge::model::Skipped;
use judge::session::{Judge, Observer, Options};
use judge::verify;
use judge::workspace::Workspace;

use super::compare::Progress;
use super::{parse_duration, parse_seconds, EXIT_ERROR, EXIT_OK, EXIT_VERDICT};

#[derive(clap::Args)]
pub(crate) struct VerifyArgs {
    /// The problems to verify (default: all).
    problems: Vec<String>,

    /// Verify under this time limit instead of the problem's: milliseconds, or with a unit.
    #[arg(long, value_name = "MS", value_parser = parse_duration)]
    time_limit: Option<Duration>,

    /// After a solution goes over the time limit on a case, skip its remaining cases
    /// (a solution expected to be TLE then costs one limit, not one per case).
    #[arg(long)]
    skip_after_tle: bool,

    /// Wall-clock limit of each compilation (seconds, or with a unit).
    #[arg(long, value_name = "S", default_value = "60s", value_parser = parse_seconds)]
    compile_time_limit: Duration,

    /// Print one JSON document (a list, one entry per problem) instead of the text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn verify(ws: Workspace, args: VerifyArgs) -> Result<ExitCode> {
    let ids = if args.problems.is_empty() {
        ws.problem_ids()?
    } else {
        args.problems.clone()
    };
    let mut out = anstream::stdout();
    let mut results = Vec::new();
    let mut internal_error = false;
    for (i, id) in ids.iter().enumerate() {
        let problem = ws.problem(id)?;
        let cases = ws.testcases(&problem)?;
        let solutions = ws.solutions(&problem.id)?;
        let limit = args.time_limit.unwrap_or(problem.limits.time);
        let options = Options {
            time_limit: Some(verify::margin_limit(limit)),
            skip_after_tle: args.skip_after_tle,
            compile_time_limit: args.compile_time_limit,
            ..Options::default()
        };
        if !args.json {
            if i > 0 {
                writeln!(out)?;
            }
            write!(
                out,
                "{}",
                judge::report::verify::render_head(&problem, limit)
            )?;
        }
        let mut judge = Judge::new(ws.clone())?;
        let mut progress = Progress::new(&problem);
        let mut reports = Vec::new();
        let mut skipped = Vec::new();
        for (i, s) in solutions.iter().enumerate() {
            progress.solution_started(s, i, solutions.len());
            let r = match judge.judge(&problem, s, &cases, &options, &mut progress) {
                Ok(r) => r,
                Err(e) => match Skipped::because(s, &e) {
                    Some(skip) => {
                        skipped.push(skip);
                        continue;
                    }
                    None => return Err(e.into()),
                },
            };
            progress.bar.set_message("");
            internal_error |= r.verdict == judge::verdict::Verdict::Ie;
            if !args.json {
                let c = verify::check(&r, problem.expected.get(&r.solution), limit);
                progress.bar.suspend(|| {
                    write!(out, "{}", judge::report::verify::render_line(&c, limit))
                        .and_then(|_| out.flush())
                })?;
            }
            reports.push(r);
        }
        progress.bar.finish_and_clear();
        let v = verify::verify(&problem, limit, &reports, &skipped);
        if !args.json {
            write!(out, "{}", judge::report::verify::render_tail(&v))?;
        }
        results.push(v);
    }
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&results)?)?;
    }
    Ok(ExitCode::from(if internal_error {
        EXIT_ERROR
    } else if results.iter().all(|v| v.ok()) {
        EXIT_OK
    } else {
        EXIT_VERDICT
    }))
}
