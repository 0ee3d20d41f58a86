//! What a package's submissions must get, as the format's tools read it: DOMjudge's and the
//! format's spellings of `@EXPECTED_RESULTS@` and which rule decides when the tag and the folder
//! disagree, a verdict reached only with the extra time (problemtools' "OK with extra time"),
//! `submissions.yaml`'s `entrypoint` and its test-data globs as BAPCtools matches them, and the
//! folders of `data/` that test the validators and are never judged.

use crate::formats::{solution, Fixture};

/// The warnings of a verification, as one text.
fn warnings(v: &serde_json::Value) -> String {
    v["warnings"].to_string()
}

/// Writes the file `rel` of the package, with the folders it is in.
fn write(f: &Fixture, rel: &str, text: &str) {
    let path = f.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The triangle package with only the submissions `keep` (paths under `submissions/`).
fn triangle_with(keep: &[&str]) -> Fixture {
    let f = Fixture::new("triangle");
    let subs = f.path().join("submissions");
    for folder in std::fs::read_dir(&subs).unwrap() {
        let folder = folder.unwrap().path();
        if !folder.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap().path();
            let rel = entry
                .strip_prefix(&subs)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if !keep.contains(&rel.as_str()) {
                std::fs::remove_file(&entry).unwrap();
            }
        }
    }
    f
}

