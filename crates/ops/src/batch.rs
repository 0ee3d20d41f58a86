//! Judging a batch: many submissions from a JSON Lines file (their format in the core's
//! `batch`), each written where the workspace keeps a batch's sources, judged, recorded, and
//! its result added to the results file at once, so that a batch run again judges only the
//! lines that have no result yet. A line of its own failing (an unknown problem or language)
//! is its result; the judge failing stops the batch, and the next run judges that line again.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use judge_core::batch::{self, Done, Line, Outcome, Request};
use judge_core::model::SolutionReport;
use judge_core::session::{Judging, Observer, Options};
use judge_core::workspace::{Problem, Solution, TestCase, Workspace};

use crate::run::settle_time_limit;
use crate::Error;

/// The results file of the submissions file `file` when none is named:
/// `subs.jsonl` → `subs.results.jsonl`.
pub fn results_path(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "batch".into());
    file.with_file_name(format!("{stem}.results.jsonl"))
}

/// Where the submission with `key` of `problem` is written to be judged: a folder of its own
/// under the workspace's state, named by the key's hash (a key may hold any character, and two
/// keys never share a file).
pub fn source_path(ws: &Workspace, problem: &str, key: &str, extension: &str) -> PathBuf {
    let stem = batch::file_stem(key);
    judge_core::paths::batch(&ws.state_dir())
        .join(problem)
        .join(&stem)
        .join(format!("{stem}.{extension}"))
}

/// A batch read: its lines, and those an earlier run left no result for.
#[derive(Debug)]
pub struct Batch {
    pub lines: Vec<Line>,
    done: Done,
    /// The results file.
    pub out: PathBuf,
}

