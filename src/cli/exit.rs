//! The exit status of every command, decided in this one place: from a verdict (`exit_for`),
//! from an error of any crate (`for_error`), from clap's refusal of the arguments (`for_usage`).
//! The guide's table (docs/src/verdicts.md, "Exit status") says the same.

use std::process::ExitCode;

use judge_core::verdict::Verdict;

/// The verdict was AC, or the command succeeded.
pub(crate) const EXIT_OK: u8 = 0;
/// A verdict other than AC (for `compare` and `verify`, a solution not as expected; for
/// `validate`, an invalid input).
pub(crate) const EXIT_VERDICT: u8 = 1;
/// A configuration or judge error (also an IE verdict).
pub(crate) const EXIT_ERROR: u8 = 2;
/// `judge eval`: some problems of the data set could not be judged (no tests, tests that do
/// not decode); the others were, and their figures stand.
pub(crate) const EXIT_UNJUDGED: u8 = 3;
/// Arguments clap refuses: the code clap itself gives them, the same as an error's.
pub(crate) const EXIT_USAGE: u8 = 2;
/// Ctrl-C, SIGTERM or SIGHUP: the runner's handler stops every program, then exits with it.
pub(crate) const EXIT_INTERRUPTED: u8 = judge_runner::interrupt::EXIT_INTERRUPTED;
/// The reader of the output went away (`judge show | head`): 128 + SIGPIPE, as if the judge had
/// been killed by it, and nothing said.
pub(crate) const EXIT_CLOSED_PIPE: u8 = 141;

/// What `judge --help` says of the exit status.
pub(crate) fn summary() -> String {
    format!("Exit status: {EXIT_OK} accepted (AC), {EXIT_VERDICT} any other verdict, {EXIT_ERROR} usage, configuration or judge error, {EXIT_INTERRUPTED} interrupted.")
}

/// The exit status of a run whose verdict is `v`.
pub(crate) fn exit_for(v: Verdict) -> ExitCode {
    ExitCode::from(verdict(v))
}

fn verdict(v: Verdict) -> u8 {
    match v {
        Verdict::Ac => EXIT_OK,
        // The judge's or the problem's fault, never the solution's: an error.
        Verdict::Ie => EXIT_ERROR,
        _ => EXIT_VERDICT,
    }
}

/// The exit status of a command that failed with `error`: a closed pipe anywhere in its chain,
/// else the first error of a crate of the judge's found in it, else a judge error.
pub(crate) fn for_error(error: &anyhow::Error) -> u8 {
    if error.chain().any(closed_pipe) {
        return EXIT_CLOSED_PIPE;
    }
    error.chain().find_map(of_a_crate).unwrap_or(EXIT_ERROR)
}

/// The exit status when clap refuses the arguments, or answers `--help` or `--version` itself.
pub(crate) fn for_usage(error: &clap::Error) -> u8 {
    if error.use_stderr() {
        EXIT_USAGE
    } else {
        EXIT_OK
    }
}

fn closed_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

