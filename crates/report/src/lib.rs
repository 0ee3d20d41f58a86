//! What the user reads: every rendering of results to text, and the styles they share.
//!
//! The data comes from [`judge_core::model`] and the modules that compute (compare, verify, scale,
//! history); the words and the columns are made here only.

pub mod chart;
pub mod compare;
pub mod eval;
pub mod export;
pub mod generate;
pub mod history;
pub mod import;
pub mod languages;
pub mod latex;
pub mod scale;
pub mod settings;
pub mod show;
pub mod stress;
pub mod table;
pub mod validate;
pub mod verify;

use anstyle::{AnsiColor, Style};

use judge_core::model::CaseReport;
use judge_core::units::{format_bytes, format_run_time};
use judge_core::verdict::{Limits, Verdict};

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
    format_run_time(
        case.cpu,
        (case.verdict == Verdict::Tle).then_some(limits.time),
    )
}

pub fn memory_cell(case: &CaseReport, limits: &Limits) -> String {
    if case.verdict == Verdict::Mle && case.memory_bytes <= limits.memory_bytes {
        format!("> {}", format_bytes(limits.memory_bytes))
    } else {
        format_bytes(case.memory_bytes)
    }
}

pub fn bold(text: &str) -> String {
    paint(Style::new().bold(), text)
}

pub fn yellow(text: &str) -> String {
    paint(Style::new().fg_color(Some(AnsiColor::Yellow.into())), text)
}

/// A mismatch or an error, in bold red.
pub fn alarm(text: &str) -> String {
    paint(
        Style::new().fg_color(Some(AnsiColor::Red.into())).bold(),
        text,
    )
}
