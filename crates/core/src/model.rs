//! The report model: what judging produced (a compilation, each case, a whole solution), as data.
//!
//! Below the engine and above the verdict: the session fills these in; the renderers (`report`) and
//! the JSON documents read them. Nothing here is display text: a time is a
//! `Duration`, a verdict a [`Verdict`] and why a [`Reason`], who stopped a program a
//! [`StoppedBy`]; sentences are made only when printing (or writing the JSON).

use std::path::PathBuf;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::grading::{CaseResult, Graded, Group};
use crate::lang::TimeRule;
use crate::stats;
use crate::units::serde_as;
use crate::verdict::{self, Expectation, Limits, Reason, StoppedBy, Verdict};
use judge_runner::Sandbox;

/// How the solution was built.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct CompileReport {
    /// Taken from the cache: nothing was compiled.
    pub cached: bool,
    #[serde(
        rename = "ms",
        serialize_with = "serde_as::ms",
        deserialize_with = "serde_as::from_ms"
    )]
    #[schemars(with = "u64")]
    pub duration: Duration,
    /// The compiler's identity: "rustc 1.95.0 (59807616e 2026-04-14)".
    pub compiler: String,
    /// The compiler's messages when compilation failed.
    pub diagnostics: Option<String>,
    /// The solution's source as it was read for the build, for the history: not in the JSON
    /// documents (their shape stays as it was); `None` for a folder, or when nothing was read.
    #[serde(skip)]
    pub source: Option<SourceDigest>,
}

/// A source file as it was compiled: the hash and length of the bytes the build read, taken
/// before the build, so a file saved during a run is never recorded as the one judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceDigest {
    /// BLAKE3 of the bytes, in hex.
    pub hash: String,
    pub length: u64,
}

impl SourceDigest {
    pub fn of(bytes: &[u8]) -> SourceDigest {
        SourceDigest {
            hash: blake3::hash(bytes).to_hex().to_string(),
            length: bytes.len() as u64,
        }
    }
}

/// One case of one run. Read back from its JSON to the millisecond and the KiB (a repeated
/// case's timing is not read back).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CaseReport {
    pub name: String,
    pub sample: bool,
    pub verdict: Verdict,
    /// Why the verdict was given (`None` for AC), as decided; written as its sentence, the
    /// `detail` string ("killed by SIGSEGV", "token 1 ...: expected `2`, received `3`"), and
    /// read back as that sentence alone.
    #[serde(rename = "detail")]
    // The schema is of the sentence written, whatever type holds the reason.
    #[schemars(with = "Option<String>")]
    pub reason: Option<Reason>,
    /// A remark worth reading whatever the verdict: "differs only in whitespace".
    pub hint: Option<String>,
    /// CPU time (user + sys); with `--repeat`, the median of the runs.
    #[serde(
        rename = "time_ms",
        serialize_with = "serde_as::ms",
        deserialize_with = "serde_as::from_ms"
    )]
    #[schemars(with = "u64")]
    pub cpu: Duration,
    #[serde(
        rename = "wall_ms",
        serialize_with = "serde_as::ms",
        deserialize_with = "serde_as::from_ms"
    )]
    #[schemars(with = "u64")]
    pub wall: Duration,
    #[serde(
        rename = "memory_kb",
        serialize_with = "serde_as::kb",
        deserialize_with = "serde_as::from_kb"
    )]
    #[schemars(with = "u64")]
    pub memory_bytes: u64,
    pub output_bytes: u64,
    /// On a wrong answer: answer against output, from the first difference.
    pub diff: Option<String>,
    /// The end of stderr, for a case that failed.
    pub stderr: Option<String>,
    /// Who ended the program before it finished by itself.
    pub killed_by: Option<StoppedBy>,
    /// Processes the program left running; the judge killed them.
    pub leftover_processes: u32,
    /// Where the output of a failed case was kept.
    pub saved_output: Option<PathBuf>,
    /// The case's input, shown for a failed case when short (or when asked for).
    pub input: Option<String>,
    /// Measured while other cases ran (`--jobs`): the time may be inflated.
    pub parallel: bool,
    /// Measured in parallel first, then re-run alone for its final verdict: what the parallel run saw.
    pub rerun: Option<Rerun>,
    /// With `--repeat`: the CPU time of every run. `time_ms` is then their median.
    #[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]
    #[schemars(with = "Option<TimingJson>")]
    pub timing: Option<Timing>,
    /// A score the checker gave (a Kattis output validator's `score.txt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// An interactive case: what the interactor and the conversation show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interaction: Option<Box<Interaction>>,
    /// What a Kattis output validator wrote in `judgemessage.txt`, whatever the verdict (a
    /// package's expectations may ask for a message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_message: Option<String>,
    /// A multi-pass case: how many passes ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes: Option<u32>,
    /// Judged on another machine (`--nats`): the worker's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker: Option<String>,
    /// Judged on another machine: which delivery of the case's job this verdict came from (1
    /// for the first; more when a worker died holding it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempt: Option<u64>,
}

