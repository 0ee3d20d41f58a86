//! What every parser's fuzz test shares: inputs made by mutating good files (bytes flipped,
//! inserted, deleted, repeated, cut; the format's own tokens dropped in) or made of random
//! bytes; how many (`JUDGE_FUZZ_CASES`); a watchdog that ends the whole run, naming the input,
//! when one input takes longer than [`HANG`]; a cap on the memory of the whole process, so an
//! unbounded allocation fails the run instead of the machine; and the checks of an error's
//! message.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Inputs per parser when `JUDGE_FUZZ_CASES` does not say: a round short enough for every
/// change.
const DEFAULT_CASES: u32 = 256;
/// One input parsed for longer than this is a hang.
pub(crate) const HANG: Duration = Duration::from_secs(20);
/// The address space of the whole test process: far above what parsing a few kilobytes needs,
/// far below what would hurt the machine.
const MEMORY_CAP: u64 = 4 << 30;

/// The inputs' seed when `JUDGE_FUZZ_SEED` does not give one: every round on every change
/// tries the same inputs, so a failure is the change's.
const DEFAULT_SEED: u64 = 0x006a_7564_6765;

/// proptest's settings: `JUDGE_FUZZ_CASES` inputs (256 by default) from the seed
/// `JUDGE_FUZZ_SEED` (a number, or `random`); the watchdog and the memory cap set up.
pub(crate) fn config() -> Config {
    setup();
    let var = |name: &str| std::env::var(name).ok();
    let cases = var("JUDGE_FUZZ_CASES")
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    let rng_seed = match var("JUDGE_FUZZ_SEED").as_deref() {
        Some("random") => RngSeed::Random,
        Some(n) => RngSeed::Fixed(n.parse().expect("JUDGE_FUZZ_SEED is a number or `random`")),
        None => RngSeed::Fixed(DEFAULT_SEED),
    };
    Config {
        cases,
        rng_seed,
        // A failure found once is kept in tests/proptest-regressions/ (proptest's default: beside
        // the folder holding main.rs, here tests/fuzz/) and tried first.
        max_shrink_iters: 2048,
        ..Config::default()
    }
}

/// One edit of a good file.
#[derive(Debug, Clone)]
enum Edit {
    /// At a place given as a fraction of the length (0..=u16::MAX).
    Flip(u16, u8),
    Set(u16, u8),
    Insert(u16, Vec<u8>),
    /// One of the format's tokens.
    Token(u16, usize),
    Delete(u16, u16),
    /// A slice of the input, repeated: nesting, long lines, many keys.
    Repeat(u16, u16, u8),
    Truncate(u16),
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<u16>();
    prop_oneof![
        (at, any::<u8>()).prop_map(|(p, b)| Edit::Flip(p, b)),
        (at, any::<u8>()).prop_map(|(p, b)| Edit::Set(p, b)),
        (at, proptest::collection::vec(any::<u8>(), 1..8)).prop_map(|(p, b)| Edit::Insert(p, b)),
        (at, any::<usize>()).prop_map(|(p, t)| Edit::Token(p, t)),
        (at, 1..64u16).prop_map(|(p, n)| Edit::Delete(p, n)),
        (at, 1..256u16, 2..32u8).prop_map(|(p, n, k)| Edit::Repeat(p, n, k)),
        at.prop_map(Edit::Truncate),
    ]
}

/// Where a fraction `at` of `len` falls.
fn place(at: u16, len: usize) -> usize {
    (len * at as usize) / (u16::MAX as usize + 1)
}

fn apply(mut bytes: Vec<u8>, edits: &[Edit], tokens: &[&str]) -> Vec<u8> {
    for e in edits {
        let len = bytes.len();
        match e {
            Edit::Flip(at, bit) if len > 0 => bytes[place(*at, len)] ^= 1 << (bit % 8),
            Edit::Set(at, b) if len > 0 => bytes[place(*at, len)] = *b,
            Edit::Insert(at, new) => {
                let p = place(*at, len + 1);
                bytes.splice(p..p, new.iter().copied());
            }
            Edit::Token(at, t) if !tokens.is_empty() => {
                let p = place(*at, len + 1);
                bytes.splice(p..p, tokens[t % tokens.len()].bytes());
            }
            Edit::Delete(at, n) => {
                let p = place(*at, len);
                let end = (p + *n as usize).min(len);
                bytes.drain(p..end);
            }
            Edit::Repeat(at, n, k) => {
                let p = place(*at, len);
                let end = (p + *n as usize).min(len);
                let slice = bytes[p..end].to_vec();
                for _ in 1..*k {
                    bytes.splice(end..end, slice.iter().copied());
                }
            }
            Edit::Truncate(at) => bytes.truncate(place(*at, len + 1)),
            _ => {}
        }
    }
    bytes
}

