//! Verdicts: one pure decision, from everything that can decide one (what was measured, the checker's finding, a full disk, the interactor's word, a multi-pass validator's request), to a `Decision`: the verdict and its typed `Reason`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Serialize, Serializer};

use crate::check::CheckOutcome;
pub use crate::reason::{CheckerEnd, CheckerFailed, FullDisk, Reason};
pub use expectation::Expectation;
use judge_runner::{signal_name, KilledBy, Outcome, Response};

mod expectation;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    Ac,
    Wa,
    Tle,
    Mle,
    Ole,
    Re,
    Ce,
    Ie,
}

impl Verdict {
    pub const ALL: [Verdict; 8] = [
        Verdict::Ac,
        Verdict::Wa,
        Verdict::Tle,
        Verdict::Mle,
        Verdict::Ole,
        Verdict::Re,
        Verdict::Ce,
        Verdict::Ie,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Verdict::Ac => "AC",
            Verdict::Wa => "WA",
            Verdict::Tle => "TLE",
            Verdict::Mle => "MLE",
            Verdict::Ole => "OLE",
            Verdict::Re => "RE",
            Verdict::Ce => "CE",
            Verdict::Ie => "IE",
        }
    }

    pub fn meaning(self) -> &'static str {
        match self {
            Verdict::Ac => "accepted",
            Verdict::Wa => "wrong answer",
            Verdict::Tle => "time limit exceeded",
            Verdict::Mle => "memory limit exceeded",
            Verdict::Ole => "output limit exceeded",
            Verdict::Re => "runtime error",
            Verdict::Ce => "compilation error",
            Verdict::Ie => "internal error (the judge or the problem is at fault)",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for Verdict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Verdict, D::Error> {
        let code = String::deserialize(d)?;
        code.parse().map_err(serde::de::Error::custom)
    }
}

/// A verdict or an expectation that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerdictError {
    /// The text, as compared: trimmed and upper-cased.
    #[error("`{0}` is not a verdict (AC, WA, TLE, MLE, OLE, RE, CE, IE)")]
    Unknown(String),
    #[error("`{0}` cannot be expected: an internal error is the judge's or the problem's fault, not the solution's")]
    InternalErrorExpected(String),
    #[error("empty")]
    NoneExpected,
}

impl FromStr for Verdict {
    type Err = VerdictError;

    /// Our codes, and Polygon's and Kattis' names for the same verdicts.
    fn from_str(s: &str) -> Result<Verdict, VerdictError> {
        Ok(match s.trim().to_ascii_uppercase().as_str() {
            "AC" | "OK" | "ACCEPTED" => Verdict::Ac,
            "WA" | "WRONG-ANSWER" | "WRONG_ANSWER" => Verdict::Wa,
            "TLE" | "TL" | "TIME-LIMIT-EXCEEDED" | "TIMELIMIT" => Verdict::Tle,
            "MLE" | "ML" | "MEMORY-LIMIT-EXCEEDED" => Verdict::Mle,
            "OLE" | "OL" | "IL" | "OUTPUT-LIMIT-EXCEEDED" => Verdict::Ole,
            "RE" | "RTE" | "RUN-ERROR" | "RUNTIME-ERROR" => Verdict::Re,
            "CE" | "COMPILATION-ERROR" => Verdict::Ce,
            "IE" | "JE" | "INTERNAL-ERROR" | "JUDGE-ERROR" => Verdict::Ie,
            other => return Err(VerdictError::Unknown(other.to_string())),
        })
    }
}

/// What was measured of one run, as far as the verdict depends on it.
#[derive(Debug, Clone)]
pub struct Measurement {
    pub outcome: Outcome,
    pub cpu: Duration,
    pub wall: Duration,
    pub peak_memory_bytes: u64,
    pub killed_by: Option<KilledBy>,
    pub stdout_bytes: u64,
    /// Processes the program started that were still running when it ended.
    pub leftover_processes: u32,
}

impl Measurement {
    /// What the verdict needs of what the runner measured.
    pub fn of(r: &Response) -> Measurement {
        Measurement {
            outcome: r.outcome.clone(),
            cpu: Duration::from_micros(r.cpu_us()),
            wall: Duration::from_micros(r.wall_us),
            peak_memory_bytes: r.max_rss_kb * 1024,
            killed_by: r.killed_by,
            stdout_bytes: r.stdout_bytes,
            leftover_processes: r.leftover_processes,
        }
    }

    /// Who ended the program early: the judge at one of its limits, or the kernel at one of
    /// its own (the output limit is RLIMIT_FSIZE's SIGXFSZ, the CPU backstop RLIMIT_CPU's SIGXCPU).
    pub fn stopped_by(&self) -> Option<StoppedBy> {
        match (self.killed_by, &self.outcome) {
            (Some(KilledBy::WallCap), _) => Some(StoppedBy::WallCap),
            (Some(KilledBy::CpuLimit), _) => Some(StoppedBy::CpuLimit),
            (Some(KilledBy::MemoryLimit), _) => Some(StoppedBy::MemoryLimit),
            (Some(KilledBy::FolderLimit), _) => Some(StoppedBy::FolderLimit),
            (None, Outcome::Signaled(s)) if *s == judge_runner::SIGXFSZ => {
                Some(StoppedBy::OutputLimit)
            }
            (None, Outcome::Signaled(s)) if *s == judge_runner::SIGXCPU => {
                Some(StoppedBy::CpuBackstop)
            }
            _ => None,
        }
    }
}

/// Who ended a program before it finished by itself (`killed_by` in the JSON).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum StoppedBy {
    WallCap,
    CpuLimit,
    MemoryLimit,
    OutputLimit,
    /// Its files together went over the output limit.
    FolderLimit,
    CpuBackstop,
}

