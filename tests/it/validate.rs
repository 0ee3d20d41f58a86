//! `judge validate`: input validators on every input, a workspace problem's (problem.toml's
//! `input_validator`) and a package's (`input_validators/`, with its groups' flags), and what
//! the command says and exits with when an input is invalid or a validator fails.

use std::os::unix::fs::PermissionsExt;

use crate::common::{self, problemtools, Test, Workspace};

/// Exits with 42 when stdin holds one integer from 1 to MAX (MAX from a `max=N` argument,
/// 10 without one), with 43 and the reason on stderr otherwise.
const RANGE_VALIDATOR: &str = r#"use std::io::Read;
fn main() {
    let max: i64 = std::env::args().skip(1).find_map(|a| a.strip_prefix("max=").map(|v| v.parse().unwrap())).unwrap_or(10);
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    match s.trim().parse::<i64>() {
        Ok(n) if (1..=max).contains(&n) => std::process::exit(42),
        Ok(n) => { eprintln!("n = {n} is out of 1..={max}"); std::process::exit(43) }
        Err(_) => { eprintln!("`{}` is not an integer", s.trim()); std::process::exit(43) }
    }
}
"#;

fn problem_with_validator(validator: &str) -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "p",
        "title = \"P\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\ninput_validator = \"check.rs\"\n",
        &[("1", "5\n", "5\n"), ("2", "abc\n", "0\n"), ("3", "99\n", "0\n")],
    );
    ws.write("problems/p/check.rs", validator);
    ws
}

/// `judge validate PROBLEM` from `root` (nqueens-ii in the workspace, or the folder of its
/// exported package): its validator accepts its 14 inputs.
pub(crate) fn nqueens_ii_inputs_are_valid(root: &std::path::Path, problem: &str) {
    let text = Test::at(root)
        .args(["validate", problem])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(text.contains("validate.rs  14/14 valid"), "{text}");
}

#[test]
fn the_shipped_nqueens_ii_inputs_are_valid() {
    nqueens_ii_inputs_are_valid(&common::shipped(), "nqueens-ii");
}

#[test]
fn invalid_inputs_are_named_with_the_validators_message() {
    let ws = problem_with_validator(RANGE_VALIDATOR);
    let text = ws
        .judge()
        .args(["validate", "p"])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(text.contains("check.rs  2 of 3 invalid"), "{text}");
    assert!(
        text.contains("2  exit 43: `abc` is not an integer"),
        "{text}"
    );
    assert!(
        text.contains("3  exit 43: n = 99 is out of 1..=10"),
        "{text}"
    );
    assert!(text.contains("2 inputs rejected"), "{text}");

    let doc = ws
        .judge()
        .args(["validate", "p", "--json"])
        .expect_exit(1)
        .run()
        .json();
    let v = &doc["validators"][0];
    assert_eq!(v["status"], "ran");
    assert_eq!(v["checked"], 3);
    let invalid: Vec<&str> = v["invalid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["case"].as_str().unwrap())
        .collect();
    assert_eq!(invalid, ["2", "3"]);
}

#[test]
fn a_validator_that_crashes_or_does_not_compile_is_an_internal_error() {
    let ws = problem_with_validator("fn main() { std::process::abort(); }\n");
    let text = ws
        .judge()
        .args(["validate", "p"])
        .expect_exit(2)
        .run()
        .stdout;
    assert!(text.contains("check.rs  IE: on input 1: "), "{text}");
    assert!(text.contains("IE: check.rs failed"), "{text}");

    let ws = problem_with_validator("fn main() { let x: u32 = \"no\"; }\n");
    let text = ws
        .judge()
        .args(["validate", "p"])
        .expect_exit(2)
        .run()
        .stdout;
    assert!(
        text.contains("check.rs  IE: it does not compile:"),
        "{text}"
    );
}

#[test]
fn a_problem_without_validator_is_told_how_to_add_one() {
    let ws = Workspace::doubling("1s");
    let err = ws
        .judge()
        .args(["validate", "double"])
        .expect_exit(2)
        .run()
        .stderr;
    assert!(err.contains("double has no input validator"), "{err}");
    assert!(
        err.contains("add `input_validator = \"validate.rs\"`"),
        "{err}"
    );
}

/// A legacy Kattis package: a sample, a secret group whose testdata.yaml gives the validator
/// `max=5`, and `input_validators/` holding `extra` (a .viva, a .ctd...).
fn package(extra: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("judge-pkg-")
        .tempdir()
        .unwrap();
    let write = |rel: &str, text: &str| {
        let p = dir.path().join("pkg").join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("problem.yaml", "name: Range\n");
    write("data/sample/1.in", "7\n");
    write("data/sample/1.ans", "7\n");
    write(
        "data/secret/small/testdata.yaml",
        "input_validator_flags: max=5\n",
    );
    write("data/secret/small/a.in", "3\n");
    write("data/secret/small/a.ans", "3\n");
    write("data/secret/small/b.in", "7\n");
    write("data/secret/small/b.ans", "7\n");
    for (name, text) in extra {
        write(&format!("input_validators/{name}"), text);
    }
    dir
}

#[test]
fn a_packages_validators_get_their_groups_flags_and_the_package_is_left_as_it_was() {
    let dir = package(&[
        ("range.rs", RANGE_VALIDATOR),
        ("format.viva", "{ n in [1, 10] }\n"),
    ]);
    let before = common::snapshot(dir.path());
    let text = Test::at(dir.path())
        .args(["validate", "pkg"])
        .expect_exit(1)
        .run()
        .stdout;
    // sample/1 is 7, valid without flags; secret/small/b is 7 too, over its group's max=5.
    assert!(text.contains("range.rs     1 of 3 invalid"), "{text}");
    assert!(
        text.contains("secret/small/b  exit 43: n = 7 is out of 1..=5"),
        "{text}"
    );
    // VIVA runs where it is installed; here it is not (nor on CI): the script is skipped, said.
    let viva = ["viva", "viva.sh"].iter().any(|p| {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(p).is_file()))
    });
    if !viva {
        assert!(
            text.contains("format.viva  skipped: a VIVA script, and `viva` is not installed"),
            "{text}"
        );
    }
    assert!(
        common::snapshot(dir.path()) == before,
        "validate changed the package"
    );
}

