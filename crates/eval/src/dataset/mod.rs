//! A data set read in place: the file as its users download it (JSON Lines or one JSON array,
//! gzip or not, or Parquet: a file or a folder of shards), its format told from the fields of
//! its first record (or named), and each record made a `DataProblem`: its id as the data set
//! writes it, its tests, limits and comparison, its own solutions, or why it cannot be judged.
//! One module per format (`code_contests.rs`, `apps.rs`, `lcb.rs`, `codeforces.rs`,
//! `code_contests_plus.rs`, and `config_yaml.rs` for a folder of problems); a problem's own
//! programs made files (`programs.rs`); Parquet's rows made JSON values (`parquet_file.rs`),
//! the files of a folder (`source.rs`), open-r1's generated tests (`generated.rs`); the reading
//! and the shared model here.

mod apps;
mod code_contests;
mod code_contests_plus;
mod codeforces;
mod common_oj;
mod config_yaml;
mod generated;
mod lcb;
mod parquet_file;
pub mod programs;
mod source;

pub(crate) use apps::as_method;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use judge_core::error::Location;
use serde_json::Value;
use sha2::Digest;

use crate::Error;

/// The formats read, each named as its data set is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// DeepMind's `code_contests`.
    CodeContests,
    /// APPS (`codeparrot/apps`) and TACO (`BAAI/TACO`).
    Apps,
    /// LiveCodeBench's `code_generation_lite`.
    LiveCodeBench,
    /// open-r1's `codeforces`.
    Codeforces,
    /// ByteDance's CodeContests+ (`ByteDance-Seed/Code-Contests-Plus`).
    CodeContestsPlus,
    /// A folder of problems each with a `config.yaml` (LiveCodeBench-Pro, FrontierCS).
    ConfigYaml,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::CodeContests,
        Format::Apps,
        Format::LiveCodeBench,
        Format::Codeforces,
        Format::CodeContestsPlus,
        Format::ConfigYaml,
    ];

    /// Its name on the command line and in the manifest.
    pub fn name(self) -> &'static str {
        match self {
            Format::CodeContests => "code_contests",
            Format::Apps => "apps",
            Format::LiveCodeBench => "livecodebench",
            Format::Codeforces => "codeforces",
            Format::CodeContestsPlus => "code_contests_plus",
            Format::ConfigYaml => "config_yaml",
        }
    }

    /// The format named `name` (`--format`); `None` for another name.
    pub fn named(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The format whose fields `record` has.
    fn of(record: &Value) -> Option<Format> {
        if code_contests_plus::fits(record) {
            Some(Format::CodeContestsPlus)
        // open-r1's before code_contests: its `generated_tests` (a count) is a field name of
        // code_contests too.
        } else if codeforces::fits(record) {
            Some(Format::Codeforces)
        } else if code_contests::fits(record) {
            Some(Format::CodeContests)
        } else if lcb::fits(record) {
            Some(Format::LiveCodeBench)
        } else if apps::fits(record) {
            Some(Format::Apps)
        } else {
            None
        }
    }

    /// Where the limits come from, as the manifest says.
    pub fn limits_source(self) -> &'static str {
        match self {
            Format::CodeContests => "the data set's time_limit and memory_limit_bytes (2 s and 256 MiB where a problem has none)",
            Format::Apps => "TACO's time_limit and memory_limit where given, else 4 s (APPS' own harness) and 256 MiB",
            Format::LiveCodeBench => "none in the data set: 6 s (its harness's) of CPU time and 256 MiB",
            Format::Codeforces => "the data set's time_limit (s) and memory_limit (MB) (2 s and 256 MiB where a problem has none)",
            Format::CodeContestsPlus => "the data set's time_limit (ms) and memory_limit (MB) (2 s and 256 MiB where a problem has none)",
            Format::ConfigYaml => "each problem's config.yaml: `time` and `memory` (a subtask's own where all its subtasks agree)",
        }
    }

    /// How outputs are compared, one line, as the data set's own harness compares them.
    pub fn comparison(self) -> &'static str {
        match self {
            Format::CodeContests => "tokens, letters in any case, numbers within 1e-5 absolute (its harness's rule)",
            Format::Apps => "tokens (its harness compares stripped lines)",
            Format::LiveCodeBench => "tokens, numbers by value (its harness's Decimal equality); functional tests as JSON values",
            Format::Codeforces => "its generated_checker where it has one (`checker.py INPUT ANSWER OUTPUT`, 1 accepts), else tokens (its harness's whitespace-collapsed comparison)",
            Format::CodeContestsPlus => "its testlib checker (`checker INPUT OUTPUT ANSWER`, exit 0 accepts)",
            Format::ConfigYaml => "its testlib checker (chk.cc) where it names one, else lines with trailing spaces ignored (Hydro's default)",
        }
    }
}