/// The limits one run was held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub time: Duration,
    pub wall: Duration,
    pub memory_bytes: u64,
    pub output_bytes: u64,
    pub memory_rule: MemoryRule,
}

/// What the memory limit holds a program to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MemoryRule {
    /// Resident memory, sampled, as cgroup-based judges count it: memory a program reserves
    /// but never touches is free.
    #[default]
    Resident,
    /// Its address space too (RLIMIT_AS at the limit), as problemtools and Kattis run a
    /// program: an allocation past the limit fails at once (a run-time error), whether or not
    /// the memory is ever touched.
    AddressSpace,
}

impl Limits {
    /// The wall-clock cap for a CPU time limit: 2 x limit + 1 s, as CMS does. Every program
    /// the judge runs (solutions, checkers, generators) is capped by this one rule.
    pub fn wall_cap(time: Duration) -> Duration {
        time * 2 + Duration::from_secs(1)
    }

    /// Limits with the wall cap derived from the time limit.
    pub fn new(time: Duration, memory_bytes: u64, output_bytes: u64) -> Limits {
        Limits {
            time,
            wall: Limits::wall_cap(time),
            memory_bytes,
            output_bytes,
            memory_rule: MemoryRule::Resident,
        }
    }

    /// The same limits under another time limit (and its wall cap).
    pub fn with_time(self, time: Duration) -> Limits {
        Limits {
            time,
            wall: Limits::wall_cap(time),
            ..self
        }
    }

    /// The same limits with the memory limit held by `rule`.
    pub fn with_memory_rule(self, memory_rule: MemoryRule) -> Limits {
        Limits {
            memory_rule,
            ..self
        }
    }
}

impl Serialize for Limits {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Limits", 4)?;
        st.serialize_field("time_ms", &crate::units::millis(self.time))?;
        st.serialize_field("wall_ms", &crate::units::millis(self.wall))?;
        st.serialize_field("memory_kb", &(self.memory_bytes / 1024))?;
        st.serialize_field("output_kb", &(self.output_bytes / 1024))?;
        st.end()
    }
}

/// What the checker made of an output, as far as the verdict depends on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// It judged: accepted or rejected, with its message and hint.
    Judged(CheckOutcome),
    /// It could not judge (it failed, does not compile, a file could not be read): why.
    /// Never the solution's fault.
    Failed(CheckerFailed),
}

/// A checker's finding, of which the verdict reads only its [`Check`]; the rest (a diff, a
/// score, what a validator wrote) is the report's, handed back by [`decide`] as it came.
pub trait Finding {
    fn check(&self) -> Check;
}

impl Finding for Check {
    fn check(&self) -> Check {
        self.clone()
    }
}

/// Everything besides the checker that can decide a case's verdict.
#[derive(Debug, Clone, Copy)]
pub struct Evidence<'a> {
    /// What was measured of the solution's run.
    pub run: &'a Measurement,
    pub limits: &'a Limits,
    /// The judge's scratch folder was all but full when the run ended (see
    /// [`Reason::DiskFull`]).
    pub full_disk: Option<&'a FullDisk>,
    /// A function problem's harness refused to print what the solution's function returned
    /// (see [`HarnessSaid`]): its word, taken when the run ended with the harness's own exit
    /// status ([`HARNESS_EXIT`]) and nothing else decided it first.
    pub harness: Option<&'a HarnessSaid>,
}

impl<'a> Evidence<'a> {
    /// A run and its limits, with room on the disk.
    pub fn of(run: &'a Measurement, limits: &'a Limits) -> Evidence<'a> {
        Evidence {
            run,
            limits,
            full_disk: None,
            harness: None,
        }
    }
}

/// The exit status with which a function problem's harness says it did not print what the
/// function returned, its reason on stderr: no program the judge writes ends so otherwise.
pub const HARNESS_EXIT: i32 = 86;

/// Why a function problem's harness printed no return value (or read no argument).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HarnessSaid {
    /// The solution's function returned a value not of the declared type (a `str` where `int`
    /// was declared, a number out of `int`'s range): the solution's fault, WA.
    WrongType(String),
    /// The value cannot be written as JSON (a `double` NaN or infinite), or an argument could
    /// not be read: the judge's or the problem's fault, never the solution's, IE.
    Judge(String),
}

impl HarnessSaid {
    fn decision(&self) -> Decision {
        match self {
            HarnessSaid::WrongType(why) => {
                Decision::new(Verdict::Wa, Reason::WrongType(why.clone()))
            }
            HarnessSaid::Judge(why) => Decision::new(Verdict::Ie, Reason::Harness(why.clone())),
        }
    }
}

/// A case's verdict and why: decided once, by [`decide`] (or its interactive twin), and never
/// changed afterwards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub verdict: Verdict,
    pub reason: Reason,
}

impl Decision {
    pub fn new(verdict: Verdict, reason: Reason) -> Decision {
        Decision { verdict, reason }
    }
}

