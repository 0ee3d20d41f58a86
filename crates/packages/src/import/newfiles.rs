//! The files of a new problem: its problem.toml and statement.md, and how limits, checkers
//! and interactors are written there.

use std::path::PathBuf;
use std::time::Duration;

use super::{Draft, DraftChecker, DraftInteractor};
use judge_core::check::{CheckerMode, CompareOptions};
use judge_core::workspace::{
    natural_cmp, solution_name, Checker, CheckerProtocol, Interactor, InteractorProtocol,
    DEFAULT_CHECKER_MEMORY, DEFAULT_CHECKER_TIME,
};

/// `1500ms` -> `1.5s`, `2000ms` -> `2s`, `1250ms` -> `1250ms`: as problem.toml is written.
pub(super) fn toml_duration(d: Duration) -> String {
    let ms = d.as_millis();
    match ms {
        _ if ms.is_multiple_of(1000) => format!("{}s", ms / 1000),
        _ if ms.is_multiple_of(100) => format!("{}.{}s", ms / 1000, ms % 1000 / 100),
        _ => format!("{ms}ms"),
    }
}

/// `256 << 20` -> `256MiB`, `1 << 30` -> `1GiB`.
pub(super) fn toml_size(bytes: u64) -> String {
    match bytes {
        b if b.is_multiple_of(1 << 30) => format!("{}GiB", b >> 30),
        b if b.is_multiple_of(1 << 20) => format!("{}MiB", b >> 20),
        b if b.is_multiple_of(1 << 10) => format!("{}KiB", b >> 10),
        b => format!("{b}B"),
    }
}

/// How problem.toml says a checker, to compare and to report.
pub(super) fn checker_text(checker: &Checker) -> String {
    match checker {
        Checker::Builtin { mode, options } => builtin_text(*mode, options),
        Checker::Program(p) => format!(
            "custom ({})",
            p.source.file_name().unwrap_or_default().to_string_lossy()
        ),
        Checker::Kattis(_) => checker.to_string(),
    }
}

pub(super) fn draft_checker_text(checker: &DraftChecker) -> String {
    match checker {
        DraftChecker::Builtin { mode, options } => builtin_text(*mode, options),
        DraftChecker::Kattis(flags) => checker_text(&Checker::Kattis(*flags)),
        DraftChecker::Program { program, .. } => format!("custom ({})", program.file),
    }
}

/// How problem.toml says an interactor (its file and protocol), to compare and to report; its
/// limits are compared apart.
pub(super) fn interactor_text(interactor: &Interactor) -> String {
    let file = interactor
        .program
        .source()
        .and_then(|s| s.file_name())
        .map_or_else(
            || "the judge's replay".into(),
            |n| n.to_string_lossy().into_owned(),
        );
    protocol_text(&file, &interactor.protocol)
}

pub(super) fn draft_interactor_text(interactor: &DraftInteractor) -> String {
    protocol_text(&interactor.program.file, &interactor.protocol)
}

fn protocol_text(file: &str, protocol: &InteractorProtocol) -> String {
    match protocol {
        InteractorProtocol::Kattis { flags } if !flags.is_empty() => {
            format!("{file} ({protocol} protocol, flags {})", flags.join(" "))
        }
        _ => format!("{file} ({protocol} protocol)"),
    }
}

fn builtin_text(mode: CheckerMode, options: &CompareOptions) -> String {
    let mut text = mode.to_string();
    if mode == CheckerMode::Float {
        text += &format!(
            " (absolute {:e}, relative {:e})",
            options.float_absolute, options.float_relative
        );
    }
    if options.case_insensitive {
        text += ", case-insensitive";
    }
    text
}

