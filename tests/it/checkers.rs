//! Checker modes end to end, and custom checkers: the testlib exit codes, their messages, and every way a checker can fail (IE).

use crate::common::{Test, Workspace, READ_N};

/// A checker's preamble: `output` and `answer` hold the two files' text.
const CHECKER_HEAD: &str = "fn main() {\n    let args: Vec<String> = std::env::args().collect();\n    assert_eq!(args.len(), 4, \"usage: checker INPUT OUTPUT ANSWER\");\n    let input = std::fs::read_to_string(&args[1]).unwrap();\n    let output = std::fs::read_to_string(&args[2]).unwrap();\n    let answer = std::fs::read_to_string(&args[3]).unwrap();\n    let _ = (&input, &output, &answer);\n";

/// The doubling problem (21 -> 42) judged by a custom checker whose body is `body`.
fn with_checker(body: &str, extra_toml: &str) -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "double",
        &format!("title = \"Double\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\nchecker = \"custom\"\nchecker_program = \"checker.rs\"\n{extra_toml}"),
        &[("1", "21\n", "42\n")],
    );
    ws.write(
        "problems/double/checker.rs",
        format!("{CHECKER_HEAD}{body}\n}}\n"),
    );
    ws
}

/// The doubling problem judged by a checker that compares the first tokens and says why.
const TOKEN_CHECKER: &str = "    let (o, a) = (output.split_whitespace().next(), answer.split_whitespace().next());\n    match o {\n        None => { eprintln!(\"the output is empty\"); std::process::exit(2) }\n        Some(o) if Some(o) == a => { eprintln!(\"ok {o}\"); std::process::exit(0) }\n        Some(o) => { eprintln!(\"expected {}, found {o}\", a.unwrap()); std::process::exit(1) }\n    }";

/// `judge run attempt.rs --json`, with `solution` (after [`READ_N`]) in attempt.rs.
fn attempt(ws: &Workspace, solution: &str) -> Test {
    let path = ws.write("attempt.rs", format!("{READ_N}{solution}\n"));
    ws.judge().args(["run", path.to_str().unwrap(), "--json"])
}

const RIGHT: &str = "fn main() { println!(\"{}\", n() * 2); }";
const WRONG: &str = "fn main() { println!(\"{}\", n() * 2 + 1); }";
const SILENT: &str = "fn main() { let _ = n(); }";

fn detail(doc: &serde_json::Value) -> String {
    doc["cases"][0]["detail"].as_str().unwrap_or("").to_string()
}

#[test]
fn the_checker_decides_and_its_message_is_the_detail() {
    let ws = with_checker(TOKEN_CHECKER, "");
    let doc = attempt(&ws, RIGHT).expect_exit(0).run().json();
    assert_eq!(doc["verdict"], "AC", "{doc:#}");
    let doc = attempt(&ws, WRONG).expect_exit(1).run().json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    assert_eq!(detail(&doc), "expected 42, found 43");
    // No diff: the answer is only the checker's business.
    assert!(doc["cases"][0]["diff"].is_null(), "{doc:#}");
    // Exit 2 is a presentation error: a rejection, and the detail says which.
    let doc = attempt(&ws, SILENT).expect_exit(1).run().json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    assert_eq!(detail(&doc), "presentation error: the output is empty");
}

#[test]
fn the_checker_gets_input_output_and_answer_in_that_order() {
    let ws = with_checker(
        "    if input.trim() == \"21\" && output.trim() == \"42\" && answer.trim() == \"42\" { std::process::exit(0) }\n    println!(\"input {input:?} output {output:?} answer {answer:?}\");\n    std::process::exit(1)",
        "",
    );
    let doc = attempt(&ws, RIGHT).expect_exit(0).run().json();
    assert_eq!(doc["verdict"], "AC", "{doc:#}");
    // A message on stdout is heard when stderr is silent.
    let doc = attempt(&ws, WRONG).expect_exit(1).run().json();
    assert_eq!(
        detail(&doc),
        "input \"21\\n\" output \"43\\n\" answer \"42\\n\""
    );
}

