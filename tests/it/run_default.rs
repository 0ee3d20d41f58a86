//! What a default `judge run` does to be quick, and `--full`: after the first TLE the cases that
//! follow run under a shorter cap, and one that does not finish within it is "not timed" (no
//! verdict, the run partial); only the first failed cases show their details. Comparing and
//! verifying are not touched: they judge every case under the whole limit.

use crate::common::{Workspace, READ_N};

/// "Double it" with a 1 s limit (a 500 ms cap after a TLE) and four cases: 21 (the attempt
/// spins), 5 (right), 7 (wrong), 21 again (spins).
fn slow_attempt() -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n",
        &[
            ("1", "21\n", "42\n"),
            ("2", "5\n", "10\n"),
            ("3", "7\n", "14\n"),
            ("4", "21\n", "42\n"),
        ],
    );
    ws.write(
        "solutions/double/attempt.rs",
        format!("{READ_N}fn main() {{ let n = n(); if n == 21 {{ let mut x = n; loop {{ x = std::hint::black_box(x.wrapping_mul(3)); }} }} println!(\"{{}}\", if n == 7 {{ 15 }} else {{ n * 2 }}); }}\n"),
    );
    ws
}

#[test]
fn after_a_tle_the_cases_run_under_a_shorter_cap_and_say_so() {
    let ws = slow_attempt();
    let doc = ws
        .judge()
        .args(["run", "attempt", "--json"])
        .expect_exit(1)
        .run()
        .json();
    let verdicts: Vec<&str> = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    // Cases 2 and 3 finished within the cap: their verdicts are true under the whole limit.
    assert_eq!(verdicts, ["TLE", "AC", "WA"], "{doc:#}");
    assert_eq!(doc["verdict"], "TLE", "the first failure's, as always");
    let not_timed = doc["not_timed"].as_array().unwrap();
    assert_eq!(not_timed.len(), 1, "{doc:#}");
    assert_eq!(not_timed[0]["name"], "4");
    assert_eq!(not_timed[0]["cap_ms"], 500);
    // Stopped at the cap, well before the whole limit.
    assert!(not_timed[0]["time_ms"].as_u64().unwrap() < 1000, "{doc:#}");
    assert_eq!(doc["partial"]["not_timed"], 1, "{doc:#}");
    assert_eq!(doc["partial"]["judged"], 3, "{doc:#}");

    // The table says what the case is, and the summary how to have it timed.
    ws.judge()
        .args(["run", "attempt"])
        .expect_exit(1)
        .stdout_matches(r"(?m)^  4 +- +(> )?\d+ ms .*not timed: stopped under the 500 ms cap after a TLE \(--full gives it the whole 1 s\)$")
        .stdout_has("partial run: 1 not timed after a TLE, 3 of 4 cases")
        .stdout_has("1 case after the first TLE ran under a 500 ms cap and did not finish: not timed, no verdict (--full runs every case under the whole 1 s)")
        .stdout_lacks("  4          TLE")
        .run();
    // The history keeps it as a partial run.
    let history = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(history[0]["partial"]["not_timed"], 1, "{history:#}");
}

#[test]
fn full_judges_every_case_under_the_whole_limit() {
    let ws = slow_attempt();
    let doc = ws
        .judge()
        .args(["run", "attempt", "--full", "--json"])
        .expect_exit(1)
        .run()
        .json();
    let verdicts: Vec<&str> = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["TLE", "AC", "WA", "TLE"], "{doc:#}");
    assert!(doc.get("not_timed").is_none(), "{doc:#}");
    assert!(doc.get("partial").is_none(), "{doc:#}");
    // Comparing needs every verdict: it is not shortened.
    let matrix = ws
        .judge()
        .args(["compare", "double", "attempt", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let cells = matrix["solutions"][0]["cells"].as_array().unwrap();
    assert_eq!(cells[3]["verdict"], "TLE", "{matrix:#}");
}

#[test]
fn only_the_first_failures_show_their_details_and_the_summary_says_what_was_left_out() {
    let ws = Workspace::new();
    let cases: Vec<(String, String, String)> = (1..=6)
        .map(|i| (i.to_string(), format!("{i}\n"), format!("{}\n", i * 2)))
        .collect();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n",
        &cases,
    );
    ws.write(
        "solutions/double/off.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2 + 1); }}\n"),
    );
    let out = ws.judge().args(["run", "off"]).expect_exit(1).run();
    let row = regex::Regex::new(r"^  \d +WA ").unwrap();
    let rows = out.stdout.lines().filter(|l| row.is_match(l)).count();
    assert_eq!(rows, 6, "every case has its row:\n{}", out.stdout);
    let diffs = out.stdout.matches("diff (- answer, + output)").count();
    assert_eq!(diffs, 3, "{}", out.stdout);
    assert!(
        out.stdout
            .contains("the details of 3 more failed cases are left out (--full shows them)"),
        "{}",
        out.stdout
    );
    let full = ws
        .judge()
        .args(["run", "off", "--full"])
        .expect_exit(1)
        .run();
    assert_eq!(full.stdout.matches("diff (- answer, + output)").count(), 6);
    assert!(!full.stdout.contains("left out"), "{}", full.stdout);
}