impl Batch {
    /// Reads the submissions `text` and what the results file `out` holds already (nothing
    /// when it does not exist).
    pub fn read(text: &str, out: &Path) -> Result<Batch, Error> {
        let done = match std::fs::read_to_string(out) {
            Ok(t) => batch::done(&t).map_err(|why| Error::Results {
                path: out.to_path_buf(),
                why: why.to_string(),
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Done::default(),
            Err(source) => {
                return Err(Error::Io {
                    doing: "read",
                    path: out.to_path_buf(),
                    source,
                })
            }
        };
        Ok(Batch {
            lines: batch::lines(text),
            done,
            out: out.to_path_buf(),
        })
    }

    /// The lines with no result yet: those this run judges.
    pub fn todo(&self) -> Vec<&Line> {
        self.lines
            .iter()
            .filter(|l| !self.done.keys.contains(&l.key))
            .collect()
    }

    /// The problems the lines to judge name, as written (an id, or a package's path read
    /// from `base`), each once: the front-end mounts those that are packages before judging.
    pub fn problems(&self) -> Vec<String> {
        let mut named: Vec<String> = Vec::new();
        for line in self.todo() {
            if let Ok(r) = &line.request {
                if !named.contains(&r.problem) {
                    named.push(r.problem.clone());
                }
            }
        }
        named
    }
}

/// What a batch asks for besides its lines.
#[derive(Debug, Default)]
pub struct BatchOptions {
    /// Each submission's cases judged this many at a time (on this machine).
    pub jobs: usize,
    /// The history each run is recorded in; `None` records nothing (the results file is the
    /// record).
    pub history: Option<PathBuf>,
    /// Each named problem (as `Batch::problems` gives it) made an id, or why it cannot be:
    /// a package the front-end could not mount (said, with its sources, as each of its lines'
    /// error). A name not here is an id already.
    pub problems: BTreeMap<String, Result<String, judge_packages::Error>>,
}

/// A line's result, as it is written.
pub enum LineResult<'a> {
    Judged(&'a SolutionReport),
    /// Not judged, for a reason of its own (written in the results; the batch goes on).
    NotJudged(&'a str),
}

/// What a batch tells its front-end as it goes (and, as notes, what a submission waiting
/// should say: the cluster's workers missing).
pub trait BatchObserver: Observer {
    /// The `index`th of the lines to judge, `line`, has its result.
    fn line_done(&mut self, _index: usize, _todo: usize, _line: &Line, _result: LineResult<'_>) {}
    /// A judged submission could not be recorded in the history (its result is still written).
    fn not_recorded(&mut self, _report: &SolutionReport, _error: &crate::run::RecordError) {}
}

/// A batch judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub judged: usize,
    /// Lines not judged, for a reason of their own.
    pub failed: usize,
    /// Lines that had a result already.
    pub had_result: usize,
}

/// Judges the lines of `batch` that have no result with `judging`, adding each result to the
/// results file as soon as it is known.
pub fn judge(
    ws: &Workspace,
    judging: &mut dyn Judging,
    batch: &Batch,
    options: &BatchOptions,
    observer: &mut dyn BatchObserver,
) -> Result<Summary, Error> {
    let todo = batch.todo();
    let mut results = Results::open(&batch.out, &batch.done)?;
    let mut loaded = BTreeMap::new();
    let mut summary = Summary {
        judged: 0,
        failed: 0,
        had_result: batch.lines.len() - todo.len(),
    };
    for (n, line) in todo.iter().enumerate() {
        let mut context = LineContext {
            ws,
            judging: &mut *judging,
            options,
            loaded: &mut loaded,
        };
        let outcome = match context.judge(line, observer) {
            Ok(report) => {
                summary.judged += 1;
                observer.line_done(n, todo.len(), line, LineResult::Judged(&report));
                of_report(line, &report)
            }
            Err(Failure::Line(why)) => {
                summary.failed += 1;
                observer.line_done(n, todo.len(), line, LineResult::NotJudged(&why));
                Outcome {
                    error: Some(why),
                    ..empty(line)
                }
            }
            // Stopped (Ctrl-C) or the judge itself failed: what has a result keeps it, the
            // rest is judged by the next run.
            Err(Failure::Judge(e)) => return Err(*e),
        };
        results.write(&outcome)?;
    }
    Ok(summary)
}

/// Why a line has no verdict: something of the line's own (written in the results, and the
/// batch goes on), or of the judge's (the batch stops; the next run judges the line again).
enum Failure {
    Line(String),
    /// Boxed: the judge's error is large, and a line's failure is the common case.
    Judge(Box<Error>),
}

/// A problem loaded for the batch, with its cases and its time limit settled: once per
/// problem, or why it cannot be.
type Loaded = BTreeMap<String, Result<(Problem, Vec<TestCase>), String>>;

/// What judging one line needs.
struct LineContext<'a> {
    ws: &'a Workspace,
    judging: &'a mut dyn Judging,
    options: &'a BatchOptions,
    loaded: &'a mut Loaded,
}

impl LineContext<'_> {
    fn judge(
        &mut self,
        line: &Line,
        observer: &mut dyn BatchObserver,
    ) -> Result<SolutionReport, Failure> {
        let request: &Request = line
            .request
            .as_ref()
            .map_err(|e| Failure::Line(e.to_string()))?;
        let id = match self.options.problems.get(&request.problem) {
            Some(Ok(id)) => id.clone(),
            Some(Err(e)) => return Err(Failure::Line(crate::error::chain(e))),
            None => request.problem.clone(),
        };
        let (ws, judging) = (self.ws, &mut *self.judging);
        let entry = self.loaded.entry(id.clone()).or_insert_with(|| {
            let mut problem = ws.problem(&id).map_err(|e| e.to_string())?;
            // A package's time limit is derived quietly: a batch prints a line per submission.
            settle_time_limit(judging, &mut problem, &mut judge_core::session::Quiet)
                .map_err(|e| crate::error::chain(&e))?;
            let cases = ws.testcases(&problem).map_err(|e| e.to_string())?;
            Ok((problem, cases))
        });
        let (problem, cases) = entry.as_ref().map_err(|e| Failure::Line(e.clone()))?;
        let solution = write_source(ws, line, request, problem)?;
        let options = Options {
            jobs: self.options.jobs.max(1),
            ..Options::default()
        };
        let mut report = match self
            .judging
            .judge(problem, &solution, cases, &options, observer)
        {
            Ok(r) => r,
            // A language this machine cannot run is the line's to say, not the batch's end.
            Err(e) => match solution.skipped_because(&e) {
                Some(skip) => return Err(Failure::Line(skip.skipped)),
                None => return Err(Failure::Judge(Box::new(e.into()))),
            },
        };
        report.key = Some(line.key.clone());
        if let Some(history) = &self.options.history {
            // The results file is this run's record: a history that cannot be written is
            // not the line's failure.
            if let Err(e) = crate::run::record(history, &report) {
                observer.not_recorded(&report, &e);
            }
        }
        Ok(report)
    }
}

/// Writes the line's source where it is judged from: its solution.
fn write_source(
    ws: &Workspace,
    line: &Line,
    request: &Request,
    problem: &Problem,
) -> Result<Solution, Failure> {
    let languages = &ws.config.languages;
    let language = languages.get(&request.language).ok_or_else(|| {
        Failure::Line(format!(
            "no language `{}`; the languages are {}",
            request.language,
            languages.known()
        ))
    })?;
    let extension = language
        .extensions
        .first()
        .ok_or_else(|| Failure::Line(format!("the language `{}` has no extension", language.id)))?;
    let path = source_path(ws, &problem.id, &line.key, extension);
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&path, &request.source))
        .map_err(|source| {
            Failure::Judge(Box::new(Error::Io {
                doing: "write",
                path: path.clone(),
                source,
            }))
        })?;
    Ok(Solution {
        name: line.key.clone(),
        problem: problem.id.clone(),
        path,
    })
}

fn empty(line: &Line) -> Outcome {
    Outcome {
        key: line.key.clone(),
        line: line.number,
        error: None,
        problem: None,
        language: None,
        verdict: None,
        passed: None,
        total: None,
        max_time_ms: None,
        max_memory_kb: None,
        report: None,
    }
}

