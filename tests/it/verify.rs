//! `judge verify`: expected verdicts of every reference solution, mismatches, the justified time limit.

use crate::common::{compare_fixture, shipped, Test};

#[test]
fn a_mismatch_is_reported_and_exits_1() {
    let ws = compare_fixture();
    let text = ws
        .judge()
        .args(["verify", "--skip-after-tle"])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(
        text.contains("time limit 300 ms · every solution judged at 450 ms (x 1.5)"),
        "{text}"
    );
    let line = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("  {name} ")))
            .unwrap_or_else(|| panic!("no line for {name}: {text}"))
            .to_string()
    };
    assert!(line("fast").contains(" AC ") && !line("fast").contains("MISMATCH"));
    assert!(line("wrong").contains("WA") && line("wrong").ends_with("MISMATCH"));
    assert!(line("spin").contains("TLE") && line("spin").contains("> 300 ms"));
    assert!(line("spin").contains("0/3, 2 not run"), "{}", line("spin"));
    assert!(line("steady").contains("(none)") && line("steady").contains("no expected verdict"));
    assert!(text.contains("1 mismatch:"), "{text}");
    assert!(
        regex::Regex::new(r"\n  wrong +AC +WA +WA\n")
            .unwrap()
            .is_match(&text),
        "{text}"
    );
    // The slowest accepted reference justifies the limit: 1 s is the least it can be.
    assert!(text.contains("configured 300 ms · justified 1 s"), "{text}");
    assert!(
        text.contains(
            "warning: the time limit 300 ms is below the 1 s the accepted solutions justify"
        ),
        "{text}"
    );
}

#[test]
fn verify_as_json_and_with_the_expectation_fixed() {
    let ws = compare_fixture();
    let toml = ws.path().join("problems/double/problem.toml");
    let text = std::fs::read_to_string(&toml)
        .unwrap()
        .replace("wrong = \"AC\"", "wrong = \"WA or AC\"")
        .replace("spin = \"TLE\"", "spin = \"TL\"");
    std::fs::write(&toml, text).unwrap();
    let doc = ws
        .judge()
        .args([
            "verify",
            "double",
            "--skip-after-tle",
            "--time-limit",
            "200ms",
            "--json",
        ])
        .expect_exit(0)
        .run()
        .json();
    let v = &doc[0];
    assert_eq!(v["problem"], "double");
    assert_eq!(v["time_limit_ms"], 200);
    assert_eq!(v["margin_limit_ms"], 300);
    let by = |n: &str| {
        v["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["solution"] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(by("wrong")["expected"], "AC or WA");
    assert_eq!(by("wrong")["matches_expected"], true);
    assert_eq!(by("spin")["verdict"], "TLE");
    assert_eq!(by("spin")["over_limit"], true);
    assert_eq!(by("steady")["matches_expected"], serde_json::Value::Null);
    assert_eq!(v["justified"]["time_limit_ms"], 1000);
}

#[test]
fn every_shipped_problem_verifies() {
    // The real limits; the solution expected to be TLE stops at its first TLE.
    let text = Test::at(shipped())
        .args(["verify", "--skip-after-tle"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        text.contains("every solution got its expected verdict"),
        "{text}"
    );
    for (name, verdict) in [
        ("bitmask", "AC"),
        ("eightfold", "AC"),
        ("flags", "AC"),
        ("odometer", "TLE"),
        ("symmetry-halved", "AC"),
    ] {
        assert!(
            regex::Regex::new(&format!(r"\n  {name} +{verdict} +{verdict} "))
                .unwrap()
                .is_match(&text),
            "{name}: {text}"
        );
    }
    assert!(
        text.contains("time limit: configured 4 s · justified"),
        "{text}"
    );
}
