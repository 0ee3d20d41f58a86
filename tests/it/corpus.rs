//! The corpus of misbehaving programs (tests/corpus/): each must get the verdict in its header, and
//! afterwards no process it started may be alive and the workspace must be unchanged.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{self, header, procs, Test, Workspace};

struct Program {
    path: PathBuf,
    expect: Vec<String>,
    expect_exact: Option<Vec<String>>,
    memory_limit: Option<String>,
}

fn verdicts(s: &str) -> Vec<String> {
    s.split(" or ").map(|v| v.trim().to_string()).collect()
}

fn corpus() -> Vec<Program> {
    let dir = common::repo().join("tests/corpus");
    let mut out: Vec<Program> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let expect = header(&text, "expect")
                .unwrap_or_else(|| panic!("{} has no `// expect:` line", path.display()));
            Program {
                expect: verdicts(&expect),
                expect_exact: header(&text, "expect-exact").map(|v| verdicts(&v)),
                memory_limit: header(&text, "memory-limit"),
                path,
            }
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(out.len() >= 30, "the corpus is incomplete: {}", out.len());
    out
}

/// Every file below `dir` with its content.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_path_buf(), std::fs::read(e.path()).unwrap()))
        .collect()
}

/// `judge run PROGRAM --json` against `double`, or `double-exact` when `exact`, with the
/// program's memory limit.
fn judge(ws: &Workspace, cache: &Path, program: &Program, exact: bool) -> Test {
    let memory_limit = program
        .memory_limit
        .iter()
        .flat_map(|m| ["--memory-limit", m.as_str()]);
    ws.judge()
        .cache(cache)
        .args(["run", program.path.to_str().unwrap(), "--problem"])
        .arg(if exact { "double-exact" } else { "double" })
        .arg("--json")
        .args(memory_limit)
}

#[test]
fn every_misbehaving_program_gets_its_verdict_and_leaves_nothing_behind() {
    let ws = Workspace::new();
    let toml = |checker: &str| {
        format!("title = \"Double\"\ntime_limit = \"500ms\"\nmemory_limit = \"64MiB\"\noutput_limit = \"1MiB\"\nchecker = \"{checker}\"\n")
    };
    ws.problem("double", &toml("tokens"), &[("1", "21\n", "42\n")]);
    ws.problem("double-exact", &toml("exact"), &[("1", "21\n", "42\n")]);
    // The judge's own state (.judge/) may change; the problem data may not.
    let data = [ws.path().join("problems"), ws.path().join("testcases")];
    let before: Vec<_> = data.iter().map(|d| snapshot(d)).collect();
    let cache = tempfile::tempdir().unwrap();
    let programs = corpus();

    // Two at a time: the limits are CPU time, which parallel runs do not inflate.
    let failures: Vec<String> = std::thread::scope(|s| {
        let chunks: Vec<&[Program]> = programs.chunks(programs.len().div_ceil(2)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let (ws, cache) = (&ws, cache.path());
                s.spawn(move || {
                    let mut failures = Vec::new();
                    for p in chunk {
                        let name = p.path.file_name().unwrap().to_string_lossy().to_string();
                        let checks = [(false, Some(&p.expect)), (true, p.expect_exact.as_ref())];
                        for (exact, expect) in checks {
                            let Some(expect) = expect else { continue };
                            let code = if expect.iter().all(|v| v == "AC") {
                                0
                            } else {
                                1
                            };
                            let doc = judge(ws, cache, p, exact).expect_exit(code).run().json();
                            let got = doc["verdict"].as_str().unwrap().to_string();
                            if !expect.contains(&got) {
                                failures.push(format!(
                                    "{name}{}: expected {}, got {got}: {}",
                                    if exact { " (exact)" } else { "" },
                                    expect.join(" or "),
                                    doc["cases"][0]
                                ));
                            }
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Processes whose executable lies in the compile cache of this test alone.
    let survivors = procs::running_from(cache.path());
    assert!(
        survivors.is_empty(),
        "processes survived the judge: {survivors:?}"
    );
    let after: Vec<_> = data.iter().map(|d| snapshot(d)).collect();
    assert_eq!(before, after, "the problem data changed");
    let junk: Vec<_> = walkdir::WalkDir::new(ws.path())
        .into_iter()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("junk"))
        .map(|e| e.path().to_path_buf())
        .collect();
    assert!(
        junk.is_empty(),
        "files a program wrote were left in the workspace: {junk:?}"
    );
}
