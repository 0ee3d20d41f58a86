//! What recording a run in the history costs: opening the database, checking its format and
//! writing one submission of 14 cases, as one `judge run` does, against a target far below the
//! run itself (the guide's history section quotes the figure).
//!
//! Run with `cargo bench --profile release --bench recording` (optionally `-- ROUNDS`, default 7, and `--check`:
//! see `targets`). Each round records 200 submissions into a fresh database and takes their
//! mean; the median of the rounds is printed with the target.

mod targets;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use judge_core::verdict::Verdict;
use judge_history::{History, NewCase, NewSubmission};

/// Submissions recorded per round: enough that one round's mean is steady.
const PER_ROUND: u32 = 200;

/// The target, for the median of the rounds' means. Measured at 1.5 to 2.0 ms (four runs of 7
/// rounds on a 2-core machine shared with other builds; the slowest round 2.4 ms): four times
/// that leaves a busy machine its room and still catches a cost grown several times over, which
/// a run of 100 ms or more would begin to feel.
const TARGET: Duration = Duration::from_millis(8);

/// A run of 14 accepted cases, as `judge run` hands it to the history.
fn submission() -> NewSubmission {
    let case = |i: u64| NewCase {
        name: format!("{i:02}"),
        verdict: Verdict::Ac,
        cpu: Duration::from_millis(i),
        memory_bytes: 2 << 20,
        worker: None,
        attempt: None,
    };
    NewSubmission {
        problem: "p".into(),
        solution: "a".into(),
        path: "solutions/p/a.rs".into(),
        language: "rust".into(),
        source_hash: "0".repeat(64),
        code_length: 321,
        verdict: Verdict::Ac,
        passed: 14,
        total: 14,
        max_time: Duration::from_millis(50),
        max_memory_bytes: 2 << 20,
        time_limit: Duration::from_secs(1),
        compiler: "rustc 1.95.0".into(),
        cases: (0..14).map(case).collect(),
        report: Some("{\"solution\": \"a\"}".into()),
        partial: None,
        key: None,
        below_max_score: false,
    }
}

/// One round: the mean time to open the history and record one submission.
fn round(s: &NewSubmission) -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    let started = Instant::now();
    for _ in 0..PER_ROUND {
        History::open(&path).unwrap().record(s).unwrap();
    }
    started.elapsed() / PER_ROUND
}

fn main() -> ExitCode {
    targets::require_release("recording");
    let (rounds, mut targets) = targets::Targets::from_args(std::env::args().skip(1), 7);
    let s = submission();
    let mut each: Vec<Duration> = (0..rounds)
        .map(|i| {
            eprint!("\rround {}/{rounds}", i + 1);
            round(&s)
        })
        .collect();
    eprintln!();
    if each.is_empty() {
        println!("nothing measured (0 rounds)");
        targets.verdict("something measured", false);
        return targets.finish();
    }
    each.sort();
    let median = each[each.len() / 2];
    println!(
        "recording one submission of 14 cases (open, format check, write): median {median:.2?} of {rounds} rounds of {PER_ROUND}, slowest round {:.2?}",
        each[each.len() - 1]
    );
    println!(
        "target (median at most {TARGET:?}): {}",
        targets.verdict("recording under the target", median <= TARGET)
    );
    targets.finish()
}
