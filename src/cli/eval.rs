//! `judge eval DATASET`: a code-generation data set judged in place, the samples of a model
//! (or the data set's own solutions), pass@k. The reading, the judging, the results file and
//! the figures are `judge_eval`'s; here, the arguments, a line per sample, and the summary.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;

use judge_eval::dataset::{Dataset, Format};
use judge_eval::progress::Progress;
use judge_eval::results::SampleResult;
use judge_eval::{EvalObserver, EvalOptions, Profile};

use super::{Context, EXIT_OK, EXIT_UNJUDGED, EXIT_VERDICT};

#[derive(clap::Args)]
pub(crate) struct EvalArgs {
    /// The data set: JSON Lines or a JSON array, gzip or not, or Parquet (a file, or a folder
    /// of shards) (code_contests, APPS/TACO, LiveCodeBench, open-r1's codeforces,
    /// CodeContests+), or a folder of problems each with its config.yaml (LiveCodeBench-Pro,
    /// FrontierCS).
    #[arg(value_name = "DATASET")]
    dataset: PathBuf,

    /// open-r1's generated tests: its test_cases Parquet files, or their folder; each
    /// problem's are judged after its official tests.
    #[arg(long, value_name = "DIR|FILE")]
    tests: Option<PathBuf>,

    /// The samples: JSON Lines of {"problem", "language", "code"}, or LiveCodeBench's
    /// [{"question_id", "code_list"}]. Without it, the data set's own solutions are judged.
    #[arg(long, value_name = "FILE")]
    samples: Option<PathBuf>,

    /// The data set's format, when its fields do not tell it.
    #[arg(long, value_name = "FORMAT", value_parser = ["code_contests", "apps", "livecodebench", "codeforces", "code_contests_plus", "config_yaml"])]
    format: Option<String>,

    /// Each sample's code is the last fenced code block of its answer in its language (or its
    /// only one); an answer with none is a failed sample.
    #[arg(long)]
    extract: bool,

    /// The results, one JSON line per sample; run again, only the samples it lacks are judged.
    #[arg(long, value_name = "RESULTS.jsonl")]
    out: Option<PathBuf>,

    /// The k of pass@k, comma-separated.
    #[arg(long = "k", value_name = "K,...", value_delimiter = ',', default_value = "1", value_parser = clap::value_parser!(u64).range(1..))]
    ks: Vec<u64>,

    /// The summary as JSON (judge.eval/1) instead of the table.
    #[arg(long)]
    json: bool,

    /// Run each sample's tests N at a time.
    #[arg(long, short, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,

    /// Run every test of each sample, not only up to its first failure.
    #[arg(long)]
    all_tests: bool,

    /// Judge each problem on its N largest tests alone (by input length, ties to the earlier).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_tests: Option<u64>,

    /// Another run's results file: the difference of pass@1 over the problems both judged,
    /// its 95% interval (a paired bootstrap over problems), and the problems that flipped.
    #[arg(long, value_name = "OTHER.jsonl")]
    against: Option<PathBuf>,

    /// The testlib.h that the data set's testlib checkers and interactors are built with,
    /// where it ships none (else one beside the data set, or the system's).
    #[arg(long, value_name = "PATH")]
    testlib: Option<PathBuf>,

    /// The toolchains and limits samples are judged under: judge (the judge's own),
    /// codeforces (-O2 -DONLINE_JUDGE, PyPy for Python, a big stack) or lcb (LiveCodeBench's
    /// harness: CPython with its imports, 6 s a test).
    #[arg(long, value_name = "NAME", default_value = "judge", value_parser = ["judge", "codeforces", "lcb"])]
    profile: String,

    #[command(flatten)]
    cluster: super::cluster::ClusterArgs,
}

pub(crate) fn eval(ctx: &Context, args: EvalArgs) -> Result<ExitCode> {
    let profile = Profile::named(&args.profile)?;
    let options = EvalOptions {
        dataset: ctx.cwd.join(&args.dataset),
        tests: args.tests.as_ref().map(|t| ctx.cwd.join(t)),
        format: args.format.as_deref().and_then(Format::named),
        samples: args.samples.as_ref().map(|s| ctx.cwd.join(s)),
        extract: args.extract,
        out: args.out.as_ref().map(|o| ctx.cwd.join(o)),
        ks: args.ks,
        jobs: args.jobs.into(),
        all_tests: args.all_tests,
        max_tests: args.max_tests.map(|n| n as usize),
        against: args.against.as_ref().map(|a| ctx.cwd.join(a)),
        compile_time_limit: Duration::from_secs(60),
        testlib: args.testlib.as_ref().map(|t| ctx.cwd.join(t)),
        profile,
    };
    let ws = profile.workspace(&ctx.ws);
    // `--nats`: each sample's tests are judged by the cluster's workers, as `judge run`'s are.
    let mut judging = ctx.judging_in(ws.clone(), &args.cluster)?;
    let mut lines = Lines::new(args.out.as_ref().map(|o| o.display().to_string()));
    // Ctrl-C: the lines written are whole, and the count is read once no line is half-told.
    let _told = judge_runner::interrupt::on_interrupt(lines.kept_hook());
    let summary = judge_eval::evaluate(&ws, judging.as_mut(), &options, &mut lines)?;
    lines.finish();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&judge_core::schema::tagged(&summary))?
        );
    } else {
        anstream::print!("{}", judge_report::eval::render(&summary));
    }
    Ok(ExitCode::from(if summary.errors > 0 {
        EXIT_UNJUDGED
    } else if summary.verification_failed() {
        EXIT_VERDICT
    } else {
        EXIT_OK
    }))
}

