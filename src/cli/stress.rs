//! `judge stress`: an attempt against a reference on generated inputs, until they disagree.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, Result};
use indicatif::{ProgressBar, ProgressStyle};

use judge_core::session::Observer;
use judge_core::stress::{self, StressObserver, StressOptions};
use judge_core::workspace::{Problem, Solution, Workspace};
use judge_ops::stress::{StressFront, StressRequest, Stressed};
use judge_report::{self as report};

use super::{parse_seconds, Context};

#[derive(clap::Args)]
pub(crate) struct StressArgs {
    /// The attempt: a solution's name or the path to any .rs file.
    attempt: String,

    /// The reference solution whose output is taken as the answer (a solution's name).
    #[arg(long, value_name = "REFERENCE")]
    against: String,

    /// The problem, when neither the attempt's path nor the reference tells.
    #[arg(long, short)]
    problem: Option<String>,

    /// Try this many seeds (default 100 unless --seconds is given).
    #[arg(long, value_name = "N")]
    count: Option<u64>,

    /// Try seeds for this long (seconds, or with a unit); with --count, whichever ends first.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    seconds: Option<Duration>,

    /// The first seed; the next ones follow it.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// Passed to the generator after the seed (`gen SEED SIZE`): how big the inputs may be.
    #[arg(long, value_name = "N")]
    size: Option<u64>,

    /// Add the failing input as a new test case of the problem, with the reference's answer.
    #[arg(long)]
    save: bool,

    #[command(flatten)]
    limits: super::LimitArgs,

    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn stress(ctx: &Context, args: StressArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    let cwd = ctx.cwd.as_path();
    let root = ctx.root.as_deref();
    let [reference, attempt]: [_; 2] = ws
        .resolve_solutions(
            &[args.against.clone(), args.attempt.clone()],
            args.problem.as_deref(),
            cwd,
        )?
        .try_into()
        .expect("two names, two solutions");
    let request = StressRequest {
        attempt,
        reference,
        options: StressOptions {
            count: args.count,
            duration: args.seconds,
            first_seed: args.seed,
            size: args.size,
            run: args.limits.options(),
        },
        save: args.save,
    };
    let mut judge = ctx.judge()?;
    let mut view = View {
        ws,
        attempt: &request.attempt,
        reference: &request.reference,
        json: args.json,
        settle: super::compare::Progress::quiet(args.json),
        progress: None,
        quiet: stress::Quiet,
        failed: None,
    };
    let stressed = judge_ops::stress::stress(ws, &mut judge, &request, &mut view);
    view.settle.bar.finish_and_clear();
    if let Some(p) = &view.progress {
        p.bar.finish_and_clear();
    }
    if let Some(e) = view.failed {
        return Err(e.into());
    }
    let Stressed {
        problem,
        report,
        saved,
    } = stressed?;
    // A case that cannot be saved loses nothing: the disagreement is shown whole first, the
    // error after it.
    let (saved, unsaved) = match saved {
        Some(Ok(name)) => (Some(name), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    let mut out = anstream::stdout();
    let reproduce = report
        .disagreement
        .as_ref()
        .map(|d| reproduce_command(root, &args, d.seed));
    if args.json {
        let mut doc = judge_core::schema::to_value(&report);
        doc["reproduce"] = serde_json::json!(reproduce);
        doc["saved_case"] = serde_json::json!(saved);
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        report::stress::render(
            &mut out,
            ws,
            &problem.id,
            &report,
            reproduce.as_deref(),
            saved.as_deref(),
        )?;
    }
    match unsaved {
        Some(e) => Err(not_saved(ws, &problem.id, &e)),
        None => Ok(super::exit_for(report.verdict)),
    }
}

/// Why the failing input is not a test case, once, with what to do: the input is above.
fn not_saved(ws: &Workspace, problem: &str, e: &judge_core::Error) -> anyhow::Error {
    let why = e.to_string();
    let why = why.lines().next().unwrap_or_default();
    anyhow!(
        "the failing input was not saved as a test case: {why}\n  fix: make {}/ writable and run the reproduce command above with --save, or save the input above as a case by hand",
        ws.show(&ws.root.join("testcases").join(problem))
    )
}

/// The command that runs exactly the failing seed again.
fn reproduce_command(root: Option<&Path>, args: &StressArgs, seed: u64) -> String {
    let mut words = vec!["judge".to_string()];
    if let Some(r) = root {
        words.extend(["--root".into(), r.display().to_string()]);
    }
    words.extend([
        "stress".into(),
        args.attempt.clone(),
        "--against".into(),
        args.against.clone(),
    ]);
    if let Some(p) = &args.problem {
        words.extend(["--problem".into(), p.clone()]);
    }
    if let Some(s) = args.size {
        words.extend(["--size".into(), s.to_string()]);
    }
    if let Some(t) = args.limits.time_limit {
        words.extend(["--time-limit".into(), format!("{}ms", t.as_millis())]);
    }
    if let Some(m) = args.limits.memory_limit {
        words.extend(["--memory-limit".into(), format!("{}KiB", m / 1024)]);
    }
    words.extend([
        "--seed".into(),
        seed.to_string(),
        "--count".into(),
        "1".into(),
    ]);
    words
        .iter()
        .map(|w| shell_quote(w))
        .collect::<Vec<_>>()
        .join(" ")
}

fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// What `judge stress` shows as it goes: a spinner while a package's time limit is derived,
/// then the header and the progress line (nothing for `--json`).
struct View<'a> {
    ws: &'a Workspace,
    attempt: &'a Solution,
    reference: &'a Solution,
    json: bool,
    settle: super::compare::Progress,
    progress: Option<Progress>,
    quiet: stress::Quiet,
    /// What could not be printed (a reader gone): the command ends with it.
    failed: Option<std::io::Error>,
}

impl StressFront for View<'_> {
    fn settling(&mut self) -> &mut dyn Observer {
        &mut self.settle
    }

    fn started(&mut self, problem: &Problem, options: &StressOptions) -> &mut dyn StressObserver {
        self.settle.bar.finish_and_clear();
        if self.json {
            return &mut self.quiet;
        }
        let mut out = anstream::stdout();
        let pair = (self.attempt, self.reference);
        if let Err(e) = report::stress::header(&mut out, self.ws, problem, pair, options) {
            self.failed = Some(e);
        }
        self.progress.insert(Progress::new())
    }
}

/// The progress line: seeds tried and the rate (shown on a terminal only).
struct Progress {
    bar: ProgressBar,
}

impl Progress {
    fn new() -> Progress {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("  {spinner} {msg} {elapsed_precise:.dim}")
                .expect("valid template"),
        );
        bar.enable_steady_tick(Duration::from_millis(100));
        Progress { bar }
    }
}

impl StressObserver for Progress {
    fn compiling(&mut self, what: &str) {
        self.bar.set_message(format!("compiling {what}"));
    }

    fn seed_done(&mut self, seed: u64, tried: u64, elapsed: Duration) {
        self.bar.set_message(format!(
            "seed {seed} · {tried} tried · {:.0} seeds/s",
            tried as f64 / elapsed.as_secs_f64().max(1e-3)
        ));
    }
}
