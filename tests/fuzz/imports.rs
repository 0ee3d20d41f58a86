//! What `judge import` and `judge listen` read: Competitive Companion's JSON (a POST's body and
//! a saved `.json`), cph's `.prob`, cargo-compete's test suites (`testcases/NAME.yml`) and
//! online-judge-tools' test folders. Each is read as the import reads it (nothing is written):
//! the format found by [`import::detect`], then its reader.

use std::path::Path;

use proptest::prelude::*;

use crate::harness::{config, kept, mutants, names_a_line, names_file_and_fix, scratch, watch};
use judge_packages::import::{self, companion};

const JSON: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "null",
    "true",
    "false",
    "1e999",
    "-0",
    "1.5",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\"name\":",
    "\"tests\":",
    "\"input\":",
    "\"output\":",
    "\"timeLimit\":",
    "\"memoryLimit\":",
    "\"batch\":",
    "\"size\":",
    "\"id\":",
    "\"interactive\":",
    "\"testType\":",
    "\"multiNumber\"",
    "\"input\": {\"type\": \"file\", \"fileName\": \"../x\"}",
    "\"output\": {\"type\": \"regex\", \"pattern\": \"(a+)+$\"}",
    "\"url\":",
    "\"srcPath\":",
    "\"local\": true",
    "4294967296",
    "-1",
];

