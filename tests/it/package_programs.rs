//! A package's programs as the format and DOMjudge build them, in packages written here from
//! the format's text: an output validator whose folder holds its source and its header at the
//! top; `domjudge-problem.ini`'s time limit; submissions of several files (C++ with a header,
//! Java with two classes, a Python package) and with `build`/`run` scripts; an interactor
//! with `build`/`run` scripts; `include/`; Python on PyPy; answer validators and the
//! checktestdata and VIVA scripts; a static validator; visualizers said not run; a DOMjudge
//! archive judged in place.

use std::path::Path;

use crate::common::Test;

/// Writes `files` (path, text) under `dir`.
fn write(dir: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
}

/// A folder holding one package, `name`, made of `files`.
fn package(name: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::Builder::new()
        .prefix("judge-pkg-")
        .tempdir()
        .unwrap();
    write(&tmp.path().join(name), files);
    tmp
}

/// "Add two numbers": a sample and two secret cases.
const ADD_DATA: &[(&str, &str)] = &[
    ("data/sample/1.in", "1 2\n"),
    ("data/sample/1.ans", "3\n"),
    ("data/secret/1.in", "20 22\n"),
    ("data/secret/1.ans", "42\n"),
    ("data/secret/2.in", "-5 1000000000000\n"),
    ("data/secret/2.ans", "999999999995\n"),
];

/// An output validator as DOMjudge packages ship them: its source and its own header side by
/// side at the top of `output_validators/`. It accepts the number the answer file holds.
const CHECKER_C: &str = r#"#include <stdio.h>
#include "verdicts.h"
int main(int argc, char **argv) {
    if (argc < 4) return 1;
    FILE *ans = fopen(argv[2], "r");
    long long want, got;
    if (!ans || fscanf(ans, "%lld", &want) != 1) return 1;
    if (scanf("%lld", &got) != 1) return reject("no number");
    if (got != want) return reject("wrong sum");
    char extra;
    if (scanf(" %c", &extra) == 1) return reject("trailing output");
    return ACCEPT;
}
"#;
const VERDICTS_H: &str = r#"#define ACCEPT 42
static int reject(const char *why) { fprintf(stderr, "%s\n", why); return 43; }
"#;

/// Each submission's verdict from `judge verify NAME --json` run in `dir`, with the document.
fn verify(dir: &Path, name: &str, exit: i32) -> (serde_json::Value, String) {
    let out = Test::outside(dir)
        .args(["verify", name, "--json"])
        .expect_exit(exit)
        .run();
    (out.json(), out.stderr)
}

