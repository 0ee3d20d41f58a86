//! `judge run`: judge one solution and print the live verdict table.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use judge_core::model::{CaseReport, CompileReport, NotTimed, SolutionReport};
use judge_core::session::{AfterTle, Judging, Observer, Options};
use judge_core::verdict::Limits;
use judge_core::workspace::{Solution, TestCase, Workspace};
use judge_ops::run::{RunObserver, RunOptions};
use judge_report as report;

use super::{exit_for, parse_size, print_json, Context};

/// What a run does by default to be quick, said under `judge run --help`.
pub(crate) fn default_rule() -> String {
    format!(
        "By default, to be quick: every case is judged, but after the first TLE the cases that \
         follow run under a shorter cap ({}). One that finishes within it gets its verdict; one \
         that does not is \"not timed\": it has no verdict, and the run is recorded as partial. \
         The verdict of the run is the first failure's, as always. (With --jobs N the cases \
         start side by side, before a TLE is known: all run under the whole limit.) Only the \
         first {} failed cases show their details (input, diff, stderr); the rows of the others \
         say their verdict and why. --full: every case under the whole time limit, and every \
         failed case's details.",
        judge_core::session::SHORTER_CAP_RULE,
        report::table::DETAILED_FAILURES
    )
}

#[derive(clap::Args)]
pub(crate) struct RunArgs {
    /// A solution's name (`bitmask`, `nqueens-ii/bitmask`) or the path to a source file in any language the judge knows.
    pub(super) solution: String,

    /// The problem to judge against, when the solution's path does not tell.
    #[arg(long, short)]
    pub(super) problem: Option<String>,

    #[command(flatten)]
    limits: super::LimitArgs,

    /// Override the output limit: MiB, or with a unit.
    #[arg(long, value_name = "MIB", value_parser = parse_size)]
    output_limit: Option<u64>,

    /// Judge only this case (repeatable; `*` and `?` are wildcards: `--case '1*'`).
    #[arg(long, value_name = "NAME")]
    case: Vec<String>,

    /// Judge only the sample cases (with --case: the samples and those cases).
    #[arg(long)]
    samples: bool,

    /// Replay the problem's sample interactions (`NAME.interaction`) instead of running the
    /// tests: the judge says the `<` lines and expects the solution to say the `>` lines, word
    /// for word. Not recorded in the history.
    #[arg(long, conflicts_with = "samples")]
    replay: bool,

    /// Stop at the first case that is not accepted, like Codeforces.
    #[arg(long)]
    stop_on_fail: bool,

    /// Show the input of every failed case (by default only a short input of a WA is shown).
    #[arg(long)]
    show_input: bool,

    /// Run each case N times and show the min and median CPU time (a case over the time
    /// limit is not run again).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    repeat: u32,

    /// After a case goes over the time limit, skip the remaining cases.
    #[arg(long)]
    skip_after_tle: bool,

    /// The full picture: every case under the whole time limit, even after a TLE, and the
    /// details of every failed case (see the default below).
    #[arg(long, conflicts_with = "skip_after_tle")]
    full: bool,

    /// Do not record this run in the submission history.
    #[arg(long)]
    no_history: bool,

    /// Run up to N cases at once. Times are then measured in parallel; TLE cases and cases
    /// within 20% of the time limit are re-run alone before their verdict is final.
    #[arg(long, short, conflicts_with = "repeat", value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,

    /// Print one JSON document instead of the table.
    #[arg(long)]
    json: bool,

    /// Judge again whenever the solution's file, the problem's tests or problem.toml change
    /// (Ctrl-C ends it).
    #[arg(long, conflicts_with = "json")]
    watch: bool,

    #[command(flatten)]
    cluster: super::cluster::ClusterArgs,
}

impl RunArgs {
    /// The package the run is on: `--problem PATH` naming one, or else the package a
    /// solution's path lies in.
    pub(crate) fn package(&self, cwd: &Path) -> Option<std::path::PathBuf> {
        if let Some(p) = &self.problem {
            let path = cwd.join(p);
            return judge_packages::package::is_package(&path).then_some(path);
        }
        let path = cwd.join(&self.solution);
        if !path.exists() {
            return None;
        }
        path.ancestors()
            .skip(1)
            .find(|d| judge_packages::package::is_package(d))
            .map(|d| d.to_path_buf())
    }
}

pub(crate) fn run(ctx: &Context, args: RunArgs) -> Result<ExitCode> {
    let problem = args.problem.as_deref().map(|p| ctx.problem_id(p));
    let solution = ctx.ws.resolve_solution(&args.solution, problem, &ctx.cwd)?;
    let cluster = ctx.cluster(&args.cluster).is_some();
    if cluster && (args.replay || args.repeat > 1) {
        anyhow::bail!(
            "{} runs here only, not on the cluster's workers\n  fix: leave out --nats (and [cluster] url in judge.toml) for it",
            if args.replay { "--replay" } else { "--repeat" }
        );
    }
    let mut judge = ctx.judging(&args.cluster)?;
    if args.watch {
        return super::watch::watch(&ctx.ws, &solution, |ws| {
            judge_once(ws, judge.as_mut(), cluster, &solution, &args, &ctx.history)
                .map(|r| r.verdict)
        });
    }
    let verdict = judge_once(
        &ctx.ws,
        judge.as_mut(),
        cluster,
        &solution,
        &args,
        &ctx.history,
    )?
    .verdict;
    Ok(exit_for(verdict))
}