/// The status of one crate's error, if `e` is one.
fn of_a_crate(e: &(dyn std::error::Error + 'static)) -> Option<u8> {
    if let Some(e) = e.downcast_ref::<judge_core::Error>() {
        return Some(core(e));
    }
    if let Some(e) = e.downcast_ref::<judge_packages::Error>() {
        return Some(packages(e));
    }
    if let Some(e) = e.downcast_ref::<judge_web::Error>() {
        return Some(web(e));
    }
    if let Some(e) = e.downcast_ref::<judge_cluster::Error>() {
        return Some(cluster(e));
    }
    if let Some(e) = e.downcast_ref::<judge_eval::Error>() {
        return Some(eval(e));
    }
    e.downcast_ref::<judge_ops::Error>().map(ops)
}

/// What `judge eval --help` says of its exit status.
pub(crate) fn eval_summary() -> String {
    format!("Exit status: {EXIT_OK} every problem judged, {EXIT_VERDICT} a data set's own solution not as the data set says, {EXIT_ERROR} usage, a file that cannot be read as one, or a judge error, {EXIT_UNJUDGED} some problems could not be judged (the others were), {EXIT_INTERRUPTED} interrupted.")
}

fn eval(e: &judge_eval::Error) -> u8 {
    match e {
        judge_eval::Error::Core(e) => core(e),
        judge_eval::Error::Ops(e) => ops(e),
        // A data set, samples or results file that is not one, a file not read.
        _ => EXIT_ERROR,
    }
}

/// The engine's errors are all the user's configuration's or the judge's: a verdict is never
/// an error. Judging elsewhere says its own crate's.
fn core(e: &judge_core::Error) -> u8 {
    match e {
        judge_core::Error::Judging(elsewhere) => {
            of_a_crate(elsewhere.as_ref()).unwrap_or(EXIT_ERROR)
        }
        _ => EXIT_ERROR,
    }
}

fn packages(e: &judge_packages::Error) -> u8 {
    match e {
        judge_packages::Error::Core(e) => core(e),
        judge_packages::Error::Import { .. } | judge_packages::Error::NotAPackage { .. } => {
            EXIT_ERROR
        }
    }
}

fn web(e: &judge_web::Error) -> u8 {
    match e {
        judge_web::Error::Core(e) => core(e),
        judge_web::Error::PortInUse { .. } | judge_web::Error::Serve { .. } => EXIT_ERROR,
    }
}

fn cluster(e: &judge_cluster::Error) -> u8 {
    match e {
        judge_cluster::Error::Core(e) => core(e),
        judge_cluster::Error::Packages(e) => packages(e),
        // A server not reached, a message not read, a worker of another build: the cluster's
        // setup, which the user fixes.
        _ => EXIT_ERROR,
    }
}

fn ops(e: &judge_ops::Error) -> u8 {
    match e {
        judge_ops::Error::Core(e) => core(e),
        judge_ops::Error::Packages(e) => packages(e),
        // A use case's own: nothing to judge, a results file, a generator, the judges.
        _ => EXIT_ERROR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context as _;
    use clap::Parser as _;

    #[test]
    fn ac_succeeds_ie_is_an_error_and_every_other_verdict_is_a_verdict() {
        assert_eq!(verdict(Verdict::Ac), 0);
        assert_eq!(verdict(Verdict::Ie), 2);
        for v in [
            Verdict::Wa,
            Verdict::Tle,
            Verdict::Mle,
            Verdict::Ole,
            Verdict::Re,
            Verdict::Ce,
        ] {
            assert_eq!(verdict(v), 1, "{v:?}");
        }
    }

    #[test]
    fn every_crates_error_is_a_judge_error_however_deep() {
        let core = || judge_core::Error::NoSamples {
            problem: "p".into(),
        };
        let errors: Vec<anyhow::Error> = vec![
            core().into(),
            judge_packages::Error::NotAPackage { path: "x".into() }.into(),
            judge_packages::Error::Core(core()).into(),
            judge_web::Error::PortInUse { port: 80 }.into(),
            judge_cluster::Error::Malformed("?".into()).into(),
            judge_ops::Error::SameFile.into(),
            anyhow::Error::from(judge_ops::Error::Core(core())).context("judging"),
            anyhow::anyhow!("the CLI's own"),
        ];
        for e in &errors {
            assert_eq!(for_error(e), EXIT_ERROR, "{e:#}");
        }
    }

    #[test]
    fn a_closed_pipe_anywhere_in_the_chain_stops_quietly() {
        let pipe = || std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert_eq!(for_error(&pipe().into()), 141);
        let deep = Err::<(), _>(pipe())
            .context("writing the table")
            .unwrap_err();
        assert_eq!(for_error(&deep), 141);
        let other = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert_eq!(for_error(&other.into()), EXIT_ERROR);
    }

    #[test]
    fn usage_errors_exit_2_and_help_and_version_succeed() {
        let code = |args: &[&str]| match super::super::Cli::try_parse_from(args) {
            Ok(_) => panic!("{args:?} parsed"),
            Err(e) => for_usage(&e),
        };
        assert_eq!(code(&["judge", "--no-such-flag"]), 2);
        assert_eq!(code(&["judge", "no-such-command"]), 2);
        assert_eq!(code(&["judge", "--help"]), 0);
        assert_eq!(code(&["judge", "--version"]), 0);
    }

    #[test]
    fn the_help_says_every_status_as_the_guide_does() {
        assert_eq!(
            summary(),
            "Exit status: 0 accepted (AC), 1 any other verdict, 2 usage, configuration or judge error, 130 interrupted."
        );
        assert_eq!(EXIT_USAGE, EXIT_ERROR);
    }
}
