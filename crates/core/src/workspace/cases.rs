//! Test cases: every `NAME.in` paired with its `NAME.out` (or `.ans`), in natural order; picking and adding cases.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{Problem, Workspace};
use crate::error::{Error, Location, Result};
use crate::model::Selection;
use crate::text::glob_match;

/// One test case: an input and its answer.
#[derive(Debug, Clone, Default)]
pub struct TestCase {
    pub name: String,
    pub input: PathBuf,
    pub answer: PathBuf,
    pub sample: bool,
    /// What the case tests, when its package says (`NAME.desc`).
    pub description: Option<String>,
    /// Flags for the output validator on this case (a package's group settings).
    pub validator_flags: Vec<String>,
    /// Flags for the input validators on this case.
    pub input_validator_flags: Vec<String>,
    /// Files put in the submission's working folder before it runs (a package's `NAME.files/`).
    pub files: Option<PathBuf>,
    /// A package's static validation case, with the static validator's arguments: the
    /// submission's files are judged by the static validator, the submission does not run
    /// (it has no input nor answer).
    pub static_validation: Option<Vec<String>>,
}

/// A folder's case files of one kind (inputs, or answers), by the case's name.
type CaseFiles = BTreeMap<String, PathBuf>;

/// A package's folder of samples (Kattis' `data/sample/`), where its sample interactions are.
pub fn package_sample_dir(package: &Path) -> PathBuf {
    package.join("data").join("sample")
}

/// The `.interaction` files in `dir` (none when there is no such folder), in natural order.
pub fn interaction_files(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "interaction") && p.is_file())
        .collect();
    found.sort_by(|a, b| natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
    found
}

impl Workspace {
    /// The sample interactions of an interactive problem, in natural order: Kattis'
    /// `.interaction` files (lines `>` from the solution, `<` to it), in `testcases/ID/` or a
    /// package's `data/sample/`. Shown by `judge show`, replayed by `judge run --replay`.
    pub fn sample_interactions(&self, problem: &Problem) -> Vec<PathBuf> {
        interaction_files(&self.interactions_dir(problem))
    }

    /// Where a problem's sample interactions are: `testcases/ID/`, or a package's sample folder.
    fn interactions_dir(&self, problem: &Problem) -> PathBuf {
        match self.package(&problem.id) {
            Some(_) => package_sample_dir(&problem.dir),
            None => self.root.join("testcases").join(&problem.id),
        }
    }

    /// The sample interactions as cases to replay (`judge run --replay`): each file is its
    /// case's input (and answer), checked first to be a conversation.
    pub fn replay_cases(&self, problem: &Problem) -> Result<Vec<TestCase>> {
        let found = self.sample_interactions(problem);
        if found.is_empty() {
            return Err(Error::TestData {
                at: Location::file(self.show(&self.interactions_dir(problem))),
                message: format!("{} has no sample interaction to replay", problem.id),
                fix: "add NAME.interaction files there: `<` lines the judge says to the solution, `>` lines the solution says".into(),
            });
        }
        found
            .into_iter()
            .map(|path| {
                let text = std::fs::read_to_string(&path).map_err(|e| Error::read(&path, e))?;
                if let Err(bad) = crate::replay::Script::parse(&text) {
                    return Err(Error::TestData {
                        at: Location::file(self.show(&path)),
                        message: format!("line {}: {}", bad.line, bad.message),
                        fix: "start every line with `<` (the judge to the solution) or `>` (the solution to the judge)".into(),
                    });
                }
                let name = path
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
                Ok(TestCase {
                    name,
                    input: path.clone(),
                    answer: path,
                    sample: true,
                    ..TestCase::default()
                })
            })
            .collect()
    }

