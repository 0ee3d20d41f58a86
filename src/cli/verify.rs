//! `judge verify`: every reference solution against its expected verdict, and the time limit
//! checks, on problems of the workspace or packages where they lie: the arguments made
//! `judge_ops::verify`'s options, and what it decides printed as it goes.

use std::io::Write;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Result;

use judge_core::model::{Skipped, SolutionReport};
use judge_core::session::Observer;
use judge_core::verify::{Checked, Verification};
use judge_core::workspace::{Problem, Solution, TestCase};
use judge_ops::verify::{VerifyObserver, VerifyOptions};
use judge_report::verify::Columns;

use super::compare::Progress;
use super::judges::CliJudges;
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
    let options = VerifyOptions {
        problems: args
            .problems
            .iter()
            .map(|p| ctx.problem_id(p).to_string())
            .collect(),
        time_limit: args.time_limit,
        skip_after_tle: args.skip_after_tle,
        all_cases: args.all_cases,
        compile_time_limit: args.compile_time_limit,
    };
    // Cut short (Ctrl-C, SIGTERM), the verify reports what it decided so far.
    let so_far = Arc::new(Mutex::new(cut::SoFar::default()));
    let report_when_cut = cut::report_when_cut(&so_far, args.json);
    let mut judges = CliJudges::new(ctx, &args.cluster);
    let mut printer = Printer {
        json: args.json,
        so_far,
        progress: None,
        columns: None,
        problems: 0,
        failed: None,
    };
    let verified = judge_ops::verify::verify(&ctx.ws, &mut judges, &options, &mut printer);
    if let Some(p) = &printer.progress {
        p.bar.finish_and_clear();
    }
    if let Some(e) = printer.failed {
        return Err(e.into());
    }
    let verified = verified?;
    // Verified whole: nothing is left to report if cut short from here on.
    drop(report_when_cut);
    if args.json {
        let mut out = anstream::stdout();
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&judge_core::schema::tagged_all(&verified.problems))?
        )?;
    }
    Ok(ExitCode::from(if verified.internal_error {
        EXIT_ERROR
    } else if verified.ok() {
        EXIT_OK
    } else {
        EXIT_VERDICT
    }))
}

/// Prints a verify as it goes (the text; `--json` prints at the end), and keeps what was
/// decided for a verify cut short.
struct Printer {
    json: bool,
    so_far: Arc<Mutex<cut::SoFar>>,
    /// The spinner of the problem being verified.
    progress: Option<Progress>,
    columns: Option<Columns>,
    /// Problems begun.
    problems: usize,
    /// What could not be printed (a reader gone): the verify ends with it.
    failed: Option<std::io::Error>,
}

impl Printer {
    /// Prints `text` above the spinner.
    fn print(&mut self, text: &str) {
        if self.failed.is_some() {
            return;
        }
        let write = || {
            let mut out = anstream::stdout();
            write!(out, "{text}").and_then(|_| out.flush())
        };
        let written = match &self.progress {
            Some(p) => p.bar.suspend(write),
            None => write(),
        };
        self.failed = written.err();
    }

    fn progress(&mut self) -> &mut Progress {
        self.progress.get_or_insert_with(|| Progress::quiet(false))
    }
}

impl Observer for Printer {
    fn solution_started(&mut self, s: &Solution, index: usize, total: usize) {
        self.progress().solution_started(s, index, total);
    }

    fn compiling(&mut self, s: &Solution, r: &SolutionReport) {
        self.progress().compiling(s, r);
    }

    fn case_started(&mut self, case: &TestCase, index: usize, total: usize) {
        self.progress().case_started(case, index, total);
    }
}

impl VerifyObserver for Printer {
    fn problem_loaded(&mut self, _problem: &Problem) {
        self.progress = Some(Progress::quiet(false));
    }

    fn problem_started(
        &mut self,
        problem: &Problem,
        limit: Duration,
        solutions: &[Solution],
        skipped: &[Skipped],
    ) {
        let columns = Columns::new(
            solutions.iter().map(|s| s.name.as_str()),
            problem.expected.values(),
        );
        self.columns = Some(columns);
        if !self.json {
            let gap = if self.problems > 0 { "\n" } else { "" };
            let head = judge_report::verify::render_head(problem, limit, columns);
            self.print(&format!("{gap}{head}"));
        }
        self.problems += 1;
        cut::started(&self.so_far, problem, limit, solutions, skipped);
    }

    fn solution_checked(&mut self, report: &SolutionReport, checked: &Checked, limit: Duration) {
        self.progress().bar.set_message("");
        cut::judged(&self.so_far, report);
        if let (false, Some(columns)) = (self.json, self.columns) {
            let line = judge_report::verify::render_line(checked, limit, columns);
            self.print(&line);
        }
    }

    fn solutions_judged(&mut self) {
        if let Some(p) = self.progress.take() {
            p.bar.finish_and_clear();
        }
    }

    fn problem_verified(&mut self, v: &Verification) {
        if !self.json {
            let tail = judge_report::verify::render_tail(v);
            let cases = judge_report::validate::render_cases(&v.validator_cases);
            self.print(&format!("{tail}{cases}"));
        }
        cut::verified(&self.so_far, v);
    }
}
