//! `judge batch FILE.jsonl`: judges many submissions, one per line (a problem, a language, a
//! source), and writes a result per line to the results file. Run again, it judges only the
//! lines that have no result yet: a batch stopped by Ctrl-C, a crash or a lost machine goes
//! on where it stopped.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use judge_core::batch::{self, Line, Outcome, Request};
use judge_core::model::SolutionReport;
use judge_core::session::{Judging, Observer, Options};
use judge_core::workspace::{Problem, Solution, TestCase};

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

/// The results file of `file` when `--out` does not say: `subs.jsonl` -> `subs.results.jsonl`.
fn results_path(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "batch".into());
    file.with_file_name(format!("{stem}.results.jsonl"))
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
        .unwrap_or_else(|| results_path(&file));
    let done = match std::fs::read_to_string(&out_path) {
        Ok(t) => batch::done(&t).map_err(|why| {
            anyhow::anyhow!(
                "{}: {why}\n  fix: give another --out, or remove the file to judge every line again",
                out_path.display()
            )
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Default::default(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", out_path.display())),
    };
    let lines = batch::lines(&text);
    let todo: Vec<&Line> = lines
        .iter()
        .filter(|l| !done.keys.contains(&l.key))
        .collect();
    let mut results = Results::open(&out_path, &done)?;
    let mut err = anstream::stderr();
    if todo.len() < lines.len() {
        writeln!(
            err,
            "{} of {} submissions have a result in {} already: judging the other {}",
            lines.len() - todo.len(),
            lines.len(),
            out_path.display(),
            todo.len()
        )?;
    }
    // Packages named by path are mounted once, before any judging.
    let mut problems: BTreeMap<String, Result<String, String>> = BTreeMap::new();
    for line in &todo {
        let Ok(r) = &line.request else { continue };
        if problems.contains_key(&r.problem) {
            continue;
        }
        let path = file.parent().unwrap_or(Path::new(".")).join(&r.problem);
        let id = if judge_packages::package::is_package(&path) {
            ctx.mount(&path).map_err(|e| format!("{e:#}"))
        } else {
            Ok(r.problem.clone())
        };
        problems.insert(r.problem.clone(), id);
    }
    let mut judging = ctx.judging(&args.cluster)?;
    let mut loaded: BTreeMap<String, Result<(Problem, Vec<TestCase>), String>> = BTreeMap::new();
    let (mut failed, mut judged) = (0usize, 0usize);
    for (n, line) in todo.iter().enumerate() {
        let outcome = match judge_line(ctx, judging.as_mut(), line, &problems, &mut loaded, &args) {
            Ok(report) => {
                judged += 1;
                let o = of_report(line, &report)?;
                writeln!(
                    err,
                    "[{}/{}] line {} ({}): {} {}/{}",
                    n + 1,
                    todo.len(),
                    line.number,
                    line.key,
                    report.verdict.code(),
                    report.passed,
                    report.total
                )?;
                o
            }
            Err(Failure::Line(why)) => {
                failed += 1;
                writeln!(
                    err,
                    "[{}/{}] line {} ({}): not judged: {why}",
                    n + 1,
                    todo.len(),
                    line.number,
                    line.key
                )?;
                Outcome {
                    key: line.key.clone(),
                    line: line.number,
                    error: Some(why),
                    ..empty(line)
                }
            }
            // Stopped (Ctrl-C) or the judge itself failed: what has a result keeps it, the
            // rest is judged by the next run.
            Err(Failure::Judge(e)) => return Err(e),
        };
        results.write(&outcome)?;
    }
    writeln!(
        err,
        "{judged} judged, {failed} could not be, {} had a result already · results in {}",
        lines.len() - todo.len(),
        out_path.display()
    )?;
    Ok(ExitCode::from(if failed > 0 {
        EXIT_VERDICT
    } else {
        EXIT_OK
    }))
}

/// Why a line has no verdict: something of the line's own (written in the results, and the
/// batch goes on), or of the judge's (the batch stops; the next run judges the line again).
enum Failure {
    Line(String),
    Judge(anyhow::Error),
}

fn judge_line(
    ctx: &Context,
    judging: &mut dyn Judging,
    line: &Line,
    problems: &BTreeMap<String, Result<String, String>>,
    loaded: &mut BTreeMap<String, Result<(Problem, Vec<TestCase>), String>>,
    args: &BatchArgs,
) -> Result<SolutionReport, Failure> {
    let request: &Request = line
        .request
        .as_ref()
        .map_err(|e| Failure::Line(e.clone()))?;
    let id = problems
        .get(&request.problem)
        .cloned()
        .unwrap_or_else(|| Ok(request.problem.clone()))
        .map_err(Failure::Line)?;
    let entry = loaded.entry(id.clone()).or_insert_with(|| {
        let mut problem = ctx.ws.problem(&id).map_err(|e| e.to_string())?;
        super::settle_time_limit(judging, &mut problem, true).map_err(|e| format!("{e:#}"))?;
        let cases = ctx.ws.testcases(&problem).map_err(|e| e.to_string())?;
        Ok((problem, cases))
    });
    let (problem, cases) = entry.as_ref().map_err(|e| Failure::Line(e.clone()))?;
    let language = ctx
        .ws
        .config
        .languages
        .get(&request.language)
        .ok_or_else(|| {
            Failure::Line(format!(
                "no language `{}`; the languages are {}",
                request.language,
                ctx.ws.config.languages.known()
            ))
        })?;
    let extension = language
        .extensions
        .first()
        .ok_or_else(|| Failure::Line(format!("the language `{}` has no extension", language.id)))?;
    // Each submission in a folder of its own, under a name of the key's hash: a key may hold
    // any character, and two keys never share a file.
    let stem = batch::file_stem(&line.key);
    let dir = judge_core::paths::batch(&ctx.ws.state_dir())
        .join(&problem.id)
        .join(&stem);
    let path = dir.join(format!("{stem}.{extension}"));
    std::fs::create_dir_all(&dir)
        .and_then(|_| std::fs::write(&path, &request.source))
        .map_err(|e| Failure::Judge(anyhow::anyhow!("cannot write {}: {e}", path.display())))?;
    let solution = Solution {
        name: line.key.clone(),
        problem: problem.id.clone(),
        path,
    };
    let options = Options {
        jobs: args.jobs.into(),
        ..Options::default()
    };
    let mut report = match judging.judge(problem, &solution, cases, &options, &mut Notes) {
        Ok(r) => r,
        // A language this machine cannot run is the line's to say, not the batch's end.
        Err(e) => match solution.skipped_because(&e) {
            Some(skip) => return Err(Failure::Line(skip.skipped)),
            None => return Err(Failure::Judge(e.into())),
        },
    };
    report.key = Some(line.key.clone());
    if !args.no_history {
        super::history::record(&ctx.history, &report);
    }
    Ok(report)
}

/// Tells only what the user should know while a submission waits (the cluster's workers
/// missing, say): a batch prints a line per submission, not per case.
struct Notes;

impl Observer for Notes {
    fn note(&mut self, text: &str) {
        anstream::eprintln!("note: {text}");
    }
}

fn empty(line: &Line) -> Outcome {
    Outcome {
        key: line.key.clone(),
        line: line.number,
        error: None,
        problem: None,
        language: None,
        verdict: None,
        passed: None,
        total: None,
        max_time_ms: None,
        max_memory_kb: None,
        report: None,
    }
}

fn of_report(line: &Line, report: &SolutionReport) -> Result<Outcome> {
    let json = serde_json::to_value(report)?;
    Ok(Outcome {
        problem: Some(report.problem.clone()),
        language: Some(report.language.clone()),
        verdict: Some(report.verdict.code().to_string()),
        passed: Some(report.passed),
        total: Some(report.total),
        max_time_ms: Some(report.max_cpu().as_millis() as u64),
        max_memory_kb: Some(report.max_memory() / 1024),
        report: Some(json),
        ..empty(line)
    })
}

/// The results file, open for adding lines: each result is one whole line, written at once and
/// flushed to the disk before the next submission is judged.
struct Results {
    file: std::fs::File,
    path: PathBuf,
}

impl Results {
    /// Opens `path` for adding results after those `done` keeps. When some of the file is
    /// not kept, the file is first written again with only those, as every file the judge
    /// replaces is ([`judge_core::atomic::replace`]): a crash meanwhile leaves one or the other,
    /// whole.
    fn open(path: &Path, done: &batch::Done) -> Result<Results> {
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        if done.dropped {
            judge_core::atomic::replace(path, done.kept.as_bytes())?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        Ok(Results {
            file,
            path: path.to_path_buf(),
        })
    }

    fn write(&mut self, outcome: &Outcome) -> Result<()> {
        let mut line = serde_json::to_string(outcome)?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.sync_data())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}
