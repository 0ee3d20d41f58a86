//! What an evaluation found, as data: each problem's samples, right ones and pass@k (or why it
//! could not be judged), the mean pass@k, the data set's own solutions checked, and the manifest
//! that says how the figures were made. Computed from the results alone, pure, so that a
//! resumed run summarises every sample, those of earlier runs too.

use std::collections::BTreeMap;

use judge_core::schema::Document;
use schemars::JsonSchema;
use serde::Serialize;

use crate::against::Against;
use crate::passk;
use crate::results::SampleResult;

/// `judge eval --json`: the summary, written with its `schema` first (`schema::tagged`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Summary {
    pub manifest: Manifest,
    pub problems: Vec<ProblemSummary>,
    /// The mean over the problems judged of each pass@k, by k; a k no problem has enough
    /// samples for is left out.
    #[serde(rename = "pass@k")]
    pub pass_at_k: BTreeMap<String, f64>,
    /// How many problems each mean is over: those with at least k samples.
    #[serde(rename = "pass@k_problems")]
    pub pass_at_k_problems: BTreeMap<String, usize>,
    /// Problems that could not be judged.
    pub errors: usize,
    /// The data set's own solutions, checked (when no samples were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
    /// This run set beside another's (`--against`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<Against>,
}

impl Document for Summary {
    const SCHEMA: &'static str = "judge.eval/1";
}

impl Summary {
    /// Some data set solution did not do as the data set says.
    pub fn verification_failed(&self) -> bool {
        self.verification
            .as_ref()
            .is_some_and(|v| v.correct_passed < v.correct || v.incorrect_failed < v.incorrect)
    }
}

/// One problem's figures.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProblemSummary {
    pub id: String,
    /// Samples counted, and of them right.
    pub n: u64,
    pub c: u64,
    #[serde(rename = "pass@k")]
    pub pass_at_k: BTreeMap<String, f64>,
    /// Its tests that were run: with `--max-tests`, the largest of them.
    pub tests: usize,
    /// With `--max-tests`: its tests in all, of which `tests` were run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tests_total: Option<usize>,
    /// Samples not counted: an internal error, a language this machine lacks.
    #[serde(skip_serializing_if = "is_zero")]
    pub not_counted: u64,
    /// Why it could not be judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The data set's own solutions judged: the right ones should pass, the wrong ones fail.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct Verification {
    pub correct: u64,
    pub correct_passed: u64,
    pub incorrect: u64,
    pub incorrect_failed: u64,
    /// correct_passed / correct, when there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correct_rate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incorrect_rate: Option<f64>,
}

impl Verification {
    fn add(&mut self, r: &SampleResult) {
        // A solution the judge could not run (Python 2) says nothing of the data set.
        if !r.counted {
            return;
        }
        match r.correct {
            Some(true) => {
                self.correct += 1;
                self.correct_passed += u64::from(r.right());
            }
            Some(false) => {
                self.incorrect += 1;
                self.incorrect_failed += u64::from(!r.right());
            }
            None => {}
        }
    }

    fn with_rates(mut self) -> Verification {
        let rate = |a: u64, b: u64| (b > 0).then(|| a as f64 / b as f64);
        self.correct_rate = rate(self.correct_passed, self.correct);
        self.incorrect_rate = rate(self.incorrect_failed, self.incorrect);
        self
    }
}

