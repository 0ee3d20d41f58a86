//! Polygon packages judged where they lie, as a folder and as a `.zip`: solutions by their
//! tags, groups and points, the testlib checker's exit codes, the errors of a bad package,
//! and the package left byte for byte as it was.
//!
//! Each test builds its own package: problem.xml written here, the tests, a checker including
//! `tests/fixtures/polygon/testlib.h` (a small testlib-compatible header of the judge's own).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::common::{self, repo, Output, Test};

/// a + b. Test 1 is the sample (group 0, no points); tests 2 and 3 are group 1, all or
/// nothing, 20 points each; test 4 is group 2, 60 points, which needs group 1.
const TESTS: &[(&str, &str)] = &[
    ("1 2\n", "3\n"),
    ("10 20\n", "30\n"),
    ("5 5\n", "10\n"),
    ("100 1\n", "101\n"),
];

/// The checker: compares the sums; a few outputs make it misbehave on purpose (`-7` FAIL,
/// `-11` crash, `-3` one point by quitp).
const CHECK: &str = r#"#include "testlib.h"
#include <cstdlib>
int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    long long a = inf.readLong(), b = inf.readLong();
    long long expected = ans.readLong();
    ensuref(expected == a + b, "the answer is not a + b");
    long long got = ouf.readLong();
    if (got == -7) quitf(_fail, "the checker gives up on -7");
    if (got == -11) std::abort();
    if (got == -3) quitp(1.0, "one point");
    if (!ouf.seekEof()) quitf(_pe, "extra output after the sum");
    if (got != expected) quitf(_wa, "expected %lld, found %lld", expected, got);
    quitf(_ok, "the sum is %lld", got);
}
"#;

/// A Python solution: prints `expr` (of a and b) on each test.
fn py(expr: &str) -> String {
    format!("a, b = map(int, input().split())\nprint({expr})\n")
}

/// The solutions: (path, tag, type, source).
fn solutions() -> Vec<(&'static str, &'static str, &'static str, String)> {
    vec![
        (
            "solutions/main.cpp",
            "main",
            "cpp.g++17",
            "#include <cstdio>\nint main(){long long a,b;std::scanf(\"%lld %lld\",&a,&b);std::printf(\"%lld\\n\",a+b);}\n".into(),
        ),
        ("solutions/ok.py", "accepted", "python.3", py("a + b")),
        ("solutions/wa.py", "wrong-answer", "python.3", py("a + b + (a == 5)")),
        (
            "solutions/pe.py",
            "presentation-error",
            "python.3",
            py("f'{a + b} {a + b}' if a == 100 else a + b"),
        ),
        (
            "solutions/tle.py",
            "time-limit-exceeded",
            "python.3",
            "a, b = map(int, input().split())\nwhile a == 100:\n    pass\nprint(a + b)\n".into(),
        ),
        (
            "solutions/mle.py",
            "memory-limit-exceeded",
            "python.3",
            "a, b = map(int, input().split())\nif a == 10:\n    x = bytearray(300 << 20)\n    x[::4096] = b'1' * len(x[::4096])\nprint(a + b)\n".into(),
        ),
        (
            "solutions/crash.py",
            "rejected",
            "python.3",
            "a, b = map(int, input().split())\nassert a != 5\nprint(a + b)\n".into(),
        ),
        (
            "solutions/maybe.py",
            "time-limit-exceeded-or-accepted",
            "python.3",
            py("a + b"),
        ),
        ("solutions/old.pas", "accepted", "pas.fpc", "begin end.\n".into()),
        ("solutions/two.py", "accepted", "python.2", "print 3\n".into()),
    ]
}