/// Judges the solution once (through the cluster's workers when `cluster`) and records it,
/// printing the table as it goes, or the JSON document at the end.
fn judge_once(
    ws: &Workspace,
    judge: &mut dyn Judging,
    cluster: bool,
    solution: &Solution,
    args: &RunArgs,
    history: &Path,
) -> Result<SolutionReport> {
    let options = RunOptions {
        judging: Options {
            output_limit: args.output_limit,
            stop_on_fail: args.stop_on_fail,
            show_input: args.show_input,
            repeat: args.repeat,
            // The cluster judges a run's cases at once on many machines, so there is no
            // "after the first TLE" to shorten the cap for: every case runs under the whole
            // limit.
            after_tle: match (args.skip_after_tle, args.full || cluster) {
                (true, _) => AfterTle::Skip,
                (false, true) => AfterTle::WholeLimit,
                (false, false) => AfterTle::ShorterCap,
            },
            jobs: args.jobs.into(),
            ..args.limits.options()
        },
        cases: args.case.clone(),
        samples: args.samples,
        replay: args.replay,
        history: (!args.no_history).then(|| history.to_path_buf()),
    };
    let mut view = View {
        ws,
        settle: super::compare::Progress::quiet(args.json),
        live: None,
        json: args.json,
        full: args.full,
    };
    let ran = judge_ops::run::run(ws, judge, solution, &options, &mut view)?;
    let recorded = match ran.recorded {
        Some(Ok(r)) => Some(r),
        Some(Err(e)) => {
            super::history::warn(&e.to_string());
            None
        }
        None => None,
    };
    let report = ran.report;
    if args.json {
        print_json(&report)?;
    } else if let Some(r) = recorded {
        let line = super::history::recorded_line(&r, &report);
        let mut out = anstream::stdout();
        writeln!(out, "{}", report::dim(&line))?;
    }
    Ok(report)
}

/// What `judge run` shows as it goes: a spinner while a package's time limit is derived, then
/// the table (or nothing, for `--json`).
struct View<'a> {
    ws: &'a Workspace,
    settle: super::compare::Progress,
    live: Option<Live<'a>>,
    json: bool,
    full: bool,
}

impl RunObserver for View<'_> {
    fn settling(&mut self) -> &mut dyn Observer {
        &mut self.settle
    }

    fn judging(&mut self, cases: &[TestCase], options: &Options) -> &mut dyn Observer {
        self.settle.bar.finish_and_clear();
        if self.json {
            return &mut self.settle;
        }
        let names = cases.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let details = if self.full {
            usize::MAX
        } else {
            report::table::DETAILED_FAILURES
        };
        let repeated = options.repeat > 1;
        self.live
            .insert(Live::new(self.ws, repeated, options.jobs, names, details))
    }

    fn judged(&mut self, report: &SolutionReport) {
        if let Some(live) = &mut self.live {
            live.finish(report);
        }
    }
}

/// Prints the table as cases finish, with a progress line on a terminal.
struct Live<'a> {
    ws: &'a Workspace,
    out: anstream::AutoStream<std::io::Stdout>,
    bar: ProgressBar,
    repeated: bool,
    /// The longest case name, for the width of the case column.
    names: usize,
    jobs: usize,
    /// How many more failed cases have their details shown.
    details: usize,
    /// Failed cases whose details were left out.
    left_out: usize,
}

impl<'a> Live<'a> {
    fn new(
        ws: &'a Workspace,
        repeated: bool,
        jobs: usize,
        names: usize,
        details: usize,
    ) -> Live<'a> {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("  {spinner} {msg} {seconds:.dim}")
                .expect("valid template")
                .with_key(
                    "seconds",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.1} s", state.elapsed().as_secs_f64());
                    },
                ),
        );
        Live {
            ws,
            out: anstream::stdout(),
            bar,
            repeated,
            names,
            jobs,
            details,
            left_out: 0,
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
        let (r, left_out) = (report.clone(), self.left_out);
        self.print(|o| {
            report::table::summary(o, &r);
            report::table::left_out(o, left_out);
        });
    }
}

impl Observer for Live<'_> {
    fn compiling(&mut self, solution: &Solution, report: &SolutionReport) {
        let path = self.ws.show(&solution.path);
        let report = report.clone();
        self.print(|o| report::table::header(o, &report, &path));
        self.bar.set_message(format!("compiling {}", solution.name));
        self.bar.enable_steady_tick(Duration::from_millis(100));
    }

    fn compiled(&mut self, c: &CompileReport) {
        let (c, repeated, jobs, names) = (c.clone(), self.repeated, self.jobs, self.names);
        self.print(|o| {
            report::table::compile_line(o, &c);
            if c.diagnostics.is_none() {
                if jobs > 1 {
                    report::table::parallel_note(o, jobs);
                }
                report::table::table_head(o, repeated, names);
            }
        });
    }

    fn case_started(&mut self, case: &TestCase, index: usize, total: usize) {
        self.bar.reset_elapsed();
        self.bar
            .set_message(format!("case {} ({}/{})", case.name, index + 1, total));
    }

    fn case_finished(&mut self, c: &CaseReport, limits: &Limits) {
        let (c, limits) = (c.clone(), *limits);
        let names = self.names;
        let failed = c.verdict != judge_core::verdict::Verdict::Ac;
        let details = failed && self.details > 0;
        if details {
            self.details -= 1;
        } else if failed {
            self.left_out += 1;
        }
        self.print(|o| report::table::case_row(o, &c, &limits, names, details));
    }

    fn case_not_timed(&mut self, c: &NotTimed, limits: &Limits) {
        let (c, limits, names) = (c.clone(), *limits, self.names);
        self.print(|o| report::table::not_timed_row(o, &c, &limits, names));
    }

    fn note(&mut self, text: &str) {
        let line = report::dim(&format!("note: {text}"));
        self.bar.suspend(|| anstream::eprintln!("{line}"));
    }
}
