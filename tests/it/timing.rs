//! `--repeat` and `--skip-after-tle` on `judge run`: runs per case, min and median, disagreeing repeats.

use crate::common::{shipped, Test, Workspace, READ_N};

#[test]
fn repeat_runs_each_case_and_reports_min_and_median() {
    let ws = Workspace::doubling("1s");
    let path = ws.write(
        "ok.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
    );
    let doc = ws
        .judge()
        .args(["run", path.to_str().unwrap(), "--repeat", "4", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["verdict"], "AC", "{doc:#}");
    let case = &doc["cases"][0];
    let t = &case["timing"];
    let runs: Vec<u64> = t["runs_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(runs.len(), 4, "{t}");
    assert_eq!(t["min_ms"].as_u64().unwrap(), *runs.iter().min().unwrap());
    assert_eq!(case["time_ms"], t["median_ms"], "time is the median");
    assert_eq!(t["verdict_changed"], false);
    // Without --repeat the field is absent: `run --json` is unchanged.
    let doc = ws
        .judge()
        .args(["run", path.to_str().unwrap(), "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert!(doc["cases"][0].get("timing").is_none());
    // The table shows min and median.
    let text = ws
        .judge()
        .args(["run", path.to_str().unwrap(), "--repeat", "2"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(text.contains("min") && text.contains("median"), "{text}");
}

#[test]
fn a_case_over_the_limit_is_not_repeated_and_can_end_the_run() {
    let doc = Test::at(shipped())
        .args([
            "run",
            "odometer",
            "--time-limit",
            "150ms",
            "--repeat",
            "2",
            "--skip-after-tle",
            "--json",
        ])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "TLE", "{doc:#}");
    let cases = doc["cases"].as_array().unwrap();
    assert!(
        cases.len() < 14,
        "the cases after the first TLE are skipped"
    );
    let last = cases.last().unwrap();
    assert_eq!(last["verdict"], "TLE");
    assert_eq!(last["timing"]["runs_ms"].as_array().unwrap().len(), 1);
    assert_eq!(doc["total"], 14);
    for c in &cases[..cases.len() - 1] {
        assert_eq!(c["verdict"], "AC");
        assert_eq!(c["timing"]["runs_ms"].as_array().unwrap().len(), 2);
    }
}

#[test]
fn repeats_that_disagree_give_the_failing_verdict_with_a_note() {
    // Right or wrong by the parity of a randomised stack address and the clock: 20 runs
    // agreeing has a chance of about 2 in a million.
    let ws = Workspace::doubling("1s");
    let path = ws.write(
        "flaky.rs",
        format!(
            "{READ_N}fn main() {{ let x = 0u8; let a = &x as *const u8 as usize; \
             let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos() as usize; \
             let bit = ((a >> 4) ^ (t >> 10)) & 1; println!(\"{{}}\", n() * 2 + bit as u64); }}\n"
        ),
    );
    let doc = ws
        .judge()
        .args(["run", path.to_str().unwrap(), "--repeat", "20", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    let case = &doc["cases"][0];
    assert_eq!(case["timing"]["verdict_changed"], true);
    let hint = case["hint"].as_str().unwrap();
    assert!(
        hint.starts_with("verdict changed between repeats:"),
        "{hint}"
    );
    assert!(hint.contains("AC") && hint.contains("WA"), "{hint}");
    assert!(case["diff"].is_string(), "the failing run's diff is kept");
}