fn verdicts(doc: &serde_json::Value) -> std::collections::BTreeMap<String, String> {
    doc[0]["solutions"]
        .as_array()
        .unwrap_or_else(|| panic!("no solutions: {doc:#}"))
        .iter()
        .map(|s| {
            (
                s["solution"].as_str().unwrap().to_string(),
                s["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn skipped(doc: &serde_json::Value) -> Vec<String> {
    doc[0]["skipped"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| format!("{}: {}", s["solution"], s["skipped"]))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
#[cfg_attr(
    not(all(judge_has_gcc, judge_has_gxx, judge_has_java, judge_has_python3)),
    ignore = "needs gcc, g++, javac and java, python3"
)]
fn a_domjudge_package_with_programs_of_several_files_verifies() {
    let mut files = vec![
        ("problem.yaml", "name: Add\nvalidation: custom\n"),
        // DOMjudge's file gives the time limit that problem.yaml does not.
        (
            "domjudge-problem.ini",
            "; made for DOMjudge\nname = \"Add them\"\ntimelimit = 2.5\ncolor = \"#ff0000\"\n",
        ),
        ("output_validators/checker.c", CHECKER_C),
        ("output_validators/verdicts.h", VERDICTS_H),
        (
            "submissions/accepted/add.c",
            "#include <stdio.h>\nint main(void) { long long a, b; scanf(\"%lld %lld\", &a, &b); printf(\"%lld\\n\", a + b); }\n",
        ),
        // C++ of two files, a header beside the source.
        (
            "submissions/accepted/with_header/add.hpp",
            "inline long long add(long long a, long long b) { return a + b; }\n",
        ),
        (
            "submissions/accepted/with_header/main.cpp",
            "#include <iostream>\n#include \"add.hpp\"\nint main() { long long a, b; std::cin >> a >> b; std::cout << add(a, b) << '\\n'; }\n",
        ),
        // Java of two classes, the main one found by its method.
        (
            "submissions/accepted/two_classes/Adder.java",
            "class Adder { static long add(long a, long b) { return a + b; } }\n",
        ),
        (
            "submissions/accepted/two_classes/Solve.java",
            "import java.util.Scanner;\npublic class Solve { public static void main(String[] args) { Scanner s = new Scanner(System.in); System.out.println(Adder.add(s.nextLong(), s.nextLong())); } }\n",
        ),
        // A Python package: `__main__.py` starts it, its module beside it.
        (
            "submissions/accepted/pypackage/__main__.py",
            "import calc\na, b = map(int, input().split())\nprint(calc.add(a, b))\n",
        ),
        (
            "submissions/accepted/pypackage/calc.py",
            "def add(a, b):\n    return a + b\n",
        ),
        // `build` and `run` scripts, not marked executable (an archive may not keep the bit).
        (
            "submissions/accepted/scripted/build",
            "#!/bin/sh\nset -e\ncc -O2 -o add add.c\n",
        ),
        (
            "submissions/accepted/scripted/run",
            "#!/bin/sh\nexec \"$(dirname \"$0\")/add\"\n",
        ),
        (
            "submissions/accepted/scripted/add.c",
            "#include <stdio.h>\nint main(void) { long long a, b; scanf(\"%lld %lld\", &a, &b); printf(\"%lld\\n\", a + b); }\n",
        ),
        (
            "submissions/wrong_answer/off.py",
            "a, b = map(int, input().split())\nprint(a + b + 1)\n",
        ),
        (
            "submissions/wrong_answer/trailing.c",
            "#include <stdio.h>\nint main(void) { long long a, b; scanf(\"%lld %lld\", &a, &b); printf(\"%lld 0\\n\", a + b); }\n",
        ),
        (
            "submissions/time_limit_exceeded/spin.c",
            "int main(void) { volatile unsigned long x = 1; for (;;) x = x * 3 + 1; }\n",
        ),
        // A build that fails is the submission's compilation error.
        (
            "submissions/wrong_answer/broken_build/build",
            "#!/bin/sh\necho 'the build script says no' >&2\nexit 1\n",
        ),
        ("submissions/wrong_answer/broken_build/run", "#!/bin/sh\nexit 0\n"),
    ];
    files.extend_from_slice(ADD_DATA);
    let tmp = package("add", &files);
    let (doc, stderr) = verify(tmp.path(), "add", 1);
    let got = verdicts(&doc);
    let want = [
        ("accepted/add.c", "AC"),
        ("accepted/pypackage", "AC"),
        ("accepted/scripted", "AC"),
        ("accepted/two_classes", "AC"),
        ("accepted/with_header", "AC"),
        ("time_limit_exceeded/spin.c", "TLE"),
        ("wrong_answer/broken_build", "CE"),
        ("wrong_answer/off.py", "WA"),
        ("wrong_answer/trailing.c", "WA"),
    ];
    let want: std::collections::BTreeMap<String, String> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(got, want, "{doc:#}\n{stderr}");
    assert!(skipped(&doc).is_empty(), "{:?}", skipped(&doc));
    // The ini's limit, not one derived from the accepted submissions.
    assert_eq!(doc[0]["time_limit_ms"], 2500, "{doc:#}");
    // The one mismatch: a CE in wrong_answer/ is not a wrong answer.
    let mismatched: Vec<&str> = doc[0]["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["matches_expected"] == false)
        .map(|s| s["solution"].as_str().unwrap())
        .collect();
    assert_eq!(mismatched, ["wrong_answer/broken_build"], "{doc:#}");

    // The scripts' own message is the compilation error; the checker's reason is the detail.
    let pkg = tmp.path().join("add");
    let ce = Test::outside(tmp.path())
        .args([
            "run",
            "add/submissions/wrong_answer/broken_build",
            "--json",
            "--no-history",
        ])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(ce["verdict"], "CE");
    assert!(
        ce["compile"]["diagnostics"]
            .as_str()
            .unwrap()
            .contains("the build script says no"),
        "{ce:#}"
    );
    let wa = Test::outside(tmp.path())
        .args([
            "run",
            "add/submissions/wrong_answer/trailing.c",
            "--json",
            "--no-history",
        ])
        .expect_exit(1)
        .run()
        .json();
    let details: Vec<String> = wa["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["detail"].as_str().map(str::to_string))
        .collect();
    assert!(
        details.iter().any(|d| d.contains("trailing output")),
        "{wa:#}"
    );
    // Nothing was written into the package.
    assert!(!pkg.join("submissions/accepted/scripted/add").exists());
}

/// Guess the number in at most 10 questions: the interactor is a folder with `build` and
/// `run` scripts and a C source, run as the format runs an output validator,
/// `run input answer feedback_dir`, talking with the submission.
const INTERACTOR_C: &str = r#"#include <stdio.h>
int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: input answer feedback_dir\n"); return 1; }
    FILE *in = fopen(argv[1], "r");
    int secret, guess;
    if (!in || fscanf(in, "%d", &secret) != 1) return 1;
    for (int i = 0; i < 10; i++) {
        if (scanf("%d", &guess) != 1) return 43;
        if (guess == secret) { printf("correct\n"); fflush(stdout); return 42; }
        printf(guess < secret ? "higher\n" : "lower\n");
        fflush(stdout);
    }
    return 43;
}
"#;

const GUESS_PY: &str = r#"lo, hi = 1, 1000
while True:
    mid = (lo + hi) // 2
    print(mid, flush=True)
    said = input().strip()
    if said == "correct":
        break
    if said == "higher":
        lo = mid + 1
    else:
        hi = mid - 1
"#;

#[test]
#[cfg_attr(
    not(all(judge_has_gcc, judge_has_python3)),
    ignore = "needs gcc and python3"
)]
fn an_interactor_with_build_and_run_scripts_judges_every_submission() {
    let tmp = package(
        "guess",
        &[
            (
                "problem.yaml",
                "name: Guess\nvalidation: custom interactive\nlimits:\n  time_limit: 2\n",
            ),
            ("data/sample/1.in", "17\n"),
            ("data/sample/1.ans", "\n"),
            ("data/secret/1.in", "1000\n"),
            ("data/secret/1.ans", "\n"),
            ("data/secret/2.in", "1\n"),
            ("data/secret/2.ans", "\n"),
            (
                "output_validators/guesser/build",
                "#!/bin/sh\nset -e\ncc -O2 -o interactor interactor.c\n",
            ),
            (
                "output_validators/guesser/run",
                "#!/bin/sh\nexec \"$(dirname \"$0\")/interactor\" \"$@\"\n",
            ),
            ("output_validators/guesser/interactor.c", INTERACTOR_C),
            ("submissions/accepted/bisect.py", GUESS_PY),
            (
                "submissions/wrong_answer/linear.py",
                "for g in range(1, 1001):\n    print(g, flush=True)\n    if input().strip() == 'correct':\n        break\n",
            ),
        ],
    );
    let (doc, stderr) = verify(tmp.path(), "guess", 0);
    let got = verdicts(&doc);
    assert_eq!(got["accepted/bisect.py"], "AC", "{doc:#}\n{stderr}");
    assert_eq!(got["wrong_answer/linear.py"], "WA", "{doc:#}\n{stderr}");

    // As packages made for DOMjudge have it: the interactor's source and its header at the
    // top of output_validators/, one program.
    let pkg = tmp.path().join("guess/output_validators");
    std::fs::remove_dir_all(&pkg).unwrap();
    write(
        &pkg,
        &[
            (
                "interactor.c",
                &INTERACTOR_C.replace("#include <stdio.h>", "#include \"io.h\""),
            ),
            ("io.h", "#include <stdio.h>\n"),
        ],
    );
    let (doc, stderr) = verify(tmp.path(), "guess", 0);
    let got = verdicts(&doc);
    assert_eq!(got["accepted/bisect.py"], "AC", "{doc:#}\n{stderr}");
    assert_eq!(got["wrong_answer/linear.py"], "WA", "{doc:#}\n{stderr}");
}

#[test]
#[cfg_attr(
    not(all(judge_has_pypy3, judge_has_python3)),
    ignore = "needs pypy3 and python3 (Debian: apt-get install pypy3 python3)"
)]
fn a_packages_python_runs_on_pypy_and_a_workspaces_on_cpython() {
    let which = "import platform\ninput()\nprint(platform.python_implementation())\n";
    let tmp = package(
        "which",
        &[
            ("problem.yaml", "name: Which Python\n"),
            ("data/sample/1.in", "1\n"),
            ("data/sample/1.ans", "PyPy\n"),
            ("submissions/accepted/which.py", which),
        ],
    );
    let (doc, stderr) = verify(tmp.path(), "which", 0);
    assert_eq!(verdicts(&doc)["accepted/which.py"], "AC", "{doc:#}");
    assert!(!stderr.contains("CPython"), "{stderr}");
    let run = Test::outside(tmp.path())
        .args([
            "run",
            "which/submissions/accepted/which.py",
            "--json",
            "--no-history",
        ])
        .expect_exit(0)
        .run()
        .json();
    assert!(
        run["compile"]["compiler"]
            .as_str()
            .is_some_and(|c| c.contains("PyPy")),
        "{run:#}"
    );

    // A workspace problem's Python stays on CPython.
    let ws = crate::common::Workspace::new();
    ws.problem(
        "which",
        "title = \"Which\"\ntime_limit = \"2s\"\nmemory_limit = \"256MiB\"\n",
        &[("1", "1\n", "CPython\n")],
    );
    ws.write("solutions/which/which.py", which);
    ws.judge()
        .args(["run", "which", "--no-history"])
        .expect_exit(0)
        .run();
    // Unless judge.toml gives `.py` to PyPy.
    ws.write("judge.toml", "[language.pypy]\nextensions = [\"py\"]\n");
    ws.judge()
        .args(["run", "which", "--no-history"])
        .expect_exit(1)
        .stdout_has("WA")
        .run();

    // Where PyPy is not installed, a package's Python runs on CPython, and the judge says so.
    ws.write(
        "judge.toml",
        "[language.pypy]\ncompile = \"pypy3-not-installed -m py_compile {sources}\"\nrun = \"pypy3-not-installed {source}\"\n",
    );
    let pkg = tmp.path().join("which");
    let moved = ws.path().join("which");
    std::fs::rename(&pkg, &moved).unwrap();
    let out = ws
        .judge()
        .args(["verify", "which", "--json", "--time-limit", "2s"])
        .expect_exit(1)
        .stderr_has("Python runs on CPython here: `pypy3-not-installed` is not installed")
        .run();
    assert_eq!(
        verdicts(&out.json())["accepted/which.py"],
        "WA",
        "{}",
        out.stdout
    );
}

