//! What the user chooses about judging: how programs run (the sandbox, transcripts) and the
//! settings of one run (limits, which cases, when to stop, how many at once).

use std::time::Duration;

use crate::compile::{self, BuildSettings};
use crate::model::{AppliedRule, CaseReport, Selection};
use crate::verdict::{Limits, Verdict};
use crate::workspace::{Problem, Workspace};

/// How a judge runs programs, as the user chose for this run (nothing a problem says changes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Programs run in the sandbox (off with `--no-sandbox`).
    pub sandbox: bool,
    /// Interactive cases record their conversation (off with `--no-transcript`). The verdict
    /// is the same either way; without, the solution and the interactor are joined pipe to
    /// pipe, with nothing in between.
    pub transcripts: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            sandbox: true,
            transcripts: true,
        }
    }
}

/// Settings of a run that the user can change on the command line.
#[derive(Debug, Clone)]
pub struct Options {
    pub time_limit: Option<Duration>,
    pub memory_limit: Option<u64>,
    pub output_limit: Option<u64>,
    pub stop_on_fail: bool,
    pub compile_time_limit: Duration,
    /// Show the input of every failed case, however long (by default only a short WA input).
    pub show_input: bool,
    /// Runs of each case (at least 1). A case that goes over the time limit is not run again.
    pub repeat: u32,
    /// What the cases after the first TLE run under.
    pub after_tle: AfterTle,
    /// Cases run at once (1: one at a time). Above 1, times are measured in parallel, and TLE
    /// cases and cases within 20% of the time limit are re-run alone before their verdict is final.
    pub jobs: usize,
    /// Build with the language's extra checks (Rust: overflow checks and debug assertions).
    pub checks: bool,
    /// The cases asked for, when not all of the problem's (`--samples`, `--case`): a run of
    /// fewer is partial, never the solution's verdict.
    pub selection: Option<Selection>,
    /// Every case runs, even after a failure that ends its group: a package's expectations
    /// are about every case (`judge verify`). The verdict is still the groups'.
    pub every_case: bool,
    /// `judge verify`: the time limit it holds the run to (the run itself is under the limit x
    /// the margin). The run stops once the submission's verdict there is decided
    /// (`decided.rs`); `None` runs every case (`--all-cases`, and every other command).
    pub until_decided: Option<Duration>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            time_limit: None,
            memory_limit: None,
            output_limit: None,
            stop_on_fail: false,
            compile_time_limit: compile::DEFAULT_COMPILE_TIME,
            show_input: false,
            repeat: 1,
            after_tle: AfterTle::WholeLimit,
            jobs: 1,
            checks: false,
            selection: None,
            every_case: false,
            until_decided: None,
        }
    }
}

impl Options {
    /// The limits a case of `problem` runs under, before any language's extra time.
    pub fn limits(&self, problem: &Problem) -> Limits {
        Limits::new(
            self.time_limit.unwrap_or(problem.limits.time),
            self.memory_limit.unwrap_or(problem.limits.memory_bytes),
            self.output_limit.unwrap_or(problem.limits.output_bytes),
        )
        .with_memory_rule(problem.limits.memory_rule)
    }

    /// The limits a program in `language` runs under: the problem's extra time for that
    /// language applied (`[language_time]`), and the rule that was.
    pub fn limits_for(&self, problem: &Problem, language: &str) -> (Limits, Option<AppliedRule>) {
        let base = self.limits(problem);
        match problem.language_time.get(language) {
            Some(rule) => (
                base.with_time(rule.apply(base.time)),
                Some(AppliedRule {
                    base: base.time,
                    rule: *rule,
                }),
            ),
            None => (base, None),
        }
    }

    pub(super) fn build_settings(&self, problem: &Problem, workspace: &Workspace) -> BuildSettings {
        BuildSettings {
            rust: workspace.config.rust.with(&problem.rust),
            checks: self.checks,
            // A package's own compilation limits are its terms.
            time_limit: problem
                .terms
                .compile_time
                .unwrap_or(self.compile_time_limit),
            memory_bytes: problem.terms.compile_memory,
        }
    }

    /// Whether the run ends after this case: `--stop-on-fail` after a failure, `--skip-after-tle`
    /// after a TLE.
    pub(super) fn ends_run(&self, c: &CaseReport) -> bool {
        c.verdict != Verdict::Ac && self.stop_on_fail
            || c.verdict == Verdict::Tle && self.after_tle == AfterTle::Skip
    }

    /// The shorter cap the cases after the first TLE run under, for `problem`'s cases with
    /// the time limit `limit`: `None` when they run under the whole limit. A package's test
    /// groups decide for themselves which cases run after a failure.
    pub(super) fn shorter_cap(&self, problem: &Problem, limit: Duration) -> Option<Duration> {
        let applies = self.after_tle == AfterTle::ShorterCap && problem.grading.is_none();
        applies.then(|| shorter_cap(limit)).flatten()
    }
}

/// What the cases after the first TLE of a run are run under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AfterTle {
    /// The whole time limit, each case its verdict (what comparing and verifying need).
    #[default]
    WholeLimit,
    /// A shorter cap ([`shorter_cap`]): a case that finishes under it gets its verdict (it
    /// finished under the limit too), one that does not is not timed, and has none. The
    /// run's verdict is the first TLE's, true either way (`judge run`'s default).
    ShorterCap,
    /// Not run at all (`--skip-after-tle`).
    Skip,
}

impl AfterTle {
    /// The whole limit, or with `--skip-after-tle` nothing: what a command that needs every
    /// verdict it runs offers (compare, verify).
    pub fn whole_or_skip(skip: bool) -> AfterTle {
        if skip {
            AfterTle::Skip
        } else {
            AfterTle::WholeLimit
        }
    }
}

/// The shortest the cap after a TLE is: an interpreter or a virtual machine starts within it.
const SHORTER_CAP_MIN: Duration = Duration::from_millis(500);

/// [`shorter_cap`] in words, for the help.
pub const SHORTER_CAP_RULE: &str = "a quarter of the time limit, at least 0.5 s";

/// The cap the cases after a TLE run under, for a time limit `limit`: a quarter of it, at least
/// half a second; `None` when that is not shorter than the limit itself.
pub fn shorter_cap(limit: Duration) -> Option<Duration> {
    let cap = (limit / 4).max(SHORTER_CAP_MIN);
    (cap < limit).then_some(cap)
}