#[test]
fn the_formats_spelling_of_expected_results_is_read_and_the_tag_decides() {
    let f = triangle_with(&["accepted/formula.py", "accepted/says_wrong.py"]);
    f.edit("submissions/accepted/says_wrong.py", |t| {
        t.replace(
            "@EXPECTED_RESULTS@: WRONG-ANSWER",
            "@EXPECTED_RESULTS@: WRONG_ANSWER",
        )
    });
    let (v, _) = f.verified(0);
    let s = solution(&v, "accepted/says_wrong.py");
    assert_eq!(s["expected"], "WA", "{s:#}");
    assert_eq!(s["matches_expected"], true, "{s:#}");
    assert!(
        warnings(&v).contains(
            "accepted/says_wrong.py: its @EXPECTED_RESULTS@ says WA, its folder accepted/ says AC: the tag decides (DOMjudge's rule)"
        ),
        "{v:#}"
    );
    let out = f.judge().args(["verify", f.name]).expect_exit(0).run();
    assert!(
        out.stdout
            .contains("warning: accepted/says_wrong.py: its @EXPECTED_RESULTS@ says WA"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_verdict_reached_only_with_the_extra_time_matches_with_a_warning() {
    // A wrong answer that spends a second of CPU on the hard case, against a limit of half a
    // second and a margin six times that: TLE at the limit, WA at the margin.
    let f = triangle_with(&["accepted/formula.py"]);
    f.edit("problem.yaml", |t| {
        t.replace(
            "  time_resolution: 0.5\n",
            "  time_limit: 0.5\n  time_multipliers:\n    time_limit_to_tle: 6\n",
        )
    });
    write(
        &f,
        "submissions/wrong_answer/slow_off.py",
        "import time\nn = int(input())\nif n > 1000:\n    start = time.process_time()\n    while time.process_time() - start < 1.0:\n        pass\nprint(n * (n - 1) // 2)\n",
    );
    let (v, _) = f.verified(0);
    let s = solution(&v, "wrong_answer/slow_off.py");
    assert_eq!(s["verdict"], "WA", "{s:#}");
    assert_eq!(s["matches_expected"], true, "{s:#}");
    assert_eq!(s["with_extra_time"], true, "{s:#}");
    assert!(
        warnings(&v).contains("wrong_answer/slow_off.py: sensitive to the time limit")
            && warnings(&v).contains("OK with extra time"),
        "{v:#}"
    );
}

#[test]
fn the_entry_point_submissions_yaml_names_starts_the_program() {
    let f = triangle_with(&["accepted/formula.py"]);
    // Without its entry point, the first file in name order would start it, and be wrong.
    write(
        &f,
        "submissions/accepted/pair/a_wrong.py",
        "n = int(input())\nprint(n)\n",
    );
    write(
        &f,
        "submissions/accepted/pair/solve.py",
        "n = int(input())\nprint(n * (n + 1) // 2)\n",
    );
    f.edit("submissions/submissions.yaml", |t| {
        format!("{t}accepted/pair:\n  entrypoint: solve.py\n")
    });
    let (v, _) = f.verified(0);
    let s = solution(&v, "accepted/pair");
    assert_eq!(s["verdict"], "AC", "{s:#}");
    assert_eq!(s["matches_expected"], true, "{s:#}");
    // An entry point the program does not have is a compilation error that says so.
    f.edit("submissions/submissions.yaml", |t| {
        t.replace("solve.py", "nothing.py")
    });
    let (v, _) = f.verified(1);
    let s = solution(&v, "accepted/pair");
    assert_eq!(s["verdict"], "CE", "{s:#}");
}

#[test]
fn a_test_data_glob_that_matches_no_case_breaks_its_rule_as_in_bapctools() {
    // Inside braces every character is part of the name, spaces too: `{ 3 }` is not `{3}`,
    // and names have no spaces, so the rule is about no case, which the format does not allow
    // (its `required` is at least one case with any verdict).
    let f = triangle_with(&["accepted/formula.py"]);
    f.edit("submissions/submissions.yaml", |t| {
        format!("{t}accepted/formula.py:\n  secret/0{{ 3 }}-hard:\n    permitted: [AC]\n")
    });
    let (v, _) = f.verified(1);
    let s = solution(&v, "accepted/formula.py");
    assert_eq!(s["matches_expected"], false, "{s:#}");
    assert!(
        s["broken"].to_string().contains("matches no group or case"),
        "{s:#}"
    );
    // Without the spaces it is about 03-hard, which the submission solves.
    f.edit("submissions/submissions.yaml", |t| {
        t.replace("{ 3 }", "{3,9}")
    });
    let (v, _) = f.verified(0);
    assert_eq!(
        solution(&v, "accepted/formula.py")["matches_expected"],
        true
    );
}

#[test]
fn the_cases_that_test_the_validators_are_never_judged() {
    let f = triangle_with(&["accepted/formula.py", "wrong_answer/off_by_one.py"]);
    // An answer the output validator must reject when it is judged as one: never test data.
    write(&f, "data/invalid_answer/negative.in", "10\n");
    write(&f, "data/invalid_answer/negative.ans", "-55\n");
    // An invalid input needs no answer.
    write(&f, "data/invalid_input/empty.in", "\n");
    f.edit("output_validator/validate.py", |t| {
        // The validator rejects a negative answer in the jury's file too.
        t.replacen(
            "import sys\n",
            "import sys\nif open(sys.argv[2]).read().strip().startswith('-'):\n    sys.exit(43)\n",
            1,
        )
    });
    let (v, _) = f.verified(0);
    let s = solution(&v, "accepted/formula.py");
    assert_eq!(s["total"], 4, "no case of invalid_answer/ is judged: {s:#}");
    let cases: Vec<(String, bool)> = v["validator_cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["case"].as_str().unwrap().to_string(), c["ok"] == true))
        .collect();
    assert!(
        cases.contains(&("invalid_answer/negative".to_string(), true)),
        "{cases:?}"
    );
    assert!(
        cases.contains(&("invalid_input/empty".to_string(), true)),
        "{cases:?}"
    );
}

#[test]
fn a_generated_invalid_input_gets_no_answer() {
    // forest's solution writes every answer, and would fail on an input that is not a number.
    let f = Fixture::new("forest");
    f.edit("generators/generators.yaml", |t| {
        format!("{t}  invalid_input:\n    type: directory\n    data:\n      - words:\n          in: |\n            two\n")
    });
    f.judge().args(["generate", "forest"]).expect_exit(0).run();
    // Named by its number through the document (the reference's rule), then `words`.
    let names: Vec<String> = std::fs::read_dir(f.path().join("data/invalid_input"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("words"))
        .collect();
    assert!(
        names.len() == 1 && names[0].ends_with("-words.in"),
        "one input and no answer: {names:?}"
    );
}
