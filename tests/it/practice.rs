//! Starting to practise: `judge init`, `judge new`, `judge new-problem`, `judge show`.

use crate::common::{self, json, repo};
use predicates::prelude::*;

fn fresh() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    common::judge(tmp.path())
        .args(["init", "practice"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("created a practice workspace"))
        .stdout(predicate::str::contains("judge run sum"));
    let root = tmp.path().join("practice");
    (tmp, root)
}

#[test]
fn init_makes_a_workspace_whose_example_is_accepted() {
    let _no_bomb = common::no_fork_bomb();
    let (tmp, root) = fresh();
    for rel in [
        "problems/a-plus-b/problem.toml",
        "problems/a-plus-b/statement.md",
        "problems/a-plus-b/gen.rs",
        "testcases/a-plus-b/1.in",
        "solutions/a-plus-b/sum.rs",
        ".gitignore",
    ] {
        assert!(root.join(rel).is_file(), "{rel}");
    }
    let out = common::judge(&root)
        .args(["run", "sum", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc = json(&out.stdout);
    assert_eq!(doc["verdict"], "AC");
    assert_eq!(doc["expected"], "AC");
    common::judge(&root)
        .arg("list")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("a-plus-b  A + B"));
    common::judge(&root)
        .args(["stress", "sum", "--against", "sum"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the same file"));
    // Never over an existing workspace.
    common::judge(tmp.path())
        .args(["init", "practice"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
}

#[test]
fn new_starts_from_a_template_that_compiles_and_never_overwrites() {
    let _no_bomb = common::no_fork_bomb();
    let (_tmp, root) = fresh();
    common::judge(&root)
        .args(["new", "mine"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "created solutions/a-plus-b/mine.rs from the template",
        ))
        .stdout(predicate::str::contains("judge run mine"));
    let path = root.join("solutions/a-plus-b/mine.rs");
    let template = std::fs::read_to_string(&path).unwrap();
    assert!(template.contains("read_to_string") && template.contains("BufWriter"));
    assert!(template.contains("a-plus-b: A + B"), "{template}");
    // It compiles as it is: it reads the first number and prints it, which is wrong here.
    let out = common::judge(&root)
        .args(["run", "mine", "--json"])
        .output()
        .unwrap();
    let doc = json(&out.stdout);
    assert_eq!(
        doc["compile"]["diagnostics"],
        serde_json::Value::Null,
        "{doc:#}"
    );
    assert_eq!(doc["verdict"], "WA");

    std::fs::write(&path, "// my work\n").unwrap();
    common::judge(&root)
        .args(["new", "mine"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("mine.rs already exists"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "// my work\n");

    common::judge(&root)
        .args(["new", "copy", "--from", "sum"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "from a copy of solutions/a-plus-b/sum.rs",
        ));
    common::judge(&root).args(["run", "copy"]).assert().code(0);
    common::judge(&root)
        .args(["new", "../escape"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be the name"));
    common::judge(&root)
        .args(["new", "x", "--problem", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown problem `nope`"));
}

#[test]
fn the_template_attempt_can_be_stress_tested_against_the_example() {
    let _no_bomb = common::no_fork_bomb();
    let (_tmp, root) = fresh();
    common::judge(&root).args(["new", "mine"]).assert().code(0);
    let out = common::judge(&root)
        .args(["stress", "mine", "--against", "sum", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&out.stdout);
    assert_eq!(doc["verdict"], "WA");
    assert_eq!(doc["disagreement"]["seed"], 1);
}

#[test]
fn new_problem_scaffolds_what_list_accepts() {
    let _no_bomb = common::no_fork_bomb();
    let (_tmp, root) = fresh();
    common::judge(&root)
        .args(["new-problem", "max-of-two"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "created problem `max-of-two` (Max Of Two)",
        ))
        .stdout(predicate::str::contains("testcases/max-of-two/1.in"));
    for rel in ["problem.toml", "statement.md", "gen.rs"] {
        assert!(
            root.join("problems/max-of-two").join(rel).is_file(),
            "{rel}"
        );
    }
    assert!(root.join("testcases/max-of-two").is_dir());
    common::judge(&root)
        .arg("list")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("max-of-two  Max Of Two"))
        .stdout(predicate::str::contains("0 test cases"));
    common::judge(&root)
        .args(["show", "max-of-two"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "none yet: judge new NAME --problem max-of-two",
        ));
    common::judge(&root)
        .args(["new-problem", "max-of-two"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    // Judging needs cases: the error says what to add.
    common::judge(&root)
        .args(["new", "mine", "--problem", "max-of-two"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("judge run mine"));
    common::judge(&root)
        .args(["run", "mine"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no test cases"));
    // The generator stub compiles and runs: the template agrees with a copy of itself.
    common::judge(&root)
        .args(["new", "other", "--from", "max-of-two/mine"])
        .assert()
        .code(0);
    common::judge(&root)
        .args(["stress", "mine", "--against", "other", "--count", "5"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("no disagreement"));
}

#[test]
fn show_renders_the_problem_for_a_terminal() {
    common::judge(&repo())
        .args(["show", "nqueens-ii"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("nqueens-ii  N-Queens II"))
        .stdout(predicate::str::contains("time 4 s · memory 256 MiB"))
        .stdout(predicate::str::contains(
            "Place n queens on an n × n chessboard",
        ))
        .stdout(predicate::str::contains("1 ≤ n ≤ 14"))
        .stdout(predicate::str::contains(
            "sample 08\n  input:\n    8\n  answer:\n    92",
        ))
        .stdout(predicate::str::is_match(r"odometer +TLE").unwrap())
        .stdout(predicate::str::contains("$").not())
        .stdout(predicate::str::contains("```").not());
}
