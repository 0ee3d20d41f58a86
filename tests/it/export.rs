//! `judge export PROBLEM --kattis DIR`: the shipped nqueens-ii as a Kattis package, read back
//! by the judge, accepted by problemtools' own `verifyproblem` when it is installed; a Kattis
//! output validator and its flags carried over; a folder that is not empty is refused without
//! --force, a folder name Kattis cannot take and a checker the format cannot carry are refused.

use crate::common::{self, Test};

/// `judge export nqueens-ii --kattis DIR` in the repository.
fn export(dir: &std::path::Path) -> Test {
    Test::at(common::shipped())
        .args(["export", "nqueens-ii", "--kattis"])
        .arg(dir)
}

#[test]
fn nqueens_ii_becomes_a_package_the_judge_reads_back() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nqueensii");
    let text = export(&dir).expect_exit(0).run().stdout;
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
    let err = export(dir).expect_exit(2).run().stderr;
    assert!(err.contains("the folder is not empty"), "{err}");
    assert!(
        err.contains("fix: name a new folder, or pass --force"),
        "{err}"
    );
    assert!(dir.join("submissions/accepted/stale.rs").is_file());

    export(dir).arg("--force").expect_exit(0).run();
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
    let err = Test::at(common::shipped())
        .args(["export", "nqueens", "--kattis"])
        .arg(tmp.path().join("nqueens"))
        .expect_exit(2)
        .run()
        .stderr;
    assert!(err.contains("problems/nqueens/problem.toml"), "{err}");
    assert!(err.contains("set `checker_protocol = \"kattis\"`"), "{err}");
    assert!(!tmp.path().join("nqueens").exists(), "nothing is written");
}

#[test]
fn a_folder_name_that_cannot_be_a_short_name_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let err = export(&tmp.path().join("nqueens-ii"))
        .expect_exit(2)
        .run()
        .stderr;
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
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nqueensii");
    export(&dir).expect_exit(0).run();
    // Needs `pip install problemtools==1.20260907`.
    let out = Test::program("verifyproblem").arg(&dir).run();
    let text = format!("{}{}", out.stdout, out.stderr);
    assert!(text.contains("tested: 0 errors"), "{text}");
    assert_eq!(out.code, Some(0), "{text}");
    for sub in ["accepted/flags.rs", "time_limit_exceeded/odometer.rs"] {
        assert!(text.contains(&format!("{sub} (Rust) OK")), "{sub}:\n{text}");
    }
}

/// A Kattis output validator: the output must be the answer, doubled with the flag `twice`.
const DOUBLING_VALIDATOR: &str = r#"use std::io::Read;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let answer: i64 = std::fs::read_to_string(&args[2]).unwrap().trim().parse().unwrap();
    let want = if args[4..].iter().any(|a| a == "twice") { 2 * answer } else { answer };
    let mut out = String::new();
    std::io::stdin().read_to_string(&mut out).unwrap();
    if out.trim().parse::<i64>().ok() == Some(want) {
        std::process::exit(42);
    }
    std::fs::write(format!("{}/judgemessage.txt", args[3]), format!("wanted {want}")).unwrap();
    std::process::exit(43);
}
"#;