/// What an interactive case adds to its report, for a case that failed.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Interaction {
    /// The end of the transcript (`SECONDS >TEXT` from the solution, `SECONDS <TEXT` to it),
    /// where the case failed; `None` when the transcript was off.
    pub transcript: Option<String>,
    /// Lines of the transcript before the ones shown.
    pub transcript_lines_before: usize,
    /// The end of the interactor's stderr.
    pub interactor_stderr: Option<String>,
}

impl CaseReport {
    /// A case decided without running the solution (a static validator's, or one no worker
    /// could judge): its verdict and why, nothing measured.
    pub fn unrun(name: &str, sample: bool, verdict: Verdict, reason: Option<Reason>) -> CaseReport {
        CaseReport {
            name: name.to_string(),
            sample,
            verdict,
            reason,
            hint: None,
            cpu: Duration::ZERO,
            wall: Duration::ZERO,
            memory_bytes: 0,
            output_bytes: 0,
            diff: None,
            stderr: None,
            killed_by: None,
            leftover_processes: 0,
            saved_output: None,
            input: None,
            parallel: false,
            rerun: None,
            timing: None,
            score: None,
            interaction: None,
            judge_message: None,
            passes: None,
            worker: None,
            attempt: None,
        }
    }

    /// CPU time of every run of the case (one run unless repeated).
    pub fn runs(&self) -> Vec<Duration> {
        match &self.timing {
            Some(t) => t.runs.clone(),
            None => vec![self.cpu],
        }
    }
}

/// What a case's run in parallel saw, before it was re-run alone for its final verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Rerun {
    pub verdict: Verdict,
    #[serde(
        rename = "time_ms",
        serialize_with = "serde_as::ms",
        deserialize_with = "serde_as::from_ms"
    )]
    #[schemars(with = "u64")]
    pub cpu: Duration,
}

/// The CPU times of a repeated case, and what they say.
#[derive(Debug, Clone)]
pub struct Timing {
    pub runs: Vec<Duration>,
    /// The verdicts of the runs were not all the same.
    pub verdict_changed: bool,
}

impl Timing {
    pub fn min(&self) -> Duration {
        self.runs.iter().copied().min().unwrap_or_default()
    }

    pub fn max(&self) -> Duration {
        self.runs.iter().copied().max().unwrap_or_default()
    }

    pub fn median(&self) -> Duration {
        stats::median(&self.runs)
    }

    /// (max - min) / median: 0 when every run took the same time.
    pub fn spread(&self) -> f64 {
        stats::spread(&self.runs)
    }

    pub fn wide(&self) -> bool {
        stats::wide_spread(&self.runs)
    }
}

/// The shape [`Timing`]'s own `Serialize` writes, for its schema: what the runs say is
/// computed as it is written, so no field of `Timing` holds it.
#[derive(JsonSchema)]
#[schemars(rename = "Timing")]
#[allow(dead_code)]
struct TimingJson {
    runs_ms: Vec<u64>,
    min_ms: u64,
    median_ms: u64,
    /// (max - min) / median, to three decimals.
    spread: f64,
    wide_spread: bool,
    verdict_changed: bool,
}

impl Serialize for Timing {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let ms = crate::units::millis;
        let mut st = s.serialize_struct("Timing", 6)?;
        st.serialize_field(
            "runs_ms",
            &self.runs.iter().map(|d| ms(*d)).collect::<Vec<_>>(),
        )?;
        st.serialize_field("min_ms", &ms(self.min()))?;
        st.serialize_field("median_ms", &ms(self.median()))?;
        st.serialize_field("spread", &((self.spread() * 1000.0).round() / 1000.0))?;
        st.serialize_field("wide_spread", &self.wide())?;
        st.serialize_field("verdict_changed", &self.verdict_changed)?;
        st.end()
    }
}

