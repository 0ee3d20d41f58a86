//! `judge verify` on a package with many cases and submissions that fail on all of them: a
//! submission stops once its verdict is decided (unless `--all-cases`), and a verify cut short
//! reports what it decided. The fixture (`tests/fixtures/packages/marathon`) was written from
//! the 2025-09 format's text.

use std::time::Duration;

use crate::formats::{solution, Fixture};

/// The cases of the package: one sample, 24 secret.
const CASES: u64 = 25;

#[test]
fn a_decided_submission_stops_at_its_first_failure() {
    let f = Fixture::new("marathon");
    let (v, _) = f.verified(0);
    let ran = |name: &str| solution(&v, name)["run"].as_u64().unwrap();
    assert_eq!(ran("accepted/next.py"), CASES, "{v:#}");
    // The TLE that its folder requires, and the wrong answer: nothing after can change either.
    assert_eq!(ran("time_limit_exceeded/spin.py"), 1, "{v:#}");
    assert_eq!(ran("wrong_answer/skips.py"), 1, "{v:#}");
    assert_eq!(
        solution(&v, "time_limit_exceeded/spin.py")["verdict"],
        "TLE"
    );
    assert_eq!(solution(&v, "wrong_answer/skips.py")["verdict"], "WA");
}

#[test]
fn all_cases_runs_every_case() {
    let f = Fixture::new("marathon");
    std::fs::remove_dir_all(f.path().join("submissions/time_limit_exceeded")).unwrap();
    let v = f
        .judge()
        .args(["verify", "marathon", "--all-cases", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let wrong = solution(&v[0], "wrong_answer/skips.py");
    assert_eq!(wrong["run"].as_u64(), Some(CASES), "{wrong:#}");
}

fn terminate(pid: u32) {
    let pid = rustix::process::Pid::from_raw(pid as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
}

/// SIGTERM while the slow submission runs every case: the report of what was judged, and
/// which submissions were not.
#[test]
fn a_verify_cut_short_reports_what_it_decided() {
    let f = Fixture::new("marathon");
    let mut running = f
        .judge()
        .args(["verify", "marathon", "--all-cases"])
        .expect_exit(130)
        .spawn();
    loop {
        let line = running.line(Duration::from_secs(120));
        if line.contains("accepted/next.py") {
            break;
        }
    }
    // Into the slow one's cases.
    std::thread::sleep(Duration::from_secs(2));
    terminate(running.id());
    let out = running.wait(Duration::from_secs(30));
    let text = &out.stdout;
    assert!(
        text.contains(
            "interrupted: not judged: time_limit_exceeded/spin.py, wrong_answer/skips.py"
        ),
        "{text}"
    );
    assert!(text.contains("verified so far"), "{text}");

    // As JSON: the document, with what was judged and what was not.
    let running = f
        .judge()
        .args(["verify", "marathon", "--all-cases", "--json"])
        .expect_exit(130)
        .spawn();
    std::thread::sleep(Duration::from_secs(4));
    terminate(running.id());
    let out = running.wait(Duration::from_secs(30));
    let doc = out.json();
    let v = &doc[0];
    assert_eq!(v["interrupted"], true, "{v:#}");
    let judged = v["solutions"].as_array().unwrap().len();
    let not_judged = v["not_judged"].as_array().unwrap().len();
    assert_eq!(judged + not_judged, 3, "{v:#}");
}