/// Decides the verdict of one run. The checker (`check`, a finding or the judge's own error)
/// is consulted only when the run itself was clean; what it found comes back beside the
/// decision, for the report.
///
/// Order (as trusted judges decide): time, then output, then memory, then a crash (or a function
/// problem's harness refusing the returned value: WA for a value of another type, IE for one JSON
/// cannot write), then the answer.
/// Who killed the program is known (the runner records it), so a bare SIGKILL is never guessed at.
/// A program that could not start is IE; so is an output the checker could not judge; and a
/// full disk makes any other verdict but AC an IE, since a refused write is the machine's
/// fault, never the program's.
pub fn decide<T: Finding, E>(
    evidence: Evidence<'_>,
    check: impl FnOnce() -> Result<T, E>,
) -> Result<(Decision, Option<T>), E> {
    if let Some(decided) = by_run(evidence.run, evidence.limits) {
        // The harness's exit status is its word only: the limits weigh first, as for any run.
        let decided = match (evidence.harness, &decided.reason) {
            (Some(said), Reason::ExitCode(HARNESS_EXIT)) => said.decision(),
            _ => decided,
        };
        return Ok((on_disk(evidence, decided), None));
    }
    let found = check()?;
    let decided = match found.check() {
        Check::Failed(why) => Decision::new(Verdict::Ie, Reason::Checker(why)),
        Check::Judged(c) if c.accepted => Decision::new(Verdict::Ac, Reason::Accepted),
        Check::Judged(c) => Decision::new(Verdict::Wa, Reason::WrongAnswer(c.message)),
    };
    Ok((on_disk(evidence, decided), Some(found)))
}

/// Decides a run whose output nothing checks (a generator, a reference making an answer):
/// AC when it ran cleanly within its limits.
pub fn decide_unchecked(m: &Measurement, limits: &Limits) -> Decision {
    by_run(m, limits).unwrap_or_else(|| Decision::new(Verdict::Ac, Reason::Accepted))
}

/// The verdict the run alone decides, when it does: `None` for a clean run, which the
/// checker decides.
fn by_run(m: &Measurement, limits: &Limits) -> Option<Decision> {
    let signal = match m.outcome {
        Outcome::Signaled(s) => Some(s),
        _ => None,
    };
    let (verdict, reason) = if let Outcome::SpawnFailed(why) = &m.outcome {
        (Verdict::Ie, Reason::NotStarted(why.clone()))
    } else if m.killed_by == Some(KilledBy::WallCap) {
        if m.cpu > limits.time {
            (Verdict::Tle, Reason::CpuTime)
        } else if m.leftover_processes > 0 {
            // Processes it started (their CPU time is not its own until it waits for them)
            // were still at work; else under 10% of a core: it slept, waited or was stopped;
            // else it was running, but the machine was too busy to give it its CPU time.
            (
                Verdict::Tle,
                Reason::WallClockWithChildren(m.leftover_processes),
            )
        } else {
            let idle = m.cpu * 10 < m.wall;
            (Verdict::Tle, Reason::WallClock { idle })
        }
    } else if m.cpu > limits.time
        || m.killed_by == Some(KilledBy::CpuLimit)
        || signal == Some(judge_runner::SIGXCPU)
    {
        (Verdict::Tle, Reason::CpuTime)
    } else if signal == Some(judge_runner::SIGXFSZ) {
        (Verdict::Ole, Reason::Output { signal: true })
    } else if m.stdout_bytes > limits.output_bytes {
        (Verdict::Ole, Reason::Output { signal: false })
    } else if m.killed_by == Some(KilledBy::FolderLimit) {
        (Verdict::Ole, Reason::Files)
    } else if m.killed_by == Some(KilledBy::MemoryLimit) {
        (Verdict::Mle, Reason::Memory { killed: true })
    } else if m.peak_memory_bytes > limits.memory_bytes {
        (Verdict::Mle, Reason::Memory { killed: false })
    } else if let Some(sig) = signal {
        (Verdict::Re, Reason::Signal(sig))
    } else if let Outcome::Exited(code @ (i32::MIN..=-1 | 1..)) = m.outcome {
        (Verdict::Re, Reason::ExitCode(code))
    } else {
        return None;
    };
    Some(Decision::new(verdict, reason))
}

/// A full disk makes any verdict but AC or IE an IE: neither a crash nor a cut output is the
/// program's when its writes may have been refused.
fn on_disk(evidence: Evidence<'_>, decided: Decision) -> Decision {
    match evidence.full_disk {
        Some(full) if !matches!(decided.verdict, Verdict::Ac | Verdict::Ie) => {
            Decision::new(Verdict::Ie, Reason::DiskFull(full.clone()))
        }
        _ => decided,
    }
}

/// What the interactor of an interactive run said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InteractorSaid {
    Accepted,
    /// Rejected, with its message.
    Rejected(Option<String>),
    /// It failed (crashed, went over its own limits, exited with a code its protocol does not
    /// know): never the solution's fault.
    Failed(String),
}

/// Decides the verdict of an interactive run, in problemtools' order: the solution not
/// started, or the interactor failing (IE); the interactor rejecting before the solution ended
/// (WA, whatever the solution did next); then the solution's own run as [`decide`] judges it
/// (time, memory, a crash); and last the interactor's word, and the checker's (`check`) after
/// an acceptance. A full disk weighs as in [`decide`].
pub fn decide_interactive<T: Finding, E>(
    evidence: Evidence<'_>,
    (said, said_first): (InteractorSaid, bool),
    check: impl FnOnce() -> Result<T, E>,
) -> Result<(Decision, Option<T>), E> {
    let m = evidence.run;
    if let Outcome::SpawnFailed(why) = &m.outcome {
        return Ok((
            Decision::new(Verdict::Ie, Reason::NotStarted(why.clone())),
            None,
        ));
    }
    // A solution killed by SIGPIPE wrote to an interactor that had stopped listening, so the
    // interactor was done first, even when both ends were seen at the same moment (the
    // solution meets the closed pipe before the interactor's exit shows).
    let said_first = said_first || m.outcome == Outcome::Signaled(judge_runner::SIGPIPE);
    let rejected = |message: Option<String>| {
        let why = message
            .unwrap_or_else(|| "the interactor rejected the solution (it gave no reason)".into());
        Decision::new(Verdict::Wa, Reason::WrongAnswer(Some(why)))
    };
    let decided = match said {
        InteractorSaid::Failed(why) => Decision::new(Verdict::Ie, Reason::Interactor(why)),
        InteractorSaid::Rejected(message) if said_first => rejected(message),
        said => match (by_run(m, evidence.limits), said) {
            (Some(d), _) if d.reason == (Reason::WallClock { idle: true }) && !said_first => {
                Decision::new(Verdict::Tle, Reason::BothWaiting)
            }
            (Some(d), _) => d,
            (None, InteractorSaid::Rejected(message)) => rejected(message),
            (None, _) => return decide(evidence, check),
        },
    };
    Ok((on_disk(evidence, decided), None))
}

