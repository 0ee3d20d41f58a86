//! What crosses the network: a job (some cases of one submission), what a worker found (an
//! outcome per case), who a worker is, and the list of files a job needs. JSON, one message
//! each.

use std::collections::BTreeMap;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use judge_core::model::{CaseReport, CompileReport};
use judge_core::schema::{Document, Format};
use judge_core::session::Options;

/// The version of what crosses the network. Every job and every worker's registration carries
/// it, and a side of another version is refused with both named: a field added or changed with
/// a default would otherwise be read silently as something else. 0 is a build from before
/// versions (the field missing). Raise it with any change of these messages' shape.
pub const PROTOCOL: u32 = 2;

/// The messages' documents: each names its kind and the [`PROTOCOL`] (`judge.cluster.job/2`),
/// beside the `protocol` field that jobs and registrations carry since before there were names.
impl Document for Job {
    const SCHEMA: &'static str = "judge.cluster.job/2";
}

impl Document for Manifest {
    const SCHEMA: &'static str = "judge.cluster.manifest/2";
}

impl Document for WorkerInfo {
    const SCHEMA: &'static str = "judge.cluster.worker/2";
}

impl Document for Outcome {
    const SCHEMA: &'static str = "judge.cluster.outcome/2";
}

/// The cluster's messages, as the guide publishes their schemas.
pub fn formats() -> Vec<Format> {
    vec![
        Format::one::<Job>("the dispatcher, a job on the jobs stream"),
        Format::one::<Manifest>("the dispatcher, a bundle's files in the object store"),
        Format::one::<WorkerInfo>("a worker, its entry in the workers' bucket"),
        Format::one::<Outcome>("a worker, an outcome on the outcomes stream"),
        Format::one::<Call>("`judge api --nats`, a request to the service on the jobs stream"),
    ]
}

/// Some cases of one submission, to judge one after another on one slot: a case per job
/// would cost each case the queue's round trips, and a small case takes less than they do.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Job {
    /// The [`PROTOCOL`] of the side that sent it.
    #[serde(default)]
    pub protocol: u32,
    /// The submission's key: the same for every case of one judging, chosen by who submits.
    pub submission: String,
    /// The cases, in the submission's order (never empty).
    pub cases: Vec<JobCase>,
    /// The content hash of the bundle's manifest (an object in the store): every file the job
    /// needs.
    pub bundle: String,
    /// Which problem of the bundle.
    pub problem: ProblemRef,
    /// The solution's path in the bundle.
    pub solution: String,
    /// The entry point its package names for it, which a worker builds it from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    pub options: JobOptions,
    /// The submitting machine's calibration (microseconds of the fixed loop): a worker that
    /// differs by more than the margin scales the time limit (see `time`).
    pub calibration_us: u64,
}

/// A case of a job: its name, and its place in the submission's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct JobCase {
    pub name: String,
    pub index: usize,
}

/// The most cases in one job.
const MOST_PER_JOB: usize = 32;
/// The fewest jobs a submission is split into, when it has the cases: enough to keep a few
/// dozen workers busy, and to even out the end of a run.
const FEWEST_JOBS: usize = 32;

/// How many cases go in each job of a submission of `cases` cases: one each up to 63 cases,
/// then more, so that there are about 32 jobs, at most 32 cases each. Decided by the count
/// alone: the same submission asked again (resumed) is the same jobs.
pub fn per_job(cases: usize) -> usize {
    (cases / FEWEST_JOBS).clamp(1, MOST_PER_JOB)
}

/// Where the problem is in a bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProblemRef {
    /// `problems/ID/` of the bundle, a workspace (with its `judge.toml` and `testcases/ID/`).
    Workspace { id: String },
    /// A package in the bundle's folder `dir`.
    Package { dir: String },
}

/// The settings of a run that reach a worker; exact to the microsecond.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct JobOptions {
    pub time_limit_us: Option<u64>,
    pub memory_limit: Option<u64>,
    pub output_limit: Option<u64>,
    pub compile_time_limit_us: u64,
    pub checks: bool,
    pub show_input: bool,
}

impl JobOptions {
    pub fn of(o: &Options) -> JobOptions {
        JobOptions {
            time_limit_us: o.time_limit.map(|t| t.as_micros() as u64),
            memory_limit: o.memory_limit,
            output_limit: o.output_limit,
            compile_time_limit_us: o.compile_time_limit.as_micros() as u64,
            checks: o.checks,
            show_input: o.show_input,
        }
    }

    /// The options a worker judges the case with: one case at a time, one run.
    pub fn options(&self) -> Options {
        Options {
            time_limit: self.time_limit_us.map(Duration::from_micros),
            memory_limit: self.memory_limit,
            output_limit: self.output_limit,
            compile_time_limit: Duration::from_micros(self.compile_time_limit_us),
            checks: self.checks,
            show_input: self.show_input,
            ..Options::default()
        }
    }
}

/// The files of a bundle: path (relative, `/`-separated) → content hash, and which are
/// executable.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Manifest {
    pub files: BTreeMap<String, Entry>,
    /// The problem's files in one object ([`crate::files::pack`]), when it has many: a worker
    /// fetches them at once instead of one by one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pack: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Entry {
    pub hash: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub executable: bool,
    /// In the manifest's pack: fetched with it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub packed: bool,
}

impl Manifest {
    /// The manifest's own content hash: its key in the store, and the bundle's name.
    pub fn hash(&self) -> String {
        hash(
            &serde_json::to_vec(&judge_core::schema::tagged(self))
                .expect("a manifest is plain data"),
        )
    }
}

