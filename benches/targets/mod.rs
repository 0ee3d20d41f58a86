//! What every benchmark shares about its targets: the arguments (`ROUNDS`, `--check`), each
//! target printed as "met" or "MISSED", and the exit status: under `--check` a missed target
//! fails the run, so that a script or CI can hold the targets. Compiled into each bench, and
//! into the integration tests (`bench_targets`), which test the rule: a bench runs no tests.

use std::process::ExitCode;

/// Exit status of a bench that refused to measure an unoptimised judge (as a bad invocation).
// The integration test that includes this file tests `refusal`, not the exit.
#[cfg_attr(test, allow(dead_code))]
pub(crate) const UNOPTIMISED: i32 = 2;

/// Stops a bench built unoptimised, before it measures anything. Plain `cargo bench` builds
/// everything, the `judge` binary it drives included, in the `bench` profile, which this
/// workspace leaves unoptimised so that `cargo test --release` compiles its tests quickly; a
/// judge built so took 1.10 x the release build's time over the same 1,000 cases, which a bench
/// would report as the judge's own. The bench is compiled with the binary's profile, so its own
/// debug assertions say which it is.
#[cfg_attr(test, allow(dead_code))]
pub(crate) fn require_release(bench: &str) {
    if let Some(why) = refusal(bench, cfg!(debug_assertions)) {
        eprintln!("{why}");
        std::process::exit(UNOPTIMISED);
    }
}

/// What a bench named `bench` says when it was built `unoptimised`, with the command to use.
pub(crate) fn refusal(bench: &str, unoptimised: bool) -> Option<String> {
    unoptimised.then(|| {
        format!(
            "error: this bench drives a judge built unoptimised (plain `cargo bench` builds it in the bench profile)\n  fix: cargo bench --profile release --bench {bench}"
        )
    })
}

/// Exit status of a `--check` run that missed a target (as a verdict other than AC).
pub(crate) const MISSED: u8 = 1;

/// The targets of one bench run, and whether they are checked.
pub(crate) struct Targets {
    check: bool,
    missed: Vec<String>,
}

impl Targets {
    /// The rounds asked for (the first argument that is a number, else `default_rounds`) and
    /// the targets, checked when `--check` is among `args` (the arguments after the program's
    /// name; cargo adds `--bench`, which is ignored).
    pub(crate) fn from_args(
        args: impl IntoIterator<Item = String>,
        default_rounds: usize,
    ) -> (usize, Targets) {
        let mut rounds = None;
        let mut check = false;
        for arg in args {
            if arg == "--check" {
                check = true;
            } else if rounds.is_none() {
                rounds = arg.parse().ok();
            }
        }
        let targets = Targets {
            check,
            missed: Vec::new(),
        };
        (rounds.unwrap_or(default_rounds), targets)
    }

    /// "met" or "MISSED" for the target `name` (as the bench prints it), remembering a miss.
    pub(crate) fn verdict(&mut self, name: &str, met: bool) -> &'static str {
        if met {
            "met"
        } else {
            self.missed.push(name.to_owned());
            "MISSED"
        }
    }

    /// The run's exit status: under `--check`, failure when a target was missed (each named on
    /// stderr); success otherwise, as a run without `--check` always ends.
    pub(crate) fn finish(self) -> ExitCode {
        if !self.check || self.missed.is_empty() {
            return ExitCode::SUCCESS;
        }
        eprintln!("--check: target missed: {}", self.missed.join("; "));
        ExitCode::from(MISSED)
    }
}
