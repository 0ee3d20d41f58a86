//! Growth models fitted by least squares on log(time), one straight line per model, so that every
//! model has two parameters and their R² can be compared: exponential (log t against n),
//! polynomial (against log n), factorial (against log n!) and n^n (against n log n).

use serde::Serialize;

use super::{GOOD_R2, MEASURABLE_FLOOR_MS, MIN_POINTS};

/// A growth model: time = c · g(n).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum Model {
    /// t ∝ n^degree
    Polynomial { degree: f64 },
    /// t ∝ base^n
    Exponential { base: f64 },
    /// t ∝ (n!)^power
    Factorial { power: f64 },
    /// t ∝ (n^n)^power
    NToTheN { power: f64 },
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let power = |p: f64| {
            if (p - 1.0).abs() < 0.05 {
                String::new()
            } else {
                format!("^{p:.2}")
            }
        };
        match *self {
            Model::Polynomial { degree } => write!(f, "polynomial n^{degree:.1}"),
            Model::Exponential { base } => write!(f, "exponential {base:.2}^n"),
            Model::Factorial { power: p } => {
                let p = power(p);
                if p.is_empty() {
                    write!(f, "factorial n!")
                } else {
                    write!(f, "factorial (n!){p}")
                }
            }
            Model::NToTheN { power: p } => {
                let p = power(p);
                if p.is_empty() {
                    write!(f, "n^n")
                } else {
                    write!(f, "(n^n){p}")
                }
            }
        }
    }
}

/// A fitted model and how well it fits.
#[derive(Debug, Clone, Copy, Serialize, schemars::JsonSchema)]
pub struct Fit {
    #[serde(flatten)]
    pub model: Model,
    /// Coefficient of determination of the line on log(time), 1 is a perfect fit.
    pub r2: f64,
}

/// The models fitted to one solution's times, best first.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Fits {
    pub fits: Vec<Fit>,
    /// Sizes used (their time was at least the measurable floor).
    pub points: usize,
    /// Sizes left out because their time was below the measurable floor.
    pub below_floor: Vec<u64>,
    /// Too few points, or the best R² is under [`GOOD_R2`].
    pub poor: bool,
}

impl Fits {
    pub fn best(&self) -> Option<&Fit> {
        self.fits.first()
    }
}

