//! Packages judged where they lie: a Kattis package's `problem.yaml` (each format version),
//! its `testdata.yaml` and `test_group.yaml`; a Polygon package's `problem.xml`.

use std::path::Path;

use proptest::prelude::*;

use crate::harness::{config, kept, mutants, names_a_line, names_file_and_fix, scratch, watch};
use judge_core::lang::Languages;
use judge_packages::package;

const YAML: &[&str] = &[
    ":",
    ": ",
    "- ",
    "\n  ",
    "{",
    "}",
    "[",
    "]",
    "&a ",
    "*a",
    "<<: *a",
    "!!binary ",
    "!!str ",
    "---\n",
    "...\n",
    "|\n  ",
    ">\n  ",
    "? ",
    "~",
    "null",
    "true",
    "yes",
    "1.0e400",
    "-1",
    "0x7fffffffffffffff",
    "problem_format_version: ",
    "legacy",
    "2023-07-draft",
    "2025-09",
    "type: ",
    "scoring",
    "interactive",
    "multi-pass",
    "limits:",
    "time_limit: ",
    "time_multiplier: ",
    "memory: ",
    "validation: ",
    "custom",
    "validator_flags: ",
    "float_tolerance ",
    "grading:",
    "on_reject: ",
    "range: ",
    "accept_score: ",
    "output_validator_flags: ",
    "name:",
    "  en: ",
];

