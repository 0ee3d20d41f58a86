//! `judge verify`: every reference solution against its expected verdict, and the time limit checks; problems of the workspace or packages where they lie.

use std::io::Write;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Result;

use judge_core::model::{Skipped, SolutionReport};
use judge_core::session::{Judging, Observer, Options};
use judge_core::verdict::Verdict;
use judge_core::verify;
use judge_core::workspace::{Problem, Solution};

use super::compare::Progress;
use super::verify_cut as cut;
use super::{parse_duration, parse_seconds, Context, EXIT_ERROR, EXIT_OK, EXIT_VERDICT};

#[derive(clap::Args)]
pub(crate) struct VerifyArgs {
    /// The problems to verify (default: all): ids, or paths to problem packages.
    pub(super) problems: Vec<String>,

    /// Verify under this time limit instead of the problem's: milliseconds, or with a unit.
    #[arg(long, value_name = "MS", value_parser = parse_duration)]
    time_limit: Option<Duration>,

    /// After a solution goes over the time limit on a case, skip its remaining cases
    /// (a solution expected to be TLE then costs one limit, not one per case).
    #[arg(long)]
    skip_after_tle: bool,

    /// Run every case of every solution. By default a solution stops once its verdict is
    /// decided: at a failure that its expectation rules out, or after which its expectation is
    /// met and no case could change its verdict.
    #[arg(long)]
    all_cases: bool,

    /// Wall-clock limit of each compilation (seconds, or with a unit).
    #[arg(long, value_name = "S", default_value = "60s", value_parser = parse_seconds)]
    compile_time_limit: Duration,

    /// Print one JSON document (a list, one entry per problem) instead of the text.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    cluster: super::cluster::ClusterArgs,
}

