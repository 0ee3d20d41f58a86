//! `judge run` options a contestant reaches for: `--case`, `--samples`, the input of a failed case, the hints.

use crate::common::{shipped, Test, Workspace};

fn names(doc: &serde_json::Value) -> Vec<String> {
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn case_and_samples_pick_the_cases_judged() {
    let run = |extra: &[&str]| {
        let doc = Test::at(shipped())
            .args(["run", "bitmask", "--json"])
            .args(extra)
            .expect_exit(0)
            .run()
            .json();
        assert_eq!(doc["total"].as_u64().unwrap() as usize, names(&doc).len());
        names(&doc)
    };
    assert_eq!(run(&["--samples"]), ["04", "08"]);
    assert_eq!(run(&["--case", "03"]), ["03"]);
    assert_eq!(run(&["--case", "1?"]), ["10", "11", "12", "13", "14"]);
    assert_eq!(run(&["--case", "0*", "--case", "12"]).len(), 10);
    assert_eq!(run(&["--samples", "--case", "01"]), ["01", "04", "08"]);
}

#[test]
fn an_unknown_case_is_an_error_listing_the_cases() {
    Test::at(shipped())
        .args(["run", "bitmask", "--case", "99"])
        .expect_exit(2)
        .stderr_has("no test case of `nqueens-ii` matches `99`")
        .stderr_has("01, 02, 03")
        .run();
    let ws = Workspace::doubling("1s");
    let src = ws.write("a.rs", "fn main() { println!(\"42\"); }\n");
    ws.judge()
        .args(["run", src.to_str().unwrap(), "--samples"])
        .expect_exit(2)
        .stderr_has("`double` has no sample cases")
        .run();
}

const PRINTS_BY_INPUT: &str = "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let n: u64 = s.split_whitespace().next().unwrap().parse().unwrap(); println!(\"{}\", if n == 5 { 11 } else { 2 * n }); }\n";

#[test]
fn a_short_input_is_shown_on_wa_and_show_input_forces_it() {
    let ws = Workspace::doubling("1s");
    ws.write("testcases/double/2.in", "5\n");
    ws.write("testcases/double/2.out", "10\n");
    // A long input (one that is not shown unless asked for): 5 followed by many numbers.
    let long: String = std::iter::once("5".to_string())
        .chain((0..100).map(|i| i.to_string()))
        .collect::<Vec<_>>()
        .join("\n");
    ws.write("testcases/double/3.in", format!("{long}\n"));
    ws.write("testcases/double/3.out", "10\n");
    let src = ws.write("wrong.rs", PRINTS_BY_INPUT);
    let doc = ws
        .judge()
        .args(["run", src.to_str().unwrap(), "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(
        doc["cases"][0]["input"],
        serde_json::Value::Null,
        "AC: no input"
    );
    assert_eq!(doc["cases"][1]["verdict"], "WA");
    assert_eq!(doc["cases"][1]["input"], "5");
    assert_eq!(doc["cases"][2]["verdict"], "WA");
    assert_eq!(
        doc["cases"][2]["input"],
        serde_json::Value::Null,
        "long: not shown"
    );

    ws.judge()
        .args(["run", src.to_str().unwrap(), "--case", "2"])
        .expect_exit(1)
        .stdout_matches(r"input:\n +5\n")
        .run();
    let text = ws
        .judge()
        .args(["run", src.to_str().unwrap(), "--case", "3", "--show-input"])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(text.contains("input:"), "{text}");
    assert!(text.contains("\n               99\n"), "{text}");
}

#[test]
fn whitespace_and_letter_case_hints_show_in_the_table_and_json() {
    let ws = Workspace::new();
    ws.problem(
        "yes",
        "title = \"Yes\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n",
        &[("1", "1\n", "YES\n")],
    );
    ws.problem(
        "exact",
        "title = \"Exact\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\nchecker = \"exact\"\n",
        &[("1", "1\n", "1 2\n")],
    );
    let lower = ws.write("lower.rs", "fn main() { println!(\"yes\"); }\n");
    let spaced = ws.write("spaced.rs", "fn main() { println!(\"  YES  \"); }\n");
    let two_lines = ws.write("lines.rs", "fn main() { println!(\"1\\n2\"); }\n");
    let run = |src: &std::path::Path, problem: &str, code: i32| {
        let doc = ws
            .judge()
            .args(["run", src.to_str().unwrap(), "--problem", problem, "--json"])
            .expect_exit(code)
            .run()
            .json();
        doc["cases"][0].clone()
    };
    let c = run(&lower, "yes", 1);
    assert_eq!(c["verdict"], "WA");
    assert_eq!(
        c["hint"],
        "the output differs from the answer only in letter case"
    );
    let c = run(&spaced, "yes", 0);
    assert_eq!(c["verdict"], "AC");
    assert_eq!(
        c["hint"],
        "the output differs from the answer only in whitespace"
    );
    let c = run(&two_lines, "exact", 1);
    assert_eq!(c["verdict"], "WA");
    assert!(
        c["hint"].as_str().unwrap().contains("only in whitespace"),
        "{c}"
    );
    ws.judge()
        .args(["run", lower.to_str().unwrap(), "--problem", "yes"])
        .expect_exit(1)
        .stdout_has("note: the output differs from the answer only in letter case")
        .run();
    ws.judge()
        .args(["run", spaced.to_str().unwrap(), "--problem", "yes"])
        .expect_exit(0)
        .stdout_has("note: the output differs from the answer only in whitespace")
        .run();
}