/// The content hash every file goes by: BLAKE3, in hex.
pub fn hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// A machine that judges: who it is and how fast.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WorkerInfo {
    /// The [`PROTOCOL`] it speaks.
    #[serde(default)]
    pub protocol: u32,
    pub name: String,
    pub host: String,
    pub cpu: String,
    /// Microseconds of the fixed CPU-bound loop, timed at start (the median of several).
    pub calibration_us: u64,
    /// Cases it judges at once.
    pub jobs: usize,
    /// What isolates the programs it runs.
    pub sandbox: judge_runner::Sandbox,
}

/// What a worker found for a job.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Outcome {
    pub submission: String,
    pub case: String,
    pub index: usize,
    /// The delivery of the job this outcome is of (1 for the first).
    pub attempt: u64,
    pub worker: WorkerInfo,
    pub result: Judged,
}

/// A job's result: the case judged (with how the solution was built), or why it could not be.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Judged {
    Case {
        /// Boxed: an outcome is mostly its case, and `Failed` should not carry the space.
        compile: Box<CompileReport>,
        sandbox: judge_runner::Sandbox,
        /// `None`: the solution did not compile.
        case: Option<Box<WireCase>>,
        /// The time limit was scaled for this worker: by how much.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_scale: Option<f64>,
    },
    /// The job could not be judged here or anywhere: an internal error with the reason.
    Failed { reason: String },
    /// No worker had what the job needs (a compiler, a Rust toolchain) by its last delivery:
    /// the submission is not judged, as a local run does not judge a language it lacks.
    Lacking { reason: String },
}

/// A case's report as it crosses the wire: its JSON, and the times to the microsecond (the JSON
/// has them to the millisecond).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WireCase {
    pub report: CaseReport,
    pub cpu_us: u64,
    pub wall_us: u64,
}

impl WireCase {
    pub fn of(report: CaseReport) -> WireCase {
        WireCase {
            cpu_us: report.cpu.as_micros() as u64,
            wall_us: report.wall.as_micros() as u64,
            report,
        }
    }

    /// The report as it was made.
    pub fn into_report(self) -> CaseReport {
        CaseReport {
            cpu: Duration::from_micros(self.cpu_us),
            wall: Duration::from_micros(self.wall_us),
            ..self.report
        }
    }
}

// The execution service's calls (`judge api --nats`, [`crate::service`]).

impl judge_core::schema::Document for Call {
    const SCHEMA: &'static str = "judge.cluster.call/2";
}

/// An HTTP request to the service, handed to a worker.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Call {
    /// The [`PROTOCOL`] of the front that sent it.
    #[serde(default)]
    pub protocol: u32,
    /// The call's key, the same for every delivery: its cancel subject is `judge.cancel.KEY`.
    pub key: String,
    pub method: String,
    /// The path with its query: `/v1/judge?stream=1`.
    pub path: String,
    pub body: Carried,
    /// The front's caps, which the worker's answer keeps.
    pub caps: Caps,
    /// The bundle (a manifest's hash) of the front's workspace problems the request names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    /// Where the answer goes: a subject the front listens on.
    pub reply: String,
}

/// A request's body: in the call, or in the store by its hash when large.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Carried {
    Inline { base64: String },
    Stored { hash: String },
}

/// The service's caps (`judge api --max-time`, `--max-memory`, `--output-limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Caps {
    pub max_time_us: u64,
    pub max_memory: u64,
    pub output_limit: u64,
}

/// The first part of an answer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Head {
    pub status: u16,
    pub content_type: String,
    /// The service's word for how the request ended (`ok`, `bad_request`, ...), for metrics.
    pub outcome: String,
    /// The worker that answers.
    pub worker: String,
}

/// A submission key no other judgement has: the time, this process and a counter.
pub fn fresh_key() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    crate::wire::hash(format!("{now}-{}-{n}", std::process::id()).as_bytes())[..20].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::fixtures;
    use judge_core::verdict::{Reason, Verdict};

    #[test]
    fn every_message_names_the_protocol_it_is_of() {
        for f in formats() {
            assert!(
                f.name.ends_with(&format!("/{PROTOCOL}")),
                "{} is not of protocol {PROTOCOL}: raise both together",
                f.name
            );
        }
    }

    #[test]
    fn small_submissions_are_a_job_a_case_and_large_ones_about_32_jobs() {
        assert_eq!(per_job(1), 1);
        assert_eq!(per_job(63), 1);
        assert_eq!(per_job(64), 2);
        assert_eq!(per_job(1000), 31);
        assert_eq!(1000usize.div_ceil(per_job(1000)), 33);
        assert_eq!(per_job(100_000), 32);
    }

    #[test]
    fn a_case_crosses_the_wire_exactly() {
        let mut case = fixtures::case("07", Verdict::Tle, 1);
        case.cpu = Duration::from_micros(1_000_437);
        case.wall = Duration::from_micros(2_500_001);
        case.reason = Some(Reason::CpuTime);
        case.memory_bytes = 1900 << 10;
        let text = serde_json::to_string(&WireCase::of(case.clone())).unwrap();
        let back: WireCase = serde_json::from_str(&text).unwrap();
        let back = back.into_report();
        assert_eq!(
            (
                back.cpu,
                back.wall,
                back.memory_bytes,
                back.verdict,
                back.reason
            ),
            (
                case.cpu,
                case.wall,
                case.memory_bytes,
                case.verdict,
                Some(Reason::Recorded("CPU time over the limit".into()))
            )
        );
    }

    #[test]
    fn options_reach_a_worker_to_the_microsecond() {
        let o = Options {
            time_limit: Some(Duration::from_micros(1_234_567)),
            memory_limit: Some(64 << 20),
            checks: true,
            ..Options::default()
        };
        let back = JobOptions::of(&o).options();
        assert_eq!(
            (back.time_limit, back.memory_limit, back.checks, back.jobs),
            (o.time_limit, o.memory_limit, true, 1)
        );
    }
}