/// How the figures were made: enough to make them again, or to see why two differ.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Manifest {
    /// The judge's version.
    pub judge: String,
    pub profile: String,
    /// The data set: its path and SHA-256 (of a folder of shards or with `--tests`, the hash of
    /// every file's name and hash in order).
    pub dataset: FileRecord,
    /// A folder's Parquet shards, each with its SHA-256, in the order read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<FileRecord>,
    /// `--tests`' files (open-r1's generated tests), each with its SHA-256.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<FileRecord>,
    pub format: String,
    /// The samples file; `None`: the data set's own solutions.
    pub samples: Option<FileRecord>,
    /// Where the time and memory limits come from.
    pub limits: String,
    /// How outputs are compared.
    pub comparison: String,
    /// Every test run, or each sample stopped at its first failure.
    pub all_tests: bool,
    /// `--max-tests`: each problem judged on this many of its tests, the largest inputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tests: Option<usize>,
    /// The toolchains that built this run's samples.
    pub toolchains: Vec<Toolchain>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileRecord {
    pub path: String,
    pub sha256: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Toolchain {
    pub language: String,
    /// The compiler's (or interpreter's) identity, as its version command says it.
    pub version: String,
    /// The command that builds a source, flags and all (none for an interpreter).
    pub build: Option<String>,
    pub run: String,
}

/// A problem as the summary starts from it: its id, its tests, or why it was not judged.
pub struct Listed {
    pub id: String,
    /// The tests run, and (with `--max-tests`) the tests in all.
    pub tests: usize,
    pub tests_total: Option<usize>,
    pub error: Option<String>,
}

/// The summary of `results` over the problems `listed`, for each of `ks`.
pub fn summarise(
    listed: Vec<Listed>,
    results: &[SampleResult],
    ks: &[u64],
    manifest: Manifest,
) -> Summary {
    let mut by_problem: BTreeMap<&str, Vec<&SampleResult>> = BTreeMap::new();
    for r in results {
        by_problem.entry(&r.problem).or_default().push(r);
    }
    let verifying = manifest.samples.is_none();
    let problems: Vec<ProblemSummary> = listed
        .into_iter()
        .map(|l| {
            let mine = by_problem.get(l.id.as_str()).cloned().unwrap_or_default();
            let counted = mine.iter().filter(|r| r.counted);
            let n = counted.clone().count() as u64;
            let c = counted.filter(|r| r.right()).count() as u64;
            let mut verification = Verification::default();
            mine.iter().for_each(|r| verification.add(r));
            let judged = l.error.is_none();
            ProblemSummary {
                pass_at_k: ks
                    .iter()
                    .filter(|_| judged)
                    .filter_map(|&k| Some((k.to_string(), passk::pass_at_k(n, c, k)?)))
                    .collect(),
                id: l.id,
                n,
                c,
                tests: l.tests,
                tests_total: l.tests_total,
                not_counted: mine.len() as u64 - n,
                error: l.error,
                verification: verifying.then(|| verification.with_rates()),
            }
        })
        .collect();
    let judged: Vec<(u64, u64)> = problems
        .iter()
        .filter(|p| p.error.is_none())
        .map(|p| (p.n, p.c))
        .collect();
    let means = passk::mean(&judged, ks);
    let verification = verifying.then(|| {
        let mut all = Verification::default();
        results.iter().for_each(|r| all.add(r));
        all.with_rates()
    });
    Summary {
        manifest,
        errors: problems.iter().filter(|p| p.error.is_some()).count(),
        pass_at_k: means
            .iter()
            .filter_map(|(k, (mean, _))| Some((k.to_string(), (*mean)?)))
            .collect(),
        pass_at_k_problems: means
            .iter()
            .map(|(k, (_, over))| (k.to_string(), *over))
            .collect(),
        problems,
        verification,
        against: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::verdict::Verdict;

    fn result(
        problem: &str,
        verdict: Option<Verdict>,
        counted: bool,
        correct: Option<bool>,
    ) -> SampleResult {
        SampleResult {
            problem: problem.into(),
            sample: 0,
            language: "python".into(),
            correct,
            verdict,
            passed: 0,
            total: 1,
            reason: None,
            compiler: None,
            profile: "judge".into(),
            counted,
            tests: Vec::new(),
        }
    }

    fn manifest(samples: bool) -> Manifest {
        let file = FileRecord {
            path: "f".into(),
            sha256: "0".repeat(64),
        };
        Manifest {
            judge: "0".into(),
            profile: "default".into(),
            dataset: file.clone(),
            shards: Vec::new(),
            tests: Vec::new(),
            format: "code_contests".into(),
            samples: samples.then_some(file),
            limits: String::new(),
            comparison: String::new(),
            all_tests: false,
            max_tests: None,
            toolchains: Vec::new(),
        }
    }

    fn listed(id: &str, error: Option<&str>) -> Listed {
        Listed {
            id: id.into(),
            tests: 1,
            tests_total: None,
            error: error.map(str::to_string),
        }
    }

    #[test]
    fn an_internal_error_is_neither_a_pass_nor_a_fail_and_an_error_is_in_no_mean() {
        let results = [
            result("a", Some(Verdict::Ac), true, None),
            result("a", Some(Verdict::Wa), true, None),
            result("a", Some(Verdict::Ie), false, None),
            result("a", None, true, None),
        ];
        let s = summarise(
            vec![
                listed("a", None),
                listed("b", Some("the problem has no tests")),
            ],
            &results,
            &[1, 4],
            manifest(true),
        );
        let a = &s.problems[0];
        assert_eq!((a.n, a.c, a.not_counted), (3, 1, 1));
        assert_eq!(a.pass_at_k["1"], 1.0 / 3.0);
        assert!(!a.pass_at_k.contains_key("4"));
        assert!(s.problems[1].pass_at_k.is_empty());
        assert_eq!(s.errors, 1);
        assert_eq!(s.pass_at_k["1"], 1.0 / 3.0);
        assert_eq!(s.pass_at_k_problems["1"], 1);
        assert!(!s.pass_at_k.contains_key("4"));
        assert_eq!(s.verification, None);
    }

    #[test]
    fn the_data_sets_solutions_are_counted_right_and_wrong() {
        let results = [
            result("a", Some(Verdict::Ac), true, Some(true)),
            result("a", Some(Verdict::Tle), true, Some(true)),
            result("a", Some(Verdict::Wa), true, Some(false)),
            result("a", Some(Verdict::Ac), true, Some(false)),
            // Python 2: not run, says nothing of the data set.
            result("a", None, false, Some(true)),
        ];
        let s = summarise(vec![listed("a", None)], &results, &[1], manifest(false));
        let v = s.verification.clone().unwrap();
        assert_eq!(
            (v.correct, v.correct_passed, v.incorrect, v.incorrect_failed),
            (2, 1, 2, 1)
        );
        assert_eq!(v.correct_rate, Some(0.5));
        assert!(s.verification_failed());
        assert_eq!(s.problems[0].verification, Some(v));
    }
}