fn problem_xml(solutions: &[(&str, &str, &str, String)]) -> String {
    let points = ["0", "20", "20", "60"];
    let groups = ["0", "1", "1", "2"];
    let tests: String = (0..TESTS.len())
        .map(|i| {
            format!(
                "        <test method=\"manual\" group=\"{}\" points=\"{}\"{}/>\n",
                groups[i],
                points[i],
                if i == 0 { " sample=\"true\"" } else { "" }
            )
        })
        .collect();
    let sols: String = solutions
        .iter()
        .map(|(path, tag, kind, _)| {
            format!("      <solution tag=\"{tag}\">\n        <source path=\"{path}\" type=\"{kind}\"/>\n      </solution>\n")
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="3" short-name="sum" url="https://polygon.codeforces.com/p/someone/sum">
  <names>
    <name language="english" value="Sum"/>
  </names>
  <judging cpu-name="Intel(R) Core(TM) i3-8100 CPU @ 3.60GHz" cpu-speed="3600" input-file="" output-file="">
    <testset name="tests">
      <time-limit>1000</time-limit>
      <memory-limit>134217728</memory-limit>
      <test-count>{count}</test-count>
      <input-path-pattern>tests/%02d</input-path-pattern>
      <answer-path-pattern>tests/%02d.a</answer-path-pattern>
      <tests>
{tests}      </tests>
      <groups>
        <group feedback-policy="complete" name="0" points="0" points-policy="each-test"/>
        <group feedback-policy="icpc" name="1" points="40" points-policy="complete-group"/>
        <group feedback-policy="points" name="2" points="60" points-policy="each-test">
          <dependencies>
            <dependency group="1"/>
          </dependencies>
        </group>
      </groups>
    </testset>
    <testset name="pretests">
      <time-limit>1000</time-limit>
      <memory-limit>134217728</memory-limit>
      <test-count>0</test-count>
      <input-path-pattern>pretests/%02d</input-path-pattern>
      <answer-path-pattern>pretests/%02d.a</answer-path-pattern>
    </testset>
  </judging>
  <files>
    <resources>
      <file path="files/testlib.h" type="h.g++"/>
    </resources>
  </files>
  <assets>
    <checker name="check.cpp" type="testlib">
      <source path="files/check.cpp" type="cpp.g++17"/>
      <binary path="check.exe" type="exe.win32"/>
    </checker>
    <solutions>
{sols}    </solutions>
  </assets>
</problem>
"#,
        count = TESTS.len()
    )
}

/// Writes the package into `dir` (made if needed) with these solutions.
fn write_package(dir: &Path, solutions: &[(&str, &str, &str, String)]) {
    let write = |rel: &str, content: &[u8]| {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    };
    write("problem.xml", problem_xml(solutions).as_bytes());
    for (i, (input, answer)) in TESTS.iter().enumerate() {
        write(&format!("tests/{:02}", i + 1), input.as_bytes());
        write(&format!("tests/{:02}.a", i + 1), answer.as_bytes());
    }
    write(
        "files/testlib.h",
        &std::fs::read(repo().join("tests/fixtures/polygon/testlib.h")).unwrap(),
    );
    write("files/check.cpp", CHECK.as_bytes());
    write("check.cpp", CHECK.as_bytes());
    for (path, _, _, source) in solutions {
        write(path, source.as_bytes());
    }
    write("doall.sh", b"#!/bin/sh\necho the tests are here already\n");
}

/// A package in a temp folder (`TMP/sum`), with every solution.
fn package() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::Builder::new()
        .prefix("judge-polygon-")
        .tempdir()
        .unwrap();
    let dir = tmp.path().join("sum");
    write_package(&dir, &solutions());
    (tmp, dir)
}

/// `zip` of every file under `dir`, named by their path under it.
fn zip_folder(dir: &Path, zip: &Path) {
    let mut w = zip::ZipWriter::new(std::fs::File::create(zip).unwrap());
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(dir).unwrap();
            w.start_file(
                rel.to_string_lossy(),
                zip::write::SimpleFileOptions::default(),
            )
            .unwrap();
            w.write_all(&std::fs::read(entry.path()).unwrap()).unwrap();
        }
    }
    w.finish().unwrap();
}

/// Every file under `dir` with its bytes (links as their targets), to compare before and after.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .map(|e| {
            let bytes = if e.path_is_symlink() {
                std::fs::read_link(e.path())
                    .unwrap()
                    .to_string_lossy()
                    .as_bytes()
                    .to_vec()
            } else if e.file_type().is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                b"(folder)".to_vec()
            };
            (e.path().to_path_buf(), bytes)
        })
        .collect()
}

/// The line of verify's table for `name`.
fn line<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .find(|l| l.trim_start().starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no line for {name}:\n{text}"))
}

