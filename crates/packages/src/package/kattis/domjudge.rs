//! `domjudge-problem.ini`: DOMjudge's own file beside `problem.yaml` (contest packages made
//! for DOMjudge give their time limit there, `timelimit = 4.0`), read where `problem.yaml`
//! says nothing, as DOMjudge reads it.
//!
//! The file is `key = value` lines, the value maybe quoted (then it may hold newlines), `;`
//! starting a comment (PHP's `parse_ini_string`). DOMjudge's keys: `name`, `timelimit` (seconds
//! per case), `special_compare` and `special_run` (ids of executables on the DOMjudge server),
//! `points`, `color`, `allow_submit`, `allow_judge`, `externalid`, `short-name` (`probid` in
//! older versions). Those that decide no verdict are read and left aside; an unknown key is a
//! warning. DOMjudge also takes the time limit from a file `.timelimit` when the ini has none.

use std::path::Path;
use std::time::Duration;

use super::super::seconds;
use super::dir_name;
use judge_core::error::{Error, Location, Result};

/// The file's name.
pub(super) const FILE: &str = "domjudge-problem.ini";

/// DOMjudge's default executables: the compare script is the format's default output
/// validator, the run script runs the submission alone.
const DEFAULT_COMPARE: &str = "compare";
const DEFAULT_RUN: &str = "run";

/// Keys DOMjudge reads that change no verdict here.
const LEFT_ASIDE: &[&str] = &[
    "points",
    "color",
    "allow_submit",
    "allow_judge",
    "externalid",
    "short-name",
    "probid",
];

/// What the file says that the judge uses.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Ini {
    pub(super) name: Option<String>,
    pub(super) time_limit: Option<Duration>,
    /// The id of a DOMjudge executable other than its default compare script.
    pub(super) special_compare: Option<String>,
    /// The id of a DOMjudge executable other than its default run script.
    pub(super) special_run: Option<String>,
}

impl Ini {
    /// The file in the package `dir`, or nothing when there is none.
    pub(super) fn read(dir: &Path, warnings: &mut Vec<String>) -> Result<Ini> {
        let path = dir.join(FILE);
        let mut ini = match std::fs::read_to_string(&path) {
            Ok(text) => Ini::parse(&text, &format!("{}/{FILE}", dir_name(dir)), warnings)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ini::default(),
            Err(e) => return Err(Error::read(&path, e)),
        };
        let alternative = dir.join(".timelimit");
        if ini.time_limit.is_none() && alternative.is_file() {
            let text =
                std::fs::read_to_string(&alternative).map_err(|e| Error::read(&alternative, e))?;
            ini.time_limit = Some(time_limit(
                text.trim(),
                &format!("{}/.timelimit", dir_name(dir)),
            )?);
        }
        Ok(ini)
    }

    fn parse(text: &str, shown: &str, warnings: &mut Vec<String>) -> Result<Ini> {
        let mut ini = Ini::default();
        for (line, key, value) in pairs(text) {
            match key.as_str() {
                "name" => ini.name = Some(value).filter(|v| !v.is_empty()),
                "timelimit" => {
                    ini.time_limit =
                        Some(time_limit(&value, &format!("{shown}:{line} (timelimit)"))?)
                }
                "special_compare" => {
                    ini.special_compare = Some(value).filter(|v| !v.is_empty() && v != DEFAULT_COMPARE)
                }
                "special_run" => {
                    ini.special_run = Some(value).filter(|v| !v.is_empty() && v != DEFAULT_RUN)
                }
                k if LEFT_ASIDE.contains(&k) => {}
                other => warnings.push(format!(
                    "{FILE}:{line}: unknown key `{other}` (ignored; DOMjudge reads name, timelimit, special_compare, special_run, points, color, allow_submit, allow_judge, externalid and short-name)"
                )),
            }
        }
        Ok(ini)
    }
}

/// A time limit in seconds, as DOMjudge writes it (`4`, `4.0`, `'2.5'`).
fn time_limit(value: &str, shown: &str) -> Result<Duration> {
    match value.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(seconds(s)),
        _ => Err(Error::Config {
            at: Location::file(shown),
            message: format!("`{value}` is not a time limit in seconds"),
            fix: "write the seconds per case: timelimit = 2.5".into(),
        }),
    }
}

/// The `key = value` pairs of the file, with their line numbers: comments and section heads
/// skipped, a quoted value unquoted (and read on across lines until its closing quote).
fn pairs(text: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let line = line.trim();
        if line.is_empty()
            || line.starts_with(';')
            || line.starts_with('#')
            || line.starts_with('[')
        {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let mut value = value.trim().to_string();
        if let Some(q) = value.chars().next().filter(|c| *c == '"' || *c == '\'') {
            let mut rest = value[1..].to_string();
            while !rest.contains(q) {
                match lines.next() {
                    Some((_, more)) => {
                        rest.push('\n');
                        rest.push_str(more);
                    }
                    None => break,
                }
            }
            value = rest.split(q).next().unwrap_or_default().to_string();
        } else if let Some((v, _)) = value.split_once(';') {
            value = v.trim().to_string();
        }
        out.push((i + 1, key.trim().to_string(), value));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Result<Ini>, Vec<String>) {
        let mut warnings = Vec::new();
        (
            Ini::parse(text, "p/domjudge-problem.ini", &mut warnings),
            warnings,
        )
    }

    #[test]
    fn keys_as_domjudge_writes_them() {
        let (ini, warnings) = parse(
            "; made by a contest's tools\nprobid = A\nname = 'Hello, world'\ntimelimit = 4.0\n\
             color = #ff0000\nspecial_compare = compare\npoints = 1\n",
        );
        let ini = ini.unwrap();
        assert_eq!(ini.name.as_deref(), Some("Hello, world"));
        assert_eq!(ini.time_limit, Some(Duration::from_secs(4)));
        assert_eq!(
            ini.special_compare, None,
            "DOMjudge's default compare script"
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        let (ini, _) = parse("timelimit='2.5'\nspecial_run = interactive_runner\n");
        let ini = ini.unwrap();
        assert_eq!(ini.time_limit, Some(Duration::from_millis(2500)));
        assert_eq!(ini.special_run.as_deref(), Some("interactive_runner"));
        let (ini, _) = parse("name = \"two\nlines\"\ntimelimit = 1\n");
        assert_eq!(ini.unwrap().name.as_deref(), Some("two\nlines"));
    }

    #[test]
    fn a_bad_time_limit_names_the_line_and_an_unknown_key_is_a_warning() {
        let (ini, _) = parse("name = x\ntimelimit = fast\n");
        let e = ini.unwrap_err().to_string();
        assert!(
            e.contains("domjudge-problem.ini:2") && e.contains("`fast`"),
            "{e}"
        );
        assert!(e.contains("timelimit = 2.5"), "{e}");
        let (_, warnings) = parse("memlimit = 512\n");
        assert!(
            warnings[0].contains("unknown key `memlimit`"),
            "{warnings:?}"
        );
    }
}