    /// The test cases of a problem, in natural order, every input paired with its answer (a
    /// package's in the order it runs them).
    pub fn testcases(&self, problem: &Problem) -> Result<Vec<TestCase>> {
        if let Some(p) = self.package(&problem.id) {
            return Ok(p.cases.clone());
        }
        let dir = self.root.join("testcases").join(&problem.id);
        let shown_dir = self.show(&dir);
        if !dir.is_dir() {
            return Err(Error::TestData {
                at: Location::file(shown_dir),
                message: "the folder of test cases is missing".into(),
                fix: "create it and add NAME.in / NAME.out pairs".to_string(),
            });
        }
        let (inputs, answers) = self.case_files(&dir)?;
        let mut cases = self.pair(problem, inputs, answers)?;
        if cases.is_empty() {
            return Err(Error::TestData {
                at: Location::file(shown_dir),
                message: "the problem has no test cases".into(),
                fix: "add NAME.in / NAME.out pairs".into(),
            });
        }
        if let Some(missing) = problem
            .samples
            .iter()
            .find(|s| !cases.iter().any(|c| &c.name == *s))
        {
            return Err(Error::Config {
                at: Location::file(self.show(&problem.dir.join("problem.toml"))),
                message: format!("sample `{missing}` is not a test case"),
                fix: format!(
                    "add {shown_dir}/{missing}.in and its answer, or remove it from `samples`"
                ),
            });
        }
        cases.sort_by(|a, b| natural_cmp(&a.name, &b.name));
        self.check_function_cases(problem, &cases)?;
        Ok(cases)
    }

    /// The inputs and the answers in a folder of test cases, by name; anything else in it
    /// (but hidden files and sample interactions) is an error.
    fn case_files(&self, dir: &Path) -> Result<(CaseFiles, CaseFiles)> {
        let mut inputs: CaseFiles = BTreeMap::new();
        let mut answers: CaseFiles = BTreeMap::new();
        for entry in walkdir::WalkDir::new(dir).min_depth(1).max_depth(1) {
            let entry = entry.map_err(|e| Error::list(dir, e.into()))?;
            let path = entry.path().to_path_buf();
            let name = entry.file_name().to_string_lossy().to_string();
            if name.starts_with('.') {
                continue;
            }
            let (stem, ext) = match name.rsplit_once('.') {
                Some((s, e)) if !s.is_empty() => (s.to_string(), e),
                _ => (String::new(), ""),
            };
            if ext == "interaction" && !entry.file_type().is_dir() {
                // A sample interaction (`sample_interactions`), not a case.
                continue;
            }
            if entry.file_type().is_dir() || !matches!(ext, "in" | "out" | "ans") {
                return Err(Error::TestData {
                    at: Location::file(self.show(&path)),
                    message: "not a test file: test cases are NAME.in with NAME.out (or NAME.ans), sample interactions NAME.interaction"
                        .into(),
                    fix: "rename it, or move it out of the folder".into(),
                });
            }
            let slot = if ext == "in" {
                &mut inputs
            } else {
                &mut answers
            };
            if let Some(other) = slot.insert(stem.clone(), path.clone()) {
                return Err(Error::TestData {
                    at: Location::file(self.show(&path)),
                    message: format!(
                        "case `{stem}` has two answer files, this one and {}",
                        self.show(&other)
                    ),
                    fix: "keep one of NAME.out and NAME.ans".into(),
                });
            }
        }
        Ok((inputs, answers))
    }

    /// Every input with its answer, as cases; an answer or an input alone is an error.
    fn pair(
        &self,
        problem: &Problem,
        inputs: CaseFiles,
        mut answers: CaseFiles,
    ) -> Result<Vec<TestCase>> {
        if let Some((stem, path)) = answers.iter().find(|(s, _)| !inputs.contains_key(*s)) {
            return Err(Error::TestData {
                at: Location::file(self.show(path)),
                message: format!("answer without an input: there is no {stem}.in"),
                fix: format!("add {stem}.in, or remove the answer"),
            });
        }
        let mut cases = Vec::new();
        for (stem, input) in inputs {
            let Some(answer) = answers.remove(&stem) else {
                return Err(Error::TestData {
                    at: Location::file(self.show(&input)),
                    message: "input without an answer".into(),
                    fix: format!("add {stem}.out (or {stem}.ans) with the expected output"),
                });
            };
            cases.push(TestCase {
                sample: problem.samples.contains(&stem),
                name: stem,
                input,
                answer,
                ..TestCase::default()
            });
        }
        Ok(cases)
    }

