//! How a solution's cost grows with the input size: sizes, inputs from a template, growth factors, fitted growth models, the SVG chart.
//!
//! The fitting is plain least squares on log(time), one straight line per model, so that every
//! model has two parameters and their R² can be compared: exponential (log t against n),
//! polynomial (against log n), factorial (against log n!) and n^n (against n log n).

use std::fmt::Write as _;
use std::ops::Div;

use serde::Serialize;

/// Below this CPU time a measurement is mostly process start-up: it is shown but not fitted.
pub const MEASURABLE_FLOOR_MS: f64 = 5.0;
/// A fit is called poor below this R².
pub const GOOD_R2: f64 = 0.95;
/// A fit needs at least this many sizes above the floor to mean anything.
pub const MIN_POINTS: usize = 3;

/// Parses `4..16` (inclusive), `4..=16`, `4..16:2` (a step) or `4,6,8`.
pub fn parse_sizes(s: &str) -> Result<Vec<u64>, String> {
    let s = s.trim();
    let bad = || format!("`{s}` is not a list of sizes: write `4..16`, `4..16:2` or `4,6,8`");
    let sizes: Vec<u64> = if let Some((from, rest)) = s.split_once("..") {
        let (to, step) = match rest.split_once(':') {
            Some((to, step)) => (to, step.trim().parse::<u64>().map_err(|_| bad())?),
            None => (rest, 1),
        };
        let to = to.strip_prefix('=').unwrap_or(to);
        let (from, to): (u64, u64) = (
            from.trim().parse().map_err(|_| bad())?,
            to.trim().parse().map_err(|_| bad())?,
        );
        if step == 0 || from > to {
            return Err(bad());
        }
        (from..=to).step_by(step as usize).collect()
    } else {
        s.split(',')
            .map(|t| t.trim().parse::<u64>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?
    };
    if sizes.is_empty() || sizes.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!("{}: sizes must increase", bad()));
    }
    Ok(sizes)
}

/// The input for size `n`: `{n}` replaced, and the escapes `\n`, `\t`, `\\` read as such
/// (a shell passes them literally).
pub fn input_for(template: &str, n: u64) -> String {
    let mut out = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            },
            '{' if template_at(&mut chars, "n}") => out.push_str(&n.to_string()),
            c => out.push(c),
        }
    }
    out
}

fn template_at(chars: &mut std::iter::Peekable<std::str::Chars>, rest: &str) -> bool {
    let ahead: String = chars.clone().take(rest.len()).collect();
    if ahead == rest {
        for _ in 0..rest.len() {
            chars.next();
        }
        true
    } else {
        false
    }
}

/// A growth model: time = c · g(n).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
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
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Fit {
    #[serde(flatten)]
    pub model: Model,
    /// Coefficient of determination of the line on log(time), 1 is a perfect fit.
    pub r2: f64,
}

/// The models fitted to one solution's times, best first.
#[derive(Debug, Clone, Serialize)]
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

/// One line of the chart.
pub struct Series<'a> {
    pub name: &'a str,
    /// (size, CPU ms, over the cap)
    pub points: Vec<(u64, f64, bool)>,
}

/// Colours that stay apart for the colour-blind (Okabe and Ito).
const COLOURS: &[&str] = &[
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
];