#[test]
#[cfg_attr(
    not(all(judge_has_gcc, judge_has_python3)),
    ignore = "needs gcc and python3"
)]
fn include_files_are_added_to_each_submission_of_their_language() {
    let mut files = vec![
        ("problem.yaml", "name: Add\n"),
        // A library every C submission gets, over a file of the same name it may hold.
        (
            "include/c/addlib.h",
            "static long long add(long long a, long long b) { return a + b; }\n",
        ),
        // And every Python submission.
        ("include/python3/addlib.py", "def add(a, b):\n    return a + b\n"),
        (
            "submissions/accepted/uses_lib.c",
            "#include <stdio.h>\n#include \"addlib.h\"\nint main(void) { long long a, b; scanf(\"%lld %lld\", &a, &b); printf(\"%lld\\n\", add(a, b)); }\n",
        ),
        (
            "submissions/accepted/own_copy/main.c",
            "#include <stdio.h>\n#include \"addlib.h\"\nint main(void) { long long a, b; scanf(\"%lld %lld\", &a, &b); printf(\"%lld\\n\", add(a, b)); }\n",
        ),
        (
            "submissions/accepted/own_copy/addlib.h",
            "static long long add(long long a, long long b) { return a - b; }\n",
        ),
        (
            "submissions/accepted/uses_lib.py",
            "from addlib import add\na, b = map(int, input().split())\nprint(add(a, b))\n",
        ),
    ];
    files.extend_from_slice(ADD_DATA);
    let tmp = package("add", &files);
    let (doc, stderr) = verify(tmp.path(), "add", 0);
    let got = verdicts(&doc);
    for s in [
        "accepted/uses_lib.c",
        "accepted/own_copy",
        "accepted/uses_lib.py",
    ] {
        assert_eq!(got[s], "AC", "{s}: {doc:#}\n{stderr}");
    }
}

