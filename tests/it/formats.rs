//! Packages in the 2025-09 format, as juries prepare them: expectations per folder, glob and
//! submission (`submissions.yaml`), DOMjudge's `@EXPECTED_RESULTS@`, constants, multi-pass
//! problems (interactive ones too), a case's `.files`, a working folder submissions may only
//! read, the languages a problem allows and its limits, and one package with all of them. The fixtures (`tests/fixtures/packages/`) were written from
//! the format's text; each is copied to a throw-away folder and judged there.

use std::path::{Path, PathBuf};

use crate::common::{repo, Test};

/// A copy of the fixture package `name`, and a folder for the judge's own state.
pub(crate) struct Fixture {
    dir: tempfile::TempDir,
    state: tempfile::TempDir,
    pub(crate) name: &'static str,
}

impl Fixture {
    pub(crate) fn new(name: &'static str) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        copy(
            &repo().join("tests/fixtures/packages").join(name),
            &dir.path().join(name),
        );
        Fixture {
            dir,
            state: tempfile::tempdir().unwrap(),
            name,
        }
    }

    pub(crate) fn path(&self) -> PathBuf {
        self.dir.path().join(self.name)
    }

    /// Rewrites the file `rel` of the package with `edit`.
    pub(crate) fn edit(&self, rel: &str, edit: impl Fn(String) -> String) {
        let path = self.path().join(rel);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        std::fs::write(&path, edit(text)).unwrap();
    }

    /// The judge in the folder holding the package, outside any workspace.
    pub(crate) fn judge(&self) -> Test {
        Test::outside(self.dir.path()).env("XDG_CACHE_HOME", self.state.path())
    }

    /// `judge verify NAME --json`: each submission's entry, by name.
    pub(crate) fn verified(&self, exit: i32) -> (serde_json::Value, String) {
        let out = self
            .judge()
            .args(["verify", self.name, "--json"])
            .expect_exit(exit)
            .run();
        (out.json()[0].clone(), out.stderr)
    }
}

pub(crate) fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The entry of `solution` in a verification.
pub(crate) fn solution<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["solution"] == name)
        .unwrap_or_else(|| panic!("{name} was not judged: {v:#}"))
}

