//! `judge eval DATASET`: a code-generation data set judged in place, the samples of a model
//! (or the data set's own solutions), pass@k. The reading, the judging, the results file and
//! the figures are `judge_eval`'s; here, the arguments, a line per sample, and the summary.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;

use judge_eval::dataset::{Dataset, Format};
use judge_eval::results::SampleResult;
use judge_eval::{EvalObserver, EvalOptions};

use super::{Context, EXIT_OK, EXIT_UNJUDGED, EXIT_VERDICT};

#[derive(clap::Args)]
pub(crate) struct EvalArgs {
    /// The data set: JSON Lines or a JSON array, gzip or not (code_contests, APPS/TACO,
    /// LiveCodeBench, open-r1's codeforces, CodeContests+), or a folder of problems each with
    /// its config.yaml (LiveCodeBench-Pro, FrontierCS).
    #[arg(value_name = "DATASET")]
    dataset: PathBuf,

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

    #[command(flatten)]
    cluster: super::cluster::ClusterArgs,
}

pub(crate) fn eval(ctx: &Context, args: EvalArgs) -> Result<ExitCode> {
    let options = EvalOptions {
        dataset: ctx.cwd.join(&args.dataset),
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
    };
    // `--nats`: each sample's tests are judged by the cluster's workers, as `judge run`'s are.
    let mut judging = ctx.judging(&args.cluster)?;
    let summary = judge_eval::evaluate(&ctx.ws, judging.as_mut(), &options, &mut Lines)?;
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

/// A line per sample on stderr as it is judged, and each problem that cannot be.
struct Lines;

impl EvalObserver for Lines {
    fn started(&mut self, dataset: &Dataset, todo: usize, done: usize) {
        let problems = dataset.problems.len();
        let format = dataset.format.name();
        if done > 0 {
            anstream::eprintln!("{format}: {problems} problems · {done} samples have a result already, judging the other {todo}");
        } else {
            anstream::eprintln!("{format}: {problems} problems · judging {todo} samples");
        }
    }

    fn problem_error(&mut self, id: &str, why: &str) {
        anstream::eprintln!("problem {id} not judged: {why}");
    }

    fn sample_done(&mut self, index: usize, todo: usize, result: &SampleResult) {
        anstream::eprintln!("{}", judge_report::eval::sample_line(index, todo, result));
    }
}