/// A pass of a multi-pass case decided: on to the next, or the case's decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pass {
    Next,
    Ends(Decision),
}

/// What a pass's `decision` makes of a multi-pass case: the pass is `pass` of at most `max`;
/// the output validator `asked` for another (it wrote `nextpass.in`); `input`, the input the
/// validator gave this pass, shown beside a failure. Asking for another pass while rejecting,
/// or for more passes than allowed, is the package's fault (IE).
pub fn decide_pass(
    decision: Decision,
    (pass, max): (u32, u32),
    asked: bool,
    input: Option<String>,
) -> Pass {
    let ends = |verdict, reason| Pass::Ends(Decision::new(verdict, reason));
    match decision.verdict {
        Verdict::Wa if asked => ends(Verdict::Ie, Reason::PassAfterRejection(pass)),
        Verdict::Ac if !asked => Pass::Ends(decision),
        Verdict::Ac if pass == max => ends(Verdict::Ie, Reason::TooManyPasses { pass, max }),
        Verdict::Ac => Pass::Next,
        verdict => ends(
            verdict,
            Reason::InPass {
                pass,
                input,
                reason: Box::new(decision.reason),
            },
        ),
    }
}

/// Why a run of one of the judge's own programs (a compiler, a checker, a generator) did not
/// end by itself, in words ("it used more than its 10 s of CPU time"); `None` when it did, and
/// its exit code is then the caller's to read.
pub fn describe_stop(m: &Measurement, limits: &Limits) -> Option<String> {
    use crate::units::{format_bytes, format_duration};
    if let Outcome::SpawnFailed(why) = &m.outcome {
        return Some(format!("it could not be started: {why}"));
    }
    let signal = match m.outcome {
        Outcome::Signaled(s) => Some(s),
        _ => None,
    };
    Some(match m.stopped_by() {
        Some(StoppedBy::WallCap) if m.cpu <= limits.time => {
            format!("it took longer than {}", format_duration(limits.wall))
        }
        Some(StoppedBy::WallCap | StoppedBy::CpuLimit | StoppedBy::CpuBackstop) => format!(
            "it used more than its {} of CPU time",
            format_duration(limits.time)
        ),
        Some(StoppedBy::MemoryLimit) => format!(
            "it used more than its {} of memory",
            format_bytes(limits.memory_bytes)
        ),
        Some(StoppedBy::OutputLimit) => format!(
            "it wrote more than its {} of output",
            format_bytes(limits.output_bytes)
        ),
        Some(StoppedBy::FolderLimit) => format!(
            "it wrote more than its disk quota ({} of files together)",
            format_bytes(limits.output_bytes)
        ),
        None if m.cpu > limits.time => format!(
            "it used more than its {} of CPU time",
            format_duration(limits.time)
        ),
        None if m.peak_memory_bytes > limits.memory_bytes => format!(
            "it used more than its {} of memory",
            format_bytes(limits.memory_bytes)
        ),
        None => format!("it was killed by {}", signal_name(signal?)),
    })
}