/// A line chart of CPU time (log scale, decade ticks) against size, one line per series, with
/// labelled axes, a legend and the cap drawn as a dashed line. Points over the cap are hollow,
/// reached by a dashed step.
pub fn svg(title: &str, series: &[Series], cap_ms: f64) -> String {
    let (w, h) = (860.0, 520.0);
    let (left, right, top, bottom) = (80.0, 190.0, 50.0, 60.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let all: Vec<&(u64, f64, bool)> = series.iter().flat_map(|s| &s.points).collect();
    let nmin = all.iter().map(|p| p.0).min().unwrap_or(0);
    let nmax = all.iter().map(|p| p.0).max().unwrap_or(1).max(nmin + 1);
    // Times below 0.01 ms are drawn at 0.01 ms (nothing a process does takes less).
    let shown = |ms: f64| ms.max(0.01);
    let lo = all
        .iter()
        .map(|p| shown(p.1))
        .fold(f64::INFINITY, f64::min)
        .min(cap_ms)
        // Room below the lowest point, so that no marker sits on the axis.
        .div(1.5)
        .log10()
        .floor();
    let hi = all
        .iter()
        .map(|p| shown(p.1))
        .fold(cap_ms, f64::max)
        .log10()
        .ceil()
        .max(lo + 1.0);
    let x = |n: u64| left + (n - nmin) as f64 / (nmax - nmin) as f64 * pw;
    let y = |ms: f64| top + (hi - shown(ms).log10()) / (hi - lo) * ph;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="28" text-anchor="middle" font-size="16" font-weight="bold">{}</text>"#,
        left + pw / 2.0,
        escape(title)
    );
    // Decade grid and labels.
    for d in (lo as i32)..=(hi as i32) {
        let ms = 10f64.powi(d);
        let yy = y(ms);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{}" y2="{yy:.1}" stroke="#ddd"/>"##,
            left + pw
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
            left - 8.0,
            yy + 4.0,
            decade_label(d)
        );
    }
    for n in nmin..=nmax {
        let xx = x(n);
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{}" x2="{xx:.1}" y2="{}" stroke="#eee"/>"##,
            top,
            top + ph
        );
        let _ = writeln!(
            s,
            r#"<text x="{xx:.1}" y="{}" text-anchor="middle">{n}</text>"#,
            top + ph + 20.0
        );
    }
    let _ = writeln!(
        s,
        r#"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">n (input size)</text>"#,
        left + pw / 2.0,
        h - 15.0
    );
    let _ = writeln!(
        s,
        r#"<text x="20" y="{}" text-anchor="middle" transform="rotate(-90 20 {})">CPU time (log scale)</text>"#,
        top + ph / 2.0,
        top + ph / 2.0
    );
    // Below the measurable floor the time is mostly process start-up.
    let yf = y(MEASURABLE_FLOOR_MS).min(top + ph);
    if yf < top + ph {
        let _ = writeln!(
            s,
            r##"<rect x="{left}" y="{yf:.1}" width="{pw}" height="{:.1}" fill="#000" fill-opacity="0.05"/>"##,
            top + ph - yf
        );
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{:.1}" fill="#666" font-size="11">under {}: mostly process start-up, not fitted</text>"##,
            left + 6.0,
            yf + 14.0,
            ms_label(MEASURABLE_FLOOR_MS)
        );
    }
    // The cap.
    let yc = y(cap_ms);
    let _ = writeln!(
        s,
        r##"<line x1="{left}" y1="{yc:.1}" x2="{}" y2="{yc:.1}" stroke="#999" stroke-dasharray="6 4"/>"##,
        left + pw
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{:.1}" text-anchor="end" fill="#666">cap {}</text>"##,
        left + pw - 4.0,
        yc - 5.0,
        ms_label(cap_ms)
    );
    for (i, ser) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        // Measured points joined by a solid line; the step to a point stopped at the cap is
        // dashed: the time there is only known to be more than the cap.
        let measured: Vec<&(u64, f64, bool)> = ser.points.iter().filter(|p| !p.2).collect();
        let pts: Vec<String> = measured
            .iter()
            .map(|&&(n, ms, _)| format!("{:.1},{:.1}", x(n), y(ms)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2.5"/>"#,
            pts.join(" ")
        );
        if let (Some(&&(n0, ms0, _)), Some(&(n1, ms1, true))) = (measured.last(), ser.points.last())
        {
            let _ = writeln!(
                s,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="2.5" stroke-dasharray="5 4"/>"#,
                x(n0),
                y(ms0),
                x(n1),
                y(ms1)
            );
        }
        for &(n, ms, over) in &ser.points {
            let fill = if over { "white" } else { colour };
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{fill}" stroke="{colour}" stroke-width="2"><title>{} n={n}: {}{}</title></circle>"#,
                x(n),
                y(ms),
                escape(ser.name),
                if over { "> " } else { "" },
                ms_label(ms)
            );
        }
        let ly = top + 10.0 + i as f64 * 24.0;
        let lx = left + pw + 20.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="3"/>"#,
            lx + 28.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{}</text>"#,
            lx + 36.0,
            ly + 4.5,
            escape(ser.name)
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{lx}" y="{ly}" fill="#666" font-size="11">hollow, dashed:<tspan x="{lx}" dy="14">stopped at the cap</tspan></text>"##,
        lx = left + pw + 20.0,
        ly = top + 10.0 + series.len() as f64 * 24.0 + 6.0
    );
    s.push_str("</svg>\n");
    s
}

fn decade_label(d: i32) -> String {
    ms_label(10f64.powi(d))
}

/// "10 µs", "1 ms", "100 ms", "10 s".
fn ms_label(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{} s", trim_float(ms / 1000.0))
    } else if ms >= 1.0 {
        format!("{} ms", trim_float(ms))
    } else {
        format!("{} µs", trim_float(ms * 1000.0))
    }
}

fn trim_float(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_ranges_or_lists() {
        assert_eq!(parse_sizes("4..8").unwrap(), vec![4, 5, 6, 7, 8]);
        assert_eq!(parse_sizes("4..=6").unwrap(), vec![4, 5, 6]);
        assert_eq!(parse_sizes("4..10:3").unwrap(), vec![4, 7, 10]);
        assert_eq!(parse_sizes("4, 6,8").unwrap(), vec![4, 6, 8]);
        assert!(parse_sizes("8..4").is_err());
        assert!(parse_sizes("6,4").is_err());
        assert!(parse_sizes("a..b").is_err());
        assert!(parse_sizes("4..8:0").is_err());
    }

    #[test]
    fn the_template_takes_n_and_escapes() {
        assert_eq!(input_for("{n}\\n", 12), "12\n");
        assert_eq!(input_for("{n} {n}\n", 3), "3 3\n");
        assert_eq!(input_for("a\\tb {m}", 1), "a\tb {m}");
    }

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

    #[test]
    fn the_chart_has_axes_a_legend_and_decades() {
        let svg = svg(
            "t",
            &[
                Series {
                    name: "fast",
                    points: vec![(4, 0.5, false), (5, 3.0, false), (6, 20.0, false)],
                },
                Series {
                    name: "slow <x>",
                    points: vec![(4, 2.0, false), (5, 300.0, false), (6, 1000.0, true)],
                },
            ],
            1000.0,
        );
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        for label in [
            "100 µs",
            "1 ms",
            "10 ms",
            "100 ms",
            "1 s",
            "n (input size)",
            "CPU time (log scale)",
            "fast",
            "slow &lt;x&gt;",
            "cap 1 s",
        ] {
            assert!(svg.contains(label), "{label} missing");
        }
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches(r##"fill="white" stroke="#D55E00""##).count(), 1);
    }
}
