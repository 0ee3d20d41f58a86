//! What every benchmark shares about its targets: the arguments (`ROUNDS`, `--check`), each
//! target printed as "met" or "MISSED", and the exit status: under `--check` a missed target
//! fails the run, so that a script or CI can hold the targets. Compiled into each bench, and
//! into the integration tests (`bench_targets`), which test the rule: a bench runs no tests.

use std::process::ExitCode;

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