#[test]
#[cfg_attr(not(judge_has_python3), ignore = "needs python3")]
fn answer_validators_check_answers_and_checktestdata_and_viva_scripts_are_noted() {
    let tmp = package(
        "add",
        &[
            ("problem.yaml", "name: Add\n"),
            ("data/sample/1.in", "1 2\n"),
            ("data/sample/1.ans", "3\n"),
            ("data/secret/1.in", "20 22\n"),
            ("data/secret/1.ans", "42\n"),
            ("data/secret/2.in", "5 5\n"),
            ("data/secret/2.ans", "ten\n"),
            (
                "input_validators/two_numbers.py",
                "import sys\nparts = sys.stdin.read().split()\nsys.exit(42 if len(parts) == 2 and all(p.lstrip('-').isdigit() for p in parts) else 43)\n",
            ),
            ("input_validators/format.ctd", "INT(-1000, 1000) SPACE INT(-1000, 1000) NEWLINE EOF\n"),
            ("input_validators/format.viva", "<int(-1000, 1000)> a, b\n"),
            // An answer validator reads the answer on stdin, the input's path first.
            (
                "answer_validators/a_number.py",
                "import sys\ntext = sys.stdin.read().split()\nsys.exit(42 if len(text) == 1 and text[0].lstrip('-').isdigit() else 43)\n",
            ),
            (
                "submissions/accepted/add.py",
                "a, b = map(int, input().split())\nprint(a + b)\n",
            ),
        ],
    );
    let out = Test::outside(tmp.path())
        .args(["validate", "add"])
        .expect_exit(1)
        .run();
    let text = format!("{}{}", out.stdout, out.stderr);
    assert!(text.contains("a_number.py"), "{text}");
    assert!(text.contains("secret/2"), "{text}");
    let on_path = |p: &str| {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(p).is_file()))
    };
    if !on_path("checktestdata") {
        assert!(text.contains("format.ctd"), "{text}");
        assert!(text.contains("checktestdata"), "{text}");
    }
    if !on_path("viva") && !on_path("viva.sh") {
        assert!(text.contains("format.viva"), "{text}");
    }
}