/// Each tag's solution gets its verdict, the points show, the two solutions in languages
/// the judge does not run are skipped with the reason; the folder and its .zip alike.
fn assert_verified(text: &str) {
    for (name, expected) in [
        ("main.cpp", "AC"),
        ("ok.py", "AC"),
        ("wa.py", "WA"),
        ("pe.py", "WA"),
        ("tle.py", "TLE"),
        ("mle.py", "MLE"),
        ("crash.py", "RE"),
        ("maybe.py", "AC"),
    ] {
        let l = line(text, name);
        assert!(l.contains(&format!(" {expected} ")), "{name}: {l}\n{text}");
        assert!(!l.contains("MISMATCH"), "{l}");
    }
    assert!(line(text, "main.cpp").contains("100/100"), "{text}");
    // Group 1 all or nothing: wa.py loses its 40 points, and group 2's 60 with them.
    assert!(line(text, "wa.py").contains("0/100"), "{text}");
    assert!(line(text, "tle.py").contains("40/100"), "{text}");
    // mle.py fails group 1 on test 02: 03 is not run, nor group 2, which depends on group 1.
    assert!(line(text, "mle.py").contains("1/4, 2 not run"), "{text}");
    assert!(text.contains("old.pas"), "{text}");
    assert!(text.contains("Python 2"), "{text}");
    assert!(
        text.contains("every solution got its expected verdict"),
        "{text}"
    );
}

#[test]
fn a_folder_and_its_zip_are_verified_by_tags_and_left_as_they_were() {
    let (tmp, dir) = package();
    let before = snapshot(&dir);
    let Output {
        stdout: out,
        stderr: err,
        ..
    } = Test::outside(tmp.path())
        .args(["verify", "sum", "--skip-after-tle"])
        .expect_exit(0)
        .run();
    assert!(out.contains("Sum"), "{out}");
    assert!(
        err.contains("warning: sum: testset `pretests` is not judged"),
        "{err}"
    );
    assert_verified(&out);

    let zip = tmp.path().join("sum.zip");
    zip_folder(&dir, &zip);
    let zip_bytes = std::fs::read(&zip).unwrap();
    let out = Test::outside(tmp.path())
        .args(["verify", "sum.zip", "--skip-after-tle"])
        .expect_exit(0)
        .run()
        .stdout;
    assert_verified(&out);

    // One run prints its groups with their points.
    let out = Test::outside(tmp.path())
        .args(["run", "sum/solutions/tle.py", "--problem", "sum.zip"])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(out.contains("groups: 1 AC 40/40 · 2 TLE 0/60"), "{out}");

    assert_eq!(snapshot(&dir), before, "the package was written to");
    assert_eq!(std::fs::read(&zip).unwrap(), zip_bytes);
}