#[test]
fn a_kattis_output_validator_and_its_flags_go_along_and_the_judge_reads_them_back() {
    let ws = common::Workspace::new();
    ws.problem(
        "twice",
        "title = \"Twice\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\nchecker = \"custom\"\nchecker_program = \"check.rs\"\nchecker_protocol = \"kattis\"\nvalidator_flags = \"twice\"\nsamples = [\"1\"]\n\n[expected]\ngood = \"AC\"\nsame = \"WA\"\n",
        &[("1", "4\n", "4\n"), ("2", "10\n", "10\n")],
    );
    ws.write("problems/twice/statement.md", "# Twice\n\nPrint 2n.\n");
    ws.write("problems/twice/check.rs", DOUBLING_VALIDATOR);
    ws.write(
        "solutions/twice/good.rs",
        format!(
            "{}fn main() {{ println!(\"{{}}\", 2 * n()); }}\n",
            common::READ_N
        ),
    );
    ws.write(
        "solutions/twice/same.rs",
        format!(
            "{}fn main() {{ println!(\"{{}}\", n()); }}\n",
            common::READ_N
        ),
    );
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("twice");
    ws.judge()
        .args(["export", "twice", "--kattis"])
        .arg(&dir)
        .expect_exit(0)
        .run();
    assert!(dir.join("output_validator/check.rs").is_file());
    assert!(dir.join("submissions/wrong_answer/same.rs").is_file());
    assert_eq!(
        std::fs::read_to_string(dir.join("data/testdata.yaml")).unwrap(),
        "output_validator_flags: \"twice\"\n"
    );

    // The judge reads the package back: its validator, given the flag, decides.
    let doc = Test::at(tmp.path())
        .args(["verify", "twice", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let verdicts: Vec<(&str, &str)> = doc[0]["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["solution"].as_str().unwrap(),
                s["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [("accepted/good.rs", "AC"), ("wrong_answer/same.rs", "WA")]
    );
}

#[test]
fn the_2025_09_format_is_written_with_its_own_files_and_the_judge_reads_it_back() {
    let ws = common::Workspace::new();
    ws.problem(
        "twice",
        "title = \"Twice\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\nchecker = \"custom\"\nchecker_program = \"check.rs\"\nchecker_protocol = \"kattis\"\nvalidator_flags = \"twice\"\nsamples = [\"1\"]\n\n[expected]\ngood = \"AC\"\nsame = \"WA\"\nnear = \"WA or TLE\"\nbrute = \"TLE or RE\"\n",
        &[("1", "4\n", "4\n"), ("2", "10\n", "10\n")],
    );
    ws.write("problems/twice/statement.md", "# Twice\n\nPrint 2n.\n");
    ws.write("problems/twice/check.rs", DOUBLING_VALIDATOR);
    for (name, body) in [
        ("good", "println!(\"{}\", 2 * n());"),
        ("same", "println!(\"{}\", n());"),
        ("near", "println!(\"{}\", 2 * n() + 1);"),
        (
            "brute",
            "if n() > 5 { panic!(\"too big\") } println!(\"{}\", 2 * n());",
        ),
    ] {
        ws.write(
            &format!("solutions/twice/{name}.rs"),
            format!("{}fn main() {{ {body} }}\n", common::READ_N),
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("twice");
    let text = ws
        .judge()
        .args(["export", "twice", "--format", "2025-09", "--kattis"])
        .arg(&dir)
        .expect_exit(0)
        .run()
        .stdout;
    assert!(text.contains("(format 2025-09)"), "{text}");
    assert!(text.contains("check it with: judge verify "), "{text}");
    let file = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    assert!(file("problem.yaml").contains("problem_format_version: 2025-09\n"));
    assert_eq!(
        file("data/test_group.yaml"),
        "output_validator_args: [\"twice\"]\n"
    );
    assert!(!dir.join("data/testdata.yaml").exists());
    // "WA or TLE" is in rejected/, narrowed by submissions.yaml; "TLE or RE" is brute force.
    assert!(dir.join("submissions/rejected/near.rs").is_file(), "{text}");
    assert!(
        dir.join("submissions/brute_force/brute.rs").is_file(),
        "{text}"
    );
    assert_eq!(
        file("submissions/submissions.yaml"),
        "\"rejected/near.rs\":\n  permitted: [AC, TLE, WA]\n  required: [TLE, WA]\n"
    );

    // Read back: every submission gets what its folder and its rules say.
    let doc = Test::at(tmp.path())
        .args(["verify", "twice", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let verdicts: Vec<(&str, &str)> = doc[0]["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["solution"].as_str().unwrap(),
                s["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("accepted/good.rs", "AC"),
            ("brute_force/brute.rs", "RE"),
            ("rejected/near.rs", "WA"),
            ("wrong_answer/same.rs", "WA")
        ]
    );

    // The same problem in 2023-07 leaves them out: no folder there means what they may get.
    let old = tmp.path().join("twiceold");
    let text = ws
        .judge()
        .args(["export", "twice", "--kattis"])
        .arg(&old)
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        text.contains("left out near: no submissions/ folder means"),
        "{text}"
    );
    assert!(
        text.contains("check it with problemtools: verifyproblem"),
        "{text}"
    );
}

/// A Kattis interactor: says n, wants 2n back (any bytes for an answer).
const DOUBLING_INTERACTOR: &str = r#"import sys
n = int(open(sys.argv[1]).read())
print(n, flush=True)
got = sys.stdin.buffer.readline().split()
if got == [str(2 * n).encode()]:
    sys.exit(42)
open(sys.argv[3] + "judgemessage.txt", "w").write(f"wanted {2 * n}, got {got!r}")
sys.exit(43)
"#;

/// A workspace with `ask`: an interactive problem, its Kattis interactor, an input validator,
/// a right solution and a wrong one.
fn ask() -> common::Workspace {
    let ws = common::Workspace::new();
    ws.problem(
        "ask",
        "title = \"Ask\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\ninteractor = \"interact.py\"\ninteractor_protocol = \"kattis\"\ninput_validator = \"validate.py\"\nsamples = [\"1\"]\n\n[expected]\ngood = \"AC\"\nsame = \"WA\"\n",
        &[("1", "4\n", "8\n"), ("2", "10\n", "20\n")],
    );
    ws.write("problems/ask/statement.md", "# Ask\n\nAnswer 2n.\n");
    ws.write("problems/ask/interact.py", DOUBLING_INTERACTOR);
    ws.write(
        "problems/ask/validate.py",
        "import sys\nn = int(sys.stdin.read())\nsys.exit(42 if 1 <= n <= 100 else 43)\n",
    );
    for (name, body) in [("good", "2 * n"), ("same", "n")] {
        ws.write(
            &format!("solutions/ask/{name}.rs"),
            // One line, not to the end: the interactor waits for the answer.
            format!("fn main() {{ let mut s = String::new(); std::io::stdin().read_line(&mut s).unwrap(); let n: u64 = s.trim().parse().unwrap(); println!(\"{{}}\", {body}); }}\n"),
        );
    }
    ws
}

#[test]
fn an_interactive_problem_takes_its_interactor_along_in_both_formats() {
    let ws = ask();
    let tmp = tempfile::tempdir().unwrap();
    for (folder, format) in [("ask", "2025-09"), ("askold", "2023-07")] {
        let dir = tmp.path().join(folder);
        ws.judge()
            .args(["export", "ask", "--format", format, "--kattis"])
            .arg(&dir)
            .expect_exit(0)
            .run();
        let yaml = std::fs::read_to_string(dir.join("problem.yaml")).unwrap();
        assert!(yaml.contains("\ntype: interactive\n"), "{yaml}");
        assert!(dir.join("output_validator/interact.py").is_file());
        // Read back: the interactor decides, as it did in the workspace.
        let doc = Test::at(tmp.path())
            .args(["verify", folder, "--json"])
            .expect_exit(0)
            .run()
            .json();
        let verdicts: Vec<(&str, &str)> = doc[0]["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["solution"].as_str().unwrap(),
                    s["verdict"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            verdicts,
            [("accepted/good.rs", "AC"), ("wrong_answer/same.rs", "WA")],
            "{format}"
        );
    }
}

#[test]
fn a_testlib_interactor_is_refused_with_the_file_and_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let err = Test::at(common::shipped())
        .args(["export", "nqueens-hidden", "--kattis"])
        .arg(tmp.path().join("hidden"))
        .expect_exit(2)
        .run()
        .stderr;
    assert!(
        err.contains("problems/nqueens-hidden/problem.toml"),
        "{err}"
    );
    assert!(
        err.contains("set `interactor_protocol = \"kattis\"`"),
        "{err}"
    );
    assert!(!tmp.path().join("hidden").exists(), "nothing is written");
}

#[test]
#[cfg_attr(
    not(judge_has_verifyproblem),
    ignore = "needs problemtools' verifyproblem (pip install problemtools==1.20260907; Debian: pandoc, texlive for the statement)"
)]
fn problemtools_verifyproblem_accepts_an_interactive_export() {
    let ws = ask();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ask");
    ws.judge()
        .args(["export", "ask", "--kattis"])
        .arg(&dir)
        .expect_exit(0)
        .run();
    let out = Test::program("verifyproblem").arg(&dir).run();
    let text = format!("{}{}", out.stdout, out.stderr);
    assert!(text.contains("tested: 0 errors"), "{text}");
    for (sub, verdict) in [("accepted/good.rs", "AC"), ("wrong_answer/same.rs", "WA")] {
        assert!(
            text.contains(&format!("{sub} (Rust) OK: {verdict}")),
            "{sub}:\n{text}"
        );
    }
}
