//! Shared by the integration tests: the judge binary, throw-away workspaces, and a compile cache shared across tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The repository itself: the shipped workspace.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One compile cache for the whole test run, so a fixture is compiled once.
pub fn shared_cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("judge-test-cache")
}

/// `judge` with a clean, predictable environment.
pub fn judge(root: &Path) -> Command {
    let mut cmd = Command::cargo_bin("judge").expect("the judge binary is built");
    cmd.current_dir(root)
        .env("NO_COLOR", "1")
        .env("JUDGE_CACHE_DIR", shared_cache());
    cmd
}

/// A workspace in a temp dir, built file by file.
pub struct Workspace {
    pub dir: tempfile::TempDir,
}

impl Workspace {
    pub fn new() -> Workspace {
        let dir = tempfile::Builder::new()
            .prefix("judge-ws-")
            .tempdir()
            .unwrap();
        std::fs::create_dir_all(dir.path().join("problems")).unwrap();
        Workspace { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        p
    }

    /// A problem `id` whose single case is `input` -> `answer`.
    pub fn problem(&self, id: &str, toml: &str, cases: &[(&str, &str, &str)]) -> &Self {
        self.write(&format!("problems/{id}/problem.toml"), toml);
        for (name, input, answer) in cases {
            self.write(&format!("testcases/{id}/{name}.in"), input);
            self.write(&format!("testcases/{id}/{name}.out"), answer);
        }
        self
    }

    /// The "double it" problem used by most fixtures: input 21, answer 42.
    pub fn doubling(time_limit: &str) -> Workspace {
        let ws = Workspace::new();
        ws.problem(
            "double",
            &format!("title = \"Double\"\ntime_limit = \"{time_limit}\"\nmemory_limit = \"64MiB\"\noutput_limit = \"1MiB\"\n"),
            &[("1", "21\n", "42\n")],
        );
        ws
    }

    pub fn judge(&self) -> Command {
        judge(self.path())
    }

    /// `judge ARGS... --json`: the document and the exit code.
    pub fn run_json(&self, args: &[&str]) -> (serde_json::Value, Option<i32>) {
        let out = self.judge().args(args).arg("--json").output().unwrap();
        (json(&out.stdout), out.status.code())
    }
}

/// Parses `judge run --json` output.
pub fn json(out: &[u8]) -> serde_json::Value {
    serde_json::from_slice(out)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(out)))
}
