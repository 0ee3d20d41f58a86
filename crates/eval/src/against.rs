//! `--against OTHER.jsonl`: this run's results set beside another run's, over the problems both
//! judged: the difference of mean pass@1, its 95% confidence interval by a paired bootstrap over
//! problems (a fixed seed, so the same files give the same interval), and the problems whose
//! result flipped. Pure but for reading the other file, which is never written.

use std::collections::BTreeMap;
use std::path::Path;

use judge_core::error::Location;
use judge_core::schema::Document;
use schemars::JsonSchema;
use serde::Serialize;

use crate::results::SampleResult;
use crate::Error;

/// How many times the problems are drawn again: enough that the interval's ends move by less
/// than a thousandth between seeds on a few hundred problems.
pub const RESAMPLES: usize = 10_000;

/// The bootstrap's seed: fixed, so that an interval is a property of the two files alone.
const SEED: u64 = 0x6a75_6467_6533_3321;

/// The comparison, as the summary carries it (`against` in `judge.eval/1`).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Against {
    /// The other run's results file, as it was named.
    pub file: String,
    /// The problems both runs judged (a counted sample in each): the figures are over these.
    pub problems: usize,
    /// The mean pass@1 of this run and of the other over those problems; `None` when there
    /// are none.
    pub this: Option<f64>,
    pub other: Option<f64>,
    /// `this - other`.
    pub difference: Option<f64>,
    /// The 95% interval of the difference, the 2.5th and 97.5th percentiles of its paired
    /// bootstrap over problems.
    pub ci95: Option<[f64; 2]>,
    /// The problems one run solved with every sample and the other with none, by id.
    pub flipped: Vec<Flipped>,
}

/// A problem whose result flipped: its pass@1 in each run (one of them 1, the other 0).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Flipped {
    pub id: String,
    pub this: f64,
    pub other: f64,
}

/// Reads another run's results file whole, every line a sample's result; the file is left as
/// it is (a cut last line is an error here, not dropped: it is not this run's file to mend).
pub fn read(path: &Path) -> Result<Vec<SampleResult>, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => not_results(path, None, "it is not UTF-8 text"),
        _ => Error::io("read", path, e),
    })?;
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| not_results(path, Some(i + 1), &format!("the line is not JSON: {e}")))?;
        match value.get("schema").and_then(|s| s.as_str()) {
            Some(s) if s == SampleResult::SCHEMA => {}
            other => {
                let said = other.map_or("none".to_string(), |s| format!("`{s}`"));
                let why = format!(
                    "the line's schema is {said}, not `{}` (a line of `judge eval --out`)",
                    SampleResult::SCHEMA
                );
                return Err(not_results(path, Some(i + 1), &why));
            }
        }
        let result = serde_json::from_value(value).map_err(|e| {
            not_results(
                path,
                Some(i + 1),
                &format!("the line is not a sample's result: {e}"),
            )
        })?;
        found.push(result);
    }
    if found.is_empty() {
        return Err(not_results(path, None, "the file holds no results"));
    }
    Ok(found)
}

fn not_results(path: &Path, line: Option<usize>, message: &str) -> Error {
    Error::Against {
        at: Location::file(path).with_line(line),
        message: message.to_string(),
    }
}

/// Each problem's pass@1 (right samples over counted ones), for the problems with a counted
/// sample.
fn pass_at_1(results: &[SampleResult]) -> BTreeMap<&str, f64> {
    let mut counts: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for r in results.iter().filter(|r| r.counted) {
        let (n, c) = counts.entry(&r.problem).or_default();
        *n += 1;
        *c += u64::from(r.right());
    }
    counts
        .into_iter()
        .map(|(id, (n, c))| (id, c as f64 / n as f64))
        .collect()
}

/// `this` run's results against `other`'s, the other named `file`.
pub fn compare(file: &str, this: &[SampleResult], other: &[SampleResult]) -> Against {
    let mine = pass_at_1(this);
    let theirs = pass_at_1(other);
    // Paired: (this, other) of each problem both judged, in the order of their ids.
    let pairs: Vec<(&str, f64, f64)> = mine
        .iter()
        .filter_map(|(id, &a)| Some((*id, a, *theirs.get(id)?)))
        .collect();
    let mean = |f: fn(&(&str, f64, f64)) -> f64| {
        (!pairs.is_empty()).then(|| pairs.iter().map(f).sum::<f64>() / pairs.len() as f64)
    };
    let (this_mean, other_mean) = (mean(|p| p.1), mean(|p| p.2));
    let differences: Vec<f64> = pairs.iter().map(|p| p.1 - p.2).collect();
    Against {
        file: file.to_string(),
        problems: pairs.len(),
        this: this_mean,
        other: other_mean,
        difference: this_mean.zip(other_mean).map(|(a, b)| a - b),
        ci95: bootstrap(&differences, RESAMPLES, SEED),
        flipped: pairs
            .iter()
            .filter(|(_, a, b)| (*a == 1.0 && *b == 0.0) || (*a == 0.0 && *b == 1.0))
            .map(|&(id, a, b)| Flipped {
                id: id.to_string(),
                this: a,
                other: b,
            })
            .collect(),
    }
}

