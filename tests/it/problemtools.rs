//! The external test: problemtools' own example packages (`hello`, `different`, `oddecho`, from
//! its pinned source release) verified where they lie, as `verifyproblem` judges them: every
//! submission the judge can run gets the verdict of its folder, the others are listed as
//! skipped with the reason, and the package is left byte for byte as it was.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::{self, problemtools, Test};

/// What problemtools expects of a submission in `folder`: the verdict, and whether it must get
/// every point (`Some(true)`), some but not all (`Some(false)`, partially accepted), or either.
fn expected(folder: &str) -> (&'static [&'static str], Option<bool>) {
    match folder {
        "accepted" => (&["AC"], Some(true)),
        "partially_accepted" => (&["AC"], Some(false)),
        "wrong_answer" => (&["WA"], None),
        // A package's memory limit holds the address space, as in problemtools: an allocation
        // past it fails at once, a run-time error (never an MLE, nor a TLE while filling it).
        "run_time_error" => (&["RE"], None),
        "time_limit_exceeded" => (&["TLE"], None),
        other => panic!("submissions/{other}/ is not a folder of the format"),
    }
}

/// `judge verify NAME --json` on the example package `NAME`; `must_judge` are the submissions in
/// languages installed here (C, C++, Rust, Python 3), which must not be skipped.
fn verify_example(name: &str, must_judge: &[&str]) {
    let examples = problemtools::examples();
    let package = examples.join(name);
    let before = common::snapshot(&package);
    let state = tempfile::tempdir().unwrap();
    let out = Test::at(&examples)
        .env("XDG_CACHE_HOME", state.path())
        .args(["verify", name, "--json"])
        .expect_exit(0)
        .run();
    assert!(
        common::snapshot(&package) == before,
        "judge verify changed the package {name}"
    );
    let doc = out.json();
    let stderr = &out.stderr;
    let report = &doc[0];

    // Every submission is either judged or skipped with a reason, never both, never neither.
    let all: BTreeSet<String> = std::fs::read_dir(package.join("submissions"))
        .unwrap()
        .flat_map(|folder| {
            let folder = folder.unwrap().path();
            let f = folder.file_name().unwrap().to_string_lossy().into_owned();
            std::fs::read_dir(&folder)
                .unwrap()
                .map(move |e| format!("{f}/{}", e.unwrap().file_name().to_string_lossy()))
        })
        .collect();
    let judged: BTreeMap<String, &serde_json::Value> = report["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["solution"].as_str().unwrap().to_string(), s))
        .collect();
    let skipped: BTreeMap<String, String> = report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["solution"].as_str().unwrap().to_string(),
                s["skipped"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for (sub, why) in &skipped {
        assert!(!why.trim().is_empty(), "{sub} is skipped without a reason");
        assert!(!judged.contains_key(sub), "{sub} is judged and skipped");
    }
    let accounted: BTreeSet<String> = judged.keys().chain(skipped.keys()).cloned().collect();
    assert_eq!(
        accounted, all,
        "submissions judged or skipped, against those in the package"
    );
    for sub in must_judge {
        assert!(
            judged.contains_key(*sub),
            "{sub} was not judged: {:?}",
            skipped.get(*sub)
        );
    }

    // Each judged submission gets its folder's verdict.
    for (sub, r) in &judged {
        let (verdicts, full) = expected(sub.split('/').next().unwrap());
        let got = r["verdict"].as_str().unwrap();
        assert!(
            verdicts.contains(&got),
            "{name}: {sub} got {got}, its folder says {verdicts:?}\n{stderr}"
        );
        if let (Some(full), Some(score), Some(max)) =
            (full, r["score"].as_f64(), r["max_score"].as_f64())
        {
            assert_eq!(score >= max, full, "{name}: {sub} scored {score} of {max}");
        }
    }
    assert_eq!(
        out.code,
        Some(0),
        "{name}: judge verify\n{}\n{stderr}",
        out.stdout
    );
}

#[test]
#[cfg_attr(
    not(all(judge_has_pypi, judge_has_gcc, judge_has_gxx, judge_has_python3)),
    ignore = "needs pip and PyPI (problemtools' examples), gcc, g++ and python3"
)]
fn hello_gets_problemtools_verdicts() {
    verify_example(
        "hello",
        &[
            "accepted/hello.cc",
            "accepted/hello.py",
            "accepted/hello.rs",
            "accepted/hello_alarm.c",
            "run_time_error/memory_limit.cc",
            "wrong_answer/hello.cc",
        ],
    );
}

#[test]
#[cfg_attr(
    not(all(judge_has_pypi, judge_has_gcc, judge_has_gxx, judge_has_python3)),
    ignore = "needs pip and PyPI (problemtools' examples), gcc, g++ and python3"
)]
fn different_gets_problemtools_verdicts() {
    verify_example(
        "different",
        &[
            "accepted/different.c",
            "accepted/different.cc",
            "accepted/different.rs",
            "accepted/different_py3.py",
            "accepted/different_stdio.cc",
            "time_limit_exceeded/different_linear_search.cc",
            "wrong_answer/different_int.cc",
            "wrong_answer/different_no_abs.cc",
        ],
    );
}

#[test]
#[cfg_attr(
    not(all(judge_has_pypi, judge_has_gxx, judge_has_python3)),
    ignore = "needs pip and PyPI (problemtools' examples), g++ and python3"
)]
fn oddecho_gets_problemtools_verdicts() {
    verify_example(
        "oddecho",
        &[
            "accepted/echo.cpp",
            "accepted/js.py",
            "partially_accepted/sol.py",
        ],
    );
}

#[test]
#[cfg_attr(
    not(all(
        judge_has_pypi,
        judge_has_gcc,
        judge_has_gxx,
        judge_has_python3,
        judge_has_pypy3,
        judge_has_java,
        judge_has_node,
        judge_has_go,
        judge_has_ghc,
        judge_has_mono,
        judge_has_ruby
    )),
    ignore = "needs pip and PyPI (problemtools' examples), and the toolchains CI installs: gcc, g++, python3, pypy3, Java, node, Go, GHC, Mono, Ruby"
)]
fn different_in_every_language_ci_installs() {
    verify_example(
        "different",
        &[
            "accepted/Different.java",
            "accepted/different.c",
            "accepted/different.cc",
            "accepted/different.cs",
            "accepted/different.go",
            "accepted/different.hs",
            "accepted/different.js",
            "accepted/different.rb",
            "accepted/different.rs",
            "accepted/different_py3.py",
        ],
    );
}

#[test]
#[cfg_attr(
    not(all(
        judge_has_pypi,
        judge_has_gcc,
        judge_has_gxx,
        judge_has_python3,
        judge_has_pypy3,
        judge_has_java,
        judge_has_kotlin
    )),
    ignore = "needs pip and PyPI (problemtools' examples), and the toolchains CI installs: gcc, g++, python3, pypy3, Java, Kotlin"
)]
fn hello_in_every_language_ci_installs() {
    verify_example(
        "hello",
        &[
            "accepted/hello.cc",
            "accepted/hello.java",
            "accepted/hello.kt",
            "accepted/hello.py",
            "accepted/hello.rs",
            "accepted/hello_alarm.c",
            "run_time_error/memory_limit.cc",
            "wrong_answer/hello.cc",
        ],
    );
}
