//! Bringing problems in from where contestants keep them: each format reads what it finds into a
//! format-neutral [`Draft`], and one writer ([`write`]) turns drafts into workspace files.
//!
//! A new format is one module here with a [`Format`] (its name, how it recognises a path, how
//! it reads one) and one line in [`FORMATS`]; detection, naming, merging into an existing
//! problem and reporting are shared. The formats: Competitive Companion's JSON ([`companion`],
//! also what `judge listen` receives), cph's `.prob` files ([`cph`]), cargo-compete's test
//! suites ([`compete`]), online-judge-tools' test folders ([`oj`]), and problem packages,
//! Polygon's ([`polygon`]) and Kattis' ([`kattis`]), read as the judge reads them in place
//! ([`package`]). [`id`] makes a short, predictable id from a problem's URL or name.

mod cases;
pub mod companion;
mod compete;
mod cph;
pub mod id;
mod kattis;
mod newfiles;
mod oj;
mod package;
mod polygon;
mod write;

use std::path::Path;
use std::time::Duration;

use crate::error::{Error, Result};
use judge_core::check::{CheckerMode, CompareOptions, KattisFlags};
use judge_core::verdict::Expectation;
use judge_core::workspace::{CheckerProtocol, FileIo, InteractorProtocol, Workspace};
use judge_core::Error as CoreError;

pub use write::{write, Imported, LimitConflict, ATTEMPT};

/// A problem as a format found it, before it is a workspace's: what the writer needs, nothing
/// about where it came from but a name for messages.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// What it was read from, for messages: "Competitive Companion", "the cph file a.prob".
    pub origin: String,
    /// The id the source suggests (from its URL, else its name): `--name` overrides it.
    pub id: String,
    pub title: String,
    /// The problem's page, when the source says.
    pub url: Option<String>,
    /// The contest or group it belongs to, when the source says.
    pub contest: Option<String>,
    /// `None` when the source does not say: the writer assumes [`DEFAULT_TIME`].
    pub time: Option<Duration>,
    /// `None` when the source does not say: the writer assumes [`DEFAULT_MEMORY`].
    pub memory_bytes: Option<u64>,
    pub checker: DraftChecker,
    /// The program the solution talks with, when the problem is interactive (a package's):
    /// never dropped, or the problem would be judged as a plain one against answers that are
    /// the interactor's.
    pub interactor: Option<DraftInteractor>,
    pub io: FileIo,
    pub cases: Vec<DraftCase>,
    /// Sample conversations of an interactive problem (Kattis' `.interaction` files): shown and
    /// replayed, never judged.
    pub interactions: Vec<DraftInteraction>,
    /// Solutions the source ships, with the verdicts they must get (a problem package's).
    pub solutions: Vec<DraftSolution>,
    /// What could not be carried over, or was assumed: told to the user.
    pub notes: Vec<String>,
}

/// One test: its input and answer, by name when the source names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftCase {
    pub name: Option<String>,
    pub input: Vec<u8>,
    pub answer: Vec<u8>,
    /// A sample, as shown in a statement (what most sources give).
    pub sample: bool,
}

/// A sample interaction, named as its sample case is (`sample-1`), so that the two stay
/// together in `testcases/ID/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftInteraction {
    pub name: String,
    pub text: Vec<u8>,
}

/// A source file for `problems/ID/`, with the headers it includes (a package's `testlib.h`)
/// written beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftProgram {
    /// Its file name: `check.cpp`.
    pub file: String,
    pub source: String,
    pub headers: Vec<(String, Vec<u8>)>,
}

/// An interactive problem's interactor, run by its protocol under its own limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftInteractor {
    pub program: DraftProgram,
    pub protocol: InteractorProtocol,
    pub time: Duration,
    pub memory_bytes: u64,
}

/// A solution of the source: written into `solutions/ID/` with its expected verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct DraftSolution {
    /// Its file name: `main.cpp`.
    pub file: String,
    pub source: Vec<u8>,
    pub expected: Option<Expectation>,
}