/// A static validator (2025-09): run as `static_validator LANGUAGE ENTRY_POINT FEEDBACK_DIR`
/// among the submission's files; here it refuses `eval`.
const STATIC_PY: &str = r#"import os, sys
language, entry, feedback = sys.argv[1], sys.argv[2], sys.argv[3]
if "eval" in open(entry).read():
    with open(os.path.join(feedback, "judgemessage.txt"), "w") as f:
        f.write("eval is not allowed (%s, %s)\n" % (language, entry))
    sys.exit(43)
sys.exit(42)
"#;

#[test]
#[cfg_attr(not(judge_has_python3), ignore = "needs python3")]
fn a_static_validator_judges_the_sources_and_a_visualizer_is_said_not_run_once() {
    let tmp = package(
        "add",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: Add\n",
            ),
            ("data/sample/1.in", "1 2\n"),
            ("data/sample/1.ans", "3\n"),
            ("data/secret/1.in", "20 22\n"),
            ("data/secret/1.ans", "42\n"),
            (
                "data/secret/test_group.yaml",
                "static_validation_score: pass-fail\n",
            ),
            ("static_validator/check.py", STATIC_PY),
            ("output_visualizer/draw.py", "print('a picture')\n"),
            (
                "submissions/accepted/add.py",
                "a, b = map(int, input().split())\nprint(a + b)\n",
            ),
            // Right on every case, and refused by the static validator.
            (
                "submissions/wrong_answer/uses_eval.py",
                "print(eval(input().replace(' ', '+')))\n",
            ),
        ],
    );
    let (doc, stderr) = verify(tmp.path(), "add", 0);
    let got = verdicts(&doc);
    assert_eq!(got["accepted/add.py"], "AC", "{doc:#}\n{stderr}");
    assert_eq!(got["wrong_answer/uses_eval.py"], "WA", "{doc:#}\n{stderr}");
    assert_eq!(
        stderr.matches("output_visualizer/ not run").count(),
        1,
        "{stderr}"
    );
    let run = Test::outside(tmp.path())
        .args([
            "run",
            "add/submissions/wrong_answer/uses_eval.py",
            "--json",
            "--no-history",
        ])
        .expect_exit(1)
        .run()
        .json();
    let cases = run["cases"].as_array().unwrap();
    let statics = cases
        .iter()
        .find(|c| c["name"] == "secret/(static validation)")
        .unwrap_or_else(|| panic!("{run:#}"));
    assert_eq!(statics["verdict"], "WA");
    assert!(
        statics["detail"]
            .as_str()
            .unwrap()
            .contains("eval is not allowed (python3, uses_eval.py)"),
        "{statics:#}"
    );
    // The sample ran and passed; the refusal is the static case's alone.
    assert_eq!(cases[0]["verdict"], "AC", "{run:#}");

    // The static validator as a folder with a `run` script (no `build`: nothing to make).
    let folder = tmp.path().join("add/static_validator");
    std::fs::remove_file(folder.join("check.py")).unwrap();
    write(
        &folder,
        &[
            (
                "scripted.py",
                &STATIC_PY.replace("eval is not allowed", "eval is refused by the script"),
            ),
            (
                "run",
                "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/scripted.py\" \"$@\"\n",
            ),
        ],
    );
    let (doc, stderr) = verify(tmp.path(), "add", 0);
    let got = verdicts(&doc);
    assert_eq!(got["accepted/add.py"], "AC", "{doc:#}\n{stderr}");
    assert_eq!(got["wrong_answer/uses_eval.py"], "WA", "{doc:#}\n{stderr}");
    Test::outside(tmp.path())
        .args([
            "run",
            "add/submissions/wrong_answer/uses_eval.py",
            "--no-history",
        ])
        .expect_exit(1)
        .stdout_has("eval is refused by the script (python3, uses_eval.py)")
        .run();
}