/// problem.yaml in each format version the judge reads.
fn problem_yamls() -> Vec<Vec<u8>> {
    [
        "name: Double\nsource: Somewhere\nlicense: cc by-sa\nlimits:\n  time_multiplier: 2\n  memory: 256\n  output: 8\nvalidation: default\nvalidator_flags: float_tolerance 1e-6\n",
        "problem_format_version: legacy\ntype: scoring\nname: Double\nlimits:\n  time_safety_margin: 1.5\n",
        "problem_format_version: 2023-07-draft\nname: Double\ntype: pass-fail\nlimits:\n  time_limit: 1\n  memory: 256\n  validation_time: 30\n",
        "problem_format_version: 2023-07-draft\nname:\n  en: Double\n  de: Doppelt\ntype: [pass-fail, interactive]\ncredits:\n  authors: Someone\nlimits:\n  time_multipliers:\n    ac_to_time_limit: 2.0\n    time_limit_to_tle: 1.5\n",
        "problem_format_version: 2025-09\nname: Double\ntype: scoring\nlimits:\n  time_limit: 1.5\n  memory: 512\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

/// A group's settings files, as problemtools' examples write them.
fn group_yamls() -> Vec<Vec<u8>> {
    [
        "on_reject: continue\ngrading: default\naccept_score: 25\nrange: 0 25\n",
        "output_validator_flags: float_tolerance 1e-4 case_sensitive\ninput_validator_flags: n_max=10\n",
        "grader_flags: min ignore_sample\nreject_score: 0\n",
        "scoring:\n  score: 30\n  aggregation: sum\noutput_validator_args: [space_change_sensitive]\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

/// A Kattis package in `dir` with `problem.yaml` and each of `settings` (path under data/,
/// content).
fn kattis(dir: &Path, problem_yaml: &[u8], settings: &[(&str, &[u8])]) {
    let put = |rel: &str, bytes: &[u8]| {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    };
    put("problem.yaml", problem_yaml);
    put("data/sample/1.in", b"21\n");
    put("data/sample/1.ans", b"42\n");
    put("data/secret/group1/2.in", b"5\n");
    put("data/secret/group1/2.ans", b"10\n");
    put("data/secret/3.in", b"0\n");
    put("data/secret/3.ans", b"0\n");
    put(
        "output_validator/validate.cpp",
        b"int main() { return 42; }\n",
    );
    put(
        "submissions/accepted/double.py",
        b"print(2 * int(input()))\n",
    );
    for (rel, bytes) in settings {
        put(rel, bytes);
    }
}

/// Whether YAML itself refuses `text` (then the parser knows the line).
fn bad_yaml(text: &[u8]) -> bool {
    std::str::from_utf8(text).map_or(true, |t| {
        !t.trim().is_empty() && serde_saphyr::from_str::<serde::de::IgnoredAny>(t).is_err()
    })
}

/// Loads the package at `dir`: an error must name `file` and the fix (and a line when `syntax`
/// says the file is not YAML or XML at all).
fn load(dir: &Path, file: &str, syntax: bool) {
    let cache = dir.parent().unwrap().join("cache");
    if let Err(e) = package::load(dir, &Languages::default(), &cache) {
        let message = e.to_string();
        names_file_and_fix(&message, file);
        if syntax {
            names_a_line(&message);
        }
    }
}

const XML: &[&str] = &[
    "<",
    ">",
    "</",
    "/>",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "&amp;",
    "&lt;",
    "&#0;",
    "&#x110000;",
    "&bogus;",
    "<!DOCTYPE problem [<!ENTITY a \"aaaa\">]>",
    "\"",
    "=",
    "<test method=\"manual\"/>",
    "<test method=\"generated\" cmd=\"gen 1\"/>",
    "<test-count>",
    "</test-count>",
    "1000000000",
    "%02d",
    "%d",
    "%s",
    "%99999d",
    "<group name=\"g\" points=\"5\" points-policy=\"each-test\"/>",
    "group=\"g\"",
    "points=\"1e309\"",
    "<time-limit>",
    "</time-limit>",
    "<memory-limit>",
    "</memory-limit>",
    "input-file=\"\"",
    "output-file=\"out.txt\"",
    "sample=\"true\"",
    "<checker type=\"testlib\">",
    "<source path=\"files/check.cpp\" type=\"cpp.g++17\"/>",
    "<interactor>",
    "../../etc/passwd",
];

/// problem.xml as Polygon writes it: tests with groups and points, a checker, solutions.
fn problem_xmls() -> Vec<Vec<u8>> {
    let xml = |tests: &str, extra: &str| {
        format!(
            r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<problem revision="3" short-name="double" url="https://polygon.codeforces.com/p/x/double">
  <names>
    <name language="english" value="Double"/>
  </names>
  <judging cpu-name="Intel" cpu-speed="3600" input-file="" output-file="">
    <testset name="tests">
      <time-limit>1000</time-limit>
      <memory-limit>268435456</memory-limit>
      <test-count>3</test-count>
      <input-path-pattern>tests/%02d</input-path-pattern>
      <answer-path-pattern>tests/%02d.a</answer-path-pattern>
      <tests>
{tests}      </tests>
{extra}    </testset>
  </judging>
  <assets>
    <checker name="std::wcmp.cpp" type="testlib">
      <source path="files/check.cpp" type="cpp.g++17"/>
      <binary path="check.exe" type="exe.win32"/>
    </checker>
    <solutions>
      <solution tag="main">
        <source path="solutions/double.py" type="python.3"/>
      </solution>
      <solution tag="wrong-answer">
        <source path="solutions/wrong.py" type="python.3"/>
      </solution>
    </solutions>
  </assets>
</problem>
"#
        )
        .into_bytes()
    };
    vec![
        xml(
            "        <test method=\"manual\" sample=\"true\"/>\n        <test method=\"manual\"/>\n        <test method=\"generated\" cmd=\"gen 3\"/>\n",
            "",
        ),
        xml(
            "        <test method=\"manual\" sample=\"true\" group=\"0\" points=\"0\"/>\n        <test method=\"manual\" group=\"1\" points=\"40\"/>\n        <test method=\"manual\" group=\"1\" points=\"60\"/>\n",
            "      <groups>\n        <group feedback-policy=\"complete\" name=\"0\" points-policy=\"each-test\"/>\n        <group feedback-policy=\"icpc\" name=\"1\" points-policy=\"complete-group\">\n          <dependencies>\n            <dependency group=\"0\"/>\n          </dependencies>\n        </group>\n      </groups>\n",
        ),
    ]
}

fn polygon(dir: &Path, xml: &[u8]) {
    let put = |rel: &str, bytes: &[u8]| {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    };
    put("problem.xml", xml);
    for (i, (input, answer)) in [("21\n", "42\n"), ("5\n", "10\n"), ("0\n", "0\n")]
        .iter()
        .enumerate()
    {
        put(&format!("tests/{:02}", i + 1), input.as_bytes());
        put(&format!("tests/{:02}.a", i + 1), answer.as_bytes());
    }
    put("files/check.cpp", b"int main() { return 0; }\n");
    put("solutions/double.py", b"print(2 * int(input()))\n");
    put("solutions/wrong.py", b"print(1)\n");
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn problem_yaml(input in mutants(problem_yamls(), YAML)) {
        let dir = scratch();
        let pkg = dir.path().join("double");
        kattis(&pkg, &input, &[("data/secret/group1/testdata.yaml", b"on_reject: continue\n")]);
        let _watched = watch("problem.yaml", &kept("problem-yaml"), &input);
        load(&pkg, "problem.yaml", bad_yaml(&input) && std::str::from_utf8(&input).is_ok());
    }

    #[test]
    fn testdata_yaml(input in mutants(group_yamls(), YAML)) {
        let dir = scratch();
        let pkg = dir.path().join("double");
        kattis(&pkg, b"name: Double\ntype: scoring\n", &[("data/secret/group1/testdata.yaml", &input)]);
        let _watched = watch("testdata.yaml", &kept("testdata-yaml"), &input);
        load(&pkg, "testdata.yaml", bad_yaml(&input) && std::str::from_utf8(&input).is_ok());
    }

    #[test]
    fn test_group_yaml(input in mutants(group_yamls(), YAML)) {
        let dir = scratch();
        let pkg = dir.path().join("double");
        kattis(
            &pkg,
            b"problem_format_version: 2023-07-draft\nname: Double\ntype: scoring\n",
            &[("data/secret/test_group.yaml", &input)],
        );
        let _watched = watch("test_group.yaml", &kept("test-group-yaml"), &input);
        load(&pkg, "test_group.yaml", bad_yaml(&input) && std::str::from_utf8(&input).is_ok());
    }

    #[test]
    fn polygon_problem_xml(input in mutants(problem_xmls(), XML)) {
        let dir = scratch();
        let pkg = dir.path().join("double");
        polygon(&pkg, &input);
        let _watched = watch("problem.xml", &kept("problem-xml"), &input);
        let syntax = std::str::from_utf8(&input)
            .is_ok_and(|t| roxmltree::Document::parse(t).is_err());
        // Not recognised as a package at all: the judge says which files make one.
        if package::is_package(&pkg) {
            load(&pkg, "problem.xml", syntax);
        }
    }
}
