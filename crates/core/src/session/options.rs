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
    /// After a case goes over the time limit, the remaining cases are not run.
    pub skip_after_tle: bool,
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
            skip_after_tle: false,
            jobs: 1,
            checks: false,
            selection: None,
            every_case: false,
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
            || c.verdict == Verdict::Tle && self.skip_after_tle
    }
}
