//! The problem's own programs in `problem.toml`: the checker keys (a built-in mode with its options, or a checker program) and the interactor keys.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::check::{CompareOptions, KattisFlags};
use crate::error::{Error, Location, Result};
use crate::lang::Config;
use crate::units::{parse_duration, parse_size};

use super::checker::{
    Checker, CheckerKey, CheckerProgram, CheckerProtocol, Protocol, DEFAULT_CHECKER_MEMORY,
    DEFAULT_CHECKER_TIME,
};
use super::interactor::{Interactor, InteractorProgram, InteractorProtocol};
use super::raw::{line_of, RawProblem};

/// What `EXT` stands for in a hint's example file name: the problem's programs may be written
/// in any language, whichever its solutions are in.
const ANY_LANGUAGE: &str = "EXT: the extension of any language the judge knows";

/// The file name a hint suggests for a program key, without its extension.
fn stem_of_key(key: &str) -> &str {
    match key {
        "generator" => "gen",
        "input_validator" => "validate",
        "checker_program" => "checker",
        other => other,
    }
}

/// A program file of the problem's (`generator`, `checker_program`): in the problem's folder,
/// in a language the judge knows, and there.
pub(super) fn program_file(
    key: &str,
    value: &toml::Spanned<String>,
    dir: &Path,
    (shown, text): (&str, &str),
    config: &Config,
    what: &str,
) -> Result<PathBuf> {
    let bad = |message: String, fix: String| Error::Config {
        at: Location::file(shown).with_line(line_of(text, value.span().start)),
        message,
        fix,
    };
    let name = value.get_ref();
    let shown_dir = Path::new(shown)
        .parent()
        .map_or(String::new(), |d| d.display().to_string());
    let inside = Path::new(name)
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    if !inside {
        return Err(bad(
            format!("{key}: `{name}` is not a file in the problem's folder"),
            format!(
                "name a file in {shown_dir}/, such as \"{}.EXT\" ({ANY_LANGUAGE})",
                stem_of_key(key)
            ),
        ));
    }
    if config.languages.of_path(Path::new(name)).is_none() {
        return Err(bad(
            format!("{key}: no language claims `{name}`"),
            format!(
                "name a source file in one of the languages ({}), or add its language to judge.toml",
                config.languages.known()
            ),
        ));
    }
    let path = dir.join(name);
    if !path.is_file() {
        return Err(bad(
            format!("{key}: there is no `{name}` in {shown_dir}/"),
            format!("create {shown_dir}/{name} ({what}), or correct the name"),
        ));
    }
    Ok(path)
}

/// The checker keys: the mode, its options, and which options go with which mode.
pub(super) fn parse_checker(
    raw: &RawProblem,
    dir: &Path,
    shown: &str,
    text: &str,
    config: &Config,
) -> Result<Checker> {
    // A function's return value is JSON: compared as such unless the problem says otherwise.
    let default = match raw.function {
        Some(_) => CheckerKey::Json,
        None => CheckerKey::default(),
    };
    let mode = raw.checker.as_ref().map_or(default, |c| *c.get_ref());
    let keys = Keys { shown, text, mode };
    let compare = keys.compare_options(raw)?;
    for (key, value) in [
        ("checker_program", &raw.checker_program),
        ("checker_time_limit", &raw.checker_time_limit),
        ("checker_memory_limit", &raw.checker_memory_limit),
    ] {
        if let Some(value) = value {
            keys.needs(key, value.span(), &[CheckerKey::Custom])?;
        }
    }
    if let Some(p) = &raw.checker_protocol {
        keys.needs("checker_protocol", p.span(), &[CheckerKey::Custom])?;
    }
    let flags = keys.validator_flags(raw)?;
    if mode == CheckerKey::Kattis {
        let parsed = KattisFlags::parse(&flags).map_err(|m| {
            keys.bad(
                raw.validator_flags.as_ref().map_or(0..0, |f| f.span()),
                format!("validator_flags: {m}"),
                "write the default validator's flags, such as \"case_sensitive float_tolerance 1e-6\"".into(),
            )
        })?;
        return Ok(Checker::Kattis(parsed));
    }
    if let Some(mode) = mode.mode() {
        return Ok(Checker::Builtin {
            mode,
            options: compare,
        });
    }
    keys.checker_program(raw, dir, config, &flags)
}

/// The checker's keys in `problem.toml` as shown in errors and its text, and the checker
/// mode they are read for.
#[derive(Clone, Copy)]
struct Keys<'a> {
    shown: &'a str,
    text: &'a str,
    mode: CheckerKey,
}

