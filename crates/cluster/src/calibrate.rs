//! How fast a machine is, as one number: the microseconds a fixed CPU-bound loop takes (the
//! fastest of several rounds: a busy machine slows some rounds, never speeds one up), measured
//! when a worker starts, and where work is handed out once a day (remembered in the cache).
//! Two machines are compared by the ratio of their figures.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// Iterations of the loop: about 30 ms on a machine of today.
const ITERATIONS: u64 = 30_000_000;
const ROUNDS: usize = 7;

/// This machine's figure (lower is faster).
pub fn calibrate() -> u64 {
    (0..ROUNDS).map(|_| round()).min().expect("rounds")
}

/// How long a remembered figure stands: a machine's speed does not change from one run to the
/// next, and each measurement costs a quarter of a second of CPU.
const REMEMBERED_FOR: Duration = Duration::from_secs(24 * 60 * 60);

/// This machine's figure as remembered in `dir` (`calibration.json`) when it was measured on
/// this CPU within the last day; else measured now and remembered. Of two measurements the
/// faster stands: a busy machine only ever measures slower.
pub fn remembered(dir: &Path) -> u64 {
    let file = dir.join("calibration.json");
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let cpu = cpu_model();
    let kept: Option<Remembered> = std::fs::read(&file)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .filter(|r: &Remembered| r.cpu == cpu);
    if let Some(r) = &kept {
        if now.saturating_sub(r.measured_at) < REMEMBERED_FOR.as_secs() {
            return r.micros;
        }
    }
    let micros = calibrate();
    let r = Remembered {
        cpu,
        micros,
        measured_at: now,
    };
    // Not remembered (a read-only cache): measured again next time, nothing else changes.
    let _ = std::fs::create_dir_all(dir).and_then(|()| {
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        std::io::Write::write_all(&mut tmp, &serde_json::to_vec(&r).expect("plain data"))?;
        tmp.persist(&file).map(drop).map_err(|e| e.error)
    });
    micros
}

/// A figure measured on this machine, with its CPU and when.
#[derive(Serialize, Deserialize)]
struct Remembered {
    cpu: String,
    micros: u64,
    measured_at: u64,
}

/// The CPU's model, as the kernel names it.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
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
    fn a_figure_is_remembered_for_a_day_on_the_same_cpu() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("calibration.json");
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let write = |cpu: &str, at: u64| {
            let r = Remembered {
                cpu: cpu.into(),
                micros: 1,
                measured_at: at,
            };
            std::fs::write(&file, serde_json::to_vec(&r).unwrap()).unwrap();
        };
        // No loop takes a microsecond: 1 is the remembered figure, anything else a measurement.
        write(&cpu_model(), now - 3600);
        assert_eq!(remembered(dir.path()), 1);
        write(&cpu_model(), now - 2 * 24 * 3600);
        let measured = remembered(dir.path());
        assert!(measured > 1);
        // And the new one is remembered in its place.
        assert_eq!(remembered(dir.path()), measured);
        write("another CPU", now);
        assert!(remembered(dir.path()) > 1);
        std::fs::write(&file, "not json").unwrap();
        assert!(remembered(dir.path()) > 1);
    }

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
