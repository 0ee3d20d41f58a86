//! Verdicts: a pure function from what was measured (and, last, what the checker said) to AC, WA, TLE, MLE, OLE, RE.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Serialize, Serializer};

use crate::check::CheckOutcome;
use judge_runner::{signal_name, KilledBy, Outcome, Response};

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

impl FromStr for Verdict {
    type Err = String;

    /// Our codes, and Polygon's and Kattis' names for the same verdicts.
    fn from_str(s: &str) -> Result<Verdict, String> {
        Ok(match s.trim().to_ascii_uppercase().as_str() {
            "AC" | "OK" | "ACCEPTED" => Verdict::Ac,
            "WA" | "WRONG-ANSWER" | "WRONG_ANSWER" => Verdict::Wa,
            "TLE" | "TL" | "TIME-LIMIT-EXCEEDED" | "TIMELIMIT" => Verdict::Tle,
            "MLE" | "ML" | "MEMORY-LIMIT-EXCEEDED" => Verdict::Mle,
            "OLE" | "OL" | "IL" | "OUTPUT-LIMIT-EXCEEDED" => Verdict::Ole,
            "RE" | "RTE" | "RUN-ERROR" | "RUNTIME-ERROR" => Verdict::Re,
            "CE" | "COMPILATION-ERROR" => Verdict::Ce,
            "IE" | "JE" | "INTERNAL-ERROR" | "JUDGE-ERROR" => Verdict::Ie,
            other => {
                return Err(format!(
                    "`{other}` is not a verdict (AC, WA, TLE, MLE, OLE, RE, CE, IE)"
                ))
            }
        })
    }
}

/// An expected verdict: one verdict, or several accepted alike ("TLE or AC").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation(pub BTreeSet<Verdict>);

impl Expectation {
    pub fn admits(&self, v: Verdict) -> bool {
        self.0.contains(&v)
    }

    /// Exactly this verdict and no other ("AC", not "AC or TLE").
    pub fn is_only(&self, v: Verdict) -> bool {
        self.0.len() == 1 && self.admits(v)
    }
}

impl Serialize for Expectation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl FromStr for Expectation {
    type Err = String;

    fn from_str(s: &str) -> Result<Expectation, String> {
        let set = s
            .split(['|', ','])
            .flat_map(|part| part.split(" or "))
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| match Verdict::from_str(p)? {
                // The judge's or the problem's fault is never what a solution is written for.
                Verdict::Ie => Err(format!(
                    "`{p}` cannot be expected: an internal error is the judge's or the problem's fault, not the solution's"
                )),
                v => Ok(v),
            })
            .collect::<Result<BTreeSet<_>, _>>()?;
        if set.is_empty() {
            return Err("empty".into());
        }
        Ok(Expectation(set))
    }
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<&str> = self.0.iter().map(|v| v.code()).collect();
        f.write_str(&parts.join(" or "))
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

/// Why a verdict was given, in terms a contestant can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    Accepted,
    /// The checker's message.
    WrongAnswer(Option<String>),
    CpuTime,
    /// The wall-clock cap fired; `idle` when the program used little CPU (it slept or stopped).
    WallClock {
        idle: bool,
    },
    /// The wall-clock cap fired while processes the program started were still running.
    WallClockWithChildren(u32),
    Memory {
        killed: bool,
    },
    Output {
        signal: bool,
    },
    /// The files it wrote in its folder went over the output limit.
    Files,
    Signal(i32),
    ExitCode(i32),
    NotStarted(String),
    /// Interactive: the wall-clock cap fired while the solution and the interactor each
    /// waited for the other.
    BothWaiting,
    /// Interactive: the interactor failed (IE): why, in words.
    Interactor(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Accepted => Ok(()),
            Reason::WrongAnswer(Some(m)) => f.write_str(m),
            Reason::WrongAnswer(None) => f.write_str("the checker rejected the output"),
            Reason::CpuTime => f.write_str("CPU time over the limit"),
            Reason::WallClock { idle: true } => f.write_str(
                "wall-clock cap reached while the program was idle (sleeping, stopped or waiting)",
            ),
            Reason::WallClock { idle: false } => f.write_str(
                "wall-clock cap reached while the program was running: the machine was too busy to give it its CPU time",
            ),
            Reason::WallClockWithChildren(n) => write!(
                f,
                "wall-clock cap reached while {n} process{} the program started still ran",
                if *n == 1 { "" } else { "es" }
            ),
            Reason::Memory { killed: true } => {
                f.write_str("stopped when its memory went over the limit")
            }
            Reason::Memory { killed: false } => f.write_str("peak memory over the limit"),
            Reason::Output { signal: true } => {
                f.write_str("stopped when its output went over the limit (SIGXFSZ)")
            }
            Reason::Output { signal: false } => f.write_str("output over the limit"),
            Reason::Files => {
                f.write_str("stopped when the files it wrote in its folder went over the output limit")
            }
            Reason::Signal(sig) => write!(f, "killed by {}", signal_name(*sig)),
            Reason::ExitCode(code) => write!(f, "exit code {code}"),
            Reason::NotStarted(why) => write!(f, "could not be started: {why}"),
            Reason::BothWaiting => {
                f.write_str("idle: both sides waiting; did the solution flush?")
            }
            Reason::Interactor(why) => write!(f, "the interactor failed: {why}"),
        }
    }
}

