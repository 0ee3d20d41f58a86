//! `judge compare`: the invocation matrix, expectations, relative speed, JSON.

use crate::common::{compare_fixture, shipped, Test, Workspace, READ_N};

#[test]
fn the_matrix_flags_what_contradicts_the_expectations() {
    let ws = compare_fixture();
    // A mismatch exits 1.
    let text = ws
        .judge()
        .args(["compare", "--skip-after-tle"])
        .expect_exit(1)
        .run()
        .stdout;
    // Times, sizes and ratios vary from run to run: the snapshot keeps the shape.
    insta::with_settings!({filters => vec![
        (r"\d+(\.\d+)? (ms|s|MiB|KiB|B)\b *", "[..] "),
        (r" +\d+\.\d+( ± \d+\.\d+)? x", " [ratio] x"),
    ]}, {
        insta::assert_snapshot!("matrix", text);
    });
}

#[test]
fn only_accepted_solutions_are_ranked_by_speed_the_others_apart_with_their_verdicts() {
    let ws = compare_fixture();
    // `wrong` is quick on the cases it passes: no ratio against it may be printed.
    ws.judge()
        .args(["compare", "--skip-after-tle"])
        .expect_exit(1)
        .stdout_has("x faster than steady")
        .stdout_lacks("than wrong")
        .stdout_lacks("than spin")
        .stdout_has("not ranked (not accepted): spin TLE · wrong WA")
        .run();
    let doc = ws
        .judge()
        .args(["compare", "--skip-after-tle", "--json"])
        .expect_exit(1)
        .run()
        .json();
    let ranked: Vec<&str> = doc["speed"]["others"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["solution"].as_str().unwrap())
        .collect();
    assert_eq!(ranked, ["steady"], "{doc:#}");
    assert_eq!(
        doc["not_ranked"],
        serde_json::json!([
            {"solution": "spin", "verdict": "TLE"},
            {"solution": "wrong", "verdict": "WA"}
        ]),
        "{doc:#}"
    );
}

#[test]
fn named_solutions_repeats_and_json() {
    let ws = compare_fixture();
    let doc = ws
        .judge()
        .args([
            "compare", "double", "steady", "fast", "--repeat", "3", "--json",
        ])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["problem"], "double");
    assert_eq!(doc["repeat"], 3);
    assert_eq!(doc["time_limit_ms"], 300);
    assert_eq!(doc["cases"], serde_json::json!(["1", "2", "3"]));
    let sols = doc["solutions"].as_array().unwrap();
    assert_eq!(sols.len(), 2);
    assert_eq!(sols[0]["solution"], "steady", "in the order named");
    assert_eq!(sols[0]["expected"], serde_json::Value::Null);
    assert_eq!(sols[0]["matches_expected"], serde_json::Value::Null);
    assert_eq!(sols[1]["matches_expected"], true);
    for s in sols {
        for cell in s["cells"].as_array().unwrap() {
            assert_eq!(cell["verdict"], "AC");
            assert!(cell["min_ms"].as_u64().unwrap() <= cell["time_ms"].as_u64().unwrap());
        }
    }
    let speed = &doc["speed"];
    assert_eq!(speed["reference"], "fast", "{speed}");
    let other = &speed["others"][0];
    assert_eq!(other["solution"], "steady");
    assert_eq!(other["cases"], 3);
    assert!(other["ratio"].as_f64().unwrap() > 1.0, "{other}");
    assert!(
        other["spread"].is_number(),
        "repeats give a spread: {other}"
    );
    assert_eq!(doc["mismatches"], serde_json::json!([]));
}

#[test]
fn json_cells_of_a_mismatch_and_of_skipped_cases() {
    let ws = compare_fixture();
    let doc = ws
        .judge()
        .args(["compare", "wrong", "spin", "--skip-after-tle", "--json"])
        .expect_exit(1)
        .run()
        .json();
    let wrong = &doc["solutions"][0];
    assert_eq!(wrong["verdict"], "WA");
    assert_eq!(wrong["matches_expected"], false);
    assert_eq!(wrong["cells"][1]["contradicts_expected"], true);
    assert_eq!(wrong["cells"][0]["contradicts_expected"], false);
    let spin = &doc["solutions"][1];
    assert_eq!(spin["verdict"], "TLE");
    assert_eq!(spin["matches_expected"], true);
    assert_eq!(spin["cells"][0]["verdict"], "TLE");
    assert_eq!(spin["cells"][0]["contradicts_expected"], false);
    assert!(spin["cells"][1].is_null(), "skipped after the TLE");
    assert_eq!(doc["mismatches"], serde_json::json!(["wrong"]));
    // Without the flag nothing is skipped.
    let doc = ws
        .judge()
        .args(["compare", "spin", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let cells = doc["solutions"][0]["cells"].as_array().unwrap();
    assert!(cells.iter().all(|c| c["verdict"] == "TLE"), "{cells:?}");
}

#[test]
fn the_shipped_problem_compares() {
    let text = Test::at(shipped())
        .args([
            "compare",
            "nqueens-ii",
            "eightfold",
            "bitmask",
            "odometer",
            "--time-limit",
            "1s",
            "--skip-after-tle",
        ])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(text.contains("eightfold ran"), "{text}");
    assert!(text.contains("faster than bitmask"), "{text}");
    assert!(regex_line(&text, r"^  verdict +AC +AC +TLE$"), "{text}");
}

fn regex_line(text: &str, re: &str) -> bool {
    let re = regex::Regex::new(re).unwrap();
    text.lines().any(|l| re.is_match(l))
}

#[test]
fn the_problem_is_told_by_the_named_solutions() {
    let doc = Test::at(shipped())
        .args(["compare", "bitmask", "eightfold", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["problem"], "nqueens-ii");
    Test::at(shipped())
        .args(["compare", "bitmask", "flags-boards"])
        .expect_exit(2)
        .stderr_has("belong to different problems")
        .run();
    Test::at(shipped())
        .arg("compare")
        .expect_exit(2)
        .stderr_has("name the problem")
        .run();
}

#[test]
fn long_names_number_the_columns_and_are_named_above() {
    let ws = Workspace::doubling("1s");
    let names: Vec<String> = (1..=5)
        .map(|i| format!("a-rather-long-solution-name-{i}"))
        .collect();
    for name in &names {
        ws.write(
            &format!("solutions/double/{name}.rs"),
            format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
        );
    }
    let text = ws
        .judge()
        .arg("compare")
        .args(&names)
        .expect_exit(0)
        .run()
        .stdout;
    for (i, name) in names.iter().enumerate() {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>()
                    == [format!("#{}", i + 1).as_str(), name.as_str()]),
            "{text}"
        );
    }
    assert!(regex_line(&text, r"^  case +#1 +#2 +#3 +#4 +#5$"), "{text}");
    assert!(
        regex_line(&text, r"^  verdict +AC +AC +AC +AC +AC$"),
        "{text}"
    );
}