#[test]
fn an_input_validator_folder_is_one_program() {
    let dir = package(&[]);
    let program = dir.path().join("pkg/input_validator");
    std::fs::create_dir_all(&program).unwrap();
    std::fs::write(program.join("range.rs"), RANGE_VALIDATOR).unwrap();
    let text = Test::at(dir.path())
        .args(["validate", "pkg"])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(text.contains("input_validator  1 of 3 invalid"), "{text}");
    assert!(text.contains("secret/small/b  exit 43"), "{text}");
}

#[test]
fn checktestdata_runs_a_ctd_script_when_installed_and_is_skipped_with_the_reason_when_not() {
    let dir = package(&[("equal.ctd", "7\n")]);
    // Without checktestdata, nothing could check the inputs: said, and exit 2.
    let empty = tempfile::tempdir().unwrap();
    let text = Test::at(dir.path())
        .env("PATH", empty.path())
        .args(["validate", "pkg"])
        .expect_exit(2)
        .run()
        .stdout;
    assert!(
        text.contains(
            "equal.ctd  skipped: a checktestdata script, and `checktestdata` is not installed"
        ),
        "{text}"
    );
    assert!(text.contains("no validator could run here"), "{text}");

    // A stand-in checktestdata (the input must equal the script) on PATH: run with the
    // script as its argument and the input on stdin, exit 0 meaning valid.
    let bin = tempfile::tempdir().unwrap();
    let tool = bin.path().join("checktestdata");
    std::fs::write(&tool, "#!/bin/sh\nexec cmp -s \"$1\" -\n").unwrap();
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    let doc = Test::at(dir.path())
        .env("PATH", format!("{}:/usr/bin:/bin", bin.path().display()))
        .args(["validate", "pkg", "--json"])
        .expect_exit(1)
        .run()
        .json();
    let v = &doc["validators"][0];
    assert_eq!(v["status"], "ran", "{doc}");
    assert_eq!(v["checked"], 3, "{doc}");
    assert_eq!(v["invalid"][0]["case"], "secret/small/a", "{doc}");
    assert_eq!(v["invalid"].as_array().unwrap().len(), 1, "{doc}");
}

#[test]
fn a_viva_script_runs_where_viva_is_installed() {
    let dir = package(&[("equal.viva", "7\n")]);
    // A stand-in `viva` (the input must equal the script) on PATH: run as problemtools runs
    // VIVA, `viva SCRIPT [FLAGS] INPUT` (the group's flags before the file), exit 0 valid.
    let bin = tempfile::tempdir().unwrap();
    let tool = bin.path().join("viva");
    std::fs::write(
        &tool,
        "#!/bin/sh\nfor last in \"$@\"; do :; done\nexec cmp -s \"$1\" \"$last\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    let doc = Test::at(dir.path())
        .env("PATH", format!("{}:/usr/bin:/bin", bin.path().display()))
        .args(["validate", "pkg", "--json"])
        .expect_exit(1)
        .run()
        .json();
    let v = &doc["validators"][0];
    assert_eq!(v["status"], "ran", "{doc}");
    assert_eq!(v["checked"], 3, "{doc}");
    assert_eq!(v["invalid"][0]["case"], "secret/small/a", "{doc}");
    assert_eq!(v["invalid"].as_array().unwrap().len(), 1, "{doc}");
}

#[test]
#[cfg_attr(
    not(all(judge_has_pypi, judge_has_gxx, judge_has_python3)),
    ignore = "needs pip and PyPI (problemtools' examples), g++ and python3"
)]
fn problemtools_examples_inputs_are_valid_with_their_groups_flags() {
    let examples = problemtools::examples();
    for name in ["hello", "different", "oddecho"] {
        let doc = Test::at(&examples)
            .args(["validate", name, "--json"])
            .expect_exit(0)
            .run()
            .json();
        let ran: Vec<&str> = doc["validators"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| v["status"] == "ran")
            .map(|v| v["name"].as_str().unwrap())
            .collect();
        let expected: &[&str] = match name {
            "hello" | "different" => &["validate.py"],
            _ => &["validator"],
        };
        for v in expected {
            assert!(ran.contains(v), "{name}: {v} did not run: {doc}");
        }
    }
}
