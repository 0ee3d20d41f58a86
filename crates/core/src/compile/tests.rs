//! The cache's rules, with real compilers in a cache of the test's own: what hits, what
//! misses, and what a build keeps when the build folder is changed under the compiler (an
//! interrupt's clean-up, a `judge clean` meanwhile): nothing.

use std::path::Path;

use super::*;
use judge_runner::{Outcome, Request, Response, RunError};

mod rules;

/// Answers every run with the exit code `code` and `stderr_bytes` of messages, writing neither
/// them nor a program: what the judge sees when the build folder is removed while the
/// compiler runs.
struct FolderGone {
    code: i32,
    stderr_bytes: u64,
    pending: Vec<Request>,
}

impl FolderGone {
    fn new(code: i32, stderr_bytes: u64) -> FolderGone {
        FolderGone {
            code,
            stderr_bytes,
            pending: Vec::new(),
        }
    }
}

impl Executor for FolderGone {
    fn send(&mut self, request: Request) -> std::result::Result<(), RunError> {
        self.pending.push(request);
        Ok(())
    }

    fn receive(&mut self) -> std::result::Result<(Request, Response), RunError> {
        let request = self.pending.remove(0);
        let mut response = Response::not_started(String::new());
        response.outcome = Outcome::Exited(self.code);
        response.wall_us = 1000;
        response.stderr_bytes = self.stderr_bytes;
        Ok((request, response))
    }

    fn pending(&self) -> &[Request] {
        &self.pending
    }
}

fn c_toolchain(root: &Path) -> Toolchain {
    let c = crate::lang::builtin::languages()
        .into_iter()
        .find(|l| l.id == "c")
        .expect("C is a built-in language");
    let tools = Toolchains::new(root, root.join("identity"));
    let settings = BuildSettings {
        time_limit: Duration::from_secs(10),
        ..BuildSettings::default()
    };
    Toolchain::find(Arc::new(c), &tools, settings).expect("gcc is installed")
}

/// Builds a C source with `executor`: the error, and the compile errors kept.
fn build_with(
    executor: &mut dyn Executor,
) -> (Result<std::result::Result<Built, CompileError>>, usize) {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("a.c");
    std::fs::write(&source, "int main(void) { return 0; }\n").unwrap();
    let cache = Cache::new(dir.path().join("cache"));
    let toolchain = c_toolchain(dir.path());
    let built = compile(
        &Source::alone(&source),
        &toolchain,
        &cache,
        executor,
        dir.path(),
    );
    let kept = std::fs::read_dir(dir.path().join("cache/ce")).map_or(0, |d| d.count());
    (built, kept)
}

#[test]
fn a_failure_whose_messages_are_gone_is_an_error_and_never_kept_as_a_ce() {
    let (built, kept) = build_with(&mut FolderGone::new(1, 42));
    let Err(e) = built else {
        panic!("a failure said in messages that are gone is no CE: {built:?}")
    };
    assert!(e.to_string().contains(".compiler.stderr"), "{e}");
    assert_eq!(kept, 0, "a CE was kept");
}

#[test]
fn a_success_that_left_no_program_is_an_error_and_never_kept_as_a_ce() {
    let (built, kept) = build_with(&mut FolderGone::new(0, 0));
    let Err(e) = built else {
        panic!("a build that made nothing is no CE: {built:?}")
    };
    assert!(e.to_string().contains("left no program"), "{e}");
    assert_eq!(kept, 0, "a CE was kept");
}
