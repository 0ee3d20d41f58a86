//! `judge.toml`: the workspace's own settings, today its languages; errors name the file, the line and the fix.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use super::{Command, Kind, Language, Languages};
use crate::error::{Error, Location, Result};
use crate::units::{format_duration, parse_duration};

/// The settings of a workspace (`judge.toml` at its root; every key optional).
#[derive(Debug, Clone, Default)]
pub struct Config {
    pub languages: Languages,
    /// Rust's edition and pinned toolchain for the whole workspace.
    pub rust: RustSettings,
    /// Where its judging goes to other machines (`[cluster]`), when it says.
    pub cluster: ClusterSettings,
}

/// `[cluster]`: the NATS server of the workers (`judge worker`) that judge for this workspace.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterSettings {
    /// `nats://host:4222`: judging commands use it as they would `--nats URL`.
    pub url: Option<String>,
    /// A NATS credentials file (relative to the workspace).
    pub credentials: Option<std::path::PathBuf>,
    /// How long a job may go unacknowledged before another worker gets it ("30s").
    pub ack_wait: Option<String>,
    /// Deliveries of a job before its case is given up as an internal error.
    pub max_deliver: Option<i64>,
}

/// Rust's edition and toolchain (`[language.rust]` in judge.toml, `[rust]` in problem.toml).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RustSettings {
    /// "2015", "2018", "2021" or "2024".
    pub edition: Option<String>,
    /// A rustup toolchain: "1.75", "stable", "nightly-2025-01-01".
    pub toolchain: Option<String>,
}

impl RustSettings {
    /// These settings, with `over`'s where it has them (a problem's over the workspace's).
    pub fn with(&self, over: &RustSettings) -> RustSettings {
        RustSettings {
            edition: over.edition.clone().or_else(|| self.edition.clone()),
            toolchain: over.toolchain.clone().or_else(|| self.toolchain.clone()),
        }
    }

    /// Checks the values; the message says what is wrong.
    pub fn validate(&self) -> std::result::Result<(), RustSettingError> {
        if let Some(e) = &self.edition {
            if !["2015", "2018", "2021", "2024"].contains(&e.as_str()) {
                return Err(RustSettingError::Edition(e.clone()));
            }
        }
        if let Some(t) = &self.toolchain {
            let ok = !t.is_empty()
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
            if !ok {
                return Err(RustSettingError::Toolchain(t.clone()));
            }
        }
        Ok(())
    }
}

/// A Rust setting (`edition`, `toolchain`) that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RustSettingError {
    #[error("edition `{0}` is not a Rust edition (2015, 2018, 2021 or 2024)")]
    Edition(String),
    #[error("toolchain `{0}` is not a rustup toolchain name")]
    Toolchain(String),
}

/// A time rule that cannot be read, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeRuleError {
    #[error("`{0}` is not a time rule such as \"3x + 2s\", \"2x\" or \"+1s\"")]
    NotARule(String),
    #[error("`{0}`: the factor must be 1 or more")]
    FactorBelowOne(String),
}

/// More time for a language, as some judges give it (Baekjoon: Python x3 + 2 s, Java x2 + 1 s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeRule {
    pub factor: f64,
    pub extra: Duration,
}

impl TimeRule {
    pub fn apply(&self, limit: Duration) -> Duration {
        limit.mul_f64(self.factor) + self.extra
    }
}

impl std::str::FromStr for TimeRule {
    type Err = TimeRuleError;

    /// "3x + 2s", "2x", "+1s", "1.5x+500ms".
    fn from_str(s: &str) -> std::result::Result<TimeRule, TimeRuleError> {
        let bad = || TimeRuleError::NotARule(s.to_string());
        let mut rule = TimeRule {
            factor: 1.0,
            extra: Duration::ZERO,
        };
        let compact: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let (factor, extra) = match compact.split_once('+') {
            Some((f, e)) => (f, Some(e)),
            None if compact.ends_with(['x', 'X']) => (compact.as_str(), None),
            None => return Err(bad()),
        };
        if !factor.is_empty() {
            let f = factor
                .strip_suffix(['x', 'X'])
                .ok_or_else(bad)?
                .parse::<f64>()
                .map_err(|_| bad())?;
            if !(f.is_finite() && f >= 1.0) {
                return Err(TimeRuleError::FactorBelowOne(s.to_string()));
            }
            rule.factor = f;
        }
        if let Some(e) = extra {
            rule.extra = parse_duration(e).map_err(|_| bad())?;
        }
        Ok(rule)
    }
}