fn skipped(v: &serde_json::Value) -> Vec<(String, String)> {
    v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["solution"].as_str().unwrap().to_string(),
                s["skipped"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn every_submission_is_held_to_its_folder_its_globs_and_its_own_rules() {
    let f = Fixture::new("triangle");
    let (v, _) = f.verified(0);
    // The limit comes from the submissions that may not time out (2025-09's inference), at
    // the package's resolution of half a second.
    assert_eq!(v["time_limit_ms"], 500, "{v:#}");
    for (name, verdict) in [
        ("accepted/formula.py", "AC"),
        ("wrong_answer/off_by_one.py", "WA"),
        ("time_limit_exceeded/loop.py", "TLE"),
        ("run_time_error/crash.py", "RE"),
        ("rejected/mixed.py", "WA"),
        ("brute_force/count.py", "TLE"),
        // In accepted/, and its @EXPECTED_RESULTS@ comment says WRONG-ANSWER: DOMjudge's rule.
        ("accepted/says_wrong.py", "WA"),
    ] {
        let s = solution(&v, name);
        assert_eq!(s["verdict"], verdict, "{name}: {s:#}");
        assert_eq!(s["matches_expected"], true, "{name}: {s:#}");
    }
    let rules = |name: &str| solution(&v, name)["rules"].to_string();
    assert!(
        rules("time_limit_exceeded/loop.py").contains(
            "submissions.yaml: time_limit_exceeded/loop.py: on secret/*-easy: permitted AC"
        ),
        "{}",
        rules("time_limit_exceeded/loop.py")
    );
    // The folder named in submissions.yaml keeps its default, with the message added.
    assert!(rules("wrong_answer/off_by_one.py")
        .contains("submissions.yaml: wrong_answer: permitted AC WA, required WA, message"));
    assert!(rules("brute_force/count.py").contains("folder brute_force/"));
    assert_eq!(solution(&v, "accepted/says_wrong.py")["expected"], "WA");
    assert!(solution(&v, "accepted/says_wrong.py")["rules"].is_null());
}

#[test]
fn a_broken_rule_is_named_with_the_case_where_it_broke() {
    let f = Fixture::new("triangle");
    f.edit("submissions/submissions.yaml", |t| {
        t + "accepted/formula.py:\n  secret/03-hard:\n    permitted: [TLE]\n"
    });
    let out = f.judge().args(["verify", "triangle"]).expect_exit(1).run();
    assert!(
        out.stdout.contains(
            "broke submissions.yaml: accepted/formula.py: case secret/03-hard got AC, not permitted"
        ),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("1 mismatch:"), "{}", out.stdout);
}

#[test]
fn a_message_must_appear_in_a_judge_message() {
    let f = Fixture::new("triangle");
    f.edit("submissions/submissions.yaml", |t| {
        t.replace("message: expected", "message: nowhere to be seen")
    });
    let (v, _) = f.verified(1);
    let s = solution(&v, "wrong_answer/off_by_one.py");
    assert_eq!(s["matches_expected"], false);
    assert_eq!(
        s["broken"][0]["why"],
        "no judgemessage.txt of its cases says \"nowhere to be seen\""
    );
}

#[test]
fn constants_are_put_in_the_submissions() {
    // crash.py crashes above {{max_n}} = 100 only (the hard case): without the
    // constant put in, it would crash on every case.
    let f = Fixture::new("triangle");
    let out = f
        .judge()
        .args(["run", "triangle/submissions/run_time_error/crash.py"])
        .expect_exit(1)
        .run();
    assert!(out.stdout.contains("3/4 passed"), "{}", out.stdout);
}

#[test]
fn every_pass_of_a_multi_pass_case_is_judged() {
    let f = Fixture::new("relay");
    let (v, _) = f.verified(0);
    assert_eq!(solution(&v, "accepted/add.py")["verdict"], "AC");
    // Right on the first pass only: judged as one pass, it would be accepted.
    let wrong = solution(&v, "wrong_answer/first_pass_only.py");
    assert_eq!(wrong["verdict"], "WA", "{wrong:#}");
    let out = f
        .judge()
        .args([
            "run",
            "relay/submissions/wrong_answer/first_pass_only.py",
            "--json",
        ])
        .expect_exit(1)
        .run()
        .json();
    let case = &out["cases"][0];
    assert_eq!(case["passes"], 2, "{case:#}");
    assert!(
        case["detail"]
            .as_str()
            .unwrap()
            .starts_with("in pass 2 (its input: 2 11): "),
        "{case:#}"
    );
}

#[test]
fn every_pass_of_an_interactive_multi_pass_case_is_judged() {
    let f = Fixture::new("baton");
    let (v, _) = f.verified(0);
    assert_eq!(solution(&v, "accepted/add.py")["verdict"], "AC");
    let wrong = solution(&v, "wrong_answer/first_pass_only.py");
    assert_eq!(wrong["verdict"], "WA", "{wrong:#}");
    let out = f
        .judge()
        .args([
            "run",
            "baton/submissions/wrong_answer/first_pass_only.py",
            "--json",
        ])
        .expect_exit(1)
        .run()
        .json();
    let case = &out["cases"][0];
    assert_eq!(case["passes"], 2, "{case:#}");
    assert_eq!(
        case["detail"], "in pass 2 (its input: 2 6): pass 2: expected 8, got 7",
        "{case:#}"
    );
}

#[test]
fn a_validator_asking_for_more_passes_than_the_limit_is_the_package_s_fault() {
    let f = Fixture::new("relay");
    f.edit("problem.yaml", |t| {
        t.replace("validation_passes: 3", "validation_passes: 2")
    });
    let out = f
        .judge()
        .args(["run", "relay/submissions/accepted/add.py", "--json"])
        .expect_exit(2)
        .run()
        .json();
    assert_eq!(out["verdict"], "IE");
    assert_eq!(
        out["cases"][0]["detail"],
        "the output validator asked for pass 3 after pass 2, and limits.validation_passes allows 2"
    );
}

#[test]
fn files_a_read_only_folder_languages_and_the_code_limit() {
    let f = Fixture::new("inventory");
    let (v, _) = f.verified(0);
    // The case's .files are in the working folder (shelf/items.txt, a folder and all).
    assert_eq!(solution(&v, "accepted/count.py")["verdict"], "AC");
    // allow_file_writing is false by default in 2025-09: writing a note there fails.
    assert_eq!(solution(&v, "run_time_error/writes.py")["verdict"], "RE");
    let skipped = skipped(&v);
    assert!(
        skipped.contains(&(
            "accepted/count.c".into(),
            "the package allows only python3 (its `languages`), and this is c".into()
        )),
        "{skipped:?}"
    );
    assert!(
        skipped.iter().any(|(s, why)| s == "accepted/long.py"
            && why.contains("over the package's code limit of 1 KiB (limits.code)")),
        "{skipped:?}"
    );
}

#[test]
fn writing_files_is_allowed_when_the_package_says_so() {
    let f = Fixture::new("inventory");
    f.edit("problem.yaml", |t| t + "allow_file_writing: true\n");
    let out = f
        .judge()
        .args(["run", "inventory/submissions/run_time_error/writes.py"])
        .expect_exit(0)
        .run();
    assert!(out.stdout.contains("AC"), "{}", out.stdout);
}

#[test]
fn what_the_judge_cannot_honour_is_refused_with_the_reason() {
    let f = Fixture::new("relay");
    for (yaml, says) in [
        (
            "type: submit-answer",
            "relay/problem.yaml:7: type: submit-answer problems are not judged here",
        ),
        (
            "type: [pass-fail, scoring]",
            "`pass-fail` and `scoring` cannot go together",
        ),
        (
            "type: pass-fail",
            "`validation_passes` is for multi-pass problems",
        ),
    ] {
        f.edit("problem.yaml", |t| {
            t.lines()
                .map(|l| if l.starts_with("type:") { yaml } else { l })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n"
        });
        let out = f.judge().args(["verify", "relay"]).expect_exit(2).run();
        assert!(out.stderr.contains(says), "{yaml}: {}", out.stderr);
        assert!(out.stderr.contains("fix: "), "{}", out.stderr);
    }
}

#[test]
fn the_cases_that_test_the_validators_are_rejected_or_accepted_as_they_must_be() {
    let f = Fixture::new("triangle");
    let v = f
        .judge()
        .args(["validate", "triangle", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let said: Vec<(String, bool)> = v["validator_cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["case"].as_str().unwrap().to_string(), c["ok"] == true))
        .collect();
    assert_eq!(
        said,
        [
            ("invalid_input/word".to_string(), true),
            ("invalid_input/zero".to_string(), true),
            ("invalid_output/off".to_string(), true),
            ("valid_output/spaced".to_string(), true),
        ]
    );
    // An output the validator rejects, in valid_output/: validate and verify both say so.
    f.edit("data/valid_output/spaced.out", |_| "54\n".into());
    let out = f
        .judge()
        .args(["validate", "triangle"])
        .expect_exit(1)
        .run();
    assert!(
        out.stdout.contains(
            "valid_output/spaced  the output validator rejected it: expected 55, got 54 (MISMATCH)"
        ),
        "{}",
        out.stdout
    );
    let out = f.judge().args(["verify", "triangle"]).expect_exit(1).run();
    assert!(out.stdout.contains("3/4 as they must be"), "{}", out.stdout);
}

/// `everything` uses every feature of the format at once: multi-pass, constants, the whole
/// limits block, languages, a LaTeX statement, generated data, every kind of expectation, a
/// sample's `.files`, a folder submissions may only read, and the cases that test the
/// validators. Made by `judge generate`, it verifies with every submission as expected.
#[test]
fn one_package_with_every_feature_verifies_with_every_submission_as_expected() {
    let f = Fixture::new("everything");
    let out = f
        .judge()
        .args(["verify", "everything"])
        .expect_exit(2)
        .run();
    assert!(
        out.stderr.contains("judge generate everything"),
        "{}",
        out.stderr
    );
    f.judge()
        .args(["generate", "everything"])
        .stdout_has("4 new")
        .expect_exit(0)
        .run();
    // The settings file is written as generators.yaml says; its constant is put in when the
    // judge reads it (the output validator fails the case on any other argument).
    assert_eq!(
        std::fs::read_to_string(f.path().join("data/secret/test_group.yaml")).unwrap(),
        "output_validator_args:\n- max={{max_value}}\n"
    );
    let (v, _) = f.verified(0);
    for (name, verdict) in [
        ("accepted/add.py", "AC"),
        // Its @EXPECTED_RESULTS@ overrides accepted/: right on the first pass only.
        ("accepted/first_pass_only.py", "WA"),
        // The sample's .files read, the constant put in.
        ("accepted/reads_its_note.py", "AC"),
        // Accepted on the samples, a run-time error on the big case (submissions.yaml).
        ("brute_force/recursive.py", "RE"),
        ("rejected/negative.py", "WA"),
        // Writing in its working folder, which the package does not allow.
        ("run_time_error/writes.py", "RE"),
        // Accepted on the small cases, too slow on the big one (the constant says which).
        ("time_limit_exceeded/slow_on_big.py", "TLE"),
        ("wrong_answer/off_by_one.py", "WA"),
    ] {
        let s = solution(&v, name);
        assert_eq!(s["verdict"], verdict, "{name}: {s:#}");
        assert_eq!(s["matches_expected"], true, "{name}: {s:#}");
    }
    // Each stops at the big case, its verdict decided there: every rule met.
    assert_eq!(solution(&v, "brute_force/recursive.py")["passed"], 4);
    assert_eq!(
        solution(&v, "time_limit_exceeded/slow_on_big.py")["passed"],
        4
    );
    let cases = v["validator_cases"].as_array().unwrap();
    assert_eq!(cases.len(), 4, "{v:#}");
    assert!(cases.iter().all(|c| c["ok"] == true), "{v:#}");
    assert_eq!(v["skipped"].as_array().map_or(0, Vec::len), 0, "{v:#}");

    // Its statement, in LaTeX, with the constant, the samples and the illustration in place.
    let shown = f
        .judge()
        .args(["show", "everything"])
        .expect_exit(0)
        .run()
        .stdout;
    for part in [
        "(|v| ≤ 1000000 in the first pass)",
        "sample sample/1",
        "baton.png — The baton, handed on]",
        "sample sample/2",
    ] {
        assert!(shown.contains(part), "{part:?} in:\n{shown}");
    }
}

#[test]
fn visualizers_are_not_run_and_that_is_said_once() {
    let f = Fixture::new("baton");
    for folder in ["input_visualizer", "output_visualizer"] {
        std::fs::create_dir_all(f.path().join(folder)).unwrap();
    }
    f.edit("input_visualizer/draw.py", |_| {
        "open('drawn', 'w')\n".into()
    });
    f.edit("output_visualizer/draw.py", |_| {
        "open('drawn', 'w')\n".into()
    });
    let out = f.judge().args(["verify", "baton"]).expect_exit(0).run();
    let said = "warning: baton: input_visualizer/, output_visualizer/ not run: a visualizer draws cases for people and decides no verdict";
    assert_eq!(out.stderr.matches(said).count(), 1, "{}", out.stderr);
}
