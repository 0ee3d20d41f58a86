//! Test fixtures: a case's report, a solution's report and a problem with every field at a plain
//! value, for the tests of this crate and of the crates above it (feature `fixtures`). A test
//! changes the few fields it is about. The scripted executor, which plays runs instead of
//! starting programs, is in `scripted`.

pub mod scripted;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::model::{CaseReport, CompileReport, SolutionReport};
use crate::verdict::{Limits, MemoryRule, Verdict};
use crate::workspace::{Problem, ProblemLimits};

/// A case that took `ms` of CPU and wall time, 2 MiB and 2 bytes of output.
pub fn case(name: &str, verdict: Verdict, ms: u64) -> CaseReport {
    CaseReport {
        cpu: Duration::from_millis(ms),
        wall: Duration::from_millis(ms),
        memory_bytes: 2 << 20,
        output_bytes: 2,
        ..CaseReport::unrun(name, false, verdict, None)
    }
}

/// Rust solution `solution` of problem `p` judged on `cases` (1 s, 256 MiB, 64 MiB; the binary
/// from the cache), concluded: its verdict and passed count follow from the cases.
pub fn report(solution: &str, cases: Vec<CaseReport>) -> SolutionReport {
    let mut r = SolutionReport {
        problem: "p".into(),
        solution: solution.into(),
        path: PathBuf::from(format!("solutions/p/{solution}.rs")),
        language: "rust".into(),
        language_name: "Rust".into(),
        verdict: Verdict::Ce,
        expected: None,
        compile: CompileReport {
            cached: true,
            duration: Duration::ZERO,
            compiler: "rustc".into(),
            diagnostics: None,
            source: None,
        },
        sandbox: Default::default(),
        limits: Limits::new(Duration::from_secs(1), 256 << 20, 64 << 20),
        time_rule: None,
        passed: 0,
        total: cases.len(),
        jobs: 1,
        parallel: false,
        cases,
        groups: None,
        scoring: false,
        replay: false,
        partial: None,
        workers: Vec::new(),
        key: None,
        not_timed: Vec::new(),
        graded_at: Vec::new(),
    };
    r.conclude(None);
    r
}

/// Problem `id` in `dir`: 1 s, 256 MiB, 1 MiB of output, tokens compared, nothing else.
pub fn problem(id: &str, dir: &Path) -> Problem {
    let limits = ProblemLimits {
        time: Duration::from_secs(1),
        memory_bytes: 256 << 20,
        output_bytes: 1 << 20,
        memory_rule: MemoryRule::Resident,
    };
    Problem {
        title: id.to_uppercase(),
        ..Problem::bare(id, dir, limits)
    }
}
