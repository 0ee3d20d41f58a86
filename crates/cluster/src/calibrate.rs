//! How fast a machine is, as one number: the microseconds a fixed CPU-bound loop takes (the
//! fastest of several rounds: a busy machine slows some rounds, never speeds one up), measured
//! when a worker starts and when work is handed out. Two machines are compared by the ratio of
//! their figures.

use std::hint::black_box;
use std::time::Instant;

/// Iterations of the loop: about 30 ms on a machine of today.
const ITERATIONS: u64 = 30_000_000;
const ROUNDS: usize = 7;

/// This machine's figure (lower is faster).
pub fn calibrate() -> u64 {
    (0..ROUNDS).map(|_| round()).min().expect("rounds")
}

/// One round: an integer hash chain (multiplications and shifts the compiler cannot fold away).
fn round() -> u64 {
    let started = Instant::now();
    let mut x = black_box(0x9e37_79b9_7f4a_7c15u64);
    for i in 0..black_box(ITERATIONS) {
        x ^= x >> 31;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9).wrapping_add(i);
    }
    black_box(x);
    started.elapsed().as_micros().max(1) as u64
}

/// How a worker's speed bears on a time limit, by the documented rule: within `MARGIN` of the
/// submitting machine, the limit stands; beyond it, the limit is scaled by the ratio of the
/// figures (a slower worker gets more time, a faster one less), and the report says so.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeRule {
    AsIs,
    Scaled(f64),
}

/// The difference of speed (either way) within which limits are not touched: 15%. Two
/// calibrations of one busy machine were seen 10% apart; machines of different generations
/// differ by far more.
pub const MARGIN: f64 = 0.15;

impl TimeRule {
    pub fn between(worker_us: u64, submitter_us: u64) -> TimeRule {
        if worker_us == 0 || submitter_us == 0 {
            return TimeRule::AsIs;
        }
        let ratio = worker_us as f64 / submitter_us as f64;
        if (1.0 - MARGIN..=1.0 + MARGIN).contains(&ratio) {
            TimeRule::AsIs
        } else {
            TimeRule::Scaled((ratio * 1000.0).round() / 1000.0)
        }
    }

    pub fn factor(self) -> Option<f64> {
        match self {
            TimeRule::AsIs => None,
            TimeRule::Scaled(f) => Some(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figure_is_steady_and_positive() {
        let (a, b) = (calibrate(), calibrate());
        assert!(a > 0 && b > 0);
        // Generous: the machine may be shared; the medians of one process still agree.
        let ratio = a.max(b) as f64 / a.min(b) as f64;
        assert!(ratio < 3.0, "{a} µs against {b} µs");
    }

    #[test]
    fn limits_stand_within_the_margin_and_scale_beyond() {
        assert_eq!(TimeRule::between(1140, 1000), TimeRule::AsIs);
        assert_eq!(TimeRule::between(860, 1000), TimeRule::AsIs);
        assert_eq!(TimeRule::between(1500, 1000), TimeRule::Scaled(1.5));
        assert_eq!(TimeRule::between(500, 1000), TimeRule::Scaled(0.5));
        assert_eq!(TimeRule::between(0, 1000), TimeRule::AsIs);
    }
}
