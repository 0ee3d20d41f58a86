//! `judge batch`: a file of submissions judged on this machine, a result per line, and a batch
//! run again after a crash or a fix judging only what has no verdict yet, with the history
//! holding one record per submission however often it is judged.

use crate::common::Workspace;

fn doubling() -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"2s\"\nmemory_limit = \"256MiB\"\n",
        &[("1", "21\n", "42\n"), ("2", "5\n", "10\n")],
    );
    ws
}

fn line(id: Option<&str>, problem: &str, language: &str, source: &str) -> String {
    let mut v = serde_json::json!({"problem": problem, "language": language, "source": source});
    if let Some(id) = id {
        v["id"] = id.into();
    }
    v.to_string()
}

const TWICE: &str = "print(2 * int(input()))\n";
const SAME: &str = "print(int(input()))\n";

/// The results file's lines, as JSON.
fn results(ws: &Workspace) -> Vec<serde_json::Value> {
    std::fs::read_to_string(ws.path().join("subs.results.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn every_line_gets_a_result_and_a_batch_run_again_judges_only_what_has_none() {
    let ws = doubling();
    let c = "#include <cstdio>\nint main(){int n; scanf(\"%d\",&n); printf(\"%d\\n\", 2*n);}\n";
    let text = [
        line(Some("ok"), "double", "python", TWICE),
        line(None, "double", "python", SAME),
        line(None, "double", "python", SAME),
        line(Some("cpp"), "double", "cpp", c),
        line(Some("nope"), "triple", "python", TWICE),
        "{\"problem\": \"double\"".to_string(),
    ]
    .join("\n");
    ws.write("subs.jsonl", format!("{text}\n"));
    let out = ws
        .judge()
        .args(["batch", "subs.jsonl"])
        .expect_exit(1)
        .run();
    let all = results(&ws);
    assert_eq!(all.len(), 6, "{}", out.stderr);
    let by_line = |n: u64| all.iter().find(|r| r["line"] == n).unwrap();
    assert_eq!(by_line(1)["key"], "ok");
    assert_eq!(by_line(1)["verdict"], "AC");
    assert_eq!(by_line(1)["passed"], 2);
    assert_eq!(by_line(1)["report"]["verdict"], "AC");
    assert_eq!(by_line(1)["report"]["submission_key"], "ok");
    // Identical lines are two submissions, with keys of their own.
    assert_eq!(by_line(2)["verdict"], "WA");
    assert_eq!(
        by_line(3)["key"],
        format!("{}#2", by_line(2)["key"].as_str().unwrap())
    );
    assert_eq!(by_line(4)["verdict"], "AC");
    assert!(by_line(5)["error"]
        .as_str()
        .unwrap()
        .contains("unknown problem `triple`"));
    assert!(by_line(6)["error"]
        .as_str()
        .unwrap()
        .contains("not a submission"));
    assert!(
        out.stderr.contains("4 judged, 2 could not be"),
        "{}",
        out.stderr
    );

    // The problem made, and a crash simulated: the last result cut off half-way.
    ws.problem(
        "triple",
        "title = \"Triple\"\ntime_limit = \"2s\"\nmemory_limit = \"256MiB\"\n",
        &[("1", "2\n", "4\n")],
    );
    let kept = std::fs::read_to_string(ws.path().join("subs.results.jsonl")).unwrap();
    let mut lines: Vec<&str> = kept.lines().collect();
    let cpp = lines
        .iter()
        .position(|l| l.contains("\"key\":\"cpp\""))
        .unwrap();
    let cut = lines.remove(cpp);
    let mut text = lines.join("\n");
    text.push('\n');
    text.push_str(&cut[..cut.len() / 2]);
    ws.write("subs.results.jsonl", text);
    let again = ws
        .judge()
        .args(["batch", "subs.jsonl"])
        .expect_exit(1)
        .run();
    assert!(
        again.stderr.contains("3 of 6 submissions have a result"),
        "{}",
        again.stderr
    );
    assert!(
        again
            .stderr
            .contains("2 judged, 1 could not be, 3 had a result already"),
        "{}",
        again.stderr
    );
    let all = results(&ws);
    assert_eq!(
        all.len(),
        6,
        "one result per line, no part of a line: {all:#?}"
    );
    let by_line = |n: u64| all.iter().find(|r| r["line"] == n).unwrap();
    assert_eq!(by_line(4)["verdict"], "AC");
    assert_eq!(
        by_line(5)["verdict"],
        "AC",
        "the fixed line was tried again"
    );

    // Every submission judged has one record in the history, the cpp line judged twice too.
    let history = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let subs = history.as_array().unwrap();
    assert_eq!(subs.len(), 5, "{history:#}");
    let cpp = subs.iter().filter(|s| s["solution"] == "cpp").count();
    assert_eq!(cpp, 1, "{history:#}");
}

#[test]
fn a_file_that_cannot_be_read_is_exit_2_and_writes_nothing() {
    let ws = doubling();
    let out = ws
        .judge()
        .args(["batch", "missing.jsonl"])
        .expect_exit(2)
        .run();
    assert!(
        out.stderr.contains("cannot read missing.jsonl"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("fix:"), "{}", out.stderr);
    assert!(!ws.path().join("missing.results.jsonl").exists());
    // A results file that is not one is named, never overwritten.
    ws.write("subs.jsonl", line(None, "double", "python", TWICE) + "\n");
    ws.write("subs.results.jsonl", "my notes\n");
    let out = ws
        .judge()
        .args(["batch", "subs.jsonl"])
        .expect_exit(2)
        .run();
    assert!(
        out.stderr
            .contains("subs.results.jsonl: line 1 is not a result"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read_to_string(ws.path().join("subs.results.jsonl")).unwrap(),
        "my notes\n"
    );
}

/// A package named by path that does not load is the error of each of its lines, said as the
/// command line says it when the package is named there; the other lines are judged.
#[test]
fn a_package_that_does_not_load_is_its_lines_error() {
    let ws = doubling();
    ws.write("pkg/problem.yaml", "name: Broken\nlimits: [1\n");
    ws.write("pkg/data/secret/1.in", "1\n");
    ws.write("pkg/data/secret/1.ans", "2\n");
    let text = [
        line(Some("pkg"), "pkg", "python", TWICE),
        line(Some("ok"), "double", "python", TWICE),
    ]
    .join("\n");
    ws.write("subs.jsonl", format!("{text}\n"));
    let out = ws
        .judge()
        .args(["batch", "subs.jsonl"])
        .expect_exit(1)
        .run();
    let all = results(&ws);
    let by_key = |k: &str| all.iter().find(|r| r["key"] == k).unwrap();
    assert_eq!(by_key("ok")["verdict"], "AC", "{}", out.stderr);
    let said = by_key("pkg")["error"].as_str().unwrap().to_string();
    let alone = ws.judge().args(["verify", "pkg"]).expect_exit(2).run();
    assert!(said.contains("problem.yaml"), "{said}");
    assert!(alone.stderr.contains(&said), "{said}\n{}", alone.stderr);
}