/// The 95% percentile interval of the mean of `differences`, over `resamples` draws of as
/// many problems with replacement; `None` with no problems.
pub fn bootstrap(differences: &[f64], resamples: usize, seed: u64) -> Option<[f64; 2]> {
    if differences.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = SplitMix64(seed);
    let n = differences.len();
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| {
            let sum: f64 = (0..n).map(|_| differences[rng.below(n)]).sum();
            sum / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((q * resamples as f64).floor() as usize).min(resamples - 1)];
    Some([at(0.025), at(0.975)])
}

/// SplitMix64 (Steele, Lea and Flood): a small generator whose stream is fixed by its seed on
/// every machine, which is all a reproducible bootstrap asks of it.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, by the multiply-shift rule (its bias is below 2^-32 for any n a
    /// data set has).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::verdict::Verdict;

    fn result(problem: &str, right: bool) -> SampleResult {
        SampleResult {
            problem: problem.into(),
            sample: 0,
            language: "python".into(),
            correct: None,
            verdict: Some(if right { Verdict::Ac } else { Verdict::Wa }),
            passed: 0,
            total: 1,
            reason: None,
            compiler: None,
            profile: "judge".into(),
            counted: true,
            tests: Vec::new(),
        }
    }

    /// Problem `p{i}` with `right` of `n` samples right, for each (right, n).
    fn run(problems: &[(usize, usize)]) -> Vec<SampleResult> {
        let mut all = Vec::new();
        for (i, &(right, n)) in problems.iter().enumerate() {
            for s in 0..n {
                all.push(result(&format!("p{i}"), s < right));
            }
        }
        all
    }

    #[test]
    fn the_same_results_differ_by_zero_with_an_interval_of_zero() {
        let a = run(&[(1, 2), (0, 3), (4, 4), (2, 5)]);
        let cmp = compare("other.jsonl", &a, &a);
        assert_eq!(cmp.problems, 4);
        assert_eq!(cmp.difference, Some(0.0));
        assert_eq!(cmp.ci95, Some([0.0, 0.0]));
        assert!(cmp.flipped.is_empty());
    }

    #[test]
    fn every_problem_improved_puts_the_interval_above_zero_and_names_the_flips() {
        let this = run(&[(2, 2), (3, 4), (1, 2), (4, 4), (2, 3)]);
        let other = run(&[(0, 2), (1, 4), (0, 2), (3, 4), (1, 3), (1, 1)]);
        let cmp = compare("other.jsonl", &this, &other);
        // p5 is the other's alone: not in the figures.
        assert_eq!(cmp.problems, 5);
        let [lo, hi] = cmp.ci95.unwrap();
        assert!(lo > 0.0 && lo <= hi, "{lo} {hi}");
        let d = cmp.difference.unwrap();
        assert!(lo <= d && d <= hi, "{lo} {d} {hi}");
        let expected = (1.0 + 0.5 + 0.5 + 0.25 + 1.0 / 3.0) / 5.0;
        assert!((d - expected).abs() < 1e-12, "{d}");
        assert_eq!(
            cmp.flipped,
            vec![Flipped {
                id: "p0".into(),
                this: 1.0,
                other: 0.0
            }]
        );
    }

    #[test]
    fn the_interval_is_the_same_every_time_and_hardly_moves_with_the_seed() {
        let d = [0.5, -0.25, 0.0, 1.0, 0.125, -1.0, 0.75];
        let first = bootstrap(&d, RESAMPLES, SEED);
        assert_eq!(first, bootstrap(&d, RESAMPLES, SEED));
        let [lo, hi] = first.unwrap();
        assert!(lo < hi && lo >= -1.0 && hi <= 1.0, "{lo} {hi}");
        // Another seed: another draw, the same interval within the bootstrap's own noise.
        let [lo2, hi2] = bootstrap(&d, RESAMPLES, SEED ^ 0xffff).unwrap();
        assert!(
            (lo - lo2).abs() < 0.05 && (hi - hi2).abs() < 0.05,
            "{lo2} {hi2}"
        );
        assert_eq!(bootstrap(&[], RESAMPLES, SEED), None);
    }

    #[test]
    fn no_problem_in_common_has_no_figures() {
        let cmp = compare("o", &run(&[(1, 1)]), &[result("q", true)]);
        assert_eq!((cmp.problems, cmp.difference, cmp.ci95), (0, None, None));
    }

    #[test]
    fn a_file_of_other_lines_is_an_error_naming_it_and_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("samples.jsonl");
        std::fs::write(
            &path,
            "{\"problem\": \"a\", \"language\": \"python\", \"code\": \"\"}\n",
        )
        .unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(
            e.contains("samples.jsonl:1") && e.contains("schema is none") && e.contains("fix:"),
            "{e}"
        );
        std::fs::write(&path, "\n").unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("holds no results"), "{e}");
    }
}