/// The verdict of a whole run: the first case that is not AC decides, as on an online judge.
pub fn overall<'a>(verdicts: impl IntoIterator<Item = &'a Verdict>) -> Verdict {
    verdicts
        .into_iter()
        .copied()
        .find(|v| *v != Verdict::Ac)
        .unwrap_or(Verdict::Ac)
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;

    use super::*;
    use judge_runner::{SIGPIPE, SIGSEGV, SIGXCPU, SIGXFSZ};
    use Verdict::{Ac, Ie, Mle, Ole, Re, Tle, Wa};

    fn clean() -> Measurement {
        Measurement {
            outcome: Outcome::Exited(0),
            cpu: Duration::from_millis(10),
            wall: Duration::from_millis(12),
            peak_memory_bytes: 2 << 20,
            killed_by: None,
            stdout_bytes: 3,
            leftover_processes: 0,
        }
    }

    const LIMITS: Limits = Limits {
        time: Duration::from_secs(1),
        wall: Duration::from_secs(3),
        memory_bytes: 256 << 20,
        output_bytes: 64 << 20,
        memory_rule: MemoryRule::Resident,
    };

    fn ok() -> Check {
        Check::Judged(CheckOutcome::accepted())
    }

    fn wa() -> Check {
        Check::Judged(CheckOutcome::rejected("no".into()))
    }

    fn exit_3() -> CheckerFailed {
        CheckerFailed::Ended {
            checker: "checker.cpp".into(),
            end: CheckerEnd::ExitCode(3),
            message: None,
        }
    }

    fn checker_failed() -> Check {
        Check::Failed(exit_3())
    }

    fn full() -> FullDisk {
        FullDisk {
            dir: "/tmp/judge-x".into(),
            free: 4096,
        }
    }

    /// The decision on `m` when the checker would say `check`, the disk full or not.
    fn decided(m: Measurement, check: Check, disk: Option<&FullDisk>) -> Decision {
        let evidence = Evidence {
            full_disk: disk,
            ..Evidence::of(&m, &LIMITS)
        };
        decide(evidence, || Ok::<_, Infallible>(check)).unwrap().0
    }

    /// A function's harness refused the returned value: its word is the verdict when the run
    /// ended with its status, after the limits; a full disk still weighs.
    #[test]
    fn the_harness_refusing_a_value_decides_after_the_limits() {
        let refused = Measurement {
            outcome: Outcome::Exited(HARNESS_EXIT),
            ..clean()
        };
        let on = |m: &Measurement, said: &HarnessSaid, disk: Option<&FullDisk>| {
            let evidence = Evidence {
                harness: Some(said),
                full_disk: disk,
                ..Evidence::of(m, &LIMITS)
            };
            decide(evidence, || Ok::<_, Infallible>(ok())).unwrap().0
        };
        let wrong = HarnessSaid::WrongType("`f` returned a str".into());
        let nan = HarnessSaid::Judge("`f` returned NaN".into());
        assert_eq!(
            on(&refused, &wrong, None),
            d(Wa, Reason::WrongType("`f` returned a str".into()))
        );
        assert_eq!(
            on(&refused, &nan, None),
            d(Ie, Reason::Harness("`f` returned NaN".into()))
        );
        assert_eq!(on(&refused, &wrong, Some(&full())).verdict, Ie);
        let slow = Measurement {
            cpu: Duration::from_secs(2),
            ..refused.clone()
        };
        assert_eq!(on(&slow, &nan, None), d(Tle, Reason::CpuTime));
        let other = Measurement {
            outcome: Outcome::Exited(1),
            ..clean()
        };
        assert_eq!(on(&other, &nan, None), d(Re, Reason::ExitCode(1)));
        assert_eq!(
            decided(refused, ok(), None),
            d(Re, Reason::ExitCode(HARNESS_EXIT))
        );
    }

    fn killed(by: KilledBy, m: Measurement) -> Measurement {
        Measurement {
            killed_by: Some(by),
            outcome: Outcome::Signaled(9),
            ..m
        }
    }

    fn d(verdict: Verdict, reason: Reason) -> Decision {
        Decision::new(verdict, reason)
    }

    /// Every reason `decide` gives, from the run, the checker and the disk, in today's order:
    /// not started, time, output, memory, a crash, then the checker; a full disk turns all
    /// but AC and IE into IE.
    #[test]
    fn decide_gives_every_reason_of_a_run_in_order() {
        let slow = |ms| Measurement {
            cpu: Duration::from_millis(ms),
            ..clean()
        };
        let at_wall_cap = |cpu_ms, leftover| Measurement {
            cpu: Duration::from_millis(cpu_ms),
            wall: Duration::from_secs(3),
            leftover_processes: leftover,
            ..killed(KilledBy::WallCap, clean())
        };
        let signaled = |s| Measurement {
            outcome: Outcome::Signaled(s),
            ..clean()
        };
        let exited = |code| Measurement {
            outcome: Outcome::Exited(code),
            ..clean()
        };
        let big = |m: Measurement| Measurement {
            peak_memory_bytes: 300 << 20,
            ..m
        };
        let no = CheckOutcome::unexplained();
        let spawn_failed = Outcome::SpawnFailed("no such file".into());
        let disk = full();
        let table: Vec<(&str, Measurement, Check, Option<&FullDisk>, Decision)> = vec![
            ("accepted", clean(), ok(), None, d(Ac, Reason::Accepted)),
            (
                "rejected",
                clean(),
                wa(),
                None,
                d(Wa, Reason::WrongAnswer(Some("no".into()))),
            ),
            (
                "rejected, no word",
                clean(),
                Check::Judged(no),
                None,
                d(Wa, Reason::WrongAnswer(None)),
            ),
            (
                "checker failed",
                clean(),
                checker_failed(),
                None,
                d(Ie, Reason::Checker(exit_3())),
            ),
            (
                "not started",
                Measurement {
                    outcome: spawn_failed.clone(),
                    ..clean()
                },
                ok(),
                None,
                d(Ie, Reason::NotStarted("no such file".into())),
            ),
            (
                "CPU limit",
                killed(KilledBy::CpuLimit, slow(1001)),
                ok(),
                None,
                d(Tle, Reason::CpuTime),
            ),
            (
                "over the limit, ended by itself",
                slow(1200),
                ok(),
                None,
                d(Tle, Reason::CpuTime),
            ),
            (
                "SIGXCPU",
                signaled(SIGXCPU),
                ok(),
                None,
                d(Tle, Reason::CpuTime),
            ),
            (
                "wall cap, idle",
                at_wall_cap(10, 0),
                ok(),
                None,
                d(Tle, Reason::WallClock { idle: true }),
            ),
            (
                "wall cap, busy machine",
                at_wall_cap(600, 0),
                ok(),
                None,
                d(Tle, Reason::WallClock { idle: false }),
            ),
            (
                "wall cap, over the CPU limit",
                at_wall_cap(1500, 3),
                ok(),
                None,
                d(Tle, Reason::CpuTime),
            ),
            (
                "wall cap, children at work",
                at_wall_cap(10, 511),
                ok(),
                None,
                d(Tle, Reason::WallClockWithChildren(511)),
            ),
            (
                "SIGXFSZ",
                signaled(SIGXFSZ),
                ok(),
                None,
                d(Ole, Reason::Output { signal: true }),
            ),
            (
                "stdout over",
                Measurement {
                    stdout_bytes: (64 << 20) + 1,
                    ..clean()
                },
                ok(),
                None,
                d(Ole, Reason::Output { signal: false }),
            ),
            (
                "folder over",
                killed(KilledBy::FolderLimit, clean()),
                ok(),
                None,
                d(Ole, Reason::Files),
            ),
            (
                "memory limit",
                killed(KilledBy::MemoryLimit, clean()),
                ok(),
                None,
                d(Mle, Reason::Memory { killed: true }),
            ),
            (
                "peak memory, then a crash",
                big(signaled(SIGSEGV)),
                ok(),
                None,
                d(Mle, Reason::Memory { killed: false }),
            ),
            (
                "signal",
                signaled(SIGSEGV),
                ok(),
                None,
                d(Re, Reason::Signal(SIGSEGV)),
            ),
            (
                "exit code",
                exited(42),
                ok(),
                None,
                d(Re, Reason::ExitCode(42)),
            ),
            (
                "negative exit code",
                exited(-1),
                ok(),
                None,
                d(Re, Reason::ExitCode(-1)),
            ),
            // Precedence: the run decides before the answer, time before the rest.
            (
                "wrong and slow",
                slow(1200),
                wa(),
                None,
                d(Tle, Reason::CpuTime),
            ),
            (
                "wrong and big",
                big(clean()),
                wa(),
                None,
                d(Mle, Reason::Memory { killed: false }),
            ),
            (
                "slow and big",
                big(slow(1200)),
                ok(),
                None,
                d(Tle, Reason::CpuTime),
            ),
            (
                "crashed, checker would fail",
                exited(1),
                checker_failed(),
                None,
                d(Re, Reason::ExitCode(1)),
            ),
            // The former overrides: a full disk makes a failure IE, never an acceptance.
            (
                "full disk, rejected",
                clean(),
                wa(),
                Some(&disk),
                d(Ie, Reason::DiskFull(full())),
            ),
            (
                "full disk, crashed",
                signaled(SIGSEGV),
                ok(),
                Some(&disk),
                d(Ie, Reason::DiskFull(full())),
            ),
            (
                "full disk, output over",
                signaled(SIGXFSZ),
                ok(),
                Some(&disk),
                d(Ie, Reason::DiskFull(full())),
            ),
            (
                "full disk, slow",
                slow(1200),
                ok(),
                Some(&disk),
                d(Ie, Reason::DiskFull(full())),
            ),
            (
                "full disk, accepted",
                clean(),
                ok(),
                Some(&disk),
                d(Ac, Reason::Accepted),
            ),
            (
                "full disk, checker failed",
                clean(),
                checker_failed(),
                Some(&disk),
                d(Ie, Reason::Checker(exit_3())),
            ),
            (
                "full disk, not started",
                Measurement {
                    outcome: spawn_failed,
                    ..clean()
                },
                ok(),
                Some(&disk),
                d(Ie, Reason::NotStarted("no such file".into())),
            ),
        ];
        for (name, m, check, disk, expected) in table {
            assert_eq!(decided(m, check, disk), expected, "{name}");
        }
    }

    #[test]
    fn the_checker_is_asked_only_about_a_clean_run_and_its_finding_comes_back() {
        let m = Measurement {
            outcome: Outcome::Exited(1),
            ..clean()
        };
        let (decision, found) = decide(
            Evidence::of(&m, &LIMITS),
            || -> Result<Check, Infallible> { panic!("checker consulted") },
        )
        .unwrap();
        assert_eq!((decision.verdict, found), (Re, None));
        let (decision, found) =
            decide(
                Evidence::of(&clean(), &LIMITS),
                || Ok::<_, Infallible>(wa()),
            )
            .unwrap();
        assert_eq!((decision.verdict, found), (Wa, Some(wa())));
        // The judge's own error is no verdict: it comes back as it was.
        let broken = decide(Evidence::of(&clean(), &LIMITS), || {
            Err::<Check, _>("broken")
        });
        assert_eq!(broken, Err("broken"));
        // A run nothing checks: AC when clean.
        assert_eq!(decide_unchecked(&clean(), &LIMITS), d(Ac, Reason::Accepted));
        assert_eq!(decide_unchecked(&m, &LIMITS), d(Re, Reason::ExitCode(1)));
    }

    #[test]
    fn expectations_parse_both_vocabularies() {
        let e: Expectation = "TLE or AC".parse().unwrap();
        assert!(e.admits(Verdict::Tle) && e.admits(Verdict::Ac) && !e.admits(Verdict::Wa));
        assert_eq!(e.to_string(), "AC or TLE");
        let e: Expectation = "TL|OK".parse().unwrap();
        assert_eq!(e, "AC or TLE".parse().unwrap());
        assert_eq!(
            "ace".parse::<Expectation>().unwrap_err().to_string(),
            "`ACE` is not a verdict (AC, WA, TLE, MLE, OLE, RE, CE, IE)"
        );
        assert_eq!("".parse::<Expectation>(), Err(VerdictError::NoneExpected));
        let ie = "AC or IE".parse::<Expectation>().unwrap_err();
        assert_eq!(
            ie.to_string(),
            "`IE` cannot be expected: an internal error is the judge's or the problem's fault, not the solution's"
        );
    }

    #[test]
    fn every_verdict_reads_back_from_its_code() {
        for v in Verdict::ALL {
            assert_eq!(v.code().parse::<Verdict>(), Ok(v));
            assert_eq!(v.code().to_lowercase().parse::<Verdict>(), Ok(v));
        }
    }

    #[test]
    fn the_first_failure_decides_the_run() {
        assert_eq!(overall(&[Verdict::Ac, Verdict::Ac]), Verdict::Ac);
        assert_eq!(
            overall(&[Verdict::Ac, Verdict::Tle, Verdict::Wa]),
            Verdict::Tle
        );
        assert_eq!(overall(&[]), Verdict::Ac);
    }

    fn interactive(m: Measurement, said: InteractorSaid, first: bool, check: Check) -> Decision {
        interactive_on(m, (said, first), check, None)
    }

    fn interactive_on(
        m: Measurement,
        said: (InteractorSaid, bool),
        check: Check,
        disk: Option<&FullDisk>,
    ) -> Decision {
        let evidence = Evidence {
            full_disk: disk,
            ..Evidence::of(&m, &LIMITS)
        };
        decide_interactive(evidence, said, || Ok::<_, Infallible>(check))
            .unwrap()
            .0
    }

    #[test]
    fn interactive_verdicts_follow_problemtools_order() {
        let rejected = || InteractorSaid::Rejected(Some("said 3 to 1".into()));
        let spun = killed(
            KilledBy::CpuLimit,
            Measurement {
                cpu: Duration::from_secs(2),
                ..clean()
            },
        );
        let crashed = Measurement {
            outcome: Outcome::Exited(101),
            ..clean()
        };
        let waited = killed(
            KilledBy::WallCap,
            Measurement {
                wall: Duration::from_secs(3),
                ..clean()
            },
        );
        let failed = || InteractorSaid::Failed("exit code 7".into());
        // The interactor failing is never the solution's fault, whatever the solution did.
        for m in [clean(), spun.clone(), crashed.clone()] {
            assert_eq!(interactive(m, failed(), true, ok()).verdict, Ie);
        }
        assert_eq!(
            interactive(clean(), failed(), false, ok()),
            d(Ie, Reason::Interactor("exit code 7".into()))
        );
        // Rejected first: WA, even when the solution then spun or crashed.
        for m in [clean(), spun.clone(), crashed.clone(), waited.clone()] {
            assert_eq!(
                interactive(m, rejected(), true, ok()),
                d(Wa, Reason::WrongAnswer(Some("said 3 to 1".into())))
            );
        }
        // Rejected after the solution ended: the solution's own run decides first.
        assert_eq!(interactive(spun, rejected(), false, ok()).verdict, Tle);
        assert_eq!(interactive(crashed, rejected(), false, ok()).verdict, Re);
        assert_eq!(
            interactive(waited.clone(), rejected(), false, ok()),
            d(Tle, Reason::BothWaiting)
        );
        assert_eq!(interactive(clean(), rejected(), false, ok()).verdict, Wa);
        // Killed by writing to a closed pipe: the interactor had stopped listening, so it was
        // first even when both ends were seen together; after an acceptance it is a crash.
        let broken_pipe = Measurement {
            outcome: Outcome::Signaled(SIGPIPE),
            ..clean()
        };
        assert_eq!(
            interactive(broken_pipe.clone(), rejected(), false, ok()).verdict,
            Wa
        );
        assert_eq!(
            interactive(broken_pipe, InteractorSaid::Accepted, false, ok()),
            d(Re, Reason::Signal(SIGPIPE))
        );
        // The interactor ended first and accepted, then the solution idled to the cap.
        assert_eq!(
            interactive(waited, InteractorSaid::Accepted, true, ok()),
            d(Tle, Reason::WallClock { idle: true })
        );
        // Accepted: the checker has the last word, its failure an IE.
        assert_eq!(
            interactive(clean(), InteractorSaid::Accepted, false, ok()).verdict,
            Ac
        );
        assert_eq!(
            interactive(clean(), InteractorSaid::Accepted, false, wa()).verdict,
            Wa
        );
        assert_eq!(
            interactive(clean(), InteractorSaid::Accepted, false, checker_failed()),
            d(Ie, Reason::Checker(exit_3()))
        );
        // A rejection without a word still says who rejected.
        let reason = interactive(clean(), InteractorSaid::Rejected(None), true, ok()).reason;
        assert_eq!(
            reason.to_string(),
            "the interactor rejected the solution (it gave no reason)"
        );
        // A full disk: a rejection is IE, the interactor's failure stays its own.
        let disk = full();
        let on_disk = |said| interactive_on(clean(), said, ok(), Some(&disk));
        assert_eq!(on_disk((rejected(), true)), d(Ie, Reason::DiskFull(full())));
        assert_eq!(
            on_disk((rejected(), false)),
            d(Ie, Reason::DiskFull(full()))
        );
        assert_eq!(
            on_disk((failed(), true)),
            d(Ie, Reason::Interactor("exit code 7".into()))
        );
        assert_eq!(
            on_disk((InteractorSaid::Accepted, false)),
            d(Ac, Reason::Accepted)
        );
    }

    #[test]
    fn a_pass_goes_on_only_when_accepted_and_asked_within_the_limit() {
        let accepted = || d(Ac, Reason::Accepted);
        let wrong = || d(Wa, Reason::WrongAnswer(Some("no".into())));
        assert_eq!(
            decide_pass(accepted(), (1, 3), false, None),
            Pass::Ends(accepted())
        );
        assert_eq!(decide_pass(accepted(), (2, 3), true, None), Pass::Next);
        assert_eq!(
            decide_pass(accepted(), (3, 3), true, None),
            Pass::Ends(d(Ie, Reason::TooManyPasses { pass: 3, max: 3 }))
        );
        assert_eq!(
            decide_pass(wrong(), (2, 3), true, None),
            Pass::Ends(d(Ie, Reason::PassAfterRejection(2)))
        );
        let in_pass = |pass, input: Option<&str>, reason| Reason::InPass {
            pass,
            input: input.map(str::to_string),
            reason: Box::new(reason),
        };
        assert_eq!(
            decide_pass(wrong(), (2, 3), false, Some("5 / 7".into())),
            Pass::Ends(d(
                Wa,
                in_pass(2, Some("5 / 7"), Reason::WrongAnswer(Some("no".into())))
            ))
        );
        // A pass over its limits ends the case so, asked for another or not.
        assert_eq!(
            decide_pass(d(Tle, Reason::CpuTime), (1, 3), true, None),
            Pass::Ends(d(Tle, in_pass(1, None, Reason::CpuTime)))
        );
    }

    /// Each reason's sentence, word for word: what the terminal, the pages and the JSON's
    /// `detail` say.
    #[test]
    fn every_reason_has_its_sentence() {
        let in_pass = |input: Option<&str>, reason| Reason::InPass {
            pass: 2,
            input: input.map(str::to_string),
            reason: Box::new(reason),
        };
        let table: Vec<(Reason, &str)> = vec![
            (Reason::Accepted, ""),
            (Reason::WrongAnswer(Some("token 1: expected `2`".into())), "token 1: expected `2`"),
            (Reason::WrongAnswer(None), "the checker rejected the output"),
            (Reason::CpuTime, "CPU time over the limit"),
            (Reason::WallClock { idle: true }, "wall-clock cap reached while the program was idle (sleeping, stopped or waiting)"),
            (Reason::WallClock { idle: false }, "wall-clock cap reached while the program was running: the machine was too busy to give it its CPU time"),
            (Reason::WallClockWithChildren(1), "wall-clock cap reached while 1 process the program started still ran"),
            (Reason::WallClockWithChildren(2), "wall-clock cap reached while 2 processes the program started still ran"),
            (Reason::Memory { killed: true }, "stopped when its memory went over the limit"),
            (Reason::Memory { killed: false }, "peak memory over the limit"),
            (Reason::Output { signal: true }, "stopped when its output went over the limit (SIGXFSZ)"),
            (Reason::Output { signal: false }, "output over the limit"),
            (Reason::Files, "stopped when the files it wrote in its folder went over the output limit"),
            (Reason::Signal(SIGSEGV), "killed by SIGSEGV"),
            (Reason::ExitCode(42), "exit code 42"),
            (Reason::NotStarted("no such file".into()), "could not be started: no such file"),
            (Reason::BothWaiting, "idle: both sides waiting; did the solution flush?"),
            (Reason::Interactor("exit code 7".into()), "the interactor failed: exit code 7"),
            (Reason::Checker(exit_3()), "checker failed: exit code 3 (checker.cpp)"),
            (Reason::Checker(CheckerFailed::Ended { checker: "checker.cpp".into(), end: CheckerEnd::Stopped("it used more than its 10 s of CPU time".into()), message: Some("ok 3 tokens".into()) }), "checker failed: it used more than its 10 s of CPU time: ok 3 tokens (checker.cpp)"),
            (Reason::Checker(CheckerFailed::Ended { checker: "check.py".into(), end: CheckerEnd::NoPoints, message: Some("well done".into()) }), "checker failed: exit code 7 (points) without a number of points: well done (check.py)"),
            (Reason::Checker(CheckerFailed::NotCompiled { checker: "checker.cpp".into(), diagnostics: "error: expected `;`".into() }), "the checker checker.cpp does not compile:\nerror: expected `;`"),
            (Reason::Checker(CheckerFailed::Setup("cannot read the program's output: gone".into())), "cannot read the program's output: gone"),
            (Reason::DiskFull(full()), "no space left in the judge's scratch folder (/tmp/judge-x, 4 KiB free) while the program ran: what it wrote may be cut short, so it gets no verdict\n  fix: free some space there, or set TMPDIR to a folder on a file system with room"),
            (in_pass(None, Reason::CpuTime), "in pass 2: CPU time over the limit"),
            (in_pass(Some("5 / 7"), Reason::ExitCode(1)), "in pass 2 (its input: 5 / 7): exit code 1"),
            (in_pass(None, Reason::Accepted), "in pass 2"),
            (Reason::PassAfterRejection(2), "pass 2: the output validator wrote nextpass.in and rejected the output; it may ask for another pass only when it accepts"),
            (Reason::TooManyPasses { pass: 3, max: 3 }, "the output validator asked for pass 4 after pass 3, and limits.validation_passes allows 3"),
            (Reason::NoStaticValidator, "a static validation case, and the package has no static validator"),
            (Reason::StaticValidator("the static validator failed: exit code 1 (static.py)".into()), "the static validator failed: exit code 1 (static.py)"),
            (Reason::StaticRejected(Some("uses goto".into())), "uses goto"),
            (Reason::StaticRejected(None), "the static validator rejected the submission (it gave no reason)"),
            (Reason::NotJudged("no worker took the job".into()), "no worker took the job"),
            (Reason::WrongType("`f` returned a str where int was declared".into()), "`f` returned a str where int was declared"),
            (Reason::Harness("`f` returned NaN".into()), "`f` returned NaN"),
            (Reason::Recorded("CPU time over the limit".into()), "CPU time over the limit"),
        ];
        for (reason, words) in table {
            assert_eq!(reason.to_string(), words, "{reason:?}");
            // Written as its sentence, read back as that sentence.
            let json = serde_json::to_string(&Some(&reason)).unwrap();
            assert_eq!(json, serde_json::to_string(words).unwrap());
            let back: Option<Reason> = serde_json::from_str(&json).unwrap();
            assert_eq!(back, Some(Reason::Recorded(words.into())));
        }
    }
}