    /// A function problem's cases read as its harness reads them: each input one JSON value
    /// per parameter, one per line; each answer the JSON of the return value, when a built-in
    /// comparison reads it (a checker program reads answers of its own making). A case that
    /// does not is the problem's error, never the solution's wrong answer.
    fn check_function_cases(&self, problem: &Problem, cases: &[TestCase]) -> Result<()> {
        let Some(function) = &problem.function else {
            return Ok(());
        };
        let answers = matches!(problem.checker, super::Checker::Builtin { .. });
        let sig = &function.signature;
        for case in cases {
            let mut files = vec![(&case.input, true)];
            if answers {
                files.push((&case.answer, false));
            }
            for (path, input) in files {
                let text = std::fs::read_to_string(path).map_err(|e| Error::read(path, e))?;
                let checked = match input {
                    true => crate::function::check_input(sig, &text),
                    false => crate::function::check_answer(sig, &text),
                };
                if let Err(m) = checked {
                    return Err(Error::TestData {
                        at: Location::file(self.show(path)).with_line(m.line),
                        message: m.message,
                        fix: m.fix,
                    });
                }
            }
        }
        Ok(())
    }

    /// Like [`Workspace::testcases`], except that a problem without cases yet (its folder missing
    /// or empty, as `judge new-problem` leaves it) has none rather than being an error.
    pub fn testcases_if_any(&self, problem: &Problem) -> Result<Vec<TestCase>> {
        // A package's cases are read already (it has some, or it is refused).
        if self.package(&problem.id).is_some() {
            return self.testcases(problem);
        }
        let dir = self.root.join("testcases").join(&problem.id);
        let empty = match std::fs::read_dir(&dir) {
            Err(_) => true,
            Ok(entries) => entries
                .filter_map(|e| e.ok())
                .all(|e| e.file_name().to_string_lossy().starts_with('.')),
        };
        if empty {
            Ok(Vec::new())
        } else {
            self.testcases(problem)
        }
    }

    /// Adds a test case (`NAME.in` and `NAME.out`) named to sort after the existing ones; see
    /// [`next_case_name`]. Returns the name.
    pub fn add_case(
        &self,
        problem: &Problem,
        seed: u64,
        input: &[u8],
        answer: &[u8],
    ) -> Result<String> {
        let dir = self.root.join("testcases").join(&problem.id);
        std::fs::create_dir_all(&dir).map_err(|e| Error::create(&dir, e))?;
        let mut existing = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(|e| Error::list(&dir, e))? {
            let name = entry.map_err(|e| Error::list(&dir, e))?.file_name();
            let name = name.to_string_lossy();
            if let Some((stem, "in" | "out" | "ans")) = name.rsplit_once('.') {
                if !stem.is_empty() && !stem.starts_with('.') {
                    existing.push(stem.to_string());
                }
            }
        }
        let name = next_case_name(&existing, seed);
        let (input_path, answer_path) = (
            dir.join(format!("{name}.in")),
            dir.join(format!("{name}.out")),
        );
        // The answer first: a run started meanwhile sees no input without its answer.
        crate::atomic::create_together(&[(&answer_path, answer), (&input_path, input)])?;
        Ok(name)
    }
}

/// The cases picked by `--case PATTERN` (repeatable; `*` and `?` match any run of characters and
/// any one character) and `--samples`; all of them when neither is given. A pattern that matches
/// no case is an error naming the cases. With either given, also what was asked for, of how
/// many cases: a run of fewer than all is partial.
pub fn select_cases(
    problem: &Problem,
    cases: Vec<TestCase>,
    patterns: &[String],
    samples: bool,
) -> Result<(Vec<TestCase>, Option<Selection>)> {
    if patterns.is_empty() && !samples {
        return Ok((cases, None));
    }
    if let Some(p) = patterns
        .iter()
        .find(|p| !cases.iter().any(|c| glob_match(p, &c.name)))
    {
        return Err(Error::UnknownCase {
            problem: problem.id.clone(),
            pattern: p.clone(),
            known: cases.iter().map(|c| c.name.clone()).collect(),
        });
    }
    if samples && !cases.iter().any(|c| c.sample) {
        return Err(Error::NoSamples {
            problem: problem.id.clone(),
        });
    }
    let selection = Selection {
        samples,
        cases: patterns.to_vec(),
        of: cases.len(),
    };
    let chosen = cases
        .into_iter()
        .filter(|c| (samples && c.sample) || patterns.iter().any(|p| glob_match(p, &c.name)))
        .collect();
    Ok((chosen, Some(selection)))
}

