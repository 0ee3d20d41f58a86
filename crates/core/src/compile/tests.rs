//! What a build keeps in the cache when the compiler's messages go missing: nothing.

use std::path::Path;

use super::*;
use judge_runner::{Request, Response, RunError};

/// Answers every run with a failure whose `stderr_bytes` messages it never wrote: what the
/// judge sees when Ctrl-C removes the build folder while the compiler runs.
#[derive(Default)]
struct LostMessages {
    pending: Vec<Request>,
}

impl Executor for LostMessages {
    fn send(&mut self, request: Request) -> std::result::Result<(), RunError> {
        self.pending.push(request);
        Ok(())
    }

    fn receive(&mut self) -> std::result::Result<(Request, Response), RunError> {
        let request = self.pending.remove(0);
        let mut response = Response::not_started(String::new());
        response.outcome = Outcome::Exited(1);
        response.wall_us = 1000;
        response.stderr_bytes = 42;
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

#[test]
fn a_failure_whose_messages_are_gone_is_an_error_and_never_kept_as_a_ce() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("a.c");
    std::fs::write(&source, "int main(void) { return 0; }\n").unwrap();
    let cache = Cache::new(dir.path().join("cache"));
    let toolchain = c_toolchain(dir.path());
    let built = compile(
        &Source::alone(&source),
        &toolchain,
        &cache,
        &mut LostMessages::default(),
        dir.path(),
    );
    let Err(e) = built else {
        panic!("a failure said in messages that are gone is no CE: {built:?}")
    };
    assert!(e.to_string().contains(".compiler.stderr"), "{e}");
    let kept: Vec<_> = std::fs::read_dir(dir.path().join("cache/ce"))
        .unwrap()
        .collect();
    assert!(kept.is_empty(), "a CE was kept: {kept:?}");
}
