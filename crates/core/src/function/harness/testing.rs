//! What the harness tests share: a toolchain looked for on PATH (a missing one is said, and is a
//! failure under `CI`), and a wrapped program run on JSON input lines.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Whether `tool` is on PATH. When it is not, says so, and fails when `CI` is set (to anything
/// but empty, `false` or `0`): in CI every toolchain is installed.
pub(super) fn have(tool: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()));
    if !found {
        let ci = std::env::var("CI").is_ok_and(|v| {
            let v = v.trim();
            !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false"))
        });
        assert!(!ci, "{tool} is not installed, and CI installs it");
        // Straight to stderr, past the test harness's capture: a skip is seen even when the
        // test passes.
        let _ = writeln!(
            std::io::stderr(),
            "{tool} is not installed: this harness test checked nothing (under CI=true it fails)"
        );
    }
    found
}

/// Runs a command to its end, panicking with its output when it fails.
pub(super) fn build(command: &mut Command) {
    let out = command.output().expect("the compiler starts");
    assert!(
        out.status.success(),
        "the build failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs the program (`argv`, in `dir`) on each input and returns what it printed, trimmed;
/// a failed run panics with its stderr.
pub(super) fn outputs(dir: &Path, argv: &[&str], inputs: &[&str]) -> Vec<String> {
    inputs
        .iter()
        .map(|input| {
            let mut child = Command::new(argv[0])
                .args(&argv[1..])
                .current_dir(dir)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the program starts");
            let mut stdin = child.stdin.take().expect("stdin");
            stdin.write_all(input.as_bytes()).expect("input written");
            drop(stdin);
            let out = child.wait_with_output().expect("the program ends");
            assert!(
                out.status.success(),
                "the program failed on {input:?}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8_lossy(&out.stdout).trim_end().to_string()
        })
        .collect()
}

/// Each case's output is its answer, word for word.
pub(super) fn expect(dir: &Path, argv: &[&str], cases: &[(&str, &str)]) {
    let inputs: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let got = outputs(dir, argv, &inputs);
    for ((input, answer), got) in cases.iter().zip(got) {
        assert_eq!(got, *answer, "on input {input:?}");
    }
}

/// A signature from problem.toml's words.
pub(super) fn sig(name: &str, params: &[&str], returns: &str) -> crate::function::Signature {
    let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
    crate::function::Signature::parse(name, &params, returns).expect("a valid signature")
}

/// Every parameter type at once: each language's `describe` says what it got, as one string
/// (the double doubled and truncated, the list joined by `>`, the tree in preorder with `#`).
pub(super) const EVERY_PARAM: [&str; 12] = [
    "i: int",
    "l: long",
    "d: double",
    "b: bool",
    "c: char",
    "s: string",
    "a: int[]",
    "m: int[][]",
    "g: char[][]",
    "wordList: string[]",
    "head: ListNode",
    "root: TreeNode",
];

/// Inputs for [`EVERY_PARAM`] and what `describe` returns on them.
pub(super) const EVERY_PARAM_CASES: [(&str, &str); 2] = [
    (
        "3\n9000000000\n2.5\ntrue\n\"x\"\n\"q\\\"\\\\\\u00e9\"\n[1,2,3]\n[[1,2],[3]]\n[[\"a\",\"b\"],[\"c\",\"d\"]]\n[\"x\",\"y\"]\n[1,2,3]\n[1,null,2,3]\n",
        "\"3|9000000000|5|true|x|q\\\"\\\\é|6|2x6|ab/cd|x,y|1>2>3|1(#,2(3(#,#),#))\"",
    ),
    (
        "-2147483648\n-1\n-0.5\nfalse\n\"\\\"\"\n\"\"\n[]\n[]\n[]\n[]\n[]\n[]\n",
        "\"-2147483648|-1|-1|false|\\\"||0|0x0||||#\"",
    ),
];

/// The shipped LeetCode-form solutions of N-Queens II are in function form and define
/// `totalNQueens`, as each language writes it.
#[test]
fn the_shipped_nqueens_solutions_define_the_function() {
    let s = sig("totalNQueens", &["n: int"], "int");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../solutions/nqueens-ii/");
    let read = |f: &str| std::fs::read_to_string(format!("{root}{f}")).expect("a shipped solution");
    let java = read("leetcode-java.java");
    assert!(super::java::is_function_form(&java) && super::java::defines(&java, &s));
    let rust = read("leetcode-rust.rs");
    assert!(super::rust::is_function_form(&rust) && super::rust::defines(&rust, &s));
    let js = read("leetcode-js.js");
    assert!(super::javascript::is_function_form(&js) && super::javascript::defines(&js, &s));
}
