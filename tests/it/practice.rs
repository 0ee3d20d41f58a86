//! Starting to practise: `judge init`, `judge new`, `judge new-problem`, `judge show`.

use crate::common::{shipped, Test};

fn fresh() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    Test::at(tmp.path())
        .args(["init", "practice"])
        .expect_exit(0)
        .stdout_has("created a practice workspace")
        .stdout_has("judge run sum")
        .run();
    let root = tmp.path().join("practice");
    (tmp, root)
}

#[test]
fn init_makes_a_workspace_whose_example_is_accepted() {
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
    let doc = Test::at(&root)
        .args(["run", "sum", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["verdict"], "AC");
    assert_eq!(doc["expected"], "AC");
    Test::at(&root)
        .arg("list")
        .expect_exit(0)
        .stdout_has("a-plus-b  A + B")
        .run();
    Test::at(&root)
        .args(["stress", "sum", "--against", "sum"])
        .expect_exit(2)
        .stderr_has("the same file")
        .run();
    // Never over an existing workspace.
    Test::at(tmp.path())
        .args(["init", "practice"])
        .expect_exit(2)
        .stderr_has("already exists")
        .run();
}

#[test]
fn new_starts_from_a_template_that_compiles_and_never_overwrites() {
    let (_tmp, root) = fresh();
    Test::at(&root)
        .args(["new", "mine"])
        .expect_exit(0)
        .stdout_has("created solutions/a-plus-b/mine.rs from the template")
        .stdout_has("judge run mine")
        .run();
    let path = root.join("solutions/a-plus-b/mine.rs");
    let template = std::fs::read_to_string(&path).unwrap();
    assert!(template.contains("read_to_string") && template.contains("BufWriter"));
    assert!(template.contains("a-plus-b: A + B"), "{template}");
    // It compiles as it is: it reads the first number and prints it, which is wrong here.
    let doc = Test::at(&root)
        .args(["run", "mine", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(
        doc["compile"]["diagnostics"],
        serde_json::Value::Null,
        "{doc:#}"
    );
    assert_eq!(doc["verdict"], "WA");

    std::fs::write(&path, "// my work\n").unwrap();
    Test::at(&root)
        .args(["new", "mine"])
        .expect_exit(2)
        .stderr_has("mine.rs already exists")
        .run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "// my work\n");

    Test::at(&root)
        .args(["new", "copy", "--from", "sum"])
        .expect_exit(0)
        .stdout_has("from a copy of solutions/a-plus-b/sum.rs")
        .run();
    Test::at(&root).args(["run", "copy"]).expect_exit(0).run();
    Test::at(&root)
        .args(["new", "../escape"])
        .expect_exit(2)
        .stderr_has("cannot be the name")
        .run();
    Test::at(&root)
        .args(["new", "x", "--problem", "nope"])
        .expect_exit(2)
        .stderr_has("unknown problem `nope`")
        .run();
}

#[test]
fn the_template_attempt_can_be_stress_tested_against_the_example() {
    let (_tmp, root) = fresh();
    Test::at(&root).args(["new", "mine"]).expect_exit(0).run();
    let doc = Test::at(&root)
        .args(["stress", "mine", "--against", "sum", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA");
    assert_eq!(doc["disagreement"]["seed"], 1);
}

#[test]
fn new_problem_scaffolds_what_list_accepts() {
    let (_tmp, root) = fresh();
    Test::at(&root)
        .args(["new-problem", "max-of-two"])
        .expect_exit(0)
        .stdout_has("created problem `max-of-two` (Max Of Two)")
        .stdout_has("testcases/max-of-two/1.in")
        .stdout_has("\n  solutions/max-of-two\n")
        .run();
    for rel in ["problem.toml", "statement.md", "gen.rs"] {
        assert!(
            root.join("problems/max-of-two").join(rel).is_file(),
            "{rel}"
        );
    }
    assert!(root.join("testcases/max-of-two").is_dir());
    Test::at(&root)
        .arg("list")
        .expect_exit(0)
        .stdout_has("max-of-two  Max Of Two")
        .stdout_has("0 test cases")
        .run();
    Test::at(&root)
        .args(["show", "max-of-two"])
        .expect_exit(0)
        .stdout_has("none yet: judge new NAME --problem max-of-two")
        .run();
    // The first solution can be written straight into its folder, as with `cat > FILE`.
    std::fs::write(
        root.join("solutions/max-of-two/brute.py"),
        "print(max(map(int, input().split())))\n",
    )
    .expect("new-problem makes solutions/max-of-two/");
    Test::at(&root)
        .args(["new-problem", "max-of-two"])
        .expect_exit(2)
        .stderr_has("already exists")
        .run();
    // Judging needs cases: the error says what to add.
    Test::at(&root)
        .args(["new", "mine", "--problem", "max-of-two"])
        .expect_exit(0)
        .stdout_has("judge run mine")
        .run();
    Test::at(&root)
        .args(["run", "mine"])
        .expect_exit(2)
        .stderr_has("no test cases")
        .run();
    // The generator stub compiles and runs: the template agrees with a copy of itself.
    Test::at(&root)
        .args(["new", "other", "--from", "max-of-two/mine"])
        .expect_exit(0)
        .run();
    Test::at(&root)
        .args(["stress", "mine", "--against", "other", "--count", "5"])
        .expect_exit(0)
        .stdout_has("no disagreement")
        .run();
}

#[test]
fn show_renders_the_problem_for_a_terminal() {
    Test::at(shipped())
        .args(["show", "nqueens-ii"])
        .expect_exit(0)
        .stdout_has("nqueens-ii  N-Queens II")
        .stdout_has("time 4 s · memory 256 MiB")
        .stdout_has("Place n queens on an n × n chessboard")
        .stdout_has("1 ≤ n ≤ 14")
        .stdout_has("sample 08\n  input:\n    8\n  answer:\n    92")
        .stdout_matches(r"odometer +TLE")
        .stdout_lacks("$")
        .stdout_lacks("```")
        .run();
}

/// Following the README leaves an attempt and a saved case in the checkout; the tests judge
/// their own copy of what a fresh clone has, so those files change nothing they see.
#[test]
fn the_tests_judge_a_copy_of_the_tracked_workspace() {
    let tracked = std::process::Command::new("git")
        .arg("-C")
        .arg(crate::common::repo())
        .args(["ls-files", "--", "problems", "solutions", "testcases"])
        .output()
        .unwrap();
    if !tracked.status.success() {
        // Out of a git checkout the copy holds every file: nothing to tell apart.
        return;
    }
    let mut want: Vec<String> = String::from_utf8(tracked.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    want.sort();
    let root = shipped();
    assert_ne!(root, crate::common::repo());
    let mut have: Vec<String> = walkdir::WalkDir::new(&root)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(&root).unwrap().display().to_string())
        .filter(|rel| !rel.starts_with(".judge/"))
        .collect();
    have.sort();
    assert_eq!(have, want);
}

/// The rule above, kept: no test runs the judge in the checkout or reads its cases there.
#[test]
fn no_test_judges_the_checkout() {
    let dir = crate::common::repo().join("tests/it");
    let pattern = regex::Regex::new(
        r#"Test::at\((common::)?repo\(\)|repo\(\)\.join\(\s*(format!\()?"(problems|solutions|testcases)"#,
    )
    .unwrap();
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(&dir) {
        let path = entry.unwrap().into_path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if pattern.is_match(line) && !line.trim_start().starts_with("r#\"") {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "judge shipped() instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_files_the_judge_writes_for_you_take_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    // Under umask 022: 0644, a script 0755, never the 0600 of a temporary file.
    let judge = |dir: &std::path::Path| {
        Test::at(dir).wrapped_in(["sh", "-c", "umask 022 && exec \"$0\" \"$@\""])
    };
    let tmp = tempfile::tempdir().unwrap();
    judge(tmp.path())
        .args(["init", "practice"])
        .expect_exit(0)
        .run();
    let root = tmp.path().join("practice");
    judge(&root)
        .args(["new-problem", "max-of-two"])
        .expect_exit(0)
        .run();
    judge(&root)
        .args(["new", "attempt", "--problem", "a-plus-b"])
        .expect_exit(0)
        .run();
    // The template attempt disagrees with the example: a saved case.
    judge(&root)
        .args(["stress", "attempt", "--against", "sum", "--save"])
        .expect_exit(1)
        .stdout_has("saved as test case")
        .run();
    judge(&root)
        .args(["export", "a-plus-b", "--kattis"])
        .arg(tmp.path().join("aplusb"))
        .expect_exit(0)
        .run();
    let mut seen = 0;
    for entry in walkdir::WalkDir::new(tmp.path())
        .min_depth(1)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".judge")
    {
        let entry = entry.unwrap();
        let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
        let rel = entry.path().strip_prefix(tmp.path()).unwrap().display();
        match entry.file_type().is_dir() {
            true => assert_eq!(mode, 0o755, "{rel}: {mode:o}"),
            false => {
                assert!(mode == 0o644 || mode == 0o755, "{rel}: {mode:o}");
                seen += 1;
            }
        }
    }
    assert!(seen > 10, "{seen} files");
}
