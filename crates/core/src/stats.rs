//! Pure arithmetic on measured times: median and spread of repeats, relative speed, the time-limit rules.

use std::time::Duration;

/// A spread of repeats wider than this share of the median is flagged.
pub const WIDE_SPREAD: f64 = 0.25;
/// ... unless the runs differ by less than this: a few milliseconds are the clock's noise.
pub const WIDE_SPREAD_FLOOR: Duration = Duration::from_millis(5);
/// A case whose CPU time is within this share of the limit gets a warning.
pub const NEAR_LIMIT: f64 = 0.10;

/// The median; of an even count, the mean of the two middle values.
pub fn median(values: &[Duration]) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    let mut v = values.to_vec();
    v.sort();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2
    }
}

/// (max - min) / median; 0 for fewer than two runs or a zero median.
pub fn spread(values: &[Duration]) -> f64 {
    let (Some(min), Some(max)) = (values.iter().min(), values.iter().max()) else {
        return 0.0;
    };
    let m = median(values).as_secs_f64();
    if values.len() < 2 || m == 0.0 {
        return 0.0;
    }
    (*max - *min).as_secs_f64() / m
}

/// Whether the runs of a case disagree enough to distrust its time.
pub fn wide_spread(values: &[Duration]) -> bool {
    let (Some(min), Some(max)) = (values.iter().min(), values.iter().max()) else {
        return false;
    };
    *max - *min >= WIDE_SPREAD_FLOOR && spread(values) > WIDE_SPREAD
}

/// Whether an accepted time is within 10% of the limit.
pub fn near_limit(time: Duration, limit: Duration) -> bool {
    time <= limit && time.as_secs_f64() >= limit.as_secs_f64() * (1.0 - NEAR_LIMIT)
}

/// How a time limit is chosen and checked (problemtools' rule, and a package's own settings
/// of it): fixed, or derived from the slowest accepted case, and the margin by which a
/// too-slow solution must still fail.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct TimeLimitRule {
    /// The limit, when fixed (a problem.toml's `time_limit`, a package's `limits.time_limit`).
    #[serde(rename = "fixed_ms", serialize_with = "crate::units::serde_as::opt_ms")]
    #[schemars(with = "Option<u64>")]
    pub fixed: Option<Duration>,
    /// The slowest accepted case times this justifies the limit ...
    pub ac_to_limit: f64,
    /// ... rounded up to a multiple of this.
    #[serde(
        rename = "resolution_ms",
        serialize_with = "crate::units::serde_as::ms"
    )]
    #[schemars(with = "u64")]
    pub resolution: Duration,
    /// Every solution is also judged at the limit times this (the safety margin): one meant
    /// to be too slow must fail there too.
    pub limit_to_tle: f64,
}

impl TimeLimitRule {
    /// problemtools' current defaults: x 2, whole seconds, margin x 1.5.
    pub const DEFAULT: TimeLimitRule = TimeLimitRule {
        fixed: None,
        ac_to_limit: 2.0,
        resolution: Duration::from_secs(1),
        limit_to_tle: 1.5,
    };

    /// The limit the slowest accepted time justifies: `max(1, ceil(T x m / r)) x r`, so with
    /// the defaults 1.45 s gives 2.9 s, rounded up to 3 s.
    pub fn derive(&self, slowest: Duration) -> Duration {
        let res = self.resolution.as_nanos().max(1);
        let scaled = (slowest.as_nanos() as f64 * self.ac_to_limit).round() as u128;
        let steps = scaled.div_ceil(res).max(1);
        Duration::from_nanos((steps * res) as u64)
    }

    /// The limit in use: the fixed one, or the one `slowest` justifies.
    pub fn limit(&self, slowest: Option<Duration>) -> Option<Duration> {
        self.fixed.or(slowest.map(|s| self.derive(s)))
    }

    /// How the derived limit is rounded, as said after "rounded up to": "a whole second", "a
    /// multiple of 100 ms"; none where it is not rounded.
    pub fn rounding(&self) -> Option<String> {
        match self.resolution {
            r if r <= Duration::from_nanos(1) => None,
            r if r == Duration::from_secs(1) => Some("a whole second".into()),
            r => Some(format!(
                "a multiple of {}",
                crate::units::format_duration(r)
            )),
        }
    }