/// A judged line's result: the report's summary, and the report whole.
fn of_report(line: &Line, report: &SolutionReport) -> Outcome {
    Outcome {
        problem: Some(report.problem.clone()),
        language: Some(report.language.clone()),
        verdict: Some(report.verdict.code().to_string()),
        passed: Some(report.passed),
        total: Some(report.total),
        max_time_ms: Some(report.max_cpu().as_millis() as u64),
        max_memory_kb: Some(report.max_memory() / 1024),
        report: Some(judge_core::schema::to_value(report)),
        ..empty(line)
    }
}

/// The results file, open for adding lines: each result is one whole line, written at once and
/// flushed to the disk before the next submission is judged.
struct Results {
    file: std::fs::File,
    path: PathBuf,
}

impl Results {
    /// Opens `path` for adding results after those `done` keeps. When some of the file is
    /// not kept, the file is first written again with only those, as every file the judge
    /// replaces is ([`judge_core::atomic::replace`]): a crash meanwhile leaves one or the other,
    /// whole.
    fn open(path: &Path, done: &Done) -> Result<Results, Error> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let create = |source| Error::Io {
            doing: "create",
            path: dir.to_path_buf(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(create)?;
        if done.dropped {
            judge_core::atomic::replace(path, done.kept.as_bytes())?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|source| Error::Io {
                doing: "create",
                path: path.to_path_buf(),
                source,
            })?;
        Ok(Results {
            file,
            path: path.to_path_buf(),
        })
    }

    fn write(&mut self, outcome: &Outcome) -> Result<(), Error> {
        let mut line =
            serde_json::to_string(&judge_core::schema::tagged(outcome)).unwrap_or_default();
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|source| Error::Io {
                doing: "write",
                path: self.path.clone(),
                source,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "{\"id\": \"a\", \"problem\": \"double\", \"language\": \"python\", \"source\": \"print(2)\"}\n\
        {\"id\": \"b\", \"problem\": \"pkg/triple\", \"language\": \"python\", \"source\": \"print(3)\"}\n\
        {\"id\": \"c\", \"problem\": \"double\", \"language\": \"rust\", \"source\": \"fn main() {}\"}\n";

    fn outcome(key: &str, line: usize, error: Option<&str>) -> Outcome {
        Outcome {
            key: key.into(),
            line,
            error: error.map(str::to_string),
            verdict: error.is_none().then(|| "AC".into()),
            ..empty(&Line {
                number: line,
                key: key.into(),
                request: Err(judge_core::batch::LineError::EmptyId),
            })
        }
    }

    #[test]
    fn the_results_file_is_named_after_the_submissions() {
        assert_eq!(
            results_path(Path::new("runs/subs.jsonl")),
            Path::new("runs/subs.results.jsonl")
        );
    }

    #[test]
    fn each_source_has_a_folder_of_its_own_named_by_its_keys_hash() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::create_dir(dir.path().join("problems")).expect("problems/");
        let ws = Workspace::loose(dir.path());
        let a = source_path(&ws, "double", "a/../b", "py");
        let b = source_path(&ws, "double", "b", "py");
        assert_ne!(a.parent(), b.parent());
        assert!(
            a.starts_with(ws.state_dir().join("batch").join("double")),
            "{a:?}"
        );
        let stem = batch::file_stem("a/../b");
        assert_eq!(a.file_name().unwrap(), format!("{stem}.py").as_str());
    }

    #[test]
    fn a_run_again_judges_only_the_lines_without_a_result() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let out = dir.path().join("subs.results.jsonl");
        let fresh = Batch::read(TWO, &out).expect("no results file yet");
        assert_eq!(fresh.todo().len(), 3);
        // Each problem named once, as written: the front-end mounts the packages among them.
        assert_eq!(fresh.problems(), ["double", "pkg/triple"]);

        let mut results = Results::open(&out, &fresh.done).expect("opened");
        results.write(&outcome("a", 1, None)).expect("written");
        results
            .write(&outcome("b", 2, Some("no problem `pkg/triple`")))
            .expect("written");
        drop(results);
        let again = Batch::read(TWO, &out).expect("the results file");
        let keys: Vec<&str> = again.todo().iter().map(|l| l.key.as_str()).collect();
        // `b` could not be judged: it is tried again, its old result dropped from the file.
        assert_eq!(keys, ["b", "c"]);
        assert_eq!(again.problems(), ["pkg/triple", "double"]);
        Results::open(&out, &again.done).expect("opened");
        let text = std::fs::read_to_string(&out).expect("the results file");
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains("\"key\":\"a\""), "{text}");
    }

    #[test]
    fn a_file_that_is_not_a_results_file_is_refused_with_its_fix() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let out = dir.path().join("notes.txt");
        std::fs::write(&out, "my notes\n").expect("written");
        let e = Batch::read(TWO, &out).expect_err("not results");
        assert!(matches!(e, Error::Results { .. }), "{e:?}");
        let text = e.to_string();
        assert!(text.contains("line 1 is not a result"), "{text}");
        assert!(text.contains("fix: give another --out"), "{text}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "my notes\n");
    }
}
