//! `judge history`: the submissions recorded by `judge run`, like an online judge's status page; and
//! what a recording says: its line under a run, or the warning that nothing was recorded.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context as _, Result};

use judge_core::model::SolutionReport;
use judge_history::{Filter, History, Recorded};
use judge_report as report;

use super::{Context, EXIT_OK};

#[derive(clap::Args)]
pub(crate) struct HistoryArgs {
    /// Only the submissions of this problem.
    #[arg(long, short)]
    problem: Option<String>,

    /// Only the submissions of this solution (its name).
    #[arg(long, short)]
    solution: Option<String>,

    /// At most N submissions (newest first).
    #[arg(long, short = 'n', value_name = "N", default_value_t = 20)]
    limit: usize,

    /// Each solution's best accepted submission (least max time), fastest first.
    #[arg(long)]
    best: bool,

    /// Print JSON (with the per-case results) instead of the table.
    #[arg(long)]
    json: bool,
}

pub(crate) fn history(ctx: &Context, args: HistoryArgs) -> Result<ExitCode> {
    let path = &ctx.history;
    let mut out = anstream::stdout();
    if !path.exists() {
        if args.json {
            writeln!(out, "[]")?;
        } else {
            writeln!(out, "no submissions yet: `judge run SOLUTION` records one")?;
        }
        return Ok(ExitCode::from(EXIT_OK));
    }
    let h = History::open(path).context("reading the submission history")?;
    let filter = Filter {
        problem: args.problem,
        solution: args.solution,
        limit: Some(args.limit),
    };
    let mut subs = if args.best {
        h.best(&filter)?
    } else {
        h.list(&filter)?
    };
    // The table needs the cases too: a run with a case over the limit shows "> limit".
    h.load_cases(&mut subs)?;
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&judge_core::schema::tagged_all(&subs))?
        )?;
    } else {
        write!(out, "{}", judge_report::history::render(&subs))?;
    }
    Ok(ExitCode::from(EXIT_OK))
}

/// Says that the verdict stands though nothing was recorded, and why.
pub(crate) fn warn(message: &str) {
    anstream::eprintln!(
        "{}",
        report::paint(
            anstyle::Style::new().fg_color(Some(anstyle::AnsiColor::Yellow.into())),
            &format!("warning: the verdict above stands, but nothing was recorded in the history: {message}")
        )
    );
}

/// "submission #12 · first AC of bitmask", "... · new best time (was 214 ms)", "... · partial
/// run: not the solution's verdict", "... · score 40/100" (an AC short of the most it could
/// score, never a first AC).
pub(crate) fn recorded_line(r: &Recorded, report: &SolutionReport) -> String {
    let solution = &report.solution;
    let mut parts = vec![format!("submission #{}", r.id)];
    if report.partial.is_some() {
        parts.push("partial run: not the solution's verdict".into());
    }
    if let (true, Some((score, Some(max)))) = (report.below_max_score(), report.score()) {
        parts.push(format!(
            "score {}/{}",
            report::table::number(score),
            report::table::number(max)
        ));
    }
    if r.first_ac {
        parts.push(format!("first AC of {solution}"));
    }
    if let Some(was) = r.new_best_over_ms {
        parts.push(format!(
            "new best time of {solution} (was {})",
            judge_core::units::format_duration(Duration::from_millis(was))
        ));
    }
    parts.join(" · ")
}