/// One solution judged on a problem's cases.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SolutionReport {
    pub problem: String,
    pub solution: String,
    pub path: PathBuf,
    /// The language's key: `rust`, `cpp`, `python`.
    pub language: String,
    /// As people write it: "C++", "Python 3".
    pub language_name: String,
    pub verdict: Verdict,
    pub expected: Option<Expectation>,
    pub compile: CompileReport,
    /// What isolated its programs from the machine (`--no-sandbox`: nothing).
    pub sandbox: Sandbox,
    /// The limits the cases ran under, the language's extra time included.
    pub limits: Limits,
    /// The problem's extra time for this language, when it has some.
    pub time_rule: Option<AppliedRule>,
    pub passed: usize,
    pub total: usize,
    /// Cases run at once.
    pub jobs: usize,
    /// Whether any time was measured while other cases ran.
    pub parallel: bool,
    pub cases: Vec<CaseReport>,
    /// A package's test groups, graded (verdict and score of each, the root last).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<Graded>,
    /// The groups give points (a scoring package): the score is what counts.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub scoring: bool,
    /// The cases were the sample interactions, replayed (`judge run --replay`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replay: bool,
    /// The run judged only part of the problem's cases: its verdict is not the solution's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial: Option<Partial>,
    /// Judged on other machines (`--nats`): the workers that judged its cases.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers: Vec<Worker>,
    /// The submission's key when it is the same submission whenever it is judged (a line of
    /// `judge batch`): the history keeps one record per key, the latest.
    #[serde(rename = "submission_key", skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Cases run under the shorter cap after the first TLE that did not finish within it:
    /// they have no verdict, and are not in `cases`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_timed: Vec<NotTimed>,
    /// A package's own graders' grading at other limits than the run's (a verify's limit, the
    /// language's extra time applied): what grading at those limits cannot compute without
    /// running them.
    #[serde(skip)]
    pub graded_at: Vec<(Duration, Graded)>,
}

impl crate::schema::Document for SolutionReport {
    const SCHEMA: &'static str = "judge.run/1";
}

/// A case run under the shorter cap after a TLE (`judge run`'s default) that did not finish
/// within it. Whether it would have passed under the whole limit is not known: it has no
/// verdict, and the run is partial.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NotTimed {
    pub name: String,
    pub sample: bool,
    /// The cap it ran under.
    #[serde(rename = "cap_ms", serialize_with = "serde_as::ms")]
    #[schemars(with = "u64")]
    pub cap: Duration,
    /// What it used before it was stopped.
    #[serde(rename = "time_ms", serialize_with = "serde_as::ms")]
    #[schemars(with = "u64")]
    pub cpu: Duration,
    #[serde(rename = "wall_ms", serialize_with = "serde_as::ms")]
    #[schemars(with = "u64")]
    pub wall: Duration,
}

impl NotTimed {
    /// Its time as every table and page shows it ([`not_timed_time`]).
    pub fn time_text(&self) -> String {
        not_timed_time(self.cpu, self.cap)
    }
}

/// The time of a case not timed, used `cpu` under the cap `cap`: "> 1 s" when it used the
/// whole cap; what it used when it was stopped at the wall-clock cap before (asleep, or on a
/// busy machine).
pub fn not_timed_time(cpu: Duration, cap: Duration) -> String {
    crate::units::format_run_time(cpu, (cpu >= cap).then_some(cap))
}

/// A machine that judged cases of a run, and how its speed bore on the time limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Worker {
    pub name: String,
    pub host: String,
    pub cpu: String,
    /// Microseconds of the fixed calibration loop there (lower is faster).
    pub calibration_us: u64,
    /// The time limit was scaled for it by this factor (its speed differed from this
    /// machine's by more than the margin); `None`: the limit stood.
    pub time_scale: Option<f64>,
    /// Cases it judged.
    pub cases: usize,
}

/// Which of the problem's cases a run was asked for, when not all of them (`--samples`, `--case`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// The samples were asked for.
    pub samples: bool,
    /// The `--case` patterns.
    pub cases: Vec<String>,
    /// How many cases the problem has in all.
    pub of: usize,
}