#[test]
#[cfg_attr(not(judge_has_python3), ignore = "needs python3")]
fn a_domjudge_zip_archive_is_judged_in_place_with_its_ini() {
    let tmp = tempfile::Builder::new()
        .prefix("judge-pkg-")
        .tempdir()
        .unwrap();
    // DOMjudge's archive: its ini and no problem.yaml.
    let files: &[(&str, &str)] = &[
        ("domjudge-problem.ini", "name = \"Add\"\ntimelimit = 3\n"),
        ("data/sample/1.in", "1 2\n"),
        ("data/sample/1.ans", "3\n"),
        ("data/secret/1.in", "20 22\n"),
        ("data/secret/1.ans", "42\n"),
        (
            "submissions/accepted/add.py",
            "a, b = map(int, input().split())\nprint(a + b)\n",
        ),
        ("submissions/wrong_answer/zero.py", "print(0)\n"),
    ];
    let archive = tmp.path().join("add.zip");
    let mut w = zip::ZipWriter::new(std::fs::File::create(&archive).unwrap());
    for (rel, text) in files {
        w.start_file(*rel, zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut w, text.as_bytes()).unwrap();
    }
    w.finish().unwrap();
    let (doc, stderr) = verify(tmp.path(), "add.zip", 0);
    let got = verdicts(&doc);
    assert_eq!(got["accepted/add.py"], "AC", "{doc:#}\n{stderr}");
    assert_eq!(got["wrong_answer/zero.py"], "WA", "{doc:#}\n{stderr}");
    assert_eq!(doc[0]["time_limit_ms"], 3000, "{doc:#}");
    // Judged in place: nothing unpacked beside the archive.
    let beside: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != ".cache")
        .collect();
    assert_eq!(beside, ["add.zip"]);
}

