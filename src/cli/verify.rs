//! `judge verify`: every reference solution against its expected verdict, and the time limit checks.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;

use judge::session::Options;
use judge::verify;
use judge::workspace::Workspace;

use super::compare::judge_all;
use super::{parse_duration, parse_seconds, EXIT_ERROR, EXIT_OK, EXIT_VERDICT};

#[derive(clap::Args)]
pub struct VerifyArgs {
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

pub fn verify(ws: Workspace, args: VerifyArgs) -> Result<ExitCode> {
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
            write!(out, "{}", verify::render_head(&problem, limit))?;
        }
        let mut reports = Vec::new();
        for s in &solutions {
            let r = judge_all(&ws, &problem, std::slice::from_ref(s), &cases, &options)?
                .pop()
                .expect("one report per solution");
            internal_error |= r.verdict == judge::verdict::Verdict::Ie;
            if !args.json {
                let c = verify::check(&r, problem.expected.get(&r.solution), limit);
                write!(out, "{}", verify::render_line(&c, limit))?;
                out.flush()?;
            }
            reports.push(r);
        }
        let v = verify::verify(&problem, limit, &reports);
        if !args.json {
            write!(out, "{}", verify::render_tail(&v))?;
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