/// How outputs are judged: a built-in mode, or a checker program the import writes.
#[derive(Debug, Clone, PartialEq)]
pub enum DraftChecker {
    Builtin {
        mode: CheckerMode,
        options: CompareOptions,
    },
    /// The Kattis format's default output validator, with its flags.
    Kattis(KattisFlags),
    /// A program of the problem's, run by its protocol (testlib's `checker INPUT OUTPUT
    /// ANSWER`, or a Kattis output validator's).
    Program {
        program: DraftProgram,
        protocol: CheckerProtocol,
    },
}

impl Default for DraftChecker {
    fn default() -> DraftChecker {
        DraftChecker::Builtin {
            mode: CheckerMode::Tokens,
            options: CompareOptions::default(),
        }
    }
}

impl Draft {
    /// The files of the problem's programs for `problems/ID/`, the checker's and the
    /// interactor's, each once: both may include the same `testlib.h`. Two different files
    /// under one name cannot both be written there.
    pub fn program_files(&self) -> std::result::Result<Vec<(&str, &[u8])>, Unfit> {
        let programs = [
            match &self.checker {
                DraftChecker::Program { program, .. } => Some(program),
                _ => None,
            },
            self.interactor.as_ref().map(|i| &i.program),
        ];
        let mut files: Vec<(&str, &[u8])> = Vec::new();
        for program in programs.into_iter().flatten() {
            let own = std::iter::once((program.file.as_str(), program.source.as_bytes())).chain(
                program
                    .headers
                    .iter()
                    .map(|(name, bytes)| (name.as_str(), bytes.as_slice())),
            );
            for (name, bytes) in own {
                match files.iter().find(|(n, _)| *n == name) {
                    Some((_, there)) if *there == bytes => {}
                    Some(_) => return Err(Unfit::TwoFiles(name.to_string())),
                    None => files.push((name, bytes)),
                }
            }
        }
        Ok(files)
    }
}

/// The time limit of a problem whose source names none (as most judges' default).
pub const DEFAULT_TIME: Duration = Duration::from_secs(2);
/// The memory limit of a problem whose source names none.
pub const DEFAULT_MEMORY: u64 = 256 << 20;

/// A kind of file or folder that problems can be imported from.
pub trait Format: Sync {
    /// What the user calls it: "an online-judge-tools test folder".
    fn name(&self) -> &'static str;
    /// Whether `path` is in this format: a cheap look at its name and first bytes, never an
    /// error (reading it properly is [`Format::read`]'s).
    fn detect(&self, path: &Path) -> bool;
    /// Every problem `path` holds.
    fn read(&self, path: &Path) -> Result<Vec<Draft>>;
}

/// Every format `judge import` knows, the most particular first: the first that recognises a
/// path reads it.
pub const FORMATS: &[&dyn Format] = &[
    &polygon::PolygonPackage,
    &kattis::KattisPackage,
    &companion::SavedJson,
    &cph::ProbFile,
    &compete::TestSuite,
    &oj::TestFolder,
];

/// What `judge import` and `judge listen` may do besides adding what is new.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The problem's id, instead of the one the source suggests.
    pub name: Option<String>,
    /// Replace limits, checker and files that differ from the existing problem's.
    pub force: bool,
    /// Start an attempt from the template, in this language (`Some(None)`: the default one).
    pub new_attempt: Option<Option<String>>,
}

/// The format of `path`, or an error naming the formats there are.
pub fn detect(path: &Path) -> Result<&'static dyn Format> {
    if !path.exists() {
        return Err(Error::Import {
            path: path.display().to_string(),
            message: "there is no such file or folder".into(),
            fix:
                "give the path to a test folder, a .prob, .yml or .json file, or a Polygon package"
                    .into(),
        });
    }
    FORMATS
        .iter()
        .copied()
        .find(|f| f.detect(path))
        .ok_or_else(|| Error::Import {
            path: path.display().to_string(),
            message: "not a format judge import knows".into(),
            fix: format!(
                "give one of: {}",
                FORMATS
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        })
}