/// Decides the verdict of one run. The checker is consulted only when the run itself was clean.
///
/// Order (as trusted judges decide): time, then output, then memory, then a crash, then the answer.
/// Who killed the program is known (the runner records it), so a bare SIGKILL is never guessed at.
pub fn decide(
    m: &Measurement,
    limits: &Limits,
    check: impl FnOnce() -> CheckOutcome,
) -> (Verdict, Reason, Option<String>) {
    let signal = match m.outcome {
        Outcome::Signaled(s) => Some(s),
        _ => None,
    };
    if let Outcome::SpawnFailed(why) = &m.outcome {
        return (Verdict::Ie, Reason::NotStarted(why.clone()), None);
    }
    if m.killed_by == Some(KilledBy::WallCap) {
        if m.cpu > limits.time {
            return (Verdict::Tle, Reason::CpuTime, None);
        }
        // Processes it started (their CPU time is not its own until it waits for them) were
        // still at work; else under 10% of a core: it slept, waited or was stopped; else it
        // was running, but the machine was too busy to give it its CPU time.
        if m.leftover_processes > 0 {
            return (
                Verdict::Tle,
                Reason::WallClockWithChildren(m.leftover_processes),
                None,
            );
        }
        let idle = m.cpu * 10 < m.wall;
        return (Verdict::Tle, Reason::WallClock { idle }, None);
    }
    if m.cpu > limits.time
        || m.killed_by == Some(KilledBy::CpuLimit)
        || signal == Some(judge_runner::SIGXCPU)
    {
        return (Verdict::Tle, Reason::CpuTime, None);
    }
    if signal == Some(judge_runner::SIGXFSZ) {
        return (Verdict::Ole, Reason::Output { signal: true }, None);
    }
    if m.stdout_bytes > limits.output_bytes {
        return (Verdict::Ole, Reason::Output { signal: false }, None);
    }
    if m.killed_by == Some(KilledBy::FolderLimit) {
        return (Verdict::Ole, Reason::Files, None);
    }
    if m.killed_by == Some(KilledBy::MemoryLimit) {
        return (Verdict::Mle, Reason::Memory { killed: true }, None);
    }
    if m.peak_memory_bytes > limits.memory_bytes {
        return (Verdict::Mle, Reason::Memory { killed: false }, None);
    }
    if let Some(sig) = signal {
        return (Verdict::Re, Reason::Signal(sig), None);
    }
    if let Outcome::Exited(code) = m.outcome {
        if code != 0 {
            return (Verdict::Re, Reason::ExitCode(code), None);
        }
    }
    let c = check();
    if c.accepted {
        (Verdict::Ac, Reason::Accepted, c.hint)
    } else {
        (Verdict::Wa, Reason::WrongAnswer(c.message), c.hint)
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

/// Decides the verdict of an interactive run, in problemtools' order: the interactor failing
/// (IE); the interactor rejecting before the solution ended (WA, whatever the solution did
/// next); then the solution's own run as [`decide`] judges it (time, memory, a crash); and
/// last the interactor's word, and the checker's (`check`) after an acceptance.
pub fn decide_interactive(
    m: &Measurement,
    limits: &Limits,
    (said, said_first): (InteractorSaid, bool),
    check: impl FnOnce() -> CheckOutcome,
) -> (Verdict, Reason, Option<String>) {
    if let Outcome::SpawnFailed(why) = &m.outcome {
        return (Verdict::Ie, Reason::NotStarted(why.clone()), None);
    }
    // A solution killed by SIGPIPE wrote to an interactor that had stopped listening, so the
    // interactor was done first, even when both ends were seen at the same moment (the
    // solution meets the closed pipe before the interactor's exit shows).
    let said_first = said_first || m.outcome == Outcome::Signaled(judge_runner::SIGPIPE);
    let rejected = |message: Option<String>| {
        message.unwrap_or_else(|| "the interactor rejected the solution (it gave no reason)".into())
    };
    match said {
        InteractorSaid::Failed(why) => (Verdict::Ie, Reason::Interactor(why), None),
        InteractorSaid::Rejected(message) if said_first => (
            Verdict::Wa,
            Reason::WrongAnswer(Some(rejected(message))),
            None,
        ),
        said => {
            let decided = decide(m, limits, || match said {
                InteractorSaid::Rejected(message) => CheckOutcome::rejected(rejected(message)),
                _ => check(),
            });
            match decided {
                (Verdict::Tle, Reason::WallClock { idle: true }, hint) if !said_first => {
                    (Verdict::Tle, Reason::BothWaiting, hint)
                }
                other => other,
            }
        }
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
    use super::*;

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

    fn ok() -> CheckOutcome {
        CheckOutcome::accepted()
    }

    fn wa() -> CheckOutcome {
        CheckOutcome::rejected("no".into())
    }

    fn verdict(m: Measurement, c: fn() -> CheckOutcome) -> (Verdict, Reason) {
        let (v, r, _) = decide(&m, &LIMITS, c);
        (v, r)
    }

    #[test]
    fn clean_runs_are_decided_by_the_checker() {
        assert_eq!(verdict(clean(), ok).0, Verdict::Ac);
        assert_eq!(
            verdict(clean(), wa),
            (Verdict::Wa, Reason::WrongAnswer(Some("no".into())))
        );
    }

    #[test]
    fn time_comes_first() {
        let m = Measurement {
            cpu: Duration::from_millis(1001),
            outcome: Outcome::Signaled(9),
            killed_by: Some(KilledBy::CpuLimit),
            peak_memory_bytes: 1 << 30,
            ..clean()
        };
        assert_eq!(verdict(m, ok), (Verdict::Tle, Reason::CpuTime));
        let m = Measurement {
            killed_by: Some(KilledBy::WallCap),
            outcome: Outcome::Signaled(9),
            wall: Duration::from_secs(3),
            ..clean()
        };
        assert_eq!(
            verdict(m, ok),
            (Verdict::Tle, Reason::WallClock { idle: true })
        );
        // Killed at the wall cap after real work, but short of the limit: a busy machine.
        let m = Measurement {
            killed_by: Some(KilledBy::WallCap),
            outcome: Outcome::Signaled(9),
            cpu: Duration::from_millis(600),
            wall: Duration::from_secs(3),
            ..clean()
        };
        assert_eq!(
            verdict(m, ok),
            (Verdict::Tle, Reason::WallClock { idle: false })
        );
        // Its children were still at work: their CPU time is not its own yet.
        let m = Measurement {
            killed_by: Some(KilledBy::WallCap),
            outcome: Outcome::Signaled(9),
            wall: Duration::from_secs(3),
            leftover_processes: 511,
            ..clean()
        };
        assert_eq!(
            verdict(m, ok),
            (Verdict::Tle, Reason::WallClockWithChildren(511))
        );
        // Over the limit but the program exited by itself: still TLE, never AC.
        let m = Measurement {
            cpu: Duration::from_millis(1200),
            ..clean()
        };
        assert_eq!(verdict(m, ok).0, Verdict::Tle);
        let m = Measurement {
            outcome: Outcome::Signaled(judge_runner::SIGXCPU),
            ..clean()
        };
        assert_eq!(verdict(m, ok).0, Verdict::Tle);
    }

    #[test]
    fn output_then_memory_then_crash() {
        let m = Measurement {
            outcome: Outcome::Signaled(judge_runner::SIGXFSZ),
            ..clean()
        };
        assert_eq!(
            verdict(m, ok),
            (Verdict::Ole, Reason::Output { signal: true })
        );
        let m = Measurement {
            stdout_bytes: (64 << 20) + 1,
            ..clean()
        };
        assert_eq!(verdict(m, ok).0, Verdict::Ole);
        let m = Measurement {
            outcome: Outcome::Signaled(9),
            killed_by: Some(KilledBy::MemoryLimit),
            ..clean()
        };
        assert_eq!(
            verdict(m, ok),
            (Verdict::Mle, Reason::Memory { killed: true })
        );
        let m = Measurement {
            outcome: Outcome::Signaled(judge_runner::SIGSEGV),
            peak_memory_bytes: 300 << 20,
            ..clean()
        };
        assert_eq!(verdict(m, ok).0, Verdict::Mle);
        let m = Measurement {
            outcome: Outcome::Signaled(judge_runner::SIGSEGV),
            ..clean()
        };
        assert_eq!(
            verdict(m, ok),
            (Verdict::Re, Reason::Signal(judge_runner::SIGSEGV))
        );
        assert_eq!(
            Reason::Signal(judge_runner::SIGSEGV).to_string(),
            "killed by SIGSEGV"
        );
        let m = Measurement {
            outcome: Outcome::Exited(42),
            ..clean()
        };
        assert_eq!(verdict(m, ok), (Verdict::Re, Reason::ExitCode(42)));
    }

    #[test]
    fn the_checker_is_not_asked_about_a_crashed_run() {
        let m = Measurement {
            outcome: Outcome::Exited(1),
            ..clean()
        };
        let (v, _, _) = decide(&m, &LIMITS, || panic!("checker consulted"));
        assert_eq!(v, Verdict::Re);
    }

    #[test]
    fn expectations_parse_both_vocabularies() {
        let e: Expectation = "TLE or AC".parse().unwrap();
        assert!(e.admits(Verdict::Tle) && e.admits(Verdict::Ac) && !e.admits(Verdict::Wa));
        assert_eq!(e.to_string(), "AC or TLE");
        let e: Expectation = "TL|OK".parse().unwrap();
        assert_eq!(e, "AC or TLE".parse().unwrap());
        assert!("ACE".parse::<Expectation>().is_err());
        assert!("".parse::<Expectation>().is_err());
        let ie = "AC or IE".parse::<Expectation>().unwrap_err();
        assert!(ie.contains("cannot be expected"), "{ie}");
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

    fn interactive(
        m: Measurement,
        said: InteractorSaid,
        first: bool,
        check: fn() -> CheckOutcome,
    ) -> (Verdict, Reason) {
        let (v, r, _) = decide_interactive(&m, &LIMITS, (said, first), check);
        (v, r)
    }

    #[test]
    fn interactive_verdicts_follow_problemtools_order() {
        let rejected = || InteractorSaid::Rejected(Some("said 3 to 1".into()));
        let spun = Measurement {
            cpu: Duration::from_secs(2),
            killed_by: Some(KilledBy::CpuLimit),
            outcome: Outcome::Signaled(9),
            ..clean()
        };
        let crashed = Measurement {
            outcome: Outcome::Exited(101),
            ..clean()
        };
        let waited = Measurement {
            wall: Duration::from_secs(3),
            killed_by: Some(KilledBy::WallCap),
            outcome: Outcome::Signaled(9),
            ..clean()
        };
        let failed = || InteractorSaid::Failed("exit code 7".into());
        // The interactor failing is never the solution's fault, whatever the solution did.
        for m in [clean(), spun.clone(), crashed.clone()] {
            assert_eq!(interactive(m, failed(), true, ok).0, Verdict::Ie);
        }
        assert_eq!(
            interactive(clean(), failed(), false, ok).1,
            Reason::Interactor("exit code 7".into())
        );
        // Rejected first: WA, even when the solution then spun or crashed.
        for m in [clean(), spun.clone(), crashed.clone(), waited.clone()] {
            assert_eq!(
                interactive(m, rejected(), true, ok),
                (Verdict::Wa, Reason::WrongAnswer(Some("said 3 to 1".into())))
            );
        }
        // Rejected after the solution ended: the solution's own run decides first.
        assert_eq!(interactive(spun, rejected(), false, ok).0, Verdict::Tle);
        assert_eq!(interactive(crashed, rejected(), false, ok).0, Verdict::Re);
        assert_eq!(
            interactive(waited.clone(), rejected(), false, ok),
            (Verdict::Tle, Reason::BothWaiting)
        );
        assert_eq!(interactive(clean(), rejected(), false, ok).0, Verdict::Wa);
        // Killed by writing to a closed pipe: the interactor had stopped listening, so it was
        // first even when both ends were seen together; after an acceptance it is a crash.
        let broken_pipe = Measurement {
            outcome: Outcome::Signaled(judge_runner::SIGPIPE),
            ..clean()
        };
        assert_eq!(
            interactive(broken_pipe.clone(), rejected(), false, ok).0,
            Verdict::Wa
        );
        assert_eq!(
            interactive(broken_pipe, InteractorSaid::Accepted, false, ok).0,
            Verdict::Re
        );
        // The interactor ended first and accepted, then the solution idled to the cap.
        assert_eq!(
            interactive(waited, InteractorSaid::Accepted, true, ok),
            (Verdict::Tle, Reason::WallClock { idle: true })
        );
        // Accepted: the checker has the last word.
        assert_eq!(
            interactive(clean(), InteractorSaid::Accepted, false, ok).0,
            Verdict::Ac
        );
        assert_eq!(
            interactive(clean(), InteractorSaid::Accepted, false, wa).0,
            Verdict::Wa
        );
        // A rejection without a word still says who rejected.
        let (_, reason) = interactive(clean(), InteractorSaid::Rejected(None), true, ok);
        assert!(
            reason.to_string().contains("the interactor rejected"),
            "{reason}"
        );
    }
}