/// Least squares of y on x: (slope, intercept, R²). None for fewer than two distinct x.
pub fn linear_fit(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let syy: f64 = points.iter().map(|p| (p.1 - my).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let ss_res: f64 = points
        .iter()
        .map(|p| (p.1 - (intercept + slope * p.0)).powi(2))
        .sum();
    let r2 = if syy > 0.0 { 1.0 - ss_res / syy } else { 1.0 };
    Some((slope, intercept, r2))
}

fn ln_factorial(n: u64) -> f64 {
    (2..=n).map(|k| (k as f64).ln()).sum()
}

/// Fits the growth models to (size, CPU ms) measurements, ignoring those below the floor.
pub fn fit(measured: &[(u64, f64)]) -> Fits {
    let below_floor: Vec<u64> = measured
        .iter()
        .filter(|(_, ms)| *ms < MEASURABLE_FLOOR_MS)
        .map(|(n, _)| *n)
        .collect();
    let used: Vec<(u64, f64)> = measured
        .iter()
        .copied()
        .filter(|(n, ms)| *ms >= MEASURABLE_FLOOR_MS && *n >= 1)
        .collect();
    let line = |x: &dyn Fn(u64) -> f64| {
        let pts: Vec<(f64, f64)> = used.iter().map(|&(n, ms)| (x(n), ms.ln())).collect();
        linear_fit(&pts)
    };
    let mut fits = Vec::new();
    if let Some((s, _, r2)) = line(&|n| n as f64) {
        fits.push(Fit {
            model: Model::Exponential { base: s.exp() },
            r2,
        });
    }
    if let Some((s, _, r2)) = line(&|n| (n as f64).ln()) {
        fits.push(Fit {
            model: Model::Polynomial { degree: s },
            r2,
        });
    }
    if let Some((s, _, r2)) = line(&ln_factorial) {
        fits.push(Fit {
            model: Model::Factorial { power: s },
            r2,
        });
    }
    if let Some((s, _, r2)) = line(&|n| n as f64 * (n as f64).ln()) {
        fits.push(Fit {
            model: Model::NToTheN { power: s },
            r2,
        });
    }
    fits.sort_by(|a, b| b.r2.total_cmp(&a.r2));
    let poor = used.len() < MIN_POINTS || fits.first().is_none_or(|f| f.r2 < GOOD_R2);
    Fits {
        fits,
        points: used.len(),
        below_floor,
        poor,
    }
}

/// Growth per +1 n between two measured sizes: (t2 / t1)^(1 / (n2 - n1)).
pub fn growth_per_unit(n1: u64, ms1: f64, n2: u64, ms2: f64) -> Option<f64> {
    if n2 <= n1 || ms1 <= 0.0 || ms2 <= 0.0 {
        return None;
    }
    Some((ms2 / ms1).powf(1.0 / (n2 - n1) as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn times(f: impl Fn(u64) -> f64, sizes: std::ops::RangeInclusive<u64>) -> Vec<(u64, f64)> {
        sizes.map(|n| (n, f(n))).collect()
    }

    #[test]
    fn an_exponential_is_recognised_with_its_base() {
        let fits = fit(&times(|n| 0.01 * 6.0f64.powi(n as i32), 4..=12));
        let best = fits.best().unwrap();
        match best.model {
            Model::Exponential { base } => assert!((base - 6.0).abs() < 1e-6, "{base}"),
            m => panic!("{m:?}"),
        }
        assert!(best.r2 > 0.9999);
        assert!(!fits.poor);
        // 0.01 * 6^4 = 13 ms: nothing below the floor.
        assert!(fits.below_floor.is_empty());
    }

    #[test]
    fn a_polynomial_is_recognised_with_its_degree() {
        let fits = fit(&times(|n| 0.5 * (n as f64).powi(3), 10..=200));
        match fits.best().unwrap().model {
            Model::Polynomial { degree } => assert!((degree - 3.0).abs() < 1e-6, "{degree}"),
            m => panic!("{m:?}"),
        }
    }

    #[test]
    fn factorial_and_n_to_the_n_are_told_apart() {
        let fact = fit(&times(
            |n| (1..=n).map(|k| k as f64).product::<f64>(),
            4..=12,
        ));
        assert!(
            matches!(fact.best().unwrap().model, Model::Factorial { power } if (power - 1.0).abs() < 1e-6)
        );
        let nn = fit(&times(|n| 1e-3 * (n as f64).powi(n as i32), 4..=10));
        assert!(
            matches!(nn.best().unwrap().model, Model::NToTheN { power } if (power - 1.0).abs() < 1e-6)
        );
    }

    #[test]
    fn small_times_are_left_out_and_few_points_are_a_poor_fit() {
        let fits = fit(&[(4, 0.3), (5, 1.0), (6, 6.0), (7, 36.0)]);
        assert_eq!(fits.below_floor, vec![4, 5]);
        assert_eq!(fits.points, 2);
        assert!(fits.poor, "two points prove nothing");
    }

    #[test]
    fn noise_makes_a_poor_fit() {
        let fits = fit(&[
            (1, 50.0),
            (2, 9.0),
            (3, 80.0),
            (4, 7.0),
            (5, 60.0),
            (6, 10.0),
        ]);
        assert!(fits.poor);
        assert!(fits.best().unwrap().r2 < GOOD_R2);
    }

    #[test]
    fn growth_is_per_unit_step() {
        assert!((growth_per_unit(4, 1.0, 6, 36.0).unwrap() - 6.0).abs() < 1e-9);
        assert_eq!(growth_per_unit(4, 0.0, 5, 1.0), None);
    }
}
