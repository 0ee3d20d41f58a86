//! The growth chart: CPU time on a log scale against size, one line per solution, as SVG.

use std::fmt::Write as _;
use std::ops::Div;

use judge_core::text::markup;

use judge_core::scale::{PointStatus, ScaleReport, MEASURABLE_FLOOR_MS};

/// The chart of a `judge scale` run: a line per solution, hollow points where it hit the cap.
pub fn chart(r: &ScaleReport) -> String {
    let series: Vec<Series> = r
        .solutions
        .iter()
        .map(|s| Series {
            name: &s.solution,
            points: s
                .points
                .iter()
                .filter_map(|p| Some((p.n, p.cpu_ms?, p.status == PointStatus::OverCap)))
                .collect(),
        })
        .collect();
    let title = format!(
        "{}: CPU time by size ({} of {} run{})",
        r.problem,
        r.statistic,
        r.repeat,
        if r.repeat == 1 { "" } else { "s" }
    );
    svg(&title, &series, r.cap_ms)
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

/// The widest range of sizes that gets a tick at every size.
const MAX_UNIT_TICKS: u64 = 32;

/// A line chart of CPU time (log scale, decade ticks) against size, one line per series, with
/// labelled axes, a legend and the cap drawn as a dashed line. Points over the cap are hollow,
/// reached by a dashed step.
pub fn svg(title: &str, series: &[Series], cap_ms: f64) -> String {
    let all: Vec<&(u64, f64, bool)> = series.iter().flat_map(|s| &s.points).collect();
    let f = Frame::new(&all, cap_ms);
    let (w, h) = (f.w, f.h);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="28" text-anchor="middle" font-size="16" font-weight="bold">{}</text>"#,
        f.left + f.pw / 2.0,
        markup(title)
    );
    f.decades(&mut s);
    f.sizes(&mut s, &all);
    f.axes(&mut s);
    f.floor(&mut s);
    f.cap(&mut s, cap_ms);
    for (i, ser) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        f.line(&mut s, ser, colour);
        f.legend(&mut s, i, ser, colour);
    }
    let _ = writeln!(
        s,
        r##"<text x="{lx}" y="{ly}" fill="#666" font-size="11">hollow, dashed:<tspan x="{lx}" dy="14">stopped at the cap</tspan></text>"##,
        lx = f.left + f.pw + 20.0,
        ly = f.top + 10.0 + series.len() as f64 * 24.0 + 6.0
    );
    s.push_str("</svg>\n");
    s
}

/// The chart's geometry: the plot's place in the picture and the ranges of size and time it spans.
struct Frame {
    w: f64,
    h: f64,
    left: f64,
    top: f64,
    /// The plot's width and height.
    pw: f64,
    ph: f64,
    nmin: u64,
    nmax: u64,
    /// The lowest and highest decades of milliseconds.
    lo: f64,
    hi: f64,
}

/// Times below 0.01 ms are drawn at 0.01 ms (nothing a process does takes less).
fn shown(ms: f64) -> f64 {
    ms.max(0.01)
}

impl Frame {
    fn new(all: &[&(u64, f64, bool)], cap_ms: f64) -> Frame {
        let (w, h) = (860.0, 520.0);
        let (left, right, top, bottom) = (80.0, 190.0, 50.0, 60.0);
        let nmin = all.iter().map(|p| p.0).min().unwrap_or(0);
        let nmax = all.iter().map(|p| p.0).max().unwrap_or(1).max(nmin + 1);
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
        Frame {
            w,
            h,
            left,
            top,
            pw: w - left - right,
            ph: h - top - bottom,
            nmin,
            nmax,
            lo,
            hi,
        }
    }

    fn x(&self, n: u64) -> f64 {
        self.left + (n - self.nmin) as f64 / (self.nmax - self.nmin) as f64 * self.pw
    }

    fn y(&self, ms: f64) -> f64 {
        self.top + (self.hi - shown(ms).log10()) / (self.hi - self.lo) * self.ph
    }