/// Tokens every format gets besides its own: what breaks parsers of numbers, strings, paths and
/// text.
const COMMON: &[&str] = &[
    "\0",
    "\u{feff}",
    "\r\n",
    "\n\n",
    "\t",
    "\"",
    "'",
    "\\",
    "-1",
    "0",
    "1e309",
    "-0",
    "NaN",
    "inf",
    "18446744073709551616",
    "99999999999999999999999",
    "0x10",
    "../",
    "/",
    "..",
    "é",
    "\u{202e}",
    "\u{fffd}",
];

/// Inputs made from the good files `seeds`: mostly a seed with up to eight edits (the format's
/// `tokens` among what is dropped in), sometimes random bytes.
pub(crate) fn mutants(
    seeds: Vec<Vec<u8>>,
    tokens: &'static [&'static str],
) -> impl Strategy<Value = Vec<u8>> {
    let all: Vec<&'static str> = tokens.iter().chain(COMMON).copied().collect();
    let n = seeds.len();
    prop_oneof![
        9 => (0..n, proptest::collection::vec(edit(), 0..8))
            .prop_map(move |(s, edits)| apply(seeds[s].clone(), &edits, &all)),
        1 => proptest::collection::vec(any::<u8>(), 0..512),
    ]
}

/// Inputs being parsed, by thread: when each started, what it is, where it is kept.
type Running = HashMap<ThreadId, (Instant, String, PathBuf)>;

fn running() -> &'static Mutex<Running> {
    static RUNNING: OnceLock<Mutex<Running>> = OnceLock::new();
    RUNNING.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The memory cap, and the watchdog: a thread that ends the process, naming the input, when
/// one input has been parsed for longer than [`HANG`].
fn setup() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let cap = rustix::process::Rlimit {
            current: Some(MEMORY_CAP),
            maximum: Some(MEMORY_CAP),
        };
        rustix::process::setrlimit(rustix::process::Resource::As, cap)
            .expect("the address space can be capped");
        std::thread::spawn(|| loop {
            std::thread::sleep(Duration::from_millis(200));
            let hung = running()
                .lock()
                .unwrap()
                .values()
                .find(|(started, _, _)| started.elapsed() > HANG)
                .cloned();
            if let Some((_, what, kept)) = hung {
                eprintln!(
                    "{what} was parsed for more than {HANG:?}: a hang; the input is kept in {}",
                    kept.display()
                );
                std::process::abort();
            }
        });
    });
}

/// Marks an input being parsed on this thread until dropped: the watchdog's to see.
pub(crate) struct Watched;

impl Drop for Watched {
    fn drop(&mut self) {
        running()
            .lock()
            .unwrap()
            .remove(&std::thread::current().id());
    }
}

/// Watches the parsing of `input` (`what`: the parser), kept in `kept` should it hang.
pub(crate) fn watch(what: &str, kept: &Path, input: &[u8]) -> Watched {
    let _ = std::fs::write(kept, input);
    running().lock().unwrap().insert(
        std::thread::current().id(),
        (Instant::now(), what.to_string(), kept.to_path_buf()),
    );
    Watched
}

/// A folder for one input's files: in memory (`/dev/shm`) when there is one, as most cases
/// write a few small files.
pub(crate) fn scratch() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    let builder = || {
        let mut b = tempfile::Builder::new();
        b.prefix("judge-fuzz-");
        b
    };
    if shm.is_dir() {
        if let Ok(dir) = builder().tempdir_in(shm) {
            return dir;
        }
    }
    builder().tempdir().unwrap()
}

/// Where a hanging input is kept for a look: the build's temporary folder.
pub(crate) fn kept(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{name}.input"))
}

/// An error's message says which file (by `file`, the end of its path), and what to do
/// (`fix:`).
#[track_caller]
pub(crate) fn names_file_and_fix(message: &str, file: &str) {
    assert!(
        message.contains(file),
        "the error does not name {file}: {message}"
    );
    assert!(message.contains("fix:"), "the error says no fix: {message}");
}

/// An error's message names a line (`:N`, `line N`), as the parser said there was one.
#[track_caller]
pub(crate) fn names_a_line(message: &str) {
    let named = message
        .match_indices("line ")
        .any(|(i, m)| message[i + m.len()..].starts_with(|c: char| c.is_ascii_digit()))
        || message.match_indices(':').any(|(i, _)| {
            let rest = &message[i + 1..];
            rest.starts_with(|c: char| c.is_ascii_digit())
        });
    assert!(named, "the error names no line: {message}");
}
