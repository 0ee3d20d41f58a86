//! The benches' rule for their targets (`benches/targets/`), tested here since a bench (harness =
//! false) runs no tests: a missed target fails the run under `--check`, and only then.

#[path = "../../benches/targets/mod.rs"]
mod targets;

use std::process::ExitCode;

use targets::{refusal, Targets, MISSED};

fn targets(args: &[&str]) -> (usize, Targets) {
    Targets::from_args(args.iter().map(|a| a.to_string()), 5)
}

#[test]
fn the_rounds_are_the_first_number_beside_check_and_cargo_s_flag() {
    assert_eq!(targets(&["--bench", "--check", "9"]).0, 9);
    assert_eq!(targets(&["9", "--check", "--bench"]).0, 9);
    assert_eq!(targets(&["--bench"]).0, 5);
}

#[test]
fn a_missed_target_fails_the_run_under_check() {
    let (_, mut t) = targets(&["--bench", "--check"]);
    assert_eq!(t.verdict("(a)/(b) <= 1.3", false), "MISSED");
    assert_eq!(t.verdict("warm start < 30 ms", true), "met");
    assert_eq!(t.finish(), ExitCode::from(MISSED));
}

#[test]
fn targets_all_met_pass_under_check() {
    let (_, mut t) = targets(&["--check"]);
    assert_eq!(t.verdict("(a)/(b) <= 1.3", true), "met");
    assert_eq!(t.finish(), ExitCode::SUCCESS);
}

#[test]
fn without_check_a_missed_target_is_only_printed() {
    let (_, mut t) = targets(&["--bench", "3"]);
    assert_eq!(t.verdict("(a)/(b) <= 1.3", false), "MISSED");
    assert_eq!(t.finish(), ExitCode::SUCCESS);
}

#[test]
fn a_bench_built_unoptimised_refuses_with_the_command_to_use() {
    let why = refusal("overhead", true).unwrap();
    assert!(
        why.contains("fix: cargo bench --profile release --bench overhead"),
        "{why}"
    );
    assert_eq!(refusal("overhead", false), None);
}