/// A new case's name that sorts after every name in `existing` (in natural order): the next
/// number, as wide as the widest zero-padded one, when every name is a number; otherwise
/// `stress-SEED`, made longer if needed so that it still sorts last and is new.
pub fn next_case_name(existing: &[String], seed: u64) -> String {
    let numbers: Option<Vec<(u128, usize)>> = existing
        .iter()
        .map(|n| {
            let padded = n.len() > 1 && n.starts_with('0');
            n.parse::<u128>()
                .ok()
                .filter(|_| n.bytes().all(|b| b.is_ascii_digit()))
                .map(|v| (v, if padded { n.len() } else { 0 }))
        })
        .collect();
    if let Some(numbers) = numbers {
        let next = numbers.iter().map(|(v, _)| v + 1).max().unwrap_or(1);
        let width = numbers.iter().map(|(_, w)| *w).max().unwrap_or(0);
        return format!("{next:0width$}");
    }
    let last = existing
        .iter()
        .max_by(|a, b| natural_cmp(a, b))
        .cloned()
        .unwrap_or_default();
    let mut name = format!("stress-{seed}");
    if natural_cmp(&name, &last) != std::cmp::Ordering::Greater {
        name = format!("{last}-stress-{seed}");
    }
    while existing.contains(&name) {
        name.push('b');
    }
    name
}

/// Orders "2" before "10" and "case-9" before "case-10".
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (ca, cb) = (chunks(a), chunks(b));
    for ((da, sa), (db, sb)) in ca.iter().zip(cb.iter()) {
        let ord = if *da && *db {
            let (ta, tb) = (sa.trim_start_matches('0'), sb.trim_start_matches('0'));
            ta.len()
                .cmp(&tb.len())
                .then(ta.cmp(tb))
                .then(sa.len().cmp(&sb.len()))
        } else {
            sa.cmp(sb)
        };
        if ord != std::cmp::Ordering::Equal {
            return ord;
        }
    }
    ca.len().cmp(&cb.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_case_names_sort_last() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(next_case_name(&names(&["01", "02", "14"]), 7), "15");
        assert_eq!(next_case_name(&names(&["1", "2", "10"]), 7), "11");
        assert_eq!(next_case_name(&names(&["001", "099"]), 7), "100");
        assert_eq!(next_case_name(&names(&[]), 7), "1");
        assert_eq!(next_case_name(&names(&["a", "b"]), 7), "stress-7");
        assert_eq!(
            next_case_name(&names(&["sample", "stress-3"]), 12),
            "stress-12"
        );
        for existing in [
            names(&["sample", "zeta"]),
            names(&["stress-30", "a"]),
            names(&["x9", "07"]),
            names(&["stress-7"]),
        ] {
            let new = next_case_name(&existing, 7);
            assert!(!existing.contains(&new), "{new}");
            for e in &existing {
                assert_eq!(
                    natural_cmp(&new, e),
                    std::cmp::Ordering::Greater,
                    "{new} vs {e}"
                );
            }
        }
    }

    #[test]
    fn globs() {
        assert!(glob_match("1?", "12"));
        assert!(!glob_match("1?", "1"));
        assert!(glob_match("*", ""));
        assert!(glob_match("0*", "04"));
        assert!(glob_match("a*b*c", "aXXbYbc"));
        assert!(!glob_match("a*b*c", "aXXbYb"));
        assert!(glob_match("stress-*", "stress-17"));
        assert!(!glob_match("04", "004"));
    }

    #[test]
    fn natural_order() {
        let mut v = vec!["10", "2", "01", "b10", "b9", "a"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, ["01", "2", "10", "a", "b9", "b10"]);
    }
}
