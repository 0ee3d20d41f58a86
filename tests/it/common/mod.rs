//! Shared by the integration tests: the harness (`harness/`: [`Test`], the one way to run the
//! judge or any program, with the fork-bomb lock and the shared compile cache), throw-away
//! workspaces, and fixture pieces. Submodules: `procs` (live processes, from /proc), `time`
//! (/usr/bin/time), `cached` (the program in a compile cache), `cgroup` (whether the runner gets
//! a pids cgroup), `sandbox` (whether it can sandbox), `problemtools` (its example packages,
//! downloaded once, their hash checked), `polygon` (a package's problem.xml), `serve` (a
//! `judge serve` to speak HTTP to), `nats` (a NATS server for the cluster's tests) and `parquet`
//! (Parquet files written from JSON rows). `time` and `cached` are compiled into the benches too,
//! `cgroup` and `sandbox` into build.rs: std only there (and the runner crate, a
//! build-dependency).

pub(crate) mod cached;
pub(crate) mod cgroup;
mod harness;
pub(crate) mod nats;
pub(crate) mod parquet;
pub(crate) mod polygon;
pub(crate) mod problemtools;
pub(crate) mod procs;
pub(crate) mod sandbox;
pub(crate) mod serve;
pub(crate) mod shipped;
pub(crate) mod time;

use std::path::{Path, PathBuf};
use std::time::Duration;

pub(crate) use harness::{Output, Running, Test};
pub(crate) use shipped::shipped;

/// The repository itself: its sources and fixtures. The tests judge the shipped workspace in
/// [`shipped()`], a copy of it, never this folder.
pub(crate) fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One compile cache for the whole test run, so a fixture is compiled once: every command's,
/// unless a test gives its own.
fn shared_cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("judge-test-cache")
}

pub(crate) fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// A copy of the judge in `root/bin`, which an ordinary user can reach (the build folder may
/// be under a home folder closed to others).
pub(crate) fn judge_copy(root: &Path) -> PathBuf {
    let judge = root.join("bin/judge");
    std::fs::create_dir_all(judge.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_judge"), &judge).unwrap();
    judge
}

/// `program` run in `root` as an ordinary user: as root, whom permissions do not bind, as
/// nobody, with `root` and all it holds given to nobody first; otherwise as it is. Its home is
/// `root`.
pub(crate) fn as_ordinary_user(root: &Path, program: &Path) -> Test {
    const NOBODY: u32 = 65534;
    // Its config folder is in its home too: nobody may not reach the test run's empty one.
    let test = Test::program(program)
        .current_dir(root)
        .env("HOME", root)
        .env("XDG_CONFIG_HOME", root.join(".config"));
    if !is_root() {
        return test;
    }
    // The walk includes `root` itself (a temp dir is 0700).
    for e in walkdir::WalkDir::new(root).into_iter().flatten() {
        std::os::unix::fs::chown(e.path(), Some(NOBODY), Some(NOBODY)).unwrap();
    }
    test.wrapped_in([
        "setpriv",
        "--reuid",
        "65534",
        "--regid",
        "65534",
        "--clear-groups",
    ])
}

/// The address a server prints on its first line (`... http://127.0.0.1:PORT/...`).
#[track_caller]
pub(crate) fn first_address(server: &mut Running) -> String {
    let first = server.line(Duration::from_secs(60));
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{first}");
    url
}

/// A workspace in a temp dir, built file by file.
pub(crate) struct Workspace {
    pub(crate) dir: tempfile::TempDir,
}

impl Workspace {
    pub(crate) fn new() -> Workspace {
        let dir = tempfile::Builder::new()
            .prefix("judge-ws-")
            .tempdir()
            .unwrap();
        std::fs::create_dir_all(dir.path().join("problems")).unwrap();
        Workspace { dir }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        p
    }

    /// A problem `id` whose single case is `input` -> `answer`.
    pub(crate) fn problem<N, I, A>(&self, id: &str, toml: &str, cases: &[(N, I, A)]) -> &Self
    where
        N: AsRef<str>,
        I: AsRef<str>,
        A: AsRef<str>,
    {
        self.write(&format!("problems/{id}/problem.toml"), toml);
        for (name, input, answer) in cases {
            let name = name.as_ref();
            self.write(&format!("testcases/{id}/{name}.in"), input.as_ref());
            self.write(&format!("testcases/{id}/{name}.out"), answer.as_ref());
        }
        self
    }

    /// The "double it" problem used by most fixtures: input 21, answer 42.
    pub(crate) fn doubling(time_limit: &str) -> Workspace {
        let ws = Workspace::new();
        ws.problem(
            "double",
            &format!("title = \"Double\"\ntime_limit = \"{time_limit}\"\nmemory_limit = \"64MiB\"\noutput_limit = \"1MiB\"\n"),
            &[("1", "21\n", "42\n")],
        );
        ws
    }

    /// The judge in this workspace.
    pub(crate) fn judge(&self) -> Test {
        Test::at(self.path())
    }
}

/// Each solution's verdict from `judge verify PROBLEM --skip-after-tle --json` run in `cwd`
/// (with what a run outside a workspace keeps under `cwd/.cache`), every solution expected to
/// match. Solutions are keyed as an import names them: `/` as `-`, without the extension
/// (`accepted/sum.py` is `accepted-sum`, `main.cpp` is `main`).
pub(crate) fn verified(cwd: &Path, problem: &str) -> std::collections::BTreeMap<String, String> {
    let doc = Test::outside(cwd)
        .args(["verify", problem, "--skip-after-tle", "--json"])
        .expect_exit(0)
        .run()
        .json();
    doc[0]["solutions"]
        .as_array()
        .unwrap_or_else(|| panic!("no solutions: {doc:#}"))
        .iter()
        .map(|s| {
            let name = s["solution"].as_str().unwrap().replace('/', "-");
            let stem = name
                .rsplit_once('.')
                .map_or(name.as_str(), |(stem, _)| stem);
            (stem.to_string(), s["verdict"].as_str().unwrap().to_string())
        })
        .collect()
}

/// Reads n from stdin (the fixtures' prelude).
pub(crate) const READ_N: &str = "use std::io::Read;\nfn n() -> u64 { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); s.trim().parse().unwrap() }\n";

/// The value of `// key: value` among the comment lines that open a corpus program.
pub(crate) fn header(text: &str, key: &str) -> Option<String> {
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| {
            l.strip_prefix(&format!("// {key}:"))
                .map(|v| v.trim().to_string())
        })
}