impl fmt::Display for TimeRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.factor != 1.0 {
            parts.push(format!("x {}", self.factor));
        }
        if !self.extra.is_zero() {
            parts.push(format!("+ {}", format_duration(self.extra)));
        }
        f.write_str(&parts.join(" "))
    }
}

/// A command in judge.toml: one line ("g++ -O2 -o {binary} {source}") or a list of arguments.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawCommand {
    Line(String),
    Args(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLanguage {
    name: Option<String>,
    extensions: Option<toml::Spanned<Vec<String>>>,
    compile: Option<toml::Spanned<RawCommand>>,
    run: Option<toml::Spanned<RawCommand>>,
    version: Option<toml::Spanned<RawCommand>>,
    checks: Option<Vec<String>>,
    install: Option<String>,
    edition: Option<toml::Spanned<String>>,
    toolchain: Option<toml::Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    language: BTreeMap<String, toml::Spanned<RawLanguage>>,
    #[serde(default)]
    cluster: Option<toml::Spanned<ClusterSettings>>,
}

impl Config {
    /// `judge.toml` at the workspace root; the defaults when there is none.
    pub fn load(root: &Path) -> Result<Config> {
        let path = root.join("judge.toml");
        let text = match std::fs::read(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
            Err(e) => return Err(Error::read(&path, e)),
        };
        let text = String::from_utf8(text).map_err(|_| Error::Config {
            at: Location::file("judge.toml"),
            message: "the file is not UTF-8 text".into(),
            fix: "save it as UTF-8".into(),
        })?;
        Config::parse(&text)
    }

    pub fn parse(text: &str) -> Result<Config> {
        let at = Text(text);
        let raw = at.raw()?;
        let mut config = Config::default();
        if let Some(cluster) = raw.cluster {
            config.cluster = at.cluster(cluster)?;
        }
        for (id, spanned) in raw.language {
            let span = spanned.span();
            let raw = spanned.into_inner();
            let language = at.language(&config.languages, &id, span.clone(), &raw)?;
            let (language, rust) = at.apply(language, &id, span, raw)?;
            if let Some(rust) = rust {
                config.rust = rust;
            }
            config.take_extensions(language);
        }
        Ok(config)
    }

    /// Adds `language`, or puts it in place of the one of its id. One extension, one
    /// language: the later definition takes it over from the others.
    fn take_extensions(&mut self, language: Language) {
        let taken: Vec<String> = language.extensions.clone();
        let others: Vec<Language> = self
            .languages
            .all()
            .filter(|l| l.id != language.id)
            .map(|l| Language::clone(l))
            .collect();
        for mut other in others {
            let before = other.extensions.len();
            other.extensions.retain(|e| !taken.contains(e));
            if other.extensions.len() != before {
                self.languages.insert(other);
            }
        }
        self.languages.insert(language);
    }
}

/// The text of `judge.toml`, for errors that name the line of a span in it.
#[derive(Clone, Copy)]
struct Text<'a>(&'a str);