#[test]
fn the_checker_s_failure_and_crash_are_ie_and_its_points_count() {
    let (tmp, dir) = package();
    std::fs::write(tmp.path().join("fail.py"), py("-7")).unwrap();
    std::fs::write(tmp.path().join("abort.py"), py("-11")).unwrap();
    std::fs::write(tmp.path().join("points.py"), py("-3")).unwrap();
    let pkg = dir.to_str().unwrap();
    for (file, says) in [
        ("fail.py", "the checker gives up on -7"),
        ("abort.py", "SIGABRT"),
    ] {
        let out = Test::outside(tmp.path())
            .args(["run", file, "--problem", pkg])
            .expect_exit(2)
            .run()
            .stdout;
        assert!(out.contains("IE"), "{out}");
        assert!(out.contains("checker failed: "), "{out}");
        assert!(
            out.contains("sum/files/check.cpp)"),
            "{file}: the checker named\n{out}"
        );
        assert!(out.contains(says), "{file}: {out}");
    }
    // One point per test from quitp: 4 of 100.
    let Output {
        stdout: out,
        stderr: err,
        code,
        ..
    } = Test::outside(tmp.path())
        .args(["run", "points.py", "--problem", pkg])
        .expect_exit(0)
        .run();
    assert!(out.contains("score 4/100"), "{out}\n{err}");
    assert_eq!(code, Some(0), "{out}");
    // Short of the most it could score: not the solution's first AC; its line says its score.
    let recorded = out
        .lines()
        .find(|l| l.starts_with("submission #"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(recorded.ends_with(" · score 4/100"), "{recorded}");
}

#[test]
fn a_standard_package_without_its_tests_is_an_error() {
    let (tmp, dir) = package();
    for n in 2..=4 {
        std::fs::remove_file(dir.join(format!("tests/{n:02}"))).unwrap();
        std::fs::remove_file(dir.join(format!("tests/{n:02}.a"))).unwrap();
    }
    let Output {
        stdout: out,
        stderr: err,
        ..
    } = Test::outside(tmp.path())
        .args(["verify", "sum"])
        .expect_exit(2)
        .run();
    assert!(err.contains("3 of the 4 tests have no input"), "{err}");
    assert!(err.contains("standard package"), "{err}");
    assert!(err.contains("doall.sh"), "{err}");
    assert!(out.is_empty(), "nothing half-judged: {out}");
}

#[test]
fn a_malformed_problem_xml_names_the_element_and_the_fix() {
    let (tmp, dir) = package();
    let xml = dir.join("problem.xml");
    let good = std::fs::read_to_string(&xml).unwrap();
    // problem.xml with `from` replaced by `to`: what `judge verify` says, refusing it.
    let refused = |from: &str, to: &str| {
        std::fs::write(&xml, good.replace(from, to)).unwrap();
        let err = Test::outside(tmp.path())
            .args(["verify", "sum"])
            .expect_exit(2)
            .run()
            .stderr;
        assert!(err.contains("fix:"), "{err}");
        err
    };
    let err = refused("<time-limit>1000", "<time-limit>1s");
    assert!(
        err.contains("sum/problem.xml (<time-limit>):8: `1s` is not a whole number"),
        "{err}"
    );
    let err = refused("<memory-limit>134217728", "<memory-limit>0");
    assert!(
        err.contains("(<memory-limit>):9: `0` is not a whole number above zero"),
        "{err}"
    );
    let err = refused("points-policy=\"each-test\"/>", "points-policy=\"some\"/>");
    assert!(err.contains("(<group points-policy>)"), "{err}");
    assert!(err.contains("write each-test or complete-group"), "{err}");
    let err = refused("</judging>", "");
    assert!(err.contains("sum/problem.xml:"), "{err}");
    assert!(err.contains("not well-formed XML"), "{err}");
}

#[test]
fn a_path_out_of_the_package_is_refused() {
    let (tmp, dir) = package();
    // A test that is a link to a file outside the package.
    std::fs::write(tmp.path().join("secret"), "1 1\n").unwrap();
    std::fs::remove_file(dir.join("tests/02")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("secret"), dir.join("tests/02")).unwrap();
    let err = Test::outside(tmp.path())
        .args(["verify", "sum"])
        .expect_exit(2)
        .run()
        .stderr;
    assert!(
        err.contains("tests/02: it leads outside the package"),
        "{err}"
    );

    // A zip whose entry climbs out of the folder it is extracted into (zip-slip).
    let slip = tmp.path().join("slip.zip");
    let mut w = zip::ZipWriter::new(std::fs::File::create(&slip).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    w.start_file("problem.xml", options).unwrap();
    w.write_all(b"<problem/>").unwrap();
    w.start_file("../../../escaped", options).unwrap();
    w.write_all(b"x").unwrap();
    w.finish().unwrap();
    let err = Test::outside(tmp.path())
        .args(["verify", "slip.zip"])
        .expect_exit(2)
        .run()
        .stderr;
    assert!(
        err.contains("`../../../escaped` leads outside the package"),
        "{err}"
    );

    // A zip holding a symbolic link.
    let link = tmp.path().join("link.zip");
    let mut w = zip::ZipWriter::new(std::fs::File::create(&link).unwrap());
    w.start_file("problem.xml", options).unwrap();
    w.write_all(b"<problem/>").unwrap();
    w.add_symlink("tests/01", "/etc/passwd", options).unwrap();
    w.finish().unwrap();
    let err = Test::outside(tmp.path())
        .args(["verify", "link.zip"])
        .expect_exit(2)
        .run()
        .stderr;
    assert!(err.contains("`tests/01` is a symbolic link"), "{err}");
}

#[test]
fn an_imported_package_is_a_problem_with_the_same_verdicts() {
    let (tmp, dir) = package();
    let zip = tmp.path().join("sum.zip");
    zip_folder(&dir, &zip);
    let before = snapshot(tmp.path());
    let ws = common::Workspace::new();
    let out = Test::outside(ws.path())
        .args(["import", zip.to_str().unwrap(), "--name", "plus"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(out.contains("two.py not imported: Python 2"), "{out}");
    assert!(
        out.contains("groups and points are not carried over"),
        "{out}"
    );
    for file in [
        "problems/plus/check.cpp",
        "problems/plus/testlib.h",
        "testcases/plus/01.in",
        "testcases/plus/04.out",
        "solutions/plus/main.cpp",
        "solutions/plus/maybe.py",
    ] {
        assert!(ws.path().join(file).is_file(), "{file}: {out}");
    }
    assert!(!ws.path().join("solutions/plus/two.py").exists());
    let toml = std::fs::read_to_string(ws.path().join("problems/plus/problem.toml")).unwrap();
    assert!(toml.contains("time_limit = \"1s\""), "{toml}");
    assert!(toml.contains("memory_limit = \"128MiB\""), "{toml}");
    assert!(toml.contains("\"maybe\" = \"AC or TLE\""), "{toml}");

    let imported = common::verified(ws.path(), "plus");
    let in_place = common::verified(tmp.path(), "sum.zip");
    assert_eq!(imported.len(), 8, "{imported:?}");
    assert_eq!(imported, in_place);
    assert_eq!(imported["pe"], "WA");
    // Importing read the zip and wrote nothing beside it.
    let mut after = snapshot(tmp.path());
    after.retain(|p, _| !p.starts_with(tmp.path().join(".cache")));
    let mut before = before;
    before.retain(|p, _| !p.starts_with(tmp.path().join(".cache")));
    assert_eq!(after, before);
}

#[test]
fn a_missing_answer_and_a_checker_that_does_not_compile_are_ie() {
    let (tmp, dir) = package();
    std::fs::remove_file(dir.join("tests/03.a")).unwrap();
    let doc = Test::outside(tmp.path())
        .args(["run", "sum/solutions/ok.py", "--problem", "sum", "--json"])
        .expect_exit(2)
        .run()
        .json();
    assert_eq!(doc["verdict"], "IE", "{doc}");
    let case = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "03")
        .unwrap_or_else(|| panic!("no case 03: {doc}"));
    assert_eq!(case["verdict"], "IE", "{case}");
    assert!(case.to_string().contains("answer"), "{case}");

    let (tmp, dir) = package();
    std::fs::write(
        dir.join("files/check.cpp"),
        "#include \"testlib.h\"\nint main( {\n",
    )
    .unwrap();
    let out = Test::outside(tmp.path())
        .args(["run", "sum/solutions/ok.py", "--problem", "sum"])
        .expect_exit(2)
        .run()
        .stdout;
    assert!(out.contains("IE"), "{out}");
    assert!(out.contains("check.cpp does not compile"), "{out}");
}

#[test]
fn named_input_and_output_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("files-io");
    let solution = (
        "solutions/io.py",
        "main",
        "python.3",
        "a, b = map(int, open('input.txt').read().split())\nopen('output.txt', 'w').write(f'{a + b}\\n')\n"
            .to_string(),
    );
    let stdout = (
        "solutions/stdout.py",
        "wrong-answer",
        "python.3",
        "print(3)\n".to_string(),
    );
    write_package(&dir, &[solution, stdout]);
    let xml = dir.join("problem.xml");
    let text = std::fs::read_to_string(&xml).unwrap().replace(
        "input-file=\"\" output-file=\"\"",
        "input-file=\"input.txt\" output-file=\"output.txt\"",
    );
    std::fs::write(&xml, text).unwrap();
    let out = Test::outside(tmp.path())
        .args(["verify", "files-io"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(line(&out, "io.py").contains(" AC "), "{out}");
    assert!(line(&out, "stdout.py").contains(" WA "), "{out}");
    let out = Test::outside(tmp.path())
        .args(["show", "files-io"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(out.contains("4 test cases"), "{out}");
    assert!(out.contains("reads input.txt, writes output.txt"), "{out}");
}

/// Guess the number (1 to 100) in at most 10 questions; the interactor writes how many were
/// asked for the checker, which wants at most the answer file's number (7, a binary search's).
const INTERACTOR: &str = r#"#include "testlib.h"
#include <cstdio>
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    int x = inf.readInt();
    for (int asked = 1; asked <= 10; asked++) {
        int guess = ouf.readInt();
        if (guess == x) {
            std::printf("correct\n");
            std::fflush(stdout);
            std::fprintf(tout, "%d\n", asked);
            quitf(_ok, "found in %d", asked);
        }
        std::printf(guess < x ? "higher\n" : "lower\n");
        std::fflush(stdout);
    }
    quitf(_wa, "not found in 10 questions");
}
"#;

const GUESS_CHECK: &str = r#"#include "testlib.h"
int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int asked = ouf.readInt(), most = ans.readInt();
    if (asked > most) quitf(_wa, "%d questions, at most %d", asked, most);
    quitf(_ok, "%d questions", asked);
}
"#;

/// A guesser that asks `first` (comma-separated) before its binary search on what is left.
fn guesser(first: &str, flush: bool) -> String {
    format!(
        "#include <cstdio>\n#include <cstring>\nint main() {{ int lo = 1, hi = 100; char r[16];\n\
         int first[] = {{{first}}}; for (int g : first) {{ std::printf(\"%d\\n\", g); {flush} std::scanf(\"%15s\", r);\n\
         if (!std::strcmp(r, \"correct\")) return 0; if (!std::strcmp(r, \"higher\")) lo = g + 1; else hi = g - 1; }}\n\
         while (true) {{ int m = (lo + hi) / 2; std::printf(\"%d\\n\", m); {flush}\n\
         if (std::scanf(\"%15s\", r) != 1) return 0; if (!std::strcmp(r, \"correct\")) return 0;\n\
         if (!std::strcmp(r, \"higher\")) lo = m + 1; else hi = m - 1; }} }}\n",
        flush = if flush { "std::fflush(stdout);" } else { "" }
    )
}

#[test]
fn an_interactive_package_runs_its_interactor_then_its_checker() {
    let tmp = tempfile::Builder::new()
        .prefix("judge-polygon-")
        .tempdir()
        .unwrap();
    let dir = tmp.path().join("guess");
    let solutions = [
        ("solutions/main.cpp", "main", guesser("50", true)),
        // Nine questions for 37: the interactor accepts, the checker does not.
        (
            "solutions/slow.cpp",
            "wrong-answer",
            guesser("1, 2, 3", true),
        ),
        // 37 questions for 37: the interactor gives up at ten.
        (
            "solutions/linear.cpp",
            "wrong-answer",
            guesser(
                &(1..=100)
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                true,
            ),
        ),
        (
            "solutions/no-flush.cpp",
            "time-limit-exceeded",
            guesser("50", false),
        ),
    ];
    let listed: Vec<(&str, &str, &str)> = solutions
        .iter()
        .map(|(path, tag, _)| (*path, *tag, "cpp.g++17"))
        .collect();
    let xml = common::polygon::interactive_xml(&common::polygon::InteractiveXml {
        short_name: "guess",
        title: "Guess",
        time_ms: 1000,
        tests: 3,
        resources: &["testlib.h"],
        solutions: &listed,
    });
    let write = |rel: &str, content: &[u8]| {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    };
    write("problem.xml", xml.as_bytes());
    for (i, x) in ["37", "1", "100"].iter().enumerate() {
        write(&format!("tests/{:02}", i + 1), format!("{x}\n").as_bytes());
        write(&format!("tests/{:02}.a", i + 1), b"7\n");
    }
    write(
        "files/testlib.h",
        &std::fs::read(repo().join("tests/fixtures/polygon/testlib.h")).unwrap(),
    );
    write("files/interactor.cpp", INTERACTOR.as_bytes());
    write("files/check.cpp", GUESS_CHECK.as_bytes());
    for (path, _, source) in &solutions {
        write(path, source.as_bytes());
    }
    let before = snapshot(&dir);
    let out = Test::outside(tmp.path())
        .args(["verify", "guess"])
        .expect_exit(0)
        .run()
        .stdout;
    for (name, verdict) in [
        ("main.cpp", "AC"),
        ("slow.cpp", "WA"),
        ("linear.cpp", "WA"),
        ("no-flush.cpp", "TLE"),
    ] {
        assert!(
            line(&out, name).contains(&format!(" {verdict} ")),
            "{name}: {out}"
        );
    }
    // Who said no: the checker after an acceptance, the interactor before.
    let out = Test::outside(tmp.path())
        .args(["run", "guess/solutions/slow.cpp", "--problem", "guess"])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(out.contains("9 questions, at most 7"), "{out}");
    let out = Test::outside(tmp.path())
        .args(["run", "guess/solutions/linear.cpp", "--problem", "guess"])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(out.contains("not found in 10 questions"), "{out}");
    assert!(out.contains("transcript"), "{out}");
    let out = Test::outside(tmp.path())
        .args(["show", "guess"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        out.contains("interactive: interactor guess/files/interactor.cpp (testlib protocol)"),
        "{out}"
    );
    assert_eq!(snapshot(&dir), before, "the package was written to");
}