/// A data set read: its problems, in the file's order.
#[derive(Debug)]
pub struct Dataset {
    pub path: PathBuf,
    pub format: Format,
    /// SHA-256 of the file as it lies (compressed when it is), in hex; of several files (a
    /// folder's shards, `--tests`' files), the hash of their names and hashes in order.
    pub sha256: String,
    /// The data set's files: the one named, or a folder's shards in order.
    pub files: Vec<DataFile>,
    /// `--tests`' files (open-r1's generated tests), in order; none without it.
    pub tests: Vec<DataFile>,
    pub problems: Vec<DataProblem>,
}

/// A file read, with its SHA-256 as it lies, in hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataFile {
    pub path: PathBuf,
    pub sha256: String,
}

/// A file's records, each with its row (a JSON Lines file's line).
type Records = Vec<(usize, Value)>;

/// Each problem's generated tests (`--tests`), by its id.
type ByProblem = std::collections::BTreeMap<String, Vec<Test>>;

/// One record of a data set.
#[derive(Debug, Clone)]
pub struct DataProblem {
    /// As the data set names it (`name`, `question_id`, `problem_id`), as a string.
    pub id: String,
    /// Where it is: the line of a JSON Lines file, the element of an array (1-based).
    pub row: usize,
    /// What judging it needs, or why it cannot be judged (the problem's error).
    pub spec: Result<Spec, String>,
    /// The data set's own solutions, right and wrong (`solutions`, `incorrect_solutions`).
    pub references: Vec<Reference>,
}

/// What a problem is judged with.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    pub tests: Vec<Test>,
    pub time: Duration,
    pub memory_bytes: u64,
    pub compare: Compare,
    /// A LeetCode-style problem: the function solutions define.
    pub function: Option<Signature>,
    /// Its own checker, interactor and named files, where it has them.
    pub programs: Programs,
}

/// What a problem judges with beyond its tests and comparison: the data set's checker (which
/// then decides instead of the comparison) and interactor, and the files its solutions read
/// and write instead of stdin and stdout.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Programs {
    pub checker: Option<Program>,
    pub interactor: Option<Program>,
    /// The input and output files (`input.txt`, `output.txt`), where solutions use them.
    pub files: Option<(String, String)>,
    /// The `testlib.h` the data set ships beside its programs, where it ships one.
    pub testlib: Option<Vec<u8>>,
}

/// A problem's own program, as its data set writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// C++ that includes `testlib.h`, run by testlib's protocol.
    Testlib(String),
    /// open-r1's `generated_checker`: Python, run as `checker.py INPUT ANSWER OUTPUT`, printing
    /// `1` for a right output and `0` for a wrong one.
    OpenR1(String),
}

/// One test: its input and the expected output, as the data set writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Test {
    pub input: String,
    pub output: String,
}

/// How an output is compared with the expected one: the data set's own harness's rule, in the
/// judge's checkers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Compare {
    /// Tokens; numbers within `absolute`; letters in any case when `any_case`.
    Float { absolute: f64, any_case: bool },
    /// Whitespace-separated tokens, exactly.
    Tokens,
    /// Lines, trailing whitespace and blank lines at the end ignored.
    Lines,
    /// JSON values (a function's return value).
    Json,
}

/// A function's declaration, in the judge's `[function]` words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub name: String,
    /// `name: type`, in order.
    pub params: Vec<String>,
    pub returns: String,
}

/// A solution the data set gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The judge's language, or why it has none (Python 2, an unknown code).
    pub language: Result<String, String>,
    pub code: String,
    /// Among the right solutions (`solutions`) or the wrong ones (`incorrect_solutions`).
    pub correct: bool,
}

/// The default memory limit where a data set gives none.
pub const DEFAULT_MEMORY: u64 = 256 << 20;

/// Reads the data set at `path`, in `format` or the one its fields tell.
pub fn read(path: &Path, format: Option<Format>) -> Result<Dataset, Error> {
    read_with_tests(path, format, None)
}