    /// Where a too-slow solution must still fail: the limit x the safety margin.
    pub fn margin(&self, limit: Duration) -> Duration {
        limit.mul_f64(self.limit_to_tle)
    }
}

/// How many times faster `fast` ran than `slow`, from per-repeat sums of CPU time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ratio {
    /// Ratio of the summed median times.
    pub factor: f64,
    /// Standard deviation of the per-repeat ratios; None with a single run.
    pub spread: Option<f64>,
}

/// `slow[i]` and `fast[i]` are the summed CPU times of repeat `i` over the same cases;
/// `slow_median` and `fast_median` the sums of the cases' medians.
pub fn ratio(
    slow_median: Duration,
    fast_median: Duration,
    slow: &[Duration],
    fast: &[Duration],
) -> Option<Ratio> {
    if fast_median.is_zero() {
        return None;
    }
    let factor = slow_median.as_secs_f64() / fast_median.as_secs_f64();
    let per_repeat: Vec<f64> = slow
        .iter()
        .zip(fast)
        .filter(|(_, f)| !f.is_zero())
        .map(|(s, f)| s.as_secs_f64() / f.as_secs_f64())
        .collect();
    let spread = (per_repeat.len() >= 2).then(|| {
        let mean = per_repeat.iter().sum::<f64>() / per_repeat.len() as f64;
        let var = per_repeat.iter().map(|r| (r - mean).powi(2)).sum::<f64>()
            / (per_repeat.len() - 1) as f64;
        var.sqrt()
    });
    Some(Ratio { factor, spread })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: &[u64]) -> Vec<Duration> {
        v.iter().map(|m| Duration::from_millis(*m)).collect()
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&ms(&[30, 10, 20])), Duration::from_millis(20));
        assert_eq!(median(&ms(&[10, 40, 20, 30])), Duration::from_millis(25));
        assert_eq!(median(&[]), Duration::ZERO);
    }

    #[test]
    fn spread_is_flagged_only_when_wide_and_measurable() {
        assert_eq!(spread(&ms(&[100])), 0.0);
        assert!((spread(&ms(&[100, 110, 150])) - 0.5 / 1.1).abs() < 1e-9);
        assert!(wide_spread(&ms(&[100, 110, 150])));
        assert!(!wide_spread(&ms(&[100, 105, 110])));
        // 1 ms against 3 ms is 200%, but only clock noise.
        assert!(!wide_spread(&ms(&[1, 3, 2])));
    }

    #[test]
    fn near_the_limit_means_within_ten_percent_below_it() {
        let limit = Duration::from_secs(1);
        assert!(near_limit(Duration::from_millis(900), limit));
        assert!(near_limit(Duration::from_millis(1000), limit));
        assert!(!near_limit(Duration::from_millis(899), limit));
        assert!(!near_limit(Duration::from_millis(1001), limit));
    }

    #[test]
    fn the_justified_limit_is_twice_the_slowest_rounded_up_to_a_second() {
        let j = |m| TimeLimitRule::DEFAULT.derive(Duration::from_millis(m));
        assert_eq!(j(1450), Duration::from_secs(3));
        assert_eq!(j(1500), Duration::from_secs(3));
        assert_eq!(j(1501), Duration::from_secs(4));
        assert_eq!(j(10), Duration::from_secs(1));
        assert_eq!(j(0), Duration::from_secs(1));
    }

    #[test]
    fn ratios_and_their_spread() {
        let r = ratio(
            Duration::from_millis(200),
            Duration::from_millis(100),
            &[],
            &[],
        )
        .unwrap();
        assert_eq!(r.factor, 2.0);
        assert_eq!(r.spread, None);
        let r = ratio(
            Duration::from_millis(200),
            Duration::from_millis(100),
            &ms(&[180, 200, 220]),
            &ms(&[100, 100, 100]),
        )
        .unwrap();
        assert!((r.spread.unwrap() - 0.2).abs() < 1e-9);
        assert!(ratio(Duration::from_millis(5), Duration::ZERO, &[], &[]).is_none());
    }
}