/// A fixed amount of CPU work: about `millions` x 1 ns on a current machine.
pub(crate) fn work(millions: u64) -> String {
    format!("fn work() {{ let mut x = 0u64; for i in 0..{millions}_000_000u64 {{ x = std::hint::black_box(x.wrapping_add(i)); }} std::hint::black_box(x); }}\n")
}

/// "Double it" with three cases and four solutions whose verdicts are known: `fast` (AC),
/// `steady` (AC, slower, no expected verdict), `wrong` (WA on case 2, but expected AC) and
/// `spin` (never ends, expected TLE).
pub(crate) fn compare_fixture() -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"300ms\"\nmemory_limit = \"64MiB\"\n\n[expected]\nfast = \"AC\"\nwrong = \"AC\"\nspin = \"TLE\"\n",
        &[("1", "21\n", "42\n"), ("2", "5\n", "10\n"), ("3", "100\n", "200\n")],
    );
    ws.write(
        "solutions/double/fast.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
    );
    ws.write(
        "solutions/double/steady.rs",
        format!(
            "{READ_N}{}fn main() {{ work(); println!(\"{{}}\", n() * 2); }}\n",
            work(40)
        ),
    );
    ws.write(
        "solutions/double/wrong.rs",
        format!("{READ_N}{}fn main() {{ work(); let n = n(); println!(\"{{}}\", if n == 5 {{ 11 }} else {{ n * 2 }}); }}\n", work(10)),
    );
    ws.write(
        "solutions/double/spin.rs",
        format!("{READ_N}fn main() {{ let mut x = n(); loop {{ x = std::hint::black_box(x.wrapping_mul(3)); }} }}\n"),
    );
    ws
}

/// Every file and link under `dir` with its bytes (a link: where it leads), in order: equal
/// before and after a command that must not change the folder.
pub(crate) fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let rel = path.strip_prefix(dir).unwrap().to_path_buf();
            if meta.is_symlink() {
                let to = std::fs::read_link(&path).unwrap();
                out.push((rel, to.into_os_string().into_encoded_bytes()));
            } else if meta.is_dir() {
                out.push((rel, Vec::new()));
                stack.push(path);
            } else {
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}