/// Reads the data set at `path` (a file, or a folder of Parquet shards), in `format` or the one
/// its fields tell, with the generated tests of the files at `tests` (open-r1's `test_cases`
/// files, or their folder) after each problem's own.
pub fn read_with_tests(
    path: &Path,
    format: Option<Format>,
    tests: Option<&Path>,
) -> Result<Dataset, Error> {
    // A folder of `config.yaml` problems (LiveCodeBench-Pro, FrontierCS); any other folder is
    // one of Parquet shards.
    let problems_folder = format == Some(Format::ConfigYaml)
        || (format.is_none() && path.is_dir() && config_yaml::holds(path));
    if problems_folder {
        return config_yaml::read(path);
    }
    let (files, records) = read_files(path)?;
    let format = match format {
        Some(f) => f,
        None => detect(path, &records)?,
    };
    let (tests, generated) = match tests {
        Some(at) => {
            let (files, rows) = generated_tests(at, format)?;
            (files, Some(rows))
        }
        None => (Vec::new(), None),
    };
    let problems = records
        .iter()
        .map(|(row, record)| problem_of(format, *row, record, generated.as_ref()))
        .collect();
    let all: Vec<DataFile> = files.iter().chain(&tests).cloned().collect();
    Ok(Dataset {
        path: path.to_path_buf(),
        format,
        sha256: source::combined(&all),
        files,
        tests,
        problems: unique(problems),
    })
}

/// The files `path` names and their records, numbered on from one file to the next.
fn read_files(path: &Path) -> Result<(Vec<DataFile>, Records), Error> {
    let mut files = Vec::new();
    let mut records = Vec::new();
    for file in source::files(path)? {
        let (sha256, rows) = file_records(&file, records.len())?;
        records.extend(rows);
        files.push(DataFile { path: file, sha256 });
    }
    Ok((files, records))
}

/// One file's SHA-256 and records: a Parquet file's rows (numbered after `before`), or the
/// lines (the elements) of a JSON file.
fn file_records(path: &Path, before: usize) -> Result<(String, Records), Error> {
    let mut head = [0u8; 4];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .map_err(|e| Error::io("read", path, e))?;
    if parquet_file::is_parquet(&head[..n]) {
        let rows = parquet_file::rows(path).map_err(|message| {
            dataset_error(
                path,
                None,
                message,
                "download the file again (a Parquet file cut short or changed does not read)",
            )
        })?;
        let numbered = rows
            .into_iter()
            .enumerate()
            .map(|(i, v)| (before + i + 1, v));
        return Ok((source::sha256(path)?, numbered.collect()));
    }
    let raw = std::fs::read(path).map_err(|e| Error::io("read", path, e))?;
    let sha256 = hex(&sha2::Sha256::digest(&raw));
    let text = text_of(path, raw)?;
    Ok((sha256, records(path, &text)?))
}

/// `--tests`' files and the generated tests they hold, by problem: open-r1's alone has them.
fn generated_tests(at: &Path, format: Format) -> Result<(Vec<DataFile>, ByProblem), Error> {
    if format != Format::Codeforces {
        return Err(dataset_error(
            at,
            None,
            format!(
                "--tests gives open-r1's generated tests, and the data set is {}",
                format.name()
            ),
            "leave --tests out, or give open-r1's codeforces data set",
        ));
    }
    let mut files = Vec::new();
    let mut gathered = std::collections::BTreeMap::new();
    for file in source::files(at)? {
        let (sha256, rows) = file_records(&file, 0)?;
        generated::add(&file, &rows, &mut gathered)?;
        files.push(DataFile { path: file, sha256 });
    }
    Ok((files, generated::sorted(gathered)))
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The file's text: gunzipped when it starts with gzip's magic bytes.
fn text_of(path: &Path, raw: Vec<u8>) -> Result<String, Error> {
    let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(|e| {
                dataset_error(
                    path,
                    None,
                    format!("the gzip stream does not decode: {e}"),
                    "download the file again",
                )
            })?;
        out
    } else {
        raw
    };
    String::from_utf8(bytes).map_err(|_| {
        dataset_error(
            path,
            None,
            "the file is not UTF-8 text".into(),
            "give the data set's JSON, JSON Lines or Parquet file",
        )
    })
}

/// The records: each line of JSON Lines, or each element of one JSON array, with its row.
fn records(path: &Path, text: &str) -> Result<Vec<(usize, Value)>, Error> {
    if text.trim_start().starts_with('[') {
        let all: Vec<Value> = serde_json::from_str(text).map_err(|e| {
            dataset_error(
                path,
                Some(e.line()),
                format!("not JSON: {e}"),
                "give a JSON array of records, or JSON Lines",
            )
        })?;
        return Ok(all
            .into_iter()
            .enumerate()
            .map(|(i, v)| (i + 1, v))
            .collect());
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| {
            dataset_error(
                path,
                Some(i + 1),
                format!("the line is not JSON: {e}"),
                "give a JSON object per line (JSON Lines)",
            )
        })?;
        out.push((i + 1, value));
    }
    Ok(out)
}

