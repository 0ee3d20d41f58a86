//! `judge stress` as a contestant uses it: finding the broken attempt, reproducing, saving the
//! case, and never blaming the attempt for a broken generator or reference.

use crate::common::{self, repo, shipped, Test, Workspace, READ_N};

/// N-Queens II answers for n = 1..=14 (OEIS A000170).
const QUEENS: [u64; 14] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];

fn broken_attempt() -> String {
    repo()
        .join("tests/fixtures/queens-u8.rs")
        .display()
        .to_string()
}

/// A workspace holding a copy of the shipped N-Queens II problem (so that --save writes there).
fn queens_copy() -> Workspace {
    let ws = Workspace::new();
    for rel in [
        "problems/nqueens-ii/problem.toml",
        "problems/nqueens-ii/statement.md",
        "problems/nqueens-ii/gen.rs",
        "problems/nqueens-ii/validate.rs",
        "solutions/nqueens-ii/bitmask.rs",
    ] {
        ws.write(rel, std::fs::read(shipped().join(rel)).unwrap());
    }
    for entry in std::fs::read_dir(shipped().join("testcases/nqueens-ii")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        ws.write(
            &format!("testcases/nqueens-ii/{name}"),
            std::fs::read(&path).unwrap(),
        );
    }
    ws
}

#[test]
fn stress_finds_the_broken_attempt_and_the_reproduce_command_reproduces_it() {
    let started = std::time::Instant::now();
    let doc = Test::at(shipped())
        .args([
            "stress",
            &broken_attempt(),
            "--against",
            "bitmask",
            "--json",
        ])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    let d = &doc["disagreement"];
    let n: usize = d["input"].as_str().unwrap().trim().parse().unwrap();
    assert!(n >= 9, "u8 masks are right up to n = 8: {doc:#}");
    assert_eq!(
        d["reference_output"].as_str().unwrap().trim(),
        QUEENS[n - 1].to_string()
    );
    assert_ne!(d["attempt_output"], d["reference_output"]);
    assert_eq!(d["attempt"]["verdict"], "WA");
    assert!(d["attempt"]["diff"]
        .as_str()
        .unwrap()
        .contains(&QUEENS[n - 1].to_string()));
    let seed = d["seed"].as_u64().unwrap();
    assert_eq!(
        doc["seeds_tried"].as_u64().unwrap(),
        seed,
        "seeds start at 1"
    );
    // Generous: a few seeds take milliseconds each; the rest is compiling, on a busy machine.
    assert!(started.elapsed().as_secs() < 120);

    let reproduce = doc["reproduce"].as_str().unwrap().to_string();
    assert!(
        reproduce.ends_with(&format!("--seed {seed} --count 1")),
        "{reproduce}"
    );
    let words: Vec<&str> = reproduce.split(' ').collect();
    assert_eq!(words[0], "judge");
    let text = Test::at(shipped())
        .args(&words[1..])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(
        text.contains(&format!("disagrees with bitmask on seed {seed}")),
        "{text}"
    );
    assert!(
        text.contains(&format!("expected `{}`", QUEENS[n - 1])),
        "{text}"
    );
    assert!(text.contains(&format!("reproduce: {reproduce}")), "{text}");
}

#[test]
fn agreeing_solutions_exit_zero_after_the_seeds_asked_for() {
    Test::at(shipped())
        .args([
            "stress",
            "flags",
            "--against",
            "bitmask",
            "--count",
            "20",
            "--seed",
            "100",
        ])
        .expect_exit(0)
        .stdout_has("no disagreement · seeds 100 to 119 · 20 seeds")
        .run();
    let doc = Test::at(shipped())
        .args([
            "stress",
            "eightfold",
            "--against",
            "bitmask",
            "--seconds",
            "1",
            "--json",
        ])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["verdict"], "AC");
    assert!(doc["seeds_tried"].as_u64().unwrap() >= 1);
    assert_eq!(doc["disagreement"], serde_json::Value::Null);
}

#[test]
fn a_slow_attempt_is_caught_where_the_reference_is_fast() {
    let doc = Test::at(shipped())
        .args([
            "stress",
            "odometer",
            "--against",
            "bitmask",
            "--time-limit",
            "300ms",
            "--json",
        ])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "TLE", "{doc:#}");
    let n: usize = doc["disagreement"]["input"]
        .as_str()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(n >= 8, "the odometer is quick on small boards: n = {n}");
    assert!(doc["reproduce"]
        .as_str()
        .unwrap()
        .contains("--time-limit 300ms"));
}