/// A folder with `build` and `run` scripts around one C source.
fn scripted(folder: &str, source: &'static str) -> Vec<(String, &'static str)> {
    vec![
        (
            format!("{folder}/build"),
            "#!/bin/sh\nset -e\ncc -O2 -o prog prog.c\n",
        ),
        (
            format!("{folder}/run"),
            "#!/bin/sh\nexec \"$(dirname \"$0\")/prog\" \"$@\"\n",
        ),
        (format!("{folder}/prog.c"), source),
    ]
}

#[test]
#[cfg_attr(
    not(all(judge_has_gcc, judge_has_python3)),
    ignore = "needs gcc and python3"
)]
fn validators_of_every_kind_may_have_build_and_run_scripts() {
    let mut owned: Vec<(String, &str)> = Vec::new();
    // Inputs: two numbers above -10, nothing after.
    owned.extend(scripted(
        "input_validators/range",
        "#include <stdio.h>\nint main(void) { long long a, b; char c; if (scanf(\"%lld %lld\", &a, &b) != 2) return 43; if (scanf(\" %c\", &c) == 1) return 43; return a > -10 && b > -10 ? 42 : 43; }\n",
    ));
    // Answers: below 100, the input's path given first.
    owned.extend(scripted(
        "answer_validators/small",
        "#include <stdio.h>\nint main(int argc, char **argv) { long long a; if (argc < 2 || !fopen(argv[1], \"r\") || scanf(\"%lld\", &a) != 1) return 43; return a < 100 ? 42 : 43; }\n",
    ));
    owned.extend(scripted("output_validators/sum", CHECKER_C));
    owned.push(("output_validators/sum/verdicts.h".into(), VERDICTS_H));
    let mut files: Vec<(&str, &str)> = owned.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    files.extend_from_slice(&[
        ("problem.yaml", "name: Add\nvalidation: custom\n"),
        (
            "submissions/accepted/add.py",
            "a, b = map(int, input().split())\nprint(a + b)\n",
        ),
        (
            "submissions/wrong_answer/off.py",
            "a, b = map(int, input().split())\nprint(a + b + 1)\n",
        ),
    ]);
    files.extend_from_slice(ADD_DATA);
    let tmp = package("add", &files);
    let (doc, stderr) = verify(tmp.path(), "add", 0);
    let got = verdicts(&doc);
    assert_eq!(got["accepted/add.py"], "AC", "{doc:#}\n{stderr}");
    assert_eq!(got["wrong_answer/off.py"], "WA", "{doc:#}\n{stderr}");
    let text = Test::outside(tmp.path())
        .args(["validate", "add"])
        .expect_exit(1)
        .run()
        .stdout;
    // Every input is valid; secret/2's answer, 999999999995, is not below 100.
    assert!(text.contains("range  3/3 valid"), "{text}");
    assert!(text.contains("small  1 of 3 answers invalid"), "{text}");
    assert!(text.contains("secret/2  exit 43"), "{text}");
}

#[test]
fn a_domjudge_executable_the_package_does_not_hold_is_refused() {
    let mut files = vec![(
        "domjudge-problem.ini",
        "name = \"Add\"\ntimelimit = 1\nspecial_compare = \"float_compare\"\n",
    )];
    files.extend_from_slice(ADD_DATA);
    let tmp = package("add", &files);
    // Never judged with the default validator in its place.
    Test::outside(tmp.path())
        .args(["verify", "add"])
        .expect_exit(2)
        .stderr_has("add/domjudge-problem.ini (special_compare): `float_compare` names an executable of a DOMjudge server, which the package does not hold")
        .stderr_has("fix: put that program's sources in output_validators/")
        .run();
}