fn detect(path: &Path, records: &[(usize, Value)]) -> Result<Format, Error> {
    let Some((row, first)) = records.first() else {
        return Err(dataset_error(
            path,
            None,
            "the data set holds no records".into(),
            "give a file with a problem per line",
        ));
    };
    Format::of(first).ok_or_else(|| {
        let fields = match first.as_object() {
            Some(o) => o.keys().map(String::as_str).collect::<Vec<_>>().join(", "),
            None => "none (it is not a JSON object)".into(),
        };
        dataset_error(
            path,
            Some(*row),
            format!("the format is not told by the fields of the first record ({fields})"),
            "name it with --format code_contests, apps, livecodebench, codeforces or code_contests_plus",
        )
    })
}

/// A second problem with an id seen before is an error of its own: samples name problems by
/// id, and could not say which of the two they are for.
fn unique(problems: Vec<DataProblem>) -> Vec<DataProblem> {
    let mut seen = std::collections::BTreeMap::new();
    problems
        .into_iter()
        .map(|mut p| {
            if let Some(first) = seen.get(&p.id) {
                p.spec = Err(format!("the id `{}` is that of row {first} too", p.id));
            } else {
                seen.insert(p.id.clone(), p.row);
            }
            p
        })
        .collect()
}

fn dataset_error(path: &Path, line: Option<usize>, message: String, fix: &str) -> Error {
    Error::Dataset {
        at: Location::file(path).with_line(line),
        message,
        fix: fix.into(),
    }
}

/// The record's id: the first of `fields` it has, a string or a number, else its row.
fn id_of(record: &Value, fields: &[&str], row: usize) -> String {
    fields
        .iter()
        .find_map(|f| match record.get(f) {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        })
        .unwrap_or_else(|| format!("row {row}"))
}

/// A field that holds JSON as a string (APPS' `input_output`, LiveCodeBench's test lists),
/// read; a field that is JSON already is taken as it is.
fn json_field(record: &Value, field: &str) -> Result<Option<Value>, String> {
    match record.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => serde_json::from_str(s)
            .map(Some)
            .map_err(|e| format!("`{field}` does not decode as JSON: {e}")),
        Some(other) => Ok(Some(other.clone())),
    }
}

/// A test's text: a string as it is, a list of lines joined (TACO writes some outputs so).
fn test_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Array(lines) => lines
            .iter()
            .map(|l| l.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .map(|ls| ls.join("\n")),
        _ => None,
    }
}

/// A problem whose tests are `tests`: an error when there are none, never a problem that
/// every sample passes.
fn with_tests(tests: Vec<Test>, spec: impl FnOnce(Vec<Test>) -> Spec) -> Result<Spec, String> {
    if tests.is_empty() {
        return Err("the problem has no tests".into());
    }
    Ok(spec(tests))
}

/// One record on its own, in `format` or the one its fields tell (SandboxFusion's own
/// stdin/stdout records among them, which have no `Format`): a service's request for one
/// problem. Its format, and the problem, whose `spec` holds what is wrong with it.
pub fn one(
    record: &Value,
    format: Option<Format>,
) -> Result<(Option<Format>, DataProblem), String> {
    if format.is_none() && common_oj::fits(record) {
        return Ok((None, common_oj::problem(1, record)));
    }
    let format = match format {
        Some(f) => f,
        None => Format::of(record).ok_or_else(|| {
            "its fields are not those of code_contests, CodeContests+, APPS/TACO, LiveCodeBench, open-r1's codeforces or SandboxFusion's stdin/stdout tests".to_string()
        })?,
    };
    Ok((Some(format), problem_of(format, 1, record, None)))
}

/// The problem of the record at `row`, read as `format`, with open-r1's generated tests.
fn problem_of(
    format: Format,
    row: usize,
    record: &Value,
    generated: Option<&ByProblem>,
) -> DataProblem {
    match format {
        Format::CodeContests => code_contests::problem(row, record),
        Format::Apps => apps::problem(row, record),
        Format::LiveCodeBench => lcb::problem(row, record),
        Format::Codeforces => codeforces::problem(row, record, generated),
        Format::CodeContestsPlus => code_contests_plus::problem(row, record),
        Format::ConfigYaml => DataProblem {
            id: format!("row {row}"),
            row,
            spec: Err("a config_yaml data set is a folder of problems, not a file".into()),
            references: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests;