#[test]
fn save_adds_the_failing_input_with_the_reference_answer() {
    let ws = queens_copy();
    let text = ws
        .judge()
        .args([
            "stress",
            &broken_attempt(),
            "--against",
            "bitmask",
            "--save",
        ])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(
        text.contains("saved as test case 15: testcases/nqueens-ii/15.in"),
        "{text}"
    );
    let dir = ws.path().join("testcases/nqueens-ii");
    let n: usize = std::fs::read_to_string(dir.join("15.in"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let answer = std::fs::read_to_string(dir.join("15.out")).unwrap();
    assert_eq!(answer.trim(), QUEENS[n - 1].to_string());
    // The new case is the last one, and it judges as it should.
    let run = |solution: &str, code: i32| {
        ws.judge()
            .args(["run", solution, "--problem", "nqueens-ii", "--json"])
            .expect_exit(code)
            .run()
            .json()
    };
    let doc = run("bitmask", 0);
    assert_eq!(doc["verdict"], "AC");
    assert_eq!(doc["cases"][14]["name"], "15");
    let doc = run(&broken_attempt(), 1);
    assert_eq!(doc["cases"][14]["verdict"], "WA");
}

#[test]
fn a_case_that_cannot_be_saved_loses_nothing_of_the_disagreement() {
    use std::os::unix::fs::PermissionsExt;
    // Permissions do not bind root: as root, the judge runs as nobody. Python, which nobody
    // can run (a toolchain under root's home may not be).
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\ngenerator = \"gen.py\"\n",
        &[("1", "21\n", "42\n")],
    );
    ws.write("problems/double/gen.py", "import sys\nprint(sys.argv[1])\n");
    ws.write("solutions/double/reference.py", "print(2 * int(input()))\n");
    ws.write(
        "solutions/double/attempt.py",
        "n = int(input())\nprint(n if n >= 3 else 2 * n)\n",
    );
    let root = ws.path().canonicalize().unwrap();
    let judge = common::judge_copy(&root);
    let stress = common::as_ordinary_user(&root, &judge)
        .cache(root.join("cache"))
        .args(["stress", "attempt", "--against", "reference", "--save"]);
    let tests = root.join("testcases/double");
    std::fs::set_permissions(&tests, std::fs::Permissions::from_mode(0o555)).unwrap();
    let (code, out) = stress
        .expect_exit(2)
        .run_as_terminal(std::time::Duration::from_secs(120))
        .unwrap();
    assert_eq!(code, Some(2), "{out}");
    let at = |what: &str| {
        out.find(what)
            .unwrap_or_else(|| panic!("no `{what}` in:\n{out}"))
    };
    // The seed, the input, the diff and the command, then the error, once, with its fix.
    let error = at("error: the failing input was not saved as a test case: ");
    for shown in [
        "disagrees with reference on seed 3",
        "input (gen 3):",
        "diff:",
        "reproduce: judge stress attempt --against reference --seed 3 --count 1",
    ] {
        assert!(at(shown) < error, "`{shown}` after the error:\n{out}");
    }
    assert!(at("fix: make testcases/double/ writable") > error, "{out}");
    assert_eq!(out.matches("error:").count(), 1, "{out}");
    assert!(
        !out.contains(".tmp"),
        "the temporary file is no news: {out}"
    );
    assert!(!out.contains("saved as test case"), "{out}");
    assert_eq!(
        std::fs::read_dir(&tests).unwrap().count(),
        2,
        "nothing left behind"
    );
    std::fs::set_permissions(&tests, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The doubling problem with a generator: `gen SEED` prints SEED.
fn doubling_with(generator: &str, reference: &str) -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"500ms\"\nmemory_limit = \"64MiB\"\ngenerator = \"gen.rs\"\n",
        &[("1", "21\n", "42\n")],
    );
    ws.write("problems/double/gen.rs", generator);
    ws.write("solutions/double/reference.rs", reference);
    // Wrong from 5 on: the disagreement the tests below must (or must not) get to.
    ws.write(
        "solutions/double/attempt.rs",
        format!("{READ_N}fn main() {{ let n = n(); println!(\"{{}}\", if n >= 5 {{ n }} else {{ 2 * n }}); }}\n"),
    );
    ws
}

const GEN: &str = "fn main() { println!(\"{}\", std::env::args().nth(1).unwrap()); }\n";

fn reference(body: &str) -> String {
    format!("{READ_N}fn main() {{ let n = n(); {body} }}\n")
}

/// `judge stress attempt --against reference --count 10 --json`.
fn stress(ws: &Workspace) -> Test {
    ws.judge().args([
        "stress",
        "attempt",
        "--against",
        "reference",
        "--count",
        "10",
        "--json",
    ])
}

#[test]
fn a_failing_generator_or_reference_is_an_internal_error_not_the_attempts() {
    // The doubling fixtures themselves agree up to 4 and disagree at 5.
    let ws = doubling_with(GEN, &reference("println!(\"{}\", 2 * n);"));
    let doc = stress(&ws).expect_exit(1).run().json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    assert_eq!(doc["disagreement"]["seed"], 5);

    let cases: &[(&str, String, &str, &str)] = &[
        (
            "fn main() { let s: u64 = std::env::args().nth(1).unwrap().parse().unwrap(); if s == 3 { panic!(\"boom\") } println!(\"{s}\"); }\n",
            reference("println!(\"{}\", 2 * n);"),
            "generator",
            "the generator failed (RE",
        ),
        (
            "fn main() { loop { std::hint::black_box(0); } }\n",
            reference("println!(\"{}\", 2 * n);"),
            "generator",
            "the generator failed (TLE",
        ),
        (
            "fn main() {}\n",
            reference("println!(\"{}\", 2 * n);"),
            "generator",
            "printed nothing",
        ),
        (
            GEN,
            reference("if n == 2 { std::process::exit(3) } println!(\"{}\", 2 * n);"),
            "reference",
            "the reference failed (RE: exit code 3)",
        ),
        (
            GEN,
            reference("let mut x = n; loop { x = std::hint::black_box(x + 1); }"),
            "reference",
            "the reference failed (TLE",
        ),
        (
            // Not a function of the seed alone.
            "fn main() { let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos(); let s: u64 = std::env::args().nth(1).unwrap().parse().unwrap(); println!(\"{}\", if s < 5 { s as u128 } else { 5 + t % 1000000 }); }\n",
            reference("println!(\"{}\", 2 * n);"),
            "generator",
            "two different inputs",
        ),
        (
            GEN,
            reference("let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos(); if n < 5 { println!(\"{}\", 2 * n) } else { println!(\"{}\", t) }"),
            "reference",
            "two different answers",
        ),
        (
            "fn main() { let x: u32 = \"no\"; }\n",
            reference("println!(\"{}\", 2 * n);"),
            "generator",
            "does not compile",
        ),
    ];
    for (generator, reference, culprit, message) in cases {
        let ws = doubling_with(generator, reference);
        let doc = stress(&ws).expect_exit(2).run().json();
        assert_eq!(doc["verdict"], "IE", "{doc:#}");
        let ie = &doc["internal_error"];
        assert_eq!(ie["culprit"], *culprit, "{doc:#}");
        assert!(ie["message"].as_str().unwrap().contains(message), "{doc:#}");
        assert_eq!(doc["disagreement"], serde_json::Value::Null);
    }

    let ws = doubling_with(
        GEN,
        &reference("if n == 2 { panic!(\"the reference broke\") } println!(\"{}\", 2 * n);"),
    );
    ws.judge()
        .args(["stress", "attempt", "--against", "reference"])
        .expect_exit(2)
        .stdout_has(" IE  the reference failed (RE: exit code 101) on the generated input (seed 2)")
        .stdout_has("the reference broke")
        .stdout_has("the reference is at fault, not the attempt")
        .run();
}

#[test]
fn stress_needs_a_generator_and_one_problem() {
    let ws = Workspace::doubling("1s");
    ws.write(
        "solutions/double/a.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", 2 * n()); }}\n"),
    );
    ws.write(
        "solutions/double/b.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() + n()); }}\n"),
    );
    ws.judge()
        .args(["stress", "a", "--against", "b"])
        .expect_exit(2)
        .stderr_has("has no generator")
        .stderr_has("generator = \"gen.rs\"")
        .run();
    ws.judge()
        .args(["stress", "a", "--against", "nope"])
        .expect_exit(2)
        .stderr_has("unknown solution `nope`")
        .run();
}