/// A run that judged fewer than all of the problem's cases: what it judged, and why. Such a run
/// is never the solution's verdict: not its first AC, not its best time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Partial {
    /// The samples were asked for.
    pub samples: bool,
    /// The `--case` patterns asked for.
    pub cases: Vec<String>,
    /// The run ended before its last case (`--stop-on-fail`, `--skip-after-tle`).
    pub stopped_early: bool,
    /// Cases that ran under the shorter cap after a TLE and did not finish: no verdict.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub not_timed: usize,
    /// Cases judged (with a verdict).
    pub judged: usize,
    /// The problem's cases in all.
    pub of: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Partial {
    /// A run's part, when it is one: `selection` says what was asked for (`None`: every case),
    /// `judged` how many cases got a verdict, `stopped_early` whether it ended before its last
    /// case, `not_timed` how many did not finish under the shorter cap after a TLE.
    pub fn of(
        selection: Option<&Selection>,
        total: usize,
        (judged, not_timed): (usize, usize),
        stopped_early: bool,
    ) -> Option<Partial> {
        let of = selection.map_or(total, |s| s.of);
        let selected = selection.filter(|_| total < of);
        if selected.is_none() && !stopped_early && not_timed == 0 {
            return None;
        }
        Some(Partial {
            samples: selected.is_some_and(|s| s.samples),
            cases: selected.map(|s| s.cases.clone()).unwrap_or_default(),
            stopped_early,
            not_timed,
            judged,
            of,
        })
    }

    /// "the samples only, 2 of 15 cases", "cases 1* only, 3 of 15 cases", "stopped early, 5 of 15
    /// cases", "4 not timed after a TLE, 1 of 5 cases".
    pub fn describe(&self) -> String {
        let mut what = Vec::new();
        match (self.samples, self.cases.as_slice()) {
            (true, []) => what.push("the samples only".to_string()),
            (true, cases) => what.push(format!("the samples and cases {}", cases.join(" "))),
            (false, []) => {}
            (false, [one]) => what.push(format!("case {one} only")),
            (false, cases) => what.push(format!("cases {} only", cases.join(" "))),
        }
        if self.stopped_early {
            what.push("stopped early".to_string());
        }
        if self.not_timed > 0 {
            what.push(format!("{} not timed after a TLE", self.not_timed));
        }
        what.push(format!("{} of {} cases", self.judged, self.of));
        what.join(", ")
    }
}

/// A language's extra time as applied: the problem's limit and the rule that made it longer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
pub struct AppliedRule {
    #[serde(rename = "base_ms", serialize_with = "serde_as::ms")]
    #[schemars(with = "u64")]
    pub base: Duration,
    #[serde(serialize_with = "serde_as::display")]
    #[schemars(with = "String")]
    pub rule: TimeRule,
}

/// A solution that could not be judged on this machine: never a pass, never a failure.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Skipped {
    pub solution: String,
    pub path: PathBuf,
    /// Why: "C# needs `mcs`, which is not installed".
    pub skipped: String,
}

impl SolutionReport {
    pub fn max_cpu(&self) -> Duration {
        self.cases.iter().map(|c| c.cpu).max().unwrap_or_default()
    }

    pub fn max_memory(&self) -> u64 {
        self.cases.iter().map(|c| c.memory_bytes).max().unwrap_or(0)
    }

    /// Whether the verdict is the expected one; `None` without an expectation.
    pub fn matches_expected(&self) -> Option<bool> {
        self.expected.as_ref().map(|e| e.admits(self.verdict))
    }

    /// A case went over the time limit: the max time is only a lower bound.
    pub fn any_tle(&self) -> bool {
        self.cases.iter().any(|c| c.verdict == Verdict::Tle)
    }

    /// Each case's verdict at a lower `limit` than the one it ran under: a case whose CPU time
    /// is over it is a TLE there, whatever else happened (time is decided first).
    pub fn case_verdicts_at(&self, limit: Duration) -> Vec<Verdict> {
        self.cases
            .iter()
            .map(|c| {
                if c.cpu > limit {
                    Verdict::Tle
                } else {
                    c.verdict
                }
            })
            .collect()
    }

    /// Fills in what follows from the cases: how many passed, the verdict of the whole run (the
    /// first failure's, or as a package's groups grade it, with their scores).
    pub fn conclude(&mut self, grading: Option<&Group>) {
        self.passed = self
            .cases
            .iter()
            .filter(|c| c.verdict == Verdict::Ac)
            .count();
        self.verdict = verdict::overall(self.cases.iter().map(|c| &c.verdict));
        if let Some(g) = grading {
            let graded = g.grade_with(&|name| {
                self.cases
                    .iter()
                    .find(|c| c.name == name)
                    .map(|c| CaseResult {
                        verdict: c.verdict,
                        score: c.score,
                    })
            });
            self.verdict = graded.root().verdict;
            self.groups = Some(graded);
        }
    }

    /// The score of a scoring package: the root group's, and the most it could be.
    pub fn score(&self) -> Option<(f64, Option<f64>)> {
        let root = self.groups.as_ref()?.root();
        Some((root.score, root.max_score))
    }

    /// A scoring package's run that scored less than the most it could: even when its verdict
    /// is AC, it is not the solution's first AC or best time.
    pub fn below_max_score(&self) -> bool {
        match (self.scoring, self.score()) {
            (true, Some((score, Some(max)))) => max.is_finite() && score < max,
            _ => false,
        }
    }
}