impl Keys<'_> {
    fn bad(self, span: std::ops::Range<usize>, message: String, fix: String) -> Error {
        Error::Config {
            at: Location::file(self.shown).with_line(line_of(self.text, span.start)),
            message,
            fix,
        }
    }

    /// `key` (at `span`) is refused unless the checker is one of `modes`.
    fn needs(self, key: &str, span: std::ops::Range<usize>, modes: &[CheckerKey]) -> Result<()> {
        let mode = self.mode;
        if modes.contains(&mode) {
            return Ok(());
        }
        let names: Vec<String> = modes.iter().map(|m| format!("\"{m}\"")).collect();
        Err(self.bad(
            span,
            format!(
                "`{key}` applies only to checker = {}, and this problem's checker is \"{mode}\"",
                names.join(" or ")
            ),
            format!("set `checker = \"{}\"`, or remove `{key}`", modes[0]),
        ))
    }

    /// A helper program's time and memory limits (`KEY_time_limit`, `KEY_memory_limit`).
    fn limits(
        self,
        (time_key, time): (&str, &Option<toml::Spanned<String>>),
        (memory_key, memory): (&str, &Option<toml::Spanned<String>>),
    ) -> Result<(Duration, u64)> {
        let time = match time {
            Some(t) => parse_duration(t.get_ref()).map_err(|m| {
                self.bad(
                    t.span(),
                    format!("{time_key}: {m}"),
                    "write a positive duration such as \"10s\"".into(),
                )
            })?,
            None => DEFAULT_CHECKER_TIME,
        };
        let memory_bytes = match memory {
            Some(m) => parse_size(m.get_ref()).map_err(|e| {
                self.bad(
                    m.span(),
                    format!("{memory_key}: {e}"),
                    "write a positive size such as \"1GiB\"".into(),
                )
            })?,
            None => DEFAULT_CHECKER_MEMORY,
        };
        Ok((time, memory_bytes))
    }

    /// `case_insensitive`, `float_absolute` and `float_relative`, for the built-in modes.
    fn compare_options(self, raw: &RawProblem) -> Result<CompareOptions> {
        let mut compare = CompareOptions::default();
        if let Some(ci) = &raw.case_insensitive {
            self.needs(
                "case_insensitive",
                ci.span(),
                &[CheckerKey::Tokens, CheckerKey::Lines, CheckerKey::Float],
            )?;
            compare.case_insensitive = *ci.get_ref();
        }
        if let Some(function) = &raw.function {
            if let Some(order) = &function.order {
                self.needs("[function] order", order.span(), &[CheckerKey::Json])?;
            }
            compare.order = function.order();
        }
        for (key, value, slot) in [
            (
                "float_absolute",
                &raw.float_absolute,
                &mut compare.float_absolute,
            ),
            (
                "float_relative",
                &raw.float_relative,
                &mut compare.float_relative,
            ),
        ] {
            let Some(value) = value else { continue };
            self.needs(key, value.span(), &[CheckerKey::Float, CheckerKey::Json])?;
            let v = *value.get_ref();
            if !(v.is_finite() && v >= 0.0) {
                return Err(self.bad(
                    value.span(),
                    format!("{key}: `{v}` is not a tolerance (it must be zero or more)"),
                    format!("write a tolerance such as `{key} = 1e-6`"),
                ));
            }
            *slot = v;
        }
        Ok(compare)
    }

    /// `validator_flags`: the default validator's, or a Kattis checker program's.
    fn validator_flags(self, raw: &RawProblem) -> Result<String> {
        Ok(match &raw.validator_flags {
            // A Kattis interactor's flags (`parse_interactor`).
            Some(_) if raw.interactor.is_some() && raw.checker.is_none() => String::new(),
            Some(f) => {
                self.needs(
                    "validator_flags",
                    f.span(),
                    &[CheckerKey::Kattis, CheckerKey::Custom],
                )?;
                let kattis_program = raw
                    .checker_protocol
                    .as_ref()
                    .is_some_and(|p| *p.get_ref() == Protocol::Kattis);
                if self.mode == CheckerKey::Custom && !kattis_program {
                    return Err(self.bad(
                        f.span(),
                        "`validator_flags` are given to a Kattis output validator, and this checker is a testlib checker".into(),
                        "set `checker_protocol = \"kattis\"`, or remove `validator_flags`".into(),
                    ));
                }
                f.get_ref().clone()
            }
            None => String::new(),
        })
    }

    /// `checker = "custom"`: the program, its limits and its protocol.
    fn checker_program(
        self,
        raw: &RawProblem,
        dir: &Path,
        config: &Config,
        flags: &str,
    ) -> Result<Checker> {
        let shown_dir = Path::new(self.shown)
            .parent()
            .map_or(String::new(), |d| d.display().to_string());
        let Some(program) = &raw.checker_program else {
            let span = raw.checker.as_ref().map_or(0..0, |c| c.span());
            return Err(self.bad(
                span,
                "checker = \"custom\" needs the checker's source".into(),
                format!("add `checker_program = \"checker.EXT\"`, naming a source file in {shown_dir}/ ({ANY_LANGUAGE})"),
            ));
        };
        let source = program_file(
            "checker_program",
            program,
            dir,
            (self.shown, self.text),
            config,
            "it is run as `checker INPUT OUTPUT ANSWER`",
        )?;
        let (time, memory_bytes) = self.limits(
            ("checker_time_limit", &raw.checker_time_limit),
            ("checker_memory_limit", &raw.checker_memory_limit),
        )?;
        Ok(Checker::Program(CheckerProgram {
            source,
            time,
            memory_bytes,
            protocol: match raw.checker_protocol.as_ref().map(|p| *p.get_ref()) {
                Some(Protocol::Kattis) => CheckerProtocol::Kattis {
                    flags: flags.split_whitespace().map(str::to_string).collect(),
                },
                _ => CheckerProtocol::Testlib,
            },
        }))
    }
}

