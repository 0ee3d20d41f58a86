//! Problems that read and write named files instead of stdin and stdout (`input_file`,
//! `output_file`): the input is put in the program's working folder, the named output is checked.

use crate::common::{Test, Workspace};

/// "Double it" with its input in `double.in` and its output in `double.out`, as an old USACO
/// problem; with `extra` appended to its problem.toml.
fn files_problem(io: &str) -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "double",
        &format!("title = \"Double\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\n{io}"),
        &[("1", "21\n", "42\n"), ("2", "5\n", "10\n")],
    );
    ws
}

/// `judge run attempt.rs --problem double --json`, with `source` in attempt.rs.
fn attempt(ws: &Workspace, source: &str) -> Test {
    let path = ws.write("attempt.rs", source);
    ws.judge().args([
        "run",
        path.to_str().unwrap(),
        "--problem",
        "double",
        "--json",
    ])
}

const FROM_FILE_TO_FILE: &str = "fn main() {\n    let s = std::fs::read_to_string(\"double.in\").expect(\"double.in is there\");\n    let n: u64 = s.trim().parse().unwrap();\n    std::fs::write(\"double.out\", format!(\"{}\\n\", n * 2)).unwrap();\n}\n";

#[test]
fn the_input_is_in_the_working_folder_and_the_named_output_is_checked() {
    let ws = files_problem("input_file = \"double.in\"\noutput_file = \"double.out\"\n");
    let doc = attempt(&ws, FROM_FILE_TO_FILE).expect_exit(0).run().json();
    assert_eq!(doc["verdict"], "AC", "{doc:#}");
    assert_eq!(doc["cases"][0]["output_bytes"], 3, "{doc:#}");

    // A wrong answer in the file is a WA like any other, with its diff.
    let wrong = FROM_FILE_TO_FILE.replace("n * 2", "n * 2 + 1");
    let doc = attempt(&ws, &wrong).expect_exit(1).run().json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    assert!(doc["cases"][0]["diff"].is_string(), "{doc:#}");

    // Printing the answer to stdout is not writing the file: WA, and the detail says so.
    let to_stdout = "fn main() {\n    let s = std::fs::read_to_string(\"double.in\").unwrap();\n    let n: u64 = s.trim().parse().unwrap();\n    println!(\"{}\", n * 2);\n}\n";
    let doc = attempt(&ws, to_stdout).expect_exit(1).run().json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    let detail = doc["cases"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("wrote no double.out"), "{detail}");
    assert!(doc["cases"][0]["hint"].is_null(), "{doc:#}");

    // The input is not on stdin: a program that reads stdin finds nothing there.
    let from_stdin = "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    assert!(!s.is_empty(), \"stdin is empty\");\n}\n";
    let doc = attempt(&ws, from_stdin).expect_exit(1).run().json();
    assert_eq!(doc["verdict"], "RE", "{doc:#}");

    // A directory of that name is not an output file.
    let a_folder = "fn main() { std::fs::create_dir(\"double.out\").unwrap(); }\n";
    let doc = attempt(&ws, a_folder).expect_exit(1).run().json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");

    // A failed case keeps the file the program wrote, for a look afterwards.
    let doc = attempt(&ws, &wrong).expect_exit(1).run().json();
    let kept = doc["cases"][0]["saved_output"].as_str().expect("kept");
    let text = std::fs::read_to_string(ws.path().join(kept)).unwrap();
    assert_eq!(text, "43\n");
}

#[test]
fn only_the_output_may_be_a_file_and_the_files_never_outlive_the_run() {
    let ws = files_problem("output_file = \"answer.txt\"\n");
    let source = "use std::io::Read;\nfn main() {\n    assert!(std::fs::metadata(\"answer.txt\").is_err(), \"the last run's file is gone\");\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    let n: u64 = s.trim().parse().unwrap();\n    std::fs::write(\"answer.txt\", format!(\"{}\\n\", n * 2)).unwrap();\n}\n";
    let doc = attempt(&ws, source).expect_exit(0).run().json();
    assert_eq!(doc["verdict"], "AC", "{doc:#}");
    assert_eq!(doc["passed"], 2, "{doc:#}");
}

#[test]
fn stress_runs_the_reference_and_the_attempt_with_the_files() {
    let ws = files_problem(
        "input_file = \"double.in\"\noutput_file = \"double.out\"\ngenerator = \"gen.rs\"\n",
    );
    ws.write(
        "problems/double/gen.rs",
        "fn main() { let seed: u64 = std::env::args().nth(1).unwrap().parse().unwrap(); println!(\"{}\", seed % 7); }\n",
    );
    ws.write("solutions/double/reference.rs", FROM_FILE_TO_FILE);
    // Wrong from 5 on: seed 5 gives the input 5.
    let attempt = FROM_FILE_TO_FILE.replace("n * 2", "if n >= 5 { n } else { n * 2 }");
    ws.write("solutions/double/attempt.rs", &attempt);
    let text = ws
        .judge()
        .args([
            "stress",
            "attempt",
            "--against",
            "reference",
            "--count",
            "10",
        ])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(text.contains("seed 5"), "{text}");
    ws.write("solutions/double/same.rs", FROM_FILE_TO_FILE);
    ws.judge()
        .args(["stress", "same", "--against", "reference", "--count", "5"])
        .expect_exit(0)
        .run();
}
