//! The workspace's own files: `problems/ID/problem.toml`, `judge.toml`, and a sample
//! interaction (`testcases/ID/NAME.interaction`).

use std::path::Path;

use proptest::prelude::*;

use crate::harness::{config, kept, mutants, names_a_line, names_file_and_fix, scratch, watch};
use judge_core::workspace::Workspace;

const TOML: &[&str] = &[
    "=",
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    ",",
    "#",
    "\"\"\"",
    "'''",
    "time_limit = ",
    "memory_limit = ",
    "checker = ",
    "samples = ",
    "[expected]",
    "[language.x]",
    "\"1s\"",
    "\"0s\"",
    "\"1e400s\"",
    "\"-1MiB\"",
    "\"99999999999TiB\"",
    "true",
    "1979-05-27",
    "inf",
    "nan",
];

/// Every problem.toml the repository ships, and a template's.
fn problem_tomls() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(root.join("problems"))
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("problem.toml")).ok())
        .collect();
    for extra in [
        "crates/core/templates/problem/problem.toml",
        "crates/core/templates/example/problem.toml",
    ] {
        seeds.push(std::fs::read(root.join(extra)).unwrap());
    }
    seeds.push(b"title = \"Guess\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\ninteractor = \"interactor.rs\"\ninteractor_protocol = \"kattis\"\nsamples = [\"1\"]\n[expected]\nmain = \"AC\"\n".to_vec());
    seeds
}

/// A workspace with problem `p` (one case) whose problem.toml is `text`.
fn workspace(text: &[u8]) -> (tempfile::TempDir, Workspace) {
    let dir = scratch();
    let p = dir.path().join("problems/p");
    std::fs::create_dir_all(&p).unwrap();
    std::fs::write(p.join("problem.toml"), text).unwrap();
    std::fs::write(p.join("check.rs"), "fn main() {}\n").unwrap();
    std::fs::write(p.join("interactor.rs"), "fn main() {}\n").unwrap();
    let t = dir.path().join("testcases/p");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(t.join("1.in"), "1\n").unwrap();
    std::fs::write(t.join("1.out"), "2\n").unwrap();
    let ws = Workspace::at(dir.path()).unwrap();
    (dir, ws)
}

/// Whether TOML itself (not the judge's reading of it) refuses `text`: then the line is known.
fn bad_toml(text: &[u8]) -> bool {
    std::str::from_utf8(text).map_or(true, |t| t.parse::<toml::Table>().is_err())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn problem_toml(input in mutants(problem_tomls(), TOML)) {
        let (_dir, ws) = workspace(&input);
        let _watched = watch("problem.toml", &kept("problem-toml"), &input);
        if let Err(e) = ws.problem("p").and_then(|p| ws.testcases(&p).map(|_| p)) {
            let message = e.to_string();
            names_file_and_fix(&message, "problem.toml");
            if bad_toml(&input) && std::str::from_utf8(&input).is_ok() {
                names_a_line(&message);
            }
        }
    }

    #[test]
    fn judge_toml(input in mutants(judge_tomls(), TOML)) {
        let dir = scratch();
        std::fs::create_dir_all(dir.path().join("problems")).unwrap();
        std::fs::write(dir.path().join("judge.toml"), &input).unwrap();
        let _watched = watch("judge.toml", &kept("judge-toml"), &input);
        if let Err(e) = Workspace::at(dir.path()) {
            let message = e.to_string();
            names_file_and_fix(&message, "judge.toml");
            if bad_toml(&input) && std::str::from_utf8(&input).is_ok() {
                names_a_line(&message);
            }
        }
    }

    #[test]
    fn sample_interaction(input in mutants(interactions(), INTERACTION)) {
        let (dir, ws) = workspace(b"title = \"Guess\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\ninteractor = \"interactor.rs\"\ninteractor_protocol = \"kattis\"\n");
        std::fs::write(dir.path().join("testcases/p/1.interaction"), &input).unwrap();
        let _watched = watch(".interaction", &kept("interaction"), &input);
        let problem = ws.problem("p").unwrap();
        if let Err(e) = ws.replay_cases(&problem) {
            let message = e.to_string();
            names_file_and_fix(&message, "1.interaction");
            if std::str::from_utf8(&input).is_ok() && !input.is_empty() {
                names_a_line(&message);
            }
        }
    }
}

/// judge.toml as the guide shows it.
fn judge_tomls() -> Vec<Vec<u8>> {
    vec![
        b"[language.cpp]\ncompile = \"g++ -std=c++20 -O2 -o {binary} {source}\"\n".to_vec(),
        b"[language.doubler]\nname = \"Doubler\"\nextensions = [\"dbl\"]\ncompile = [\"cp\", \"{source}\", \"{dir}/prog.sh\"]\nrun = \"bash {dir}/prog.sh\"\nversion = \"cp --version\"\n\n[language.ghost]\nextensions = [\"gh\"]\nrun = \"ghost {source}\"\ninstall = \"the ghost project\"\n".to_vec(),
        b"[language.rust]\nedition = \"2021\"\ntoolchain = \"stable\"\n\n[language.python]\nrun = \"pypy3 {source}\"\ntime_multiplier = 2.0\n".to_vec(),
    ]
}

const INTERACTION: &[&str] = &["<", ">", "< ", "> ", "<\n", ">\n", "?", "1 2 3"];

fn interactions() -> Vec<Vec<u8>> {
    vec![
        b">1\n<higher\n>5\n<correct\n".to_vec(),
        b"<4\n>? 1 2\n<1\n>! 2\n".to_vec(),
    ]
}