/// A line per sample on stderr as it is judged, and each problem that cannot be; the progress
/// line below them on a terminal, redrawn after each sample, else written plain every
/// [`PLAIN_EVERY`]; and the last progress line when the run ends.
struct Lines {
    progress: Progress,
    terminal: bool,
    /// When the last plain progress line was written.
    last_plain: Instant,
    /// The results kept in the results file (earlier runs' too), and all the samples.
    kept: Arc<AtomicUsize>,
    total: Arc<AtomicUsize>,
    out: Option<String>,
}

/// How often a progress line is written where stderr is not a terminal (a log).
const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// Erases the line the cursor is on: the progress line, before a line is written over it.
const ERASE: &str = "\r\x1b[2K";

impl Lines {
    fn new(out: Option<String>) -> Lines {
        Lines {
            progress: Progress::new(0),
            terminal: std::io::stderr().is_terminal(),
            last_plain: Instant::now(),
            kept: Arc::default(),
            total: Arc::default(),
            out,
        }
    }

    /// What Ctrl-C says: how many samples have their result kept, and how to go on.
    /// The last progress line, once every sample is done (none when there was nothing to do).
    fn finish(&mut self) {
        if self.progress.todo() == 0 {
            return;
        }
        let progress = judge_report::eval::progress_line(&self.progress);
        let erase = if self.terminal { ERASE } else { "" };
        anstream::eprintln!("{erase}{progress}");
    }

    /// Where stderr is a terminal, the progress line redrawn below the lines written.
    fn redraw(&self) {
        if self.terminal {
            let progress = judge_report::eval::progress_line(&self.progress);
            anstream::eprint!("{progress}");
        }
    }

    fn kept_hook(&self) -> judge_runner::interrupt::Hook {
        let (kept, total, out) = (
            Arc::clone(&self.kept),
            Arc::clone(&self.total),
            self.out.clone(),
        );
        let terminal = self.terminal;
        Arc::new(move || {
            // Waits for a line being written: the count is then that of the file.
            let kept = judge_runner::interrupt::uninterruptible(|| kept.load(Ordering::SeqCst));
            let line = judge_report::eval::interrupted_line(
                kept,
                total.load(Ordering::SeqCst),
                out.as_deref(),
            );
            let erase = if terminal { ERASE } else { "" };
            anstream::eprintln!("{erase}{line}");
        })
    }
}

impl EvalObserver for Lines {
    fn started(&mut self, dataset: &Dataset, todo: usize, done: usize) {
        self.progress = Progress::new(todo);
        if self.out.is_some() {
            self.kept.store(done, Ordering::SeqCst);
        }
        self.total.store(todo + done, Ordering::SeqCst);
        let problems = dataset.problems.len();
        let format = dataset.format.name();
        let problems = count(problems, "problem");
        if done > 0 {
            let done = count(done, "sample");
            anstream::eprintln!(
                "{format}: {problems} · {done} have a result already, judging the other {todo}"
            );
        } else {
            let todo = count(todo, "sample");
            anstream::eprintln!("{format}: {problems} · judging {todo}");
        }
    }

    fn problem_error(&mut self, id: &str, why: &str) {
        let erase = if self.terminal { ERASE } else { "" };
        anstream::eprintln!("{erase}problem {id} not judged: {why}");
        self.redraw();
    }

    fn sample_skipped(&mut self, _problem: &str) {
        self.progress.skip();
    }

    fn sample_done(&mut self, index: usize, todo: usize, result: &SampleResult) {
        if self.out.is_some() {
            self.kept.fetch_add(1, Ordering::SeqCst);
        }
        self.progress.add(result);
        let line = judge_report::eval::sample_line(index, todo, result);
        if self.terminal {
            anstream::eprintln!("{ERASE}{line}");
            self.redraw();
        } else {
            anstream::eprintln!("{line}");
            if !self.progress.finished() && self.last_plain.elapsed() >= PLAIN_EVERY {
                self.last_plain = Instant::now();
                let progress = judge_report::eval::progress_line(&self.progress);
                anstream::eprintln!("{progress}");
            }
        }
    }
}

/// `n` and the noun `one`, in the plural unless `n` is 1.
fn count(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}
