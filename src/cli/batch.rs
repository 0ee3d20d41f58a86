//! `judge batch FILE.jsonl`: judges many submissions, one per line (a problem, a language, a
//! source), and writes a result per line to the results file. Run again, it judges only the
//! lines that have no result yet: a batch stopped by Ctrl-C, a crash or a lost machine goes
//! on where it stopped. The judging, the sources' storage and the results file are
//! `judge_ops::batch`'s; here, the arguments, the packages named by path mounted, and the lines
//! printed.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use judge_core::batch::Line;
use judge_core::model::SolutionReport;
use judge_core::session::Observer;
use judge_ops::batch::{self, Batch, BatchObserver, BatchOptions, LineResult};
use judge_ops::run::RecordError;

use super::{Context, EXIT_ERROR, EXIT_OK, EXIT_VERDICT};

#[derive(clap::Args)]
pub(crate) struct BatchArgs {
    /// The submissions: a JSON object per line, {"id": "optional key", "problem": "ID or
    /// package path", "language": "python", "source": "..."}.
    #[arg(value_name = "FILE.jsonl")]
    file: PathBuf,

    /// Where the results go, one JSON object per submission (default: FILE.results.jsonl).
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,

    /// Judge each submission's cases N at a time on this machine (without --nats).
    #[arg(long, short, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,

    /// Record nothing in the history (the results file is the record).
    #[arg(long)]
    no_history: bool,

    #[command(flatten)]
    cluster: super::cluster::ClusterArgs,
}

pub(crate) fn batch(ctx: &mut Context, args: BatchArgs) -> Result<ExitCode> {
    let file = ctx.cwd.join(&args.file);
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) => {
            anstream::eprintln!(
                "error: cannot read {}: {e}\n  fix: give the path of a file of submissions, a JSON object per line (judge batch --help)",
                args.file.display()
            );
            return Ok(ExitCode::from(EXIT_ERROR));
        }
    };
    let out_path = args
        .out
        .as_ref()
        .map(|o| ctx.cwd.join(o))
        .unwrap_or_else(|| batch::results_path(&file));
    let submissions = Batch::read(&text, &out_path)?;
    let (lines, todo) = (submissions.lines.len(), submissions.todo().len());
    let mut err = anstream::stderr();
    if todo < lines {
        writeln!(
            err,
            "{} of {} submissions have a result in {} already: judging the other {}",
            lines - todo,
            lines,
            out_path.display(),
            todo
        )?;
    }
    // Packages named by path are mounted once, before any judging.
    let mut problems = BTreeMap::new();
    for named in submissions.problems() {
        let path = file.parent().unwrap_or(Path::new(".")).join(&named);
        let id = if judge_packages::package::is_package(&path) {
            ctx.mount(&path)
        } else {
            Ok(named.clone())
        };
        problems.insert(named, id);
    }
    let options = BatchOptions {
        jobs: args.jobs.into(),
        history: (!args.no_history).then(|| ctx.history.clone()),
        problems,
    };
    let mut judging = ctx.judging(&args.cluster)?;
    let summary = batch::judge(
        &ctx.ws,
        judging.as_mut(),
        &submissions,
        &options,
        &mut Lines,
    )?;
    writeln!(
        err,
        "{} judged, {} could not be, {} had a result already · results in {}",
        summary.judged,
        summary.failed,
        summary.had_result,
        out_path.display()
    )?;
    Ok(ExitCode::from(if summary.failed > 0 {
        EXIT_VERDICT
    } else {
        EXIT_OK
    }))
}

/// Prints a line per submission, and only what the user should know while one waits (the
/// cluster's workers missing, say): not a line per case.
struct Lines;

impl Observer for Lines {
    fn note(&mut self, text: &str) {
        anstream::eprintln!("note: {text}");
    }
}

impl BatchObserver for Lines {
    fn line_done(&mut self, index: usize, todo: usize, line: &Line, result: LineResult<'_>) {
        let what = match result {
            LineResult::Judged(report) => format!(
                "{} {}/{}",
                report.verdict.code(),
                report.passed,
                report.total
            ),
            LineResult::NotJudged(why) => format!("not judged: {why}"),
        };
        anstream::eprintln!(
            "[{}/{todo}] line {} ({}): {what}",
            index + 1,
            line.number,
            line.key
        );
    }

    fn not_recorded(&mut self, _report: &SolutionReport, error: &RecordError) {
        super::history::warn(&error.to_string());
    }
}