    /// The decade grid and its labels.
    fn decades(&self, s: &mut String) {
        let (left, pw) = (self.left, self.pw);
        for d in (self.lo as i32)..=(self.hi as i32) {
            let yy = self.y(10f64.powi(d));
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
    }

    /// The size ticks: every size when they are few (4..16); else the sizes measured: a tick per
    /// unit of 1000..16000 would be thousands of labels on top of each other.
    fn sizes(&self, s: &mut String, all: &[&(u64, f64, bool)]) {
        let (nmin, nmax, top, ph) = (self.nmin, self.nmax, self.top, self.ph);
        let ticks: Vec<u64> = if nmax - nmin <= MAX_UNIT_TICKS {
            (nmin..=nmax).collect()
        } else {
            let mut sizes: Vec<u64> = all.iter().map(|p| p.0).collect();
            sizes.sort_unstable();
            sizes.dedup();
            sizes
        };
        for n in ticks {
            let xx = self.x(n);
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
    }

    /// The plot's border and the names of its axes.
    fn axes(&self, s: &mut String) {
        let (left, top, pw, ph) = (self.left, self.top, self.pw, self.ph);
        let _ = writeln!(
            s,
            r#"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"#
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">n (input size)</text>"#,
            left + pw / 2.0,
            self.h - 15.0
        );
        let _ = writeln!(
            s,
            r#"<text x="20" y="{}" text-anchor="middle" transform="rotate(-90 20 {})">CPU time (log scale)</text>"#,
            top + ph / 2.0,
            top + ph / 2.0
        );
    }

    /// The band below the measurable floor, where the time is mostly process start-up.
    fn floor(&self, s: &mut String) {
        let (left, top, pw, ph) = (self.left, self.top, self.pw, self.ph);
        let yf = self.y(MEASURABLE_FLOOR_MS).min(top + ph);
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
    }

    fn cap(&self, s: &mut String, cap_ms: f64) {
        let (left, pw) = (self.left, self.pw);
        let yc = self.y(cap_ms);
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
    }

    /// A series' points, the measured ones joined by a solid line; the step to a point stopped
    /// at the cap is dashed: the time there is only known to be more than the cap.
    fn line(&self, s: &mut String, ser: &Series, colour: &str) {
        let measured: Vec<&(u64, f64, bool)> = ser.points.iter().filter(|p| !p.2).collect();
        let pts: Vec<String> = measured
            .iter()
            .map(|&&(n, ms, _)| format!("{:.1},{:.1}", self.x(n), self.y(ms)))
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
                self.x(n0),
                self.y(ms0),
                self.x(n1),
                self.y(ms1)
            );
        }
        for &(n, ms, over) in &ser.points {
            let fill = if over { "white" } else { colour };
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{fill}" stroke="{colour}" stroke-width="2"><title>{} n={n}: {}{}</title></circle>"#,
                self.x(n),
                self.y(ms),
                markup(ser.name),
                if over { "> " } else { "" },
                ms_label(ms)
            );
        }
    }

    /// The series' line and name in the legend, the `i`th from the top.
    fn legend(&self, s: &mut String, i: usize, ser: &Series, colour: &str) {
        let ly = self.top + 10.0 + i as f64 * 24.0;
        let lx = self.left + self.pw + 20.0;
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
            markup(ser.name)
        );
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn wide_sizes_get_a_tick_each_not_one_per_unit() {
        let ticks = |points: Vec<(u64, f64, bool)>| {
            svg("t", &[Series { name: "a", points }], 1000.0)
                .matches(r##"stroke="#eee""##)
                .count()
        };
        assert_eq!(ticks(vec![(4, 1.0, false), (16, 2.0, false)]), 13);
        assert_eq!(
            ticks(vec![
                (1000, 1.0, false),
                (4000, 2.0, false),
                (16000, 9.0, false)
            ]),
            3
        );
    }
}