#[test]
fn a_failing_checker_is_an_internal_error_with_its_message() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "    eprintln!(\"answer file is corrupt\"); std::process::exit(3)",
            "",
            "checker failed: exit code 3: answer file is corrupt",
        ),
        (
            "    let v: Vec<u8> = Vec::new(); let _ = v[answer.len()];",
            "",
            "checker failed: exit code 101: thread 'main'",
        ),
        (
            "    std::process::abort()",
            "",
            "checker failed: it was killed by SIGABRT",
        ),
        (
            "    let mut x = 1u64; loop { x = std::hint::black_box(x.wrapping_mul(3)); }",
            "checker_time_limit = \"300ms\"\n",
            "checker failed: it used more than its 300 ms of CPU time",
        ),
        (
            "    let mut v: Vec<Vec<u8>> = Vec::new(); loop { v.push(vec![1u8; 16 << 20]); }",
            "checker_memory_limit = \"64MiB\"\n",
            "checker failed: it used more than its 64 MiB of memory",
        ),
        (
            "    let x: u32 = \"not a number\";",
            "",
            "the checker problems/double/checker.rs does not compile",
        ),
    ];
    for (body, toml, expected) in cases {
        let ws = with_checker(body, toml);
        for solution in [RIGHT, WRONG] {
            let doc = attempt(&ws, solution).expect_exit(2).run().json();
            assert_eq!(doc["verdict"], "IE", "{body}: {doc:#}");
            let got = detail(&doc);
            assert!(got.contains(expected), "{body}: {got}");
        }
    }
}

#[test]
fn a_long_checker_message_is_cut() {
    let ws = with_checker(
        "    eprintln!(\"{}\", \"x\".repeat(1_000)); for i in 0..100 { eprintln!(\"line {i}\"); } std::process::exit(1)",
        "",
    );
    let doc = attempt(&ws, RIGHT).expect_exit(1).run().json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    let got = detail(&doc);
    assert!(got.len() < 2000, "{}", got.len());
    assert!(
        got.starts_with(&format!("{}…\nline 0\n", "x".repeat(300))),
        "{got}"
    );
    assert!(got.ends_with("… (89 more lines)"), "{got}");
}

#[test]
fn the_checker_is_not_asked_about_a_failed_run() {
    let ws = with_checker("    std::process::exit(3)", "");
    let doc = attempt(&ws, "fn main() { let _ = n(); std::process::exit(4); }")
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "RE", "{doc:#}");
}

#[test]
fn the_table_shows_the_checker_message_under_the_verdict() {
    let ws = with_checker(
        "    eprintln!(\"board 2 (line 7) repeats board 1 (line 2)\\nsecond line\"); std::process::exit(1)",
        "",
    );
    let path = ws.write("attempt.rs", format!("{READ_N}{RIGHT}\n"));
    ws.judge()
        .args(["run", path.to_str().unwrap()])
        .expect_exit(1)
        .stdout_matches(
            r"\n  1 +WA .*board 2 \(line 7\) repeats board 1 \(line 2\)\n +second line\n",
        )
        .run();
    let ws = with_checker(
        "    eprintln!(\"cannot parse the answer\"); std::process::exit(3)",
        "",
    );
    ws.judge()
        .args(["run", path.to_str().unwrap()])
        .expect_exit(2)
        .stdout_matches(r"\n  1 +IE .*checker failed: exit code 3: cannot parse the answer")
        .run();
}

