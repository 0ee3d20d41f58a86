//! `judge export PROBLEM --kattis DIR`: the shipped nqueens-ii as a Kattis package, read back
//! by the judge, accepted by problemtools' own `verifyproblem` when it is installed; a folder
//! that is not empty is refused without --force, a checker the format cannot carry is refused.

use crate::common;

fn export(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    common::judge(&common::repo())
        .args(["export", "nqueens-ii", "--kattis"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn nqueens_ii_becomes_a_package_the_judge_reads_back() {
    let _no_bomb = common::no_fork_bomb();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nqueensii");
    let out = export(&dir, &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let yaml = std::fs::read_to_string(dir.join("problem.yaml")).unwrap();
    for line in [
        "problem_format_version: 2023-07-draft",
        "name: \"N-Queens II\"",
        "  time_limit: 4",
        "  memory: 256",
        "  output: 64",
    ] {
        assert!(yaml.lines().any(|l| l == line), "{line} in\n{yaml}");
    }
    for file in [
        "statement/problem.en.md",
        "data/sample/04.in",
        "data/sample/08.ans",
        "data/secret/14.in",
        "data/secret/14.ans",
        "input_validators/validate.rs",
        "submissions/accepted/eightfold.rs",
        "submissions/accepted/cpp-bitmask.cpp",
        "submissions/time_limit_exceeded/odometer.rs",
    ] {
        assert!(dir.join(file).is_file(), "{file} is missing:\n{text}");
    }
    assert!(
        !dir.join("data/secret/04.in").exists(),
        "a sample in secret/"
    );
    assert!(
        text.contains("left out py-mirror: problemtools runs .py on PyPy"),
        "{text}"
    );
    let statement = std::fs::read_to_string(dir.join("statement/problem.en.md")).unwrap();
    assert!(!statement.starts_with("# N-Queens II"), "{statement}");

    // Read back by the judge: its problem, cases and input validator.
    crate::validate::nqueens_ii_inputs_are_valid(tmp.path(), "nqueensii");
}

#[test]
fn a_folder_that_is_not_empty_is_refused_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = &tmp.path().join("nqueensii");
    std::fs::create_dir(dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    std::fs::create_dir_all(dir.join("submissions/accepted")).unwrap();
    std::fs::write(dir.join("submissions/accepted/stale.rs"), "old").unwrap();
    let out = export(dir, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the folder is not empty"), "{err}");
    assert!(
        err.contains("fix: name a new folder, or pass --force"),
        "{err}"
    );
    assert!(dir.join("submissions/accepted/stale.rs").is_file());

    let out = export(dir, &["--force"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The package's entries are replaced, and nothing else is touched.
    assert!(!dir.join("submissions/accepted/stale.rs").exists());
    assert!(dir.join("submissions/accepted/flags.rs").is_file());
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn a_testlib_checker_is_refused_with_the_file_and_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let out = common::judge(&common::repo())
        .args(["export", "nqueens", "--kattis"])
        .arg(tmp.path().join("nqueens"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("problems/nqueens/problem.toml"), "{err}");
    assert!(err.contains("set `checker_protocol = \"kattis\"`"), "{err}");
    assert!(!tmp.path().join("nqueens").exists(), "nothing is written");
}

#[test]
fn a_folder_name_that_cannot_be_a_short_name_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = export(&tmp.path().join("nqueens-ii"), &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("lowercase letters and digits only"), "{err}");
    assert!(err.contains("fix: name the folder `nqueensii`"), "{err}");
    assert!(
        !tmp.path().join("nqueens-ii").exists(),
        "nothing is written"
    );
}

#[test]
#[cfg_attr(
    not(judge_has_verifyproblem),
    ignore = "needs problemtools' verifyproblem (pip install problemtools==1.20260907; Debian: pandoc, texlive for the statement)"
)]
fn problemtools_verifyproblem_accepts_the_export() {
    let _no_bomb = common::no_fork_bomb();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nqueensii");
    let out = export(&dir, &[]);
    assert_eq!(out.status.code(), Some(0));
    let out = std::process::Command::new("verifyproblem")
        .arg(&dir)
        .output()
        .expect("verifyproblem runs (pip install problemtools==1.20260907)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("tested: 0 errors"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
    for sub in ["accepted/flags.rs", "time_limit_exceeded/odometer.rs"] {
        assert!(text.contains(&format!("{sub} (Rust) OK")), "{sub}:\n{text}");
    }
}
