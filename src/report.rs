//! Showing results: the live verdict table of `judge run`, its summary line, `judge list`, and the number formats they share.

use std::io::Write;
use std::time::Duration;

use anstyle::{AnsiColor, Style};

use crate::session::{CaseReport, CompileReport, SolutionReport};
use crate::verdict::{Limits, Verdict};

pub fn format_duration(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms >= 10_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else if ms >= 1000.0 && (ms % 1000.0) != 0.0 {
        format!("{:.2} s", ms / 1000.0)
    } else if ms >= 1000.0 {
        format!("{} s", (ms / 1000.0) as u64)
    } else {
        format!("{} ms", ms.round() as u64)
    }
}

pub fn format_bytes(b: u64) -> String {
    const K: f64 = 1024.0;
    let f = b as f64;
    if f >= K * K * K {
        trim(format!("{:.1}", f / (K * K * K))) + " GiB"
    } else if f >= K * K {
        if f >= 100.0 * K * K {
            format!("{:.0} MiB", f / (K * K))
        } else {
            trim(format!("{:.1}", f / (K * K))) + " MiB"
        }
    } else if f >= K {
        format!("{:.0} KiB", f / K)
    } else {
        format!("{b} B")
    }
}

fn trim(s: String) -> String {
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

pub fn verdict_style(v: Verdict) -> Style {
    let color = match v {
        Verdict::Ac => AnsiColor::Green,
        Verdict::Wa => AnsiColor::Red,
        Verdict::Tle => AnsiColor::Yellow,
        Verdict::Mle | Verdict::Ole => AnsiColor::Magenta,
        Verdict::Re => AnsiColor::BrightRed,
        Verdict::Ce => AnsiColor::Cyan,
        Verdict::Ie => AnsiColor::BrightMagenta,
    };
    Style::new().fg_color(Some(color.into())).bold()
}

pub fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

pub fn dim(text: &str) -> String {
    paint(Style::new().dimmed(), text)
}

/// CPU time as an online judge shows it: a TLE is "> limit", never a made-up precise figure.
pub fn time_cell(case: &CaseReport, limits: &Limits) -> String {
    if case.verdict == Verdict::Tle {
        format!("> {}", format_duration(limits.time))
    } else {
        format_duration(case.cpu)
    }
}

pub fn memory_cell(case: &CaseReport, limits: &Limits) -> String {
    if case.verdict == Verdict::Mle && case.memory_bytes <= limits.memory_bytes {
        format!("> {}", format_bytes(limits.memory_bytes))
    } else {
        format_bytes(case.memory_bytes)
    }
}

/// Column widths of the case table.
const W_CASE: usize = 10;
const W_VERDICT: usize = 7;
const W_NUM: usize = 11;

pub fn header(
    out: &mut dyn Write,
    report_problem: &str,
    solution: &str,
    path: &str,
    limits: &Limits,
) {
    let _ = writeln!(
        out,
        "{}   {}",
        paint(
            Style::new().bold(),
            &format!("{report_problem} / {solution}")
        ),
        dim(path)
    );
    let _ = writeln!(
        out,
        "{}",
        dim(&format!(
            "limits: time {} (wall cap {}) · memory {} · output {}",
            format_duration(limits.time),
            format_duration(limits.wall),
            format_bytes(limits.memory_bytes),
            format_bytes(limits.output_bytes)
        ))
    );
}

pub fn compile_line(out: &mut dyn Write, c: &CompileReport) {
    let how = if c.cached {
        "binary from cache (source unchanged)".to_string()
    } else {
        format!("compiled in {}", format_duration(c.duration))
    };
    let _ = writeln!(out, "{}", dim(&format!("{how} · {}", c.compiler)));
    if let Some(d) = &c.diagnostics {
        let _ = writeln!(out);
        let _ = write!(out, "{}", d);
        if !d.ends_with('\n') {
            let _ = writeln!(out);
        }
    }
}

/// Said before the table of a run with `--jobs N`.
pub fn parallel_note(out: &mut dyn Write, jobs: usize) {
    let _ = writeln!(
        out,
        "{}",
        dim(&format!(
            "{jobs} cases at a time: times measured in parallel; TLE and cases within 20% of the limit are re-run alone"
        ))
    );
}

/// The head of the case table; `repeated` adds the min column of `--repeat` (time is then the median).
pub fn table_head(out: &mut dyn Write, repeated: bool) {
    let head = if repeated {
        format!(
            "{:<W_CASE$} {:<W_VERDICT$} {:>W_NUM$} {:>W_NUM$} {:>W_NUM$} {:>W_NUM$}",
            "case", "verdict", "min", "median", "wall", "memory"
        )
    } else {
        format!(
            "{:<W_CASE$} {:<W_VERDICT$} {:>W_NUM$} {:>W_NUM$} {:>W_NUM$}",
            "case", "verdict", "time", "wall", "memory"
        )
    };
    let _ = writeln!(out, "\n  {}", paint(Style::new().bold(), &head));
}

/// One row of the table, with the details of a failed case beneath it.
pub fn case_row(out: &mut dyn Write, c: &CaseReport, limits: &Limits) {
    let name = if c.sample {
        format!("{} (s)", c.name)
    } else {
        c.name.clone()
    };
    let verdict = format!("{:<W_VERDICT$}", c.verdict.code());
    let min = match &c.timing {
        Some(t) if c.verdict != Verdict::Tle => format!("{:>W_NUM$} ", format_duration(t.min())),
        Some(_) => format!("{:>W_NUM$} ", ""),
        None => String::new(),
    };
    let _ = write!(
        out,
        "  {:<W_CASE$} {} {min}{:>W_NUM$} {:>W_NUM$} {:>W_NUM$}",
        name,
        paint(verdict_style(c.verdict), &verdict),
        time_cell(c, limits),
        format_duration(c.wall),
        memory_cell(c, limits),
    );
    let indent = " ".repeat(W_CASE + 3);
    // A checker's message can span lines: the first one on the row, the others beneath it.
    let mut detail = c.detail.as_deref().unwrap_or("").lines();
    if let Some(first) = detail.next() {
        let _ = write!(out, "  {first}");
    }
    let _ = writeln!(out);
    for line in detail {
        let _ = writeln!(out, "{indent}{line}");
    }
    if let Some(h) = &c.hint {
        let _ = writeln!(out, "{indent}{}", dim(&format!("note: {h}")));
    }
    for w in timing_warnings(c, limits) {
        let _ = writeln!(
            out,
            "{indent}{}",
            paint(
                Style::new().fg_color(Some(AnsiColor::Yellow.into())),
                &format!("warning: {w}")
            )
        );
    }
    if let Some(r) = &c.rerun {
        let _ = writeln!(out, "{indent}{}", dim(&format!("note: {r}")));
    }
    if c.leftover_processes > 0 {
        let _ = writeln!(
            out,
            "{indent}{}",
            dim(&format!(
                "note: the program left {} process{} running; the judge killed {}",
                c.leftover_processes,
                if c.leftover_processes == 1 { "" } else { "es" },
                if c.leftover_processes == 1 {
                    "it"
                } else {
                    "them"
                }
            ))
        );
    }
    if let Some(input) = &c.input {
        let _ = writeln!(out, "{indent}{}", dim("input:"));
        for line in input.lines() {
            let _ = writeln!(out, "{indent}  {line}");
        }
    }
    if let Some(diff) = &c.diff {
        for line in diff.lines() {
            // The diff opens with "first difference at line N": say there what - and + are.
            if let Some(at) = line.trim_start().strip_prefix("first difference at ") {
                let _ = writeln!(
                    out,
                    "{indent}{}",
                    dim(&format!(
                        "diff (- answer, + output), first difference at {at}:"
                    ))
                );
                continue;
            }
            let styled = match line.chars().next() {
                Some('-') => paint(Style::new().fg_color(Some(AnsiColor::Green.into())), line),
                Some('+') => paint(Style::new().fg_color(Some(AnsiColor::Red.into())), line),
                _ => dim(line),
            };
            let _ = writeln!(out, "{indent}{styled}");
        }
    }
    if let Some(err) = &c.stderr {
        let _ = writeln!(out, "{indent}{}", dim("stderr (end):"));
        for line in err.lines() {
            let _ = writeln!(out, "{indent}  {}", dim(line));
        }
    }
}

/// What is doubtful about a case's time: a wide spread over repeats, or a time near the limit.
pub fn timing_warnings(c: &CaseReport, limits: &Limits) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = &c.timing {
        if t.wide() {
            out.push(format!(
                "wide spread over {} runs: {} to {} ({:.0}% of the median)",
                t.runs.len(),
                format_duration(t.min()),
                format_duration(t.runs.iter().copied().max().unwrap_or_default()),
                t.spread() * 100.0
            ));
        }
    }
    if c.verdict != Verdict::Tle && crate::stats::near_limit(c.cpu, limits.time) {
        out.push(format!(
            "within 10% of the time limit ({} of {})",
            format_duration(c.cpu),
            format_duration(limits.time)
        ));
    }
    out
}