#[test]
fn built_in_modes_from_problem_toml() {
    let ws = Workspace::new();
    ws.problem(
        "third",
        "title = \"Third\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\nchecker = \"float\"\nfloat_absolute = 1e-4\nfloat_relative = 0\n",
        &[("1", "1\n", "0.333333333\n")],
    );
    let attempt = |body: &str, code: i32| {
        let path = ws.write(
            "third.rs",
            format!("{READ_N}fn main() {{ let n = n() as f64; {body} }}\n"),
        );
        ws.judge()
            .args(["run", path.to_str().unwrap(), "--json"])
            .expect_exit(code)
            .run()
            .json()
    };
    assert_eq!(attempt("println!(\"{:.5}\", n / 3.0);", 0)["verdict"], "AC");
    let doc = attempt("println!(\"{:.2}\", n / 3.0);", 1);
    assert_eq!(doc["verdict"], "WA");
    assert!(
        detail(&doc).contains("over the absolute tolerance 1e-4"),
        "{doc:#}"
    );
    ws.judge()
        .arg("list")
        .expect_exit(0)
        .stdout_has("checker float (absolute 1e-4, relative 0e0)")
        .run();

    let ws = Workspace::new();
    ws.problem(
        "greet",
        "title = \"Greet\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\nchecker = \"lines\"\ncase_insensitive = true\n",
        &[("1", "1\n", "Hello, World!\nBye\n")],
    );
    let attempt = |text: &str, code: i32| {
        let path = ws.write("greet.rs", format!("fn main() {{ print!(\"{text}\"); }}\n"));
        ws.judge()
            .args(["run", path.to_str().unwrap(), "--json"])
            .expect_exit(code)
            .run()
            .json()
    };
    assert_eq!(
        attempt("HELLO, world!   \\r\\nbye\\n\\n", 0)["verdict"],
        "AC"
    );
    let doc = attempt("Hello,  World!\\nBye\\n", 1);
    assert_eq!(doc["verdict"], "WA");
    assert!(detail(&doc).starts_with("line 1 (column 8)"), "{doc:#}");
}

#[test]
fn checker_configuration_errors_name_the_line_and_the_fix() {
    let ws = with_checker(TOKEN_CHECKER, "");
    ws.write(
        "problems/double/problem.toml",
        "title = \"Double\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\nchecker = \"custom\"\nchecker_program = \"check.rs\"\n",
    );
    let path = ws.write("attempt.rs", format!("{READ_N}{RIGHT}\n"));
    ws.judge()
        .args(["run", path.to_str().unwrap()])
        .expect_exit(2)
        .stderr_has("problems/double/problem.toml:5")
        .stderr_has("there is no `check.rs` in problems/double/")
        .stderr_has("fix: create problems/double/check.rs")
        .run();
}

/// A Kattis output validator writes its feedback folder on every case; the folder is made
/// afresh for each, and the sandbox must let it write each new one (not only the first).
#[test]
#[cfg_attr(
    not(judge_has_python3),
    ignore = "needs python3 (Debian: apt-get install python3)"
)]
fn a_kattis_validator_writes_its_feedback_on_every_case() {
    let ws = Workspace::new();
    ws.write("pkg/problem.yaml", "name: Double\nvalidation: custom\n");
    for (name, input, answer) in [
        ("1", "1", "2"),
        ("2", "2", "4"),
        ("3", "3", "6"),
        ("4", "5", "10"),
    ] {
        ws.write(&format!("pkg/data/secret/{name}.in"), format!("{input}\n"));
        ws.write(
            &format!("pkg/data/secret/{name}.ans"),
            format!("{answer}\n"),
        );
    }
    ws.write(
        "pkg/output_validators/check/check.py",
        "import sys\n\
         answer = open(sys.argv[2]).read().split()\n\
         output = sys.stdin.read().split()\n\
         with open(sys.argv[3] + 'judgemessage.txt', 'w') as f:\n\
         \x20   f.write(f'expected {answer[0]}, got {output[0] if output else None}')\n\
         sys.exit(42 if output == answer else 43)\n",
    );
    // The time limit is derived from an accepted submission, as problemtools does.
    ws.write(
        "pkg/submissions/accepted/ok.py",
        "print(2 * int(input()))\n",
    );
    // Right on every case but the last.
    let attempt = ws.write(
        "pkg/submissions/wrong_answer/off.py",
        "n = int(input())\nprint(2 * n if n < 5 else 11)\n",
    );
    let doc = ws
        .judge()
        .args(["run", attempt.to_str().unwrap(), "--json", "--no-history"])
        .expect_exit(1)
        .run()
        .json();
    let verdicts: Vec<_> = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["verdict"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(verdicts, ["AC", "AC", "AC", "WA"], "{doc:#}");
    assert!(
        doc["cases"][3]["detail"]
            .as_str()
            .unwrap()
            .contains("expected 10, got 11"),
        "{doc:#}"
    );
}
