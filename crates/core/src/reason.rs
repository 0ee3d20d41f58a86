//! `Reason`: why a case got its verdict, typed (which limit, the exit code or signal, the checker's message or failure, the full disk), and the one sentence each is shown as.
//!
//! A case's report keeps the reason itself; the sentence is made only where it is shown (the
//! terminal, the pages) or written (the JSON documents, the history, the cluster's wire, where
//! it is the `detail` string it always was). A reason read back from such a document is its
//! sentence alone ([`Reason::Recorded`]).

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use judge_runner::signal_name;

/// Why a verdict was given, in terms a contestant (or whoever runs the judge) can act on.
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
    /// The output could not be checked: IE, and why.
    Checker(CheckerFailed),
    /// The file system of the judge's scratch folder was all but full when the run ended: a
    /// write of the program's may have been refused, so it gets no verdict of its own (IE).
    DiskFull(FullDisk),
    /// A pass of a multi-pass case failed: which, the input the validator gave it (after the
    /// first, when short enough to show), and why the pass failed.
    InPass {
        pass: u32,
        input: Option<String>,
        reason: Box<Reason>,
    },
    /// The output validator asked for another pass after rejecting this one's output (IE).
    PassAfterRejection(u32),
    /// The output validator asked for a pass after `pass`, the last `max` allows (IE).
    TooManyPasses {
        pass: u32,
        max: u32,
    },
    /// A static validation case of a package without a static validator (IE).
    NoStaticValidator,
    /// The static validator failed or does not compile (IE): why, in words, naming it.
    StaticValidator(String),
    /// The static validator rejected the submission: its message.
    StaticRejected(Option<String>),
    /// No worker could judge the case (IE): why, as the cluster told it.
    NotJudged(String),
    /// A function problem's solution returned a value not of the declared type (WA): what it
    /// returned and what was declared, as the harness said.
    WrongType(String),
    /// A function problem's harness could not write the returned value as JSON, or read an
    /// argument (IE): why, as the harness said.
    Harness(String),
    /// A reason read back from a report written as JSON (`--json`, the history, a worker's
    /// outcome): its sentence alone.
    Recorded(String),
}

/// Why the checker could not judge an output: never the solution's fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckerFailed {
    /// It ended as its protocol does not allow, with its own message; `checker` names it (a
    /// package's is not the workspace's one `checker.rs`).
    Ended {
        checker: String,
        end: CheckerEnd,
        message: Option<String>,
    },
    /// It does not compile: an excerpt of the compiler's messages.
    NotCompiled {
        checker: String,
        diagnostics: String,
    },
    /// It could not be given what it needs (a file unreadable, a path not UTF-8, the test
    /// group's flags): why, in words.
    Setup(String),
}

/// How a checker ended that its protocol gives no meaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckerEnd {
    /// Over one of its limits, killed, or not started: in words.
    Stopped(String),
    ExitCode(i32),
    /// testlib's exit code 7 (points) with no number of points in its message.
    NoPoints,
}

/// Where the judge's scratch folder was, and how little room it had when a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FullDisk {
    pub dir: PathBuf,
    pub free: u64,
}

/// The name a multi-pass validator writes to ask for another pass.
pub const NEXT_PASS: &str = "nextpass.in";

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
            Reason::DiskFull(FullDisk { dir, free }) => write!(
                f,
                "no space left in the judge's scratch folder ({}, {} free) while the program ran: what it wrote may be cut short, so it gets no verdict\n  fix: free some space there, or set TMPDIR to a folder on a file system with room",
                dir.display(),
                crate::units::format_bytes(*free)
            ),
            Reason::InPass {
                pass,
                input,
                reason,
            } => {
                write!(f, "in pass {pass}")?;
                if let Some(input) = input {
                    write!(f, " (its input: {input})")?;
                }
                match reason.as_ref() {
                    Reason::Accepted => Ok(()),
                    r => write!(f, ": {r}"),
                }
            }
            Reason::PassAfterRejection(pass) => write!(
                f,
                "pass {pass}: the output validator wrote {NEXT_PASS} and rejected the output; it may ask for another pass only when it accepts"
            ),
            Reason::TooManyPasses { pass, max } => write!(
                f,
                "the output validator asked for pass {} after pass {pass}, and limits.validation_passes allows {max}",
                pass + 1
            ),
            Reason::NoStaticValidator => {
                f.write_str("a static validation case, and the package has no static validator")
            }
            Reason::StaticRejected(Some(m)) => f.write_str(m),
            Reason::StaticRejected(None) => {
                f.write_str("the static validator rejected the submission (it gave no reason)")
            }
            Reason::Checker(failed) => failed.fmt(f),
            Reason::StaticValidator(why)
            | Reason::WrongType(why)
            | Reason::Harness(why)
            | Reason::NotJudged(why)
            | Reason::Recorded(why) => f.write_str(why),
        }
    }
}

impl fmt::Display for CheckerFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckerFailed::Ended {
                checker,
                end,
                message,
            } => {
                write!(f, "checker failed: {end}")?;
                if let Some(m) = message {
                    write!(f, ": {m}")?;
                }
                write!(f, " ({checker})")
            }
            CheckerFailed::NotCompiled {
                checker,
                diagnostics,
            } => write!(f, "the checker {checker} does not compile:\n{diagnostics}"),
            CheckerFailed::Setup(why) => f.write_str(why),
        }
    }
}

impl fmt::Display for CheckerEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckerEnd::Stopped(why) => f.write_str(why),
            CheckerEnd::ExitCode(code) => write!(f, "exit code {code}"),
            CheckerEnd::NoPoints => f.write_str("exit code 7 (points) without a number of points"),
        }
    }
}

/// As its sentence: the `detail` string of every JSON document a case's report is written in.
impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// From its sentence: what a stored or sent report kept of it.
impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Reason, D::Error> {
        String::deserialize(d).map(Reason::Recorded)
    }
}