/// The interactor keys. An interactor decides with its exit code, so the only checker it goes
/// with is a testlib checker program, which then reads what a testlib interactor wrote.
pub(super) fn parse_interactor(
    raw: &RawProblem,
    dir: &Path,
    shown: &str,
    text: &str,
    config: &Config,
) -> Result<Option<Interactor>> {
    let keys = Keys {
        shown,
        text,
        mode: CheckerKey::default(),
    };
    let Some(name) = &raw.interactor else {
        keys.no_interactor_keys(raw)?;
        return Ok(None);
    };
    let kattis = raw
        .interactor_protocol
        .as_ref()
        .is_some_and(|p| *p.get_ref() == Protocol::Kattis);
    keys.checker_beside_interactor(raw, kattis)?;
    let flags: Vec<String> = match &raw.validator_flags {
        Some(f) if kattis => f.get_ref().split_whitespace().map(str::to_string).collect(),
        _ => Vec::new(),
    };
    let source = program_file(
        "interactor",
        name,
        dir,
        (shown, text),
        config,
        "it talks with the solution through their stdin and stdout",
    )?;
    let (time, memory_bytes) = keys.limits(
        ("interactor_time_limit", &raw.interactor_time_limit),
        ("interactor_memory_limit", &raw.interactor_memory_limit),
    )?;
    Ok(Some(Interactor {
        program: InteractorProgram::Source(source),
        protocol: if kattis {
            InteractorProtocol::Kattis { flags }
        } else {
            InteractorProtocol::Testlib
        },
        time,
        memory_bytes,
    }))
}

impl Keys<'_> {
    /// Without an interactor, none of its keys.
    fn no_interactor_keys(self, raw: &RawProblem) -> Result<()> {
        for (key, span) in [
            (
                "interactor_protocol",
                raw.interactor_protocol.as_ref().map(|v| v.span()),
            ),
            (
                "interactor_time_limit",
                raw.interactor_time_limit.as_ref().map(|v| v.span()),
            ),
            (
                "interactor_memory_limit",
                raw.interactor_memory_limit.as_ref().map(|v| v.span()),
            ),
        ] {
            if let Some(span) = span {
                return Err(self.bad(
                    span,
                    format!("`{key}` applies only to an interactive problem, and this one has no interactor"),
                    format!("add `interactor = \"interactor.EXT\"` ({ANY_LANGUAGE}), or remove `{key}`"),
                ));
            }
        }
        Ok(())
    }

    /// A checker beside an interactor: only a testlib checker program, and none beside a
    /// Kattis interactor.
    fn checker_beside_interactor(self, raw: &RawProblem, kattis: bool) -> Result<()> {
        let Some(checker) = &raw.checker else {
            return Ok(());
        };
        let key = *checker.get_ref();
        let testlib_program = key == CheckerKey::Custom
            && raw
                .checker_protocol
                .as_ref()
                .is_none_or(|p| *p.get_ref() == Protocol::Testlib);
        if kattis || !testlib_program {
            return Err(self.bad(
                checker.span(),
                format!(
                    "`checker = \"{key}\"` and `interactor`: the interactor decides the verdict, so the output is not compared{}",
                    if kattis { "" } else { " (a testlib interactor's checker must be a testlib checker program)" }
                ),
                if kattis {
                    "remove `checker`: a Kattis interactor accepts (exit 42) or rejects (43) by itself".into()
                } else {
                    "remove `checker`, or set `checker = \"custom\"` with `checker_program` to check what the interactor writes".into()
                },
            ));
        }
        Ok(())
    }
}
