//! `judge run --jobs N`: the same verdicts as one case at a time, in the same order, with parallel
//! times marked and time-sensitive cases re-run alone.

use crate::common::{shipped, Test, Workspace};

/// (name, verdict) of every case, in the order reported.
fn verdicts(doc: &serde_json::Value) -> Vec<(String, String)> {
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_shipped_solutions_get_the_same_verdicts_with_two_jobs() {
    for (name, limit, code) in [
        ("bitmask", "4s", 0),
        ("flags", "4s", 0),
        ("odometer", "150ms", 1),
    ] {
        let one = Test::at(shipped())
            .args(["run", name, "--time-limit", limit, "--json"])
            .expect_exit(code)
            .run();
        let two = Test::at(shipped())
            .args(["run", name, "--time-limit", limit, "--jobs", "2", "--json"])
            .expect_exit(code)
            .run();
        let (d1, c1, d2, c2) = (one.json(), one.code, two.json(), two.code);
        assert_eq!(verdicts(&d1), verdicts(&d2), "{name}");
        assert_eq!(d1["verdict"], d2["verdict"], "{name}");
        assert_eq!(c1, c2, "{name}");
        assert_eq!(d1["parallel"], false);
        assert_eq!(d2["parallel"], true, "{name}");
        assert_eq!(d2["jobs"], 2);
        for case in d2["cases"].as_array().unwrap() {
            // A case is either measured in parallel or re-run alone, never both.
            assert_ne!(case["parallel"], !case["rerun"].is_null(), "{case}");
            if case["verdict"] == "TLE" {
                // What the parallel run saw, as data: its verdict and CPU time.
                assert!(case["rerun"]["verdict"].is_string(), "{case}");
                assert!(case["rerun"]["time_ms"].is_u64(), "{case}");
                assert_eq!(case["detail"], "CPU time over the limit");
            }
        }
    }
}

/// A problem with eight cases and a solution that fails some of them in different ways.
fn mixed() -> (Workspace, String) {
    let ws = Workspace::new();
    let cases: Vec<(String, String, String)> = (1..=8)
        .map(|k| (k.to_string(), format!("{k}\n"), format!("{}\n", 2 * k)))
        .collect();
    let refs: Vec<(&str, &str, &str)> = cases
        .iter()
        .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str()))
        .collect();
    ws.problem(
        "mixed",
        "title = \"Mixed\"\ntime_limit = \"300ms\"\nmemory_limit = \"64MiB\"\n",
        &refs,
    );
    let path = ws.write(
        "attempt.rs",
        r#"use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: u64 = s.trim().parse().unwrap();
    match n {
        3 => println!("{}", 2 * n + 1),
        5 => panic!("five"),
        7 => { let mut x = n; loop { x = std::hint::black_box(x.wrapping_mul(3)); } }
        _ => println!("{}", 2 * n),
    }
}
"#,
    );
    (ws, path.to_str().unwrap().to_string())
}

#[test]
fn a_fixture_set_gets_the_same_verdicts_in_the_same_order() {
    let (ws, path) = mixed();
    let one = ws
        .judge()
        .args(["run", &path, "--json"])
        .expect_exit(1)
        .run();
    let (d1, c1) = (one.json(), one.code);
    for jobs in ["2", "3"] {
        let n = ws
            .judge()
            .args(["run", &path, "--jobs", jobs, "--json"])
            .expect_exit(1)
            .run();
        let (dn, cn) = (n.json(), n.code);
        assert_eq!(verdicts(&d1), verdicts(&dn), "--jobs {jobs}");
        assert_eq!(cn, c1);
    }
    let expected: Vec<&str> = vec!["AC", "AC", "WA", "AC", "RE", "AC", "TLE", "AC"];
    let got: Vec<String> = verdicts(&d1).into_iter().map(|(_, v)| v).collect();
    assert_eq!(got, expected);
    // The failed cases' outputs are kept, whichever runner ran them.
    let dn = ws
        .judge()
        .args(["run", &path, "--jobs", "2", "--json"])
        .expect_exit(1)
        .run()
        .json();
    for case in dn["cases"].as_array().unwrap() {
        if case["verdict"] != "AC" {
            let kept = std::path::Path::new(case["saved_output"].as_str().unwrap());
            assert!(kept.is_file(), "{case}");
            // Its stderr beside it, empty when the program wrote nothing there.
            assert!(kept.with_extension("err").is_file(), "{case}");
        }
    }
    let re = std::path::Path::new(dn["cases"][4]["saved_output"].as_str().unwrap());
    let panic_message = std::fs::read_to_string(re.with_extension("err")).unwrap();
    assert!(panic_message.contains("five"), "{panic_message}");
    let wa = &dn["cases"][2];
    assert_eq!(
        std::fs::read_to_string(wa["saved_output"].as_str().unwrap()).unwrap(),
        "7\n"
    );
}

#[test]
fn stop_on_fail_with_jobs_reports_up_to_the_first_failure_in_order() {
    let (ws, path) = mixed();
    let d1 = ws
        .judge()
        .args(["run", &path, "--stop-on-fail", "--json"])
        .expect_exit(1)
        .run()
        .json();
    let d2 = ws
        .judge()
        .args(["run", &path, "--stop-on-fail", "--jobs", "2", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(verdicts(&d1), verdicts(&d2));
    let names: Vec<String> = verdicts(&d2).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["1", "2", "3"]);
    assert_eq!(d2["passed"], 2);
}

#[test]
fn the_table_says_times_were_measured_in_parallel() {
    let (ws, path) = mixed();
    let text = ws
        .judge()
        .args(["run", &path, "--jobs", "2"])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(
        text.contains("2 cases at a time: times measured in parallel"),
        "{text}"
    );
    assert!(
        text.contains("times measured in parallel (2 jobs)"),
        "{text}"
    );
    // The TLE case was re-run alone, and says what the parallel run saw.
    assert!(
        text.contains("note: re-run alone; in parallel: TLE"),
        "{text}"
    );
    // Rows stay in case order.
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.len() == 1 && w.chars().all(|c| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows, ["1", "2", "3", "4", "5", "6", "7", "8"]);
}

#[test]
fn jobs_must_be_at_least_one() {
    let (ws, path) = mixed();
    ws.judge()
        .args(["run", &path, "--jobs", "0"])
        .expect_exit(2)
        .run();
}