pub(crate) fn verify(ctx: &Context, args: VerifyArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    let ids = if args.problems.is_empty() {
        ws.problem_ids()?
    } else {
        args.problems
            .iter()
            .map(|p| ctx.problem_id(p).to_string())
            .collect()
    };
    let mut out = anstream::stdout();
    let mut results = Vec::new();
    let mut internal_error = false;
    // Cut short (Ctrl-C, SIGTERM), the verify reports what it decided so far.
    let so_far = Arc::new(Mutex::new(cut::SoFar::default()));
    let report_when_cut = cut::report_when_cut(&so_far, args.json);
    for (i, id) in ids.iter().enumerate() {
        let problem = ws.problem(id)?;
        let cases = ws.testcases(&problem)?;
        let solutions = ws.solutions(&problem.id)?;
        let mut skipped: Vec<Skipped> = ws
            .package(id)
            .map(|p| p.skipped.clone())
            .unwrap_or_default();
        let options = |limit: Duration| Options {
            time_limit: Some(limit),
            after_tle: judge_core::session::AfterTle::whole_or_skip(args.skip_after_tle),
            compile_time_limit: args.compile_time_limit,
            // Expectations in the format's terms are about every case.
            every_case: !problem.terms.rules.is_empty(),
            ..Options::default()
        };
        let columns = judge_report::verify::Columns::new(
            solutions.iter().map(|s| s.name.as_str()),
            problem.expected.values(),
        );
        let mut judge = ctx.judging(&args.cluster)?;
        let mut progress = Progress::new(&problem);
        let mut reports = Vec::new();
        let fixed = args.time_limit.or(problem.time_rule.fixed);
        // Without a fixed limit, the accepted submissions come first: the slowest of them
        // sets the limit, by the package's own rule.
        let limit =
            match fixed {
                Some(limit) => limit,
                None => {
                    let mut d = judge_core::derive::time_limit(
                        judge.as_mut(),
                        &problem,
                        &solutions,
                        &cases,
                        &mut progress,
                        false,
                    )?;
                    skipped.append(&mut d.skipped);
                    // A run on only some of the cases (those its rules bound the limit with) is
                    // judged again, on every case.
                    reports.extend(d.reports.into_iter().filter(|r| {
                        problem.terms.rules.is_empty() || r.cases.len() == cases.len()
                    }));
                    d.limit
                }
            };
        if !args.json {
            if i > 0 {
                writeln!(out)?;
            }
            write!(
                out,
                "{}",
                judge_report::verify::render_head(&problem, limit, columns)
            )?;
        }
        let margin = problem.time_rule.margin(limit);
        cut::started(&so_far, &problem, limit, &solutions, &skipped);
        let rest: Vec<Solution> = solutions
            .iter()
            .filter(|s| !reports.iter().any(|r| r.solution == s.name))
            .filter(|s| !skipped.iter().any(|k| k.solution == s.name))
            .cloned()
            .collect();
        // A package's own graders run here, with `--nats` too (they are the jury's programs):
        // each run graded by them at the limit and the margin.
        let mut graders = if problem.grading.as_deref().is_some_and(|g| g.has_custom()) {
            Some(ctx.judge()?)
        } else {
            None
        };
        let mut print = |r: &mut SolutionReport, progress: &Progress| -> Result<()> {
            if let Some(local) = &mut graders {
                local.grade_by_package(&problem, r, &[limit, margin]);
            }
            cut::judged(&so_far, r);
            if !args.json {
                let c = verify::check(
                    r,
                    problem.expectation_of(&r.solution),
                    (limit, margin),
                    problem.grading.as_deref(),
                    problem.scoring,
                );
                let line = judge_report::verify::render_line(&c, limit, columns);
                progress.bar.suspend(|| {
                    let mut out = anstream::stdout();
                    write!(out, "{line}").and_then(|_| out.flush())
                })?;
            }
            Ok(())
        };
        for r in &mut reports {
            print(r, &progress)?;
        }
        let (done, mut skips) = judge_each(
            judge.as_mut(),
            &problem,
            &rest,
            &cases,
            &Options {
                until_decided: (!args.all_cases).then_some(limit),
                ..options(margin)
            },
            &mut progress,
            Some(&mut print),
        )?;
        skipped.append(&mut skips);
        reports.extend(done);
        progress.bar.finish_and_clear();
        internal_error |= reports.iter().any(|r| r.verdict == Verdict::Ie);
        reports.sort_by(|a, b| judge_core::workspace::natural_cmp(&a.solution, &b.solution));
        let mut v = verify::verify(&problem, limit, &reports, &skipped);
        // The cases that test the validators (a package's invalid_input, invalid_output,
        // valid_output) must be rejected or accepted as they say. The package's own validators
        // run here, with `--nats` too: they are the jury's programs, not a submission.
        if !problem.terms.validator_cases.is_empty() {
            let mut local = ctx.judge()?;
            v.validator_cases = judge_core::validate::check_validator_cases(&mut local, &problem)?;
        }
        if !args.json {
            write!(out, "{}", judge_report::verify::render_tail(&v))?;
            write!(
                out,
                "{}",
                judge_report::validate::render_cases(&v.validator_cases)
            )?;
        }
        cut::verified(&so_far, &v);
        results.push(v);
    }
    // Verified whole: nothing is left to report if cut short from here on.
    drop(report_when_cut);
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&judge_core::schema::tagged_all(&results))?
        )?;
    }
    Ok(ExitCode::from(if internal_error {
        EXIT_ERROR
    } else if results.iter().all(|v| v.ok()) {
        EXIT_OK
    } else {
        EXIT_VERDICT
    }))
}

/// Judges each solution, one at a time, telling `print` of each report; a solution whose
/// language is not installed is skipped with the reason.
#[allow(clippy::type_complexity)]
fn judge_each(
    judge: &mut dyn Judging,
    problem: &Problem,
    solutions: &[Solution],
    cases: &[judge_core::workspace::TestCase],
    options: &Options,
    progress: &mut Progress,
    mut print: Option<&mut dyn FnMut(&mut SolutionReport, &Progress) -> Result<()>>,
) -> Result<(Vec<SolutionReport>, Vec<Skipped>)> {
    let mut reports = Vec::new();
    let mut skipped = Vec::new();
    for (i, s) in solutions.iter().enumerate() {
        progress.solution_started(s, i, solutions.len());
        match judge.judge(problem, s, cases, options, progress) {
            Ok(mut r) => {
                progress.bar.set_message("");
                if let Some(print) = &mut print {
                    print(&mut r, progress)?;
                }
                reports.push(r);
            }
            Err(e) => match s.skipped_because(&e) {
                Some(skip) => skipped.push(skip),
                None => return Err(e.into()),
            },
        }
    }
    Ok((reports, skipped))
}