/// Reads `path` in the format it is in and writes every problem it holds into the workspace.
/// Every problem is read and checked before the first is written.
pub fn import(ws: &Workspace, path: &Path, options: &Options) -> Result<Vec<Imported>> {
    let format = detect(path)?;
    let drafts = format.read(path)?;
    if drafts.is_empty() {
        return Err(Error::Import {
            path: path.display().to_string(),
            message: format!("{} with no problem in it", format.name()),
            fix: "give a file or folder that holds a problem's tests".into(),
        });
    }
    if options.name.is_some() && drafts.len() > 1 {
        return Err(Error::Import {
            path: path.display().to_string(),
            message: format!("it holds {} problems, and --name names one", drafts.len()),
            fix: "drop --name: each problem gets the id its URL or name gives".into(),
        });
    }
    for draft in &drafts {
        check(draft).map_err(|unfit| Error::Import {
            path: path.display().to_string(),
            message: unfit.to_string(),
            fix: "correct the file, or import another one".into(),
        })?;
    }
    drafts
        .iter()
        .map(|draft| write(ws, draft, options))
        .collect()
}

/// What every draft must be, whatever its format: limits that are limits, and programs that
/// problem.toml can hold together in one folder. (A problem without tests is one: its tests
/// can be added by hand.)
pub fn check(draft: &Draft) -> std::result::Result<(), Unfit> {
    if let Some(t) = draft
        .time
        .filter(|t| t.is_zero() || *t > Duration::from_secs(3600))
    {
        return Err(Unfit::TimeLimit(t));
    }
    if let Some(m) = draft
        .memory_bytes
        .filter(|m| !(1 << 20..=1 << 40).contains(m))
    {
        return Err(Unfit::MemoryLimit(m));
    }
    if let Some(interactor) = &draft.interactor {
        // What problem.toml can say beside an interactor (see `workspace::programs`): the
        // interactor alone, or a testlib one followed by a testlib checker program.
        let alone = draft.checker == DraftChecker::default();
        let testlib_checker = matches!(
            (&draft.checker, &interactor.protocol),
            (
                DraftChecker::Program {
                    protocol: CheckerProtocol::Testlib,
                    ..
                },
                InteractorProtocol::Testlib
            )
        );
        if !alone && !testlib_checker {
            return Err(Unfit::CheckerBesideInteractor(interactor.protocol.clone()));
        }
    }
    draft.program_files().map(|_| ())
}

/// Why a draft cannot be a problem of the workspace, whatever its format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unfit {
    #[error("a time limit of {} ms is not one (more than zero, at most an hour)", .0.as_millis())]
    TimeLimit(Duration),
    #[error("a memory limit of {0} bytes is not one (1 MiB to 1 TiB)")]
    MemoryLimit(u64),
    #[error(
        "an interactor ({0} protocol) with a checker that compares outputs: the interactor decides"
    )]
    CheckerBesideInteractor(InteractorProtocol),
    /// The checker's and the interactor's files of this name differ.
    #[error("the checker and the interactor each come with a file `{0}`, and the two differ: one folder cannot hold both")]
    TwoFiles(String),
}

/// Reads a file a format names, with an error that says which.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| CoreError::read(path, e).into())
}

/// Reads a text file a format names: UTF-8, or an error that says so.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    String::from_utf8(read_file(path)?).map_err(|_| Error::Import {
        path: path.display().to_string(),
        message: "not UTF-8 text".into(),
        fix: "give the file as its tool saved it".into(),
    })
}

/// The first bytes of a file, for [`Format::detect`].
pub(crate) fn head(path: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut buf = vec![0; 512];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut buf))
        .unwrap_or(0);
    buf.truncate(n);
    buf
}

/// Whether `path`'s extension is one of `extensions` (ASCII case ignored).
pub(crate) fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
}