/// A new problem's problem.toml.
pub(super) fn problem_toml(
    draft: &Draft,
    time: Duration,
    memory: u64,
    samples: &[String],
) -> String {
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    let mut text = format!("# Imported from {}.\n", draft.origin.replace('\n', " "));
    text += &format!("title = {}\n", quote(&draft.title));
    if let Some(url) = &draft.url {
        text += &format!("url = {}\n", quote(url));
    }
    let assumed = "   # assumed: the source gives none";
    text += &format!(
        "time_limit = {}{}\n",
        quote(&toml_duration(time)),
        if draft.time.is_none() { assumed } else { "" }
    );
    text += &format!(
        "memory_limit = {}{}\n",
        quote(&toml_size(memory)),
        if draft.memory_bytes.is_none() {
            assumed
        } else {
            ""
        }
    );
    match &draft.checker {
        // An interactor decides alone: a comparing checker beside it is a configuration error.
        DraftChecker::Builtin { .. } | DraftChecker::Kattis(_) if draft.interactor.is_some() => {}
        DraftChecker::Builtin { mode, options } => {
            text += &format!("checker = \"{mode}\"\n");
            if *mode == CheckerMode::Float {
                text += &format!("float_absolute = {:e}\n", options.float_absolute);
                text += &format!("float_relative = {:e}\n", options.float_relative);
            }
        }
        DraftChecker::Kattis(flags) => {
            text += "checker = \"kattis\"\n";
            let flags = flags.to_string();
            if !flags.is_empty() {
                text += &format!("validator_flags = {}\n", quote(&flags));
            }
        }
        DraftChecker::Program { program, protocol } => {
            text += &format!(
                "checker = \"custom\"\nchecker_program = {}\n",
                quote(&program.file)
            );
            if let CheckerProtocol::Kattis { flags } = protocol {
                text += "checker_protocol = \"kattis\"\n";
                if !flags.is_empty() {
                    text += &format!("validator_flags = {}\n", quote(&flags.join(" ")));
                }
            }
        }
    }
    if let Some(interactor) = &draft.interactor {
        text += &interactor_toml(interactor);
    }
    let mut samples = samples.to_vec();
    samples.sort_by(|a, b| natural_cmp(a, b));
    let list: Vec<String> = samples.iter().map(|s| quote(s)).collect();
    text += &format!("samples = [{}]\n", list.join(", "));
    if let Some(f) = &draft.io.input {
        text += &format!(
            "input_file = {}    # read from this file, not stdin\n",
            quote(f)
        );
    }
    if let Some(f) = &draft.io.output {
        text += &format!(
            "output_file = {}   # written to this file, not stdout\n",
            quote(f)
        );
    }
    let files: Vec<PathBuf> = draft
        .solutions
        .iter()
        .map(|s| s.file.clone().into())
        .collect();
    let expected: Vec<String> = draft
        .solutions
        .iter()
        .zip(&files)
        .filter_map(|(s, path)| {
            let name = solution_name(path, &files)?;
            Some(format!(
                "{} = {}\n",
                quote(&name),
                quote(&s.expected.as_ref()?.to_string())
            ))
        })
        .collect();
    if !expected.is_empty() {
        text += &format!("\n[expected]\n{}", expected.concat());
    }
    text
}

/// The interactor's keys of problem.toml; its limits only where they are not the defaults.
fn interactor_toml(interactor: &DraftInteractor) -> String {
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    let mut text = format!("interactor = {}\n", quote(&interactor.program.file));
    match &interactor.protocol {
        InteractorProtocol::Kattis { flags } => {
            text += "interactor_protocol = \"kattis\"\n";
            if !flags.is_empty() {
                // Beside an interactor alone, `validator_flags` are the interactor's.
                text += &format!("validator_flags = {}\n", quote(&flags.join(" ")));
            }
        }
        InteractorProtocol::Testlib => text += "interactor_protocol = \"testlib\"\n",
    }
    if interactor.time != DEFAULT_CHECKER_TIME {
        text += &format!(
            "interactor_time_limit = {}\n",
            quote(&toml_duration(interactor.time))
        );
    }
    if interactor.memory_bytes != DEFAULT_CHECKER_MEMORY {
        text += &format!(
            "interactor_memory_limit = {}\n",
            quote(&toml_size(interactor.memory_bytes))
        );
    }
    text
}

/// A new problem's statement.md: where the statement is.
pub(super) fn statement(draft: &Draft) -> String {
    let mut text = format!("# {}\n\n", draft.title);
    if let Some(contest) = &draft.contest {
        text += &format!("{contest}\n\n");
    }
    match &draft.url {
        Some(url) => text += &format!("The statement: <{url}>\n"),
        None => text += &format!("Imported from {}; the statement goes here.\n", draft.origin),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_as_problem_toml_has_them() {
        assert_eq!(toml_duration(Duration::from_millis(1500)), "1.5s");
        assert_eq!(toml_duration(Duration::from_millis(2000)), "2s");
        assert_eq!(toml_duration(Duration::from_millis(1250)), "1250ms");
        assert_eq!(toml_size(256 << 20), "256MiB");
        assert_eq!(toml_size(1 << 30), "1GiB");
    }
}