impl Text<'_> {
    fn line_of(self, offset: usize) -> usize {
        self.0[..offset.min(self.0.len())].matches('\n').count() + 1
    }

    fn bad(self, span: std::ops::Range<usize>, message: String, fix: &str) -> Error {
        Error::Config {
            at: Location::file("judge.toml").with_line(self.line_of(span.start)),
            message,
            fix: fix.to_string(),
        }
    }

    /// The file as TOML, with its keys checked.
    fn raw(self) -> Result<RawConfig> {
        toml::from_str(self.0).map_err(|e| {
            let message = e.message().trim().to_string();
            Error::Config {
                at: Location::file("judge.toml").with_line(e.span().map(|s| self.line_of(s.start))),
                fix: if message.starts_with("unknown field") {
                    "remove or correct the key; the guide's \"judge.toml\" section (docs/src/languages.md) lists every key"
                        .into()
                } else {
                    "correct the file; the guide's \"judge.toml\" section (docs/src/languages.md) shows examples".into()
                },
                message,
            }
        })
    }

    /// `[cluster]`, its values checked.
    fn cluster(self, cluster: toml::Spanned<ClusterSettings>) -> Result<ClusterSettings> {
        let span = cluster.span();
        let cluster = cluster.into_inner();
        if let Some(wait) = &cluster.ack_wait {
            parse_duration(wait).map_err(|m| {
                self.bad(
                    span.clone(),
                    format!("cluster.ack_wait: {m}"),
                    "write a duration: \"30s\"",
                )
            })?;
        }
        if cluster.max_deliver.is_some_and(|n| n < 1) {
            return Err(self.bad(
                span,
                "cluster.max_deliver must be at least 1".into(),
                "write how many times a job may be delivered: max_deliver = 3",
            ));
        }
        Ok(cluster)
    }

    /// The language `[language.ID]` starts from: the one of that id so far, or a new one
    /// (which needs `extensions` and `run`).
    fn language(
        self,
        languages: &Languages,
        id: &str,
        span: std::ops::Range<usize>,
        raw: &RawLanguage,
    ) -> Result<Language> {
        let valid_id = !id.is_empty()
            && id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valid_id {
            return Err(self.bad(
                span,
                format!("`{id}` cannot be a language's name"),
                "use lowercase letters, digits and `-`: [language.kotlin]",
            ));
        }
        if let Some(l) = languages.get(id) {
            return Ok(Language::clone(l));
        }
        if raw.extensions.is_none() || raw.run.is_none() {
            return Err(self.bad(
                span,
                format!("language `{id}` is new, so it needs `extensions` and `run`"),
                "add `extensions = [\"kt\"]` and `run = \"...\"` (and `compile` for a compiled language)",
            ));
        }
        Ok(Language {
            id: id.to_string(),
            name: id.to_string(),
            code: id.to_string(),
            extensions: Vec::new(),
            compile: None,
            run: Command::parse(&["{binary}"]).expect("valid"),
            version: None,
            resolve: None,
            checks: Vec::new(),
            install: None,
            kind: Kind::Plain,
            entry: Vec::new(),
            compile_env: Vec::new(),
            compile_reads: Vec::new(),
        })
    }

    /// A command of `[language.ID]`, its placeholders checked.
    fn command(self, id: &str, what: &str, c: toml::Spanned<RawCommand>) -> Result<Command> {
        let span = c.span();
        let parsed = match c.into_inner() {
            RawCommand::Line(l) => Command::parse_line(&l),
            RawCommand::Args(a) => {
                Command::parse(&a.iter().map(String::as_str).collect::<Vec<_>>())
            }
        };
        parsed.map_err(|m| {
            self.bad(
                span,
                format!("language.{id}.{what}: {m}"),
                "write the command with the placeholders listed in the guide (docs/src/languages.md, \"judge.toml\")",
            )
        })
    }

    /// `language` with the keys of `[language.ID]` applied, and Rust's settings when it is Rust.
    fn apply(
        self,
        mut language: Language,
        id: &str,
        span: std::ops::Range<usize>,
        raw: RawLanguage,
    ) -> Result<(Language, Option<RustSettings>)> {
        if let Some(n) = raw.name {
            language.name = n;
        }
        if let Some(e) = raw.extensions {
            language.extensions = self.extensions(id, e)?;
        }
        if let Some(c) = raw.compile {
            language.compile = Some(self.command(id, "compile", c)?);
        }
        if let Some(c) = raw.run {
            // A run command of a program found on PATH runs that program: no launcher
            // resolution from the built-in entry applies any more.
            language.run = self.command(id, "run", c)?;
            language.resolve = None;
        }
        if let Some(c) = raw.version {
            language.version = Some(self.command(id, "version", c)?);
        }
        if let Some(c) = raw.checks {
            language.checks = c;
        }
        if let Some(i) = raw.install {
            language.install = Some(i);
        }
        let rust = self.rust(&language, id, span, (&raw.edition, &raw.toolchain))?;
        Ok((language, rust))
    }

    /// `extensions`, without their dots, in lower case: at least one.
    fn extensions(self, id: &str, e: toml::Spanned<Vec<String>>) -> Result<Vec<String>> {
        let span = e.span();
        let list: Vec<String> = e
            .into_inner()
            .into_iter()
            .map(|x| x.trim_start_matches('.').to_ascii_lowercase())
            .collect();
        if list.is_empty() || list.iter().any(|x| x.is_empty() || x.contains('/')) {
            return Err(self.bad(
                span,
                format!("language.{id}.extensions: give at least one extension"),
                "write extensions without the dot: extensions = [\"kt\"]",
            ));
        }
        Ok(list)
    }

    /// `edition` and `toolchain`, which only Rust takes: its settings, checked.
    fn rust(
        self,
        language: &Language,
        id: &str,
        span: std::ops::Range<usize>,
        (edition, toolchain): (
            &Option<toml::Spanned<String>>,
            &Option<toml::Spanned<String>>,
        ),
    ) -> Result<Option<RustSettings>> {
        for (key, value) in [("edition", edition), ("toolchain", toolchain)] {
            if let Some(v) = value {
                if language.kind != Kind::Rust {
                    return Err(self.bad(
                        v.span(),
                        format!("`{key}` applies only to [language.rust]"),
                        &format!("remove `{key}` from [language.{id}]"),
                    ));
                }
            }
        }
        if language.kind != Kind::Rust {
            return Ok(None);
        }
        let rust = RustSettings {
            edition: edition.as_ref().map(|e| e.get_ref().clone()),
            toolchain: toolchain.as_ref().map(|t| t.get_ref().clone()),
        };
        rust.validate().map_err(|m| {
            self.bad(
                span,
                format!("language.rust: {m}"),
                "write edition = \"2021\" and toolchain = \"1.75\" (a toolchain rustup has installed)",
            )
        })?;
        Ok(Some(rust))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_language_is_changed_or_added() {
        let c = Config::parse(
            "[language.cpp]\ncompile = \"g++ -std=c++17 -O2 -o {binary} {source}\"\n\n\
             [language.whitespace]\nname = \"Whitespace\"\nextensions = [\".ws\"]\n\
             compile = [\"wsc\", \"{source}\", \"-o\", \"{dir}/s.out\"]\n\
             run = \"wsi -m {memory_mb} {dir}/s.out\"\n\n\
             [language.rust]\nedition = \"2024\"\n",
        )
        .unwrap();
        let cpp = c.languages.get("cpp").unwrap();
        assert_eq!(
            cpp.compile.as_ref().unwrap().to_string(),
            "g++ -std=c++17 -O2 -o {binary} {source}"
        );
        assert_eq!(
            cpp.extensions,
            ["cpp", "cc", "cxx", "c++"],
            "the rest is kept"
        );
        let ws = c.languages.get("whitespace").unwrap();
        assert_eq!(ws.extensions, ["ws"]);
        assert_eq!(
            (ws.name.as_str(), ws.code.as_str()),
            ("Whitespace", "whitespace")
        );
        assert_eq!(
            c.languages
                .of_path(Path::new("a.ws"))
                .map(|l| l.id.as_str()),
            Some("whitespace")
        );
        assert_eq!(c.rust.edition.as_deref(), Some("2024"));
    }

    #[test]
    fn a_claimed_extension_moves_to_the_new_language() {
        let c = Config::parse("[language.pypy]\nextensions = [\"py\"]\nrun = \"pypy3 {source}\"\n")
            .unwrap();
        let id = c.languages.of_path(Path::new("x.py")).map(|l| l.id.clone());
        assert_eq!(id.as_deref(), Some("pypy"));
    }

    #[test]
    fn errors_name_the_line_and_the_fix() {
        let e = |text: &str| Config::parse(text).unwrap_err().to_string();
        let m = e("[language.cpp]\ncompile = \"g++ {sourse}\"\n");
        assert!(
            m.starts_with("judge.toml:2: language.cpp.compile: unknown placeholder `{sourse}`"),
            "{m}"
        );
        assert!(m.contains("fix:"), "{m}");
        let m = e("[language.cpp]\ncompiler = \"g++\"\n");
        assert!(
            m.contains("judge.toml:2") && m.contains("unknown field"),
            "{m}"
        );
        let m = e("[language.whitespace]\nrun = \"wsi {source}\"\n");
        assert!(
            m.contains("judge.toml:1") && m.contains("needs `extensions` and `run`"),
            "{m}"
        );
        let m = e("[language.cpp]\nedition = \"2021\"\n");
        assert!(m.contains("only to [language.rust]"), "{m}");
        let m = e("[language.rust]\nedition = \"2020\"\n");
        assert!(m.contains("not a Rust edition"), "{m}");
        let m = e("[languages.cpp]\n");
        assert!(
            m.contains("judge.toml:1") && m.contains("unknown field"),
            "{m}"
        );
    }

    #[test]
    fn time_rules() {
        let r: TimeRule = "3x + 2s".parse().unwrap();
        assert_eq!(r.apply(Duration::from_secs(1)), Duration::from_secs(5));
        assert_eq!(r.to_string(), "x 3 + 2 s");
        let r: TimeRule = "+1s".parse().unwrap();
        assert_eq!(r.apply(Duration::from_secs(1)), Duration::from_secs(2));
        let r: TimeRule = "1.5x".parse().unwrap();
        assert_eq!(r.apply(Duration::from_secs(2)), Duration::from_secs(3));
        assert!("3".parse::<TimeRule>().is_err());
        assert_eq!(
            "0.5x".parse::<TimeRule>().unwrap_err().to_string(),
            "`0.5x`: the factor must be 1 or more"
        );
        assert_eq!(
            "3".parse::<TimeRule>().unwrap_err().to_string(),
            "`3` is not a time rule such as \"3x + 2s\", \"2x\" or \"+1s\""
        );
        assert!("2x + fast".parse::<TimeRule>().is_err());
    }
}
