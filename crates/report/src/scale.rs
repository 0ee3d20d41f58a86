//! `judge scale` as text: CPU time by size, growth per step, and each solution's fitted model.

use std::fmt::Write as _;
use std::path::Path;

use super::{bold, dim};
use judge_core::scale::{
    Point, PointStatus, ScaleReport, SolutionScale, MEASURABLE_FLOOR_MS, MIN_POINTS,
};
use judge_core::units::format_ms;

/// The table, the fits beneath it and where the chart was written (when it was).
pub fn render(r: &ScaleReport, svg: Option<&Path>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", bold(&format!("{}: CPU time by size", r.problem)));
    let _ = writeln!(
        out,
        "{}",
        dim(&format!(
            "{} · {} of {} run{} per size · cap {} · x = growth per +1 n",
            if r.from_generator() {
                format!("inputs from the generator ({})", r.input)
            } else {
                format!("input \"{}\"", r.input)
            },
            r.statistic,
            r.repeat,
            if r.repeat == 1 { "" } else { "s" },
            format_ms(r.cap_ms)
        ))
    );
    let _ = writeln!(out);
    let mut head = format!("  {:>4}", "n");
    for s in &r.solutions {
        head.push_str(&format!("  {:>16}", truncate(&s.solution, 16)));
    }
    let _ = writeln!(out, "{}", bold(&head));
    for (i, n) in r.sizes.iter().enumerate() {
        let mut line = format!("  {n:>4}");
        for s in &r.solutions {
            line.push_str(&format!("  {}", cell(&s.points[i], r.cap_ms)));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out);
    let width = r
        .solutions
        .iter()
        .map(|s| s.solution.len())
        .max()
        .unwrap_or(0);
    for s in &r.solutions {
        let _ = writeln!(out, "  {:<width$}  {}", s.solution, describe_fit(s));
    }
    let _ = writeln!(
        out,
        "{}",
        dim(&format!(
            "  sizes under {MEASURABLE_FLOOR_MS} ms (mostly process start-up) are shown but neither fitted nor used for growth factors; \
             `-`: skipped after a size over the cap. Answers are not checked."
        ))
    );
    if let Some(p) = svg {
        let _ = writeln!(
            out,
            "{}",
            dim(&format!("  chart written to {}", p.display()))
        );
    }
    out
}

fn cell(p: &Point, cap_ms: f64) -> String {
    match p.status {
        PointStatus::Ok => {
            let t = format_ms(p.cpu_ms.unwrap_or(0.0));
            match p.growth {
                Some(g) => format!("{t:>9} x{g:<5.1}"),
                None => format!("{t:>9}       "),
            }
        }
        PointStatus::OverCap => format!("{:>9}       ", format!("> {}", format_ms(cap_ms))),
        PointStatus::Skipped => format!("{:>9}       ", "-"),
        PointStatus::Failed(v) => format!("{:>9}       ", v.code()),
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).collect::<String>() + "…"
    }
}

/// "exponential 5.87^n (R² 0.998 over 6 sizes); next: factorial (n!)^0.62 (R² 0.962)"
fn describe_fit(s: &SolutionScale) -> String {
    if s.compile_error {
        return "did not compile (see judge run)".into();
    }
    let f = &s.fit;
    let stop = match s.stop() {
        Some(p) if p.status == PointStatus::OverCap => format!("; over the cap at n = {}", p.n),
        Some(p) => {
            let code = match p.status {
                PointStatus::Failed(v) => v.code(),
                _ => "",
            };
            format!(
                "; {code} at n = {}: {}",
                p.n,
                p.detail.as_deref().unwrap_or("")
            )
        }
        None => String::new(),
    };
    let Some(best) = f.best() else {
        return format!(
            "no fit: {} size{} at or above {MEASURABLE_FLOOR_MS} ms{stop}",
            f.points,
            if f.points == 1 { "" } else { "s" }
        );
    };
    if f.points < MIN_POINTS {
        return format!(
            "poor fit: only {} sizes at or above {MEASURABLE_FLOOR_MS} ms (best line: {}, R² {:.3}){stop}",
            f.points, best.model, best.r2
        );
    }
    // Models whose R² is within 0.01 of the best are not told apart by these points.
    let ties: Vec<String> = f.fits[1..]
        .iter()
        .filter(|n| best.r2 - n.r2 < 0.01)
        .map(|n| n.model.to_string())
        .collect();
    let next = if !ties.is_empty() {
        format!(
            "; as good (R² within 0.01): {}; more sizes would tell them apart",
            ties.join(", ")
        )
    } else {
        f.fits
            .get(1)
            .map(|n| format!("; next: {} (R² {:.3})", n.model, n.r2))
            .unwrap_or_default()
    };
    if f.poor {
        format!(
            "poor fit: the best, {}, has R² {:.3} over {} sizes{next}{stop}",
            best.model, best.r2, f.points
        )
    } else {
        format!(
            "{} (R² {:.3} over {} sizes){next}{stop}",
            best.model, best.r2, f.points
        )
    }
}