/// The status line: verdict, cases passed, max time and memory, where the binary came from.
pub fn summary(out: &mut dyn Write, r: &SolutionReport) {
    let v = paint(verdict_style(r.verdict), &format!(" {} ", r.verdict.code()));
    let mut parts = vec![format!("{}", r.verdict.meaning())];
    if r.verdict != Verdict::Ce {
        parts.push(format!("{}/{} passed", r.passed, r.total));
        if r.cases.len() < r.total {
            parts.push(format!("{} not run", r.total - r.cases.len()));
        }
        let max_time = if r.cases.iter().any(|c| c.verdict == Verdict::Tle) {
            format!("> {}", format_duration(r.limits.time))
        } else {
            format_duration(r.max_cpu())
        };
        parts.push(format!("max time {max_time}"));
        parts.push(format!("max memory {}", format_bytes(r.max_memory())));
        if r.parallel {
            parts.push(format!("times measured in parallel ({} jobs)", r.jobs));
        }
    }
    if r.verdict != Verdict::Ce {
        parts.push(
            if r.compile.cached {
                "binary from cache"
            } else {
                "freshly compiled"
            }
            .to_string(),
        );
    }
    if let Some(e) = &r.expected {
        let ok = e.split(" or ").any(|x| x == r.verdict.code());
        parts.push(format!(
            "expected {e}{}",
            if ok { "" } else { " (MISMATCH)" }
        ));
    }
    let _ = writeln!(out, "\n{v} {}", parts.join(" · "));
    if let Some(dir) = r
        .cases
        .iter()
        .find_map(|c| c.saved_output.as_ref()?.parent())
    {
        let _ = writeln!(
            out,
            "{}",
            dim(&format!(
                "    output and stderr of the failed cases kept in {}/",
                shown(dir)
            ))
        );
    }
}

/// A path as the user would type it: relative to the current folder when below it.
fn shown(path: &std::path::Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(|p| p.display().to_string()))
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_like_a_status_page() {
        assert_eq!(format_duration(Duration::from_millis(152)), "152 ms");
        assert_eq!(format_duration(Duration::from_secs(1)), "1 s");
        assert_eq!(format_duration(Duration::from_millis(1500)), "1.50 s");
        assert_eq!(format_duration(Duration::from_micros(400)), "0 ms");
        assert_eq!(format_bytes(256 << 20), "256 MiB");
        assert_eq!(format_bytes(2_000_000), "1.9 MiB");
        assert_eq!(format_bytes(64 << 20), "64 MiB");
        assert_eq!(format_bytes(1 << 30), "1 GiB");
        assert_eq!(format_bytes(512), "512 B");
    }
}