/// Competitive Companion's JSON as it sends it (from its documentation and real problems).
fn companions() -> Vec<Vec<u8>> {
    [
        r#"{"name":"A. Watermelon","group":"Codeforces - Codeforces Beta Round 4 (Div. 2 Only)","url":"https://codeforces.com/problemset/problem/4/A","interactive":false,"memoryLimit":64,"timeLimit":1000,"tests":[{"input":"8\n","output":"YES\n"}],"testType":"single","input":{"type":"stdin"},"output":{"type":"stdout"},"languages":{"java":{"mainClass":"Main","taskClass":"AWatermelon"}},"batch":{"id":"123e67c8-03c6-44a4-a3f9-5918a4f4b3f3","size":1}}"#,
        r#"{"name":"A - N-choice question","group":"AtCoder - ABC 300","url":"https://atcoder.jp/contests/abc300/tasks/abc300_a","interactive":false,"memoryLimit":1024,"timeLimit":2000,"tests":[{"input":"3 125 175\n200 300 400\n","output":"2\n"},{"input":"1 1 1\n2\n","output":"1\n"}],"testType":"single","input":{"type":"stdin"},"output":{"type":"stdout"},"batch":{"id":"b","size":7}}"#,
        r#"{"name":"Guess","group":"Kattis","url":"https://open.kattis.com/problems/guess","interactive":true,"memoryLimit":256,"timeLimit":1000,"tests":[],"testType":"multiNumber","input":{"type":"file","fileName":"input.txt"},"output":{"type":"file","fileName":"output.txt"}}"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

/// cph's `.prob`: Competitive Companion's object with what cph adds.
fn probs() -> Vec<Vec<u8>> {
    [
        r#"{"name":"A. Watermelon","group":"Codeforces","url":"https://codeforces.com/problemset/problem/4/A","interactive":false,"memoryLimit":64,"timeLimit":1000,"tests":[{"input":"8\n","output":"YES\n","id":1682}],"testType":"single","input":{"type":"stdin"},"output":{"type":"stdout"},"languages":{"java":{"mainClass":"Main","taskClass":"AWatermelon"}},"batch":{"id":"x","size":1},"srcPath":"/home/me/cf/4A.cpp"}"#,
        r#"{"name":"Local: sum","url":"/home/me/sum.cpp","tests":[{"id":1,"input":"1 2\n","output":"3\n"}],"interactive":false,"memoryLimit":1024,"timeLimit":3000,"srcPath":"/home/me/sum.cpp","group":"local","local":true}"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

const YAML: &[&str] = &[
    ":",
    ": ",
    "- ",
    "\n  ",
    "|\n  ",
    "&a ",
    "*a",
    "type: ",
    "Batch",
    "Interactive",
    "Unsubmittable",
    "timelimit: ",
    "2000ms",
    "1e400s",
    "-1s",
    "match: ",
    "Exact",
    "SplitWhitespace",
    "Lines",
    "Float:",
    "relative_error: ",
    "absolute_error: ",
    "Checker:",
    "cmd: ",
    "shell: ",
    "cases:",
    "- name: ",
    "in: ",
    "out: ",
    "extend:",
    "- type: Text",
    "path: ",
    "./testcases/in/*.txt",
    "../../*",
    "SystemTestCases",
    "{}",
    "[]",
];

/// cargo-compete's test suites.
fn suites() -> Vec<Vec<u8>> {
    [
        "---\ntype: Batch\ntimelimit: 2s\nmatch: Lines\n\ncases:\n  - name: sample1\n    in: |\n      3 125 175\n      200 300 400\n    out: |\n      2\n  - name: sample2\n    in: |\n      1 1 1\n      2\n    out: |\n      1\n\nextend:\n  - type: Text\n    path: \"./a\"\n    in: /in/*.txt\n    out: /out/*.txt\n",
        "---\ntype: Batch\ntimelimit: 1s\nmatch:\n  Float:\n    relative_error: 1e-6\n    absolute_error: 1e-6\ncases:\n  - in: \"2\\n\"\n    out: \"1.0\\n\"\n",
        "---\ntype: Batch\ntimelimit: 2s\nmatch:\n  Checker:\n    cmd: cat \"$ACTUAL_OUTPUT\" | cargo run --bin check\n    shell: Bash\ncases:\n  - in: \"1\\n\"\n    out: ~\n",
        "---\ntype: Interactive\ntimelimit: 2s\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

/// Reads `path` as `judge import` would, without writing: an error names `file` and the fix,
/// and a line when `syntax` says the file is not JSON or YAML at all.
fn read(path: &Path, file: &str, syntax: bool) {
    let format = match import::detect(path) {
        Ok(format) => format,
        // Not taken for the format at all: the formats there are are named.
        Err(e) => return names_file_and_fix(&e.to_string(), file),
    };
    if let Err(e) = format.read(path) {
        let message = e.to_string();
        names_file_and_fix(&message, file);
        if syntax {
            names_a_line(&message);
        }
    }
}

fn bad_json(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes).is_err()
        && std::str::from_utf8(bytes).is_ok()
}

proptest! {
    #![proptest_config(config())]

    /// A POST's body: the listener answers with the reason; nothing else to name.
    #[test]
    fn competitive_companion_body(input in mutants(companions(), JSON)) {
        let _watched = watch("Competitive Companion's JSON", &kept("companion"), &input);
        if let Ok((draft, _)) = companion::parse(&input) {
            let _ = import::check(&draft);
        }
    }

    #[test]
    fn competitive_companion_file(input in mutants(companions(), JSON)) {
        let dir = scratch();
        let path = dir.path().join("watermelon.json");
        std::fs::write(&path, &input).unwrap();
        let _watched = watch("a saved .json", &kept("companion-file"), &input);
        read(&path, "watermelon.json", bad_json(&input));
    }

    #[test]
    fn cph_prob(input in mutants(probs(), JSON)) {
        let dir = scratch();
        let path = dir.path().join(".4A.cpp_b1b6.prob");
        std::fs::write(&path, &input).unwrap();
        let _watched = watch(".prob", &kept("prob"), &input);
        read(&path, ".4A.cpp_b1b6.prob", bad_json(&input));
    }

    #[test]
    fn cargo_compete_suite(input in mutants(suites(), YAML)) {
        let dir = scratch();
        let package = dir.path().join("abc300");
        let path = package.join("testcases/a.yml");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &input).unwrap();
        std::fs::create_dir_all(package.join("testcases/a/in")).unwrap();
        std::fs::create_dir_all(package.join("testcases/a/out")).unwrap();
        std::fs::write(package.join("testcases/a/in/1.txt"), "1\n").unwrap();
        std::fs::write(package.join("testcases/a/out/1.txt"), "1\n").unwrap();
        std::fs::write(
            package.join("Cargo.toml"),
            "[package]\nname = \"abc300\"\n[package.metadata.cargo-compete.bin]\nabc300-a = { alias = \"a\", problem = \"https://atcoder.jp/contests/abc300/tasks/abc300_a\" }\n",
        )
        .unwrap();
        let _watched = watch("a cargo-compete suite", &kept("compete"), &input);
        let syntax = std::str::from_utf8(&input).is_ok_and(|t| {
            !t.trim().is_empty() && serde_saphyr::from_str::<serde::de::IgnoredAny>(t).is_err()
        });
        // Not a suite any more (no `type:`): another format, or none, is said.
        if import::detect(&path).is_ok() {
            read(&path, "a.yml", syntax);
        }
    }

    /// An oj folder: file names and contents both mutated.
    #[test]
    fn oj_folder(
        names in proptest::collection::vec("[a-z0-9._ -]{0,12}\\.(in|out)", 1..6),
        input in mutants(vec![b"3 125 175\n200 300 400\n".to_vec()], &[]),
    ) {
        let dir = scratch();
        let tests = dir.path().join("abc300_a/test");
        std::fs::create_dir_all(&tests).unwrap();
        for name in &names {
            let _ = std::fs::write(tests.join(name), &input);
        }
        let _watched = watch("an oj folder", &kept("oj"), &input);
        if import::detect(&tests).is_ok() {
            let read = import::detect(&tests).and_then(|f| f.read(&tests));
            if let Err(e) = read {
                names_file_and_fix(&e.to_string(), "test");
            }
        }
    }
}
