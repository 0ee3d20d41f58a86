//! How far a run is, as its progress line says it: the samples done of those to judge (judged,
//! or passed over with their problem's error), the
//! running pass@1 (each problem's right samples of its counted ones, averaged over the
//! problems), the samples judged a second and the time left at that rate.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::results::SampleResult;

/// A run's progress, fed each sample as it is judged.
#[derive(Debug, Clone)]
pub struct Progress {
    todo: usize,
    judged: usize,
    started: Instant,
    /// Each problem's samples counted in pass@k, and the right ones among them.
    problems: BTreeMap<String, (usize, usize)>,
}

impl Progress {
    /// A run with `todo` samples to judge, starting now.
    pub fn new(todo: usize) -> Progress {
        Progress::since(todo, Instant::now())
    }

    fn since(todo: usize, started: Instant) -> Progress {
        Progress {
            todo,
            judged: 0,
            started,
            problems: BTreeMap::new(),
        }
    }

    /// One more sample judged.
    pub fn add(&mut self, result: &SampleResult) {
        self.judged += 1;
        if result.counted {
            let (n, c) = self.problems.entry(result.problem.clone()).or_default();
            *n += 1;
            *c += usize::from(result.right());
        }
    }

    /// One more sample passed over: its problem cannot be judged.
    pub fn skip(&mut self) {
        self.judged += 1;
    }

    pub fn judged(&self) -> usize {
        self.judged
    }

    pub fn todo(&self) -> usize {
        self.todo
    }

    /// pass@1 over the samples judged so far; `None` before one counts.
    pub fn pass1(&self) -> Option<f64> {
        if self.problems.is_empty() {
            return None;
        }
        let sum: f64 = self
            .problems
            .values()
            .map(|&(n, c)| c as f64 / n as f64)
            .sum();
        Some(sum / self.problems.len() as f64)
    }

    /// Samples judged a second since the start.
    pub fn rate(&self) -> f64 {
        self.rate_at(self.started.elapsed())
    }

    fn rate_at(&self, elapsed: Duration) -> f64 {
        let secs = elapsed.as_secs_f64();
        if secs <= 0.0 {
            return 0.0;
        }
        self.judged as f64 / secs
    }

    /// The time left at the rate so far; `None` before a sample is judged.
    pub fn eta(&self) -> Option<Duration> {
        self.eta_at(self.started.elapsed())
    }

    fn eta_at(&self, elapsed: Duration) -> Option<Duration> {
        let rate = self.rate_at(elapsed);
        (self.judged > 0 && rate > 0.0)
            .then(|| Duration::from_secs_f64(self.todo.saturating_sub(self.judged) as f64 / rate))
    }

    /// Whether every sample to judge is judged.
    pub fn finished(&self) -> bool {
        self.judged >= self.todo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(problem: &str, right: bool, counted: bool) -> SampleResult {
        SampleResult {
            problem: problem.into(),
            sample: 0,
            language: "python".into(),
            correct: None,
            verdict: Some(if right {
                judge_core::verdict::Verdict::Ac
            } else {
                judge_core::verdict::Verdict::Wa
            }),
            passed: 0,
            total: 1,
            reason: None,
            compiler: None,
            profile: "judge".into(),
            counted,
            tests: Vec::new(),
        }
    }

    #[test]
    fn pass1_is_the_mean_over_problems_of_their_right_share() {
        let mut p = Progress::new(5);
        assert_eq!(p.pass1(), None);
        p.add(&result("a", true, true));
        p.add(&result("a", false, true));
        p.add(&result("b", true, true));
        // Not counted: the judge's fault, never the sample's.
        p.add(&result("c", false, false));
        assert_eq!(p.pass1(), Some(0.75));
        assert_eq!(p.judged(), 4);
        assert!(!p.finished());
    }

    #[test]
    fn the_time_left_is_at_the_rate_so_far() {
        let start = Instant::now();
        let mut p = Progress::since(10, start);
        assert_eq!(p.eta_at(Duration::from_secs(1)), None);
        for _ in 0..4 {
            p.add(&result("a", true, true));
        }
        assert_eq!(p.rate_at(Duration::from_secs(2)), 2.0);
        assert_eq!(
            p.eta_at(Duration::from_secs(2)),
            Some(Duration::from_secs(3))
        );
    }
}
