//! `generators/generators.yaml` read into a plan: every case it makes (by its name under
//! `data/`), how (a generator's command with `{seed}` and `{name}`, a copied file, text given
//! inline, or a case kept as it is), the solution that writes its answer, the settings files of
//! its folders, and the cases a folder includes from elsewhere. As the generators document of
//! the format has it; the keys of BAPCtools' later versions (`generate`, `copy`, `in`, `ans`,
//! `include`) are read too.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};
use sha2::{Digest, Sha512};

use judge_core::error::{Error, Result};

/// How a case's input comes about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `null`: the case is made by hand and kept as it is in `data/`.
    Manual,
    /// A file under `generators/` (`manual/large.in`), copied with its siblings of the known
    /// extensions.
    Copy(String),
    /// A generator's command, `{seed}` already replaced; `{name}` is replaced when it runs.
    Command(String),
    /// The input itself, written in generators.yaml (`in:`).
    Inline(String),
    /// A case made elsewhere in the plan (`include:`), by its name.
    Include(String),
}

/// One case the plan makes.
#[derive(Debug, Clone)]
pub struct Case {
    /// Its name under `data/`, without extension: `secret/01-small-tree`.
    pub name: String,
    pub source: Source,
    /// The solution that writes its `.ans` when nothing else does (a command whose program is
    /// a path from the package's root), none when turned off.
    pub solution: Option<String>,
    /// Files given inline, by extension (`ans:`, `desc:`, `hint:`).
    pub inline: BTreeMap<String, String>,
}

impl Case {
    /// Its base name, which `{name}` stands for.
    pub fn base(&self) -> &str {
        self.name.rsplit('/').next().unwrap_or(&self.name)
    }

    /// The generator or file it is made with, as messages name it.
    pub fn made_by(&self) -> String {
        match &self.source {
            Source::Manual => "by hand (kept as it is)".into(),
            Source::Copy(p) => format!("copied from generators/{p}"),
            Source::Command(c) => format!("`{c}`"),
            Source::Inline(_) => "written in generators.yaml".into(),
            Source::Include(n) => format!("included from {n}"),
        }
    }
}

/// What generators.yaml says.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub cases: Vec<Case>,
    /// Settings files to write: the folder under `data/`, the file's name, its YAML.
    pub settings: Vec<(String, String, String)>,
    /// `generators:`: programs made of several files of `generators/`, by name.
    pub programs: BTreeMap<String, Vec<String>>,
}

/// The inherited part of a folder's keys.
#[derive(Debug, Clone, Default)]
struct Inherited {
    solution: Option<String>,
    salt: String,
}

/// Reads `generators/generators.yaml` of the package in `dir`; `None` when there is none.
pub fn read(dir: &Path) -> Result<Option<Plan>> {
    let path = dir.join("generators").join("generators.yaml");
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| Error::read(&path, e))?;
    let shown = format!(
        "{}/generators/generators.yaml",
        crate::package::dir_name(dir)
    );
    let root: Value = if text.trim().is_empty() {
        Value::Null
    } else {
        crate::yaml::from_str(&text).map_err(|e| Error::Config {
            path: shown.clone(),
            line: e.line,
            message: e.message,
            fix: "correct the YAML".into(),
        })?
    };
    let Value::Object(root) = root else {
        return Err(bad(&shown, "the file", "it is not a map of keys".into()));
    };
    let mut plan = Plan::default();
    if let Some(g) = root.get("generators") {
        let Value::Object(g) = g else {
            return Err(bad(
                &shown,
                "generators",
                "not a map of names to lists of files".into(),
            ));
        };
        for (name, files) in g {
            let list: Vec<String> = match files {
                Value::Array(a) => a.iter().map(text_of).collect(),
                _ => Vec::new(),
            };
            if list.is_empty() {
                return Err(bad(
                    &shown,
                    name,
                    "a generator needs a list of its files".into(),
                ));
            }
            plan.programs.insert(name.clone(), list);
        }
    }
    let reader = Reader { shown: &shown };
    reader.directory("", &root, &Inherited::default(), &mut plan)?;
    reader.resolve_includes(&mut plan)?;
    Ok(Some(plan))
}

struct Reader<'a> {
    shown: &'a str,
}

impl Reader<'_> {
    /// A folder: its settings files, then its entries, numbered when a list.
    fn directory(
        &self,
        path: &str,
        map: &Map<String, Value>,
        parent: &Inherited,
        plan: &mut Plan,
    ) -> Result<()> {
        let inherited = self.inherited(path, map, parent)?;
        for file in ["testdata.yaml", "test_group.yaml"] {
            if let Some(v) = map.get(file) {
                let yaml = serde_saphyr::to_string(v)
                    .map_err(|e| bad(self.shown, &format!("{path}/{file}"), e.to_string()))?;
                plan.settings
                    .push((path.to_string(), file.to_string(), yaml));
            }
        }
        let entries: Vec<(String, &Value)> = match map.get("data") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Object(m)) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
            Some(Value::Array(list)) => {
                // Numbered in list order, zero-padded to the widest number, with a dash.
                let width = list.len().to_string().len();
                let mut out = Vec::new();
                for (i, item) in list.iter().enumerate() {
                    let Value::Object(m) = item else {
                        return Err(bad(self.shown, path, "a list of data holds maps".into()));
                    };
                    for (k, v) in m {
                        let n = format!("{:0width$}", i + 1);
                        out.push((if k.is_empty() { n } else { format!("{n}-{k}") }, v));
                    }
                }
                out
            }
            Some(_) => {
                return Err(bad(
                    self.shown,
                    path,
                    "`data` is not a map or a list".into(),
                ))
            }
        };
        for (name, value) in entries {
            let child = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}/{name}")
            };
            if name.is_empty() || name.contains('/') || name.starts_with('.') {
                return Err(bad(
                    self.shown,
                    &child,
                    "not a case's or a folder's name".into(),
                ));
            }
            match value {
                Value::Object(m) if is_directory(m) => {
                    self.directory(&child, m, &inherited, plan)?
                }
                v => plan.cases.push(self.case(&child, v, &inherited)?),
            }
        }
        if let Some(Value::Array(names)) = map.get("include") {
            for n in names.iter().map(text_of) {
                let base = n.rsplit('/').next().unwrap_or(&n).to_string();
                plan.cases.push(Case {
                    name: if path.is_empty() {
                        base
                    } else {
                        format!("{path}/{base}")
                    },
                    source: Source::Include(n),
                    solution: None,
                    inline: BTreeMap::new(),
                });
            }
        }
        Ok(())
    }

    /// The keys a folder passes on: its solution and salt, or its parent's.
    fn inherited(
        &self,
        path: &str,
        map: &Map<String, Value>,
        parent: &Inherited,
    ) -> Result<Inherited> {
        let mut out = parent.clone();
        if let Some(s) = map.get("solution") {
            out.solution = self.command_key(path, "solution", s)?;
        }
        if let Some(s) = map.get("random_salt") {
            out.salt = text_of(s);
        }
        Ok(out)
    }

    fn command_key(&self, path: &str, key: &str, v: &Value) -> Result<Option<String>> {
        match v {
            Value::Null => Ok(None),
            Value::String(s) if s.trim().is_empty() => Ok(None),
            Value::String(s) => Ok(Some(s.trim().to_string())),
            _ => Err(bad(
                self.shown,
                &format!("{path}/{key}"),
                "not a command".into(),
            )),
        }
    }

    /// One case from its value: null, a path ending in `.in`, a command, or a map.
    fn case(&self, name: &str, value: &Value, parent: &Inherited) -> Result<Case> {
        let mut inherited = parent.clone();
        let mut inline = BTreeMap::new();
        let source = match value {
            Value::Null => Source::Manual,
            Value::String(s) => self.source_of(name, s, &inherited)?,
            Value::Object(m) => {
                inherited = self.inherited(name, m, parent)?;
                for ext in ["ans", "desc", "hint"] {
                    if let Some(v) = m.get(ext) {
                        inline.insert(ext.to_string(), with_newline(&text_of(v)));
                    }
                }
                if let Some(c) = m.get("input").or_else(|| m.get("generate")) {
                    self.source_of(name, &text_of(c), &inherited)?
                } else if let Some(c) = m.get("copy") {
                    Source::Copy(text_of(c))
                } else if let Some(i) = m.get("in") {
                    Source::Inline(with_newline(&text_of(i)))
                } else {
                    return Err(bad(
                        self.shown,
                        name,
                        "a case's map needs `input` (a command), `copy` or `in`".into(),
                    ));
                }
            }
            _ => {
                return Err(bad(
                    self.shown,
                    name,
                    "not a case: write a command or a path".into(),
                ))
            }
        };
        Ok(Case {
            name: name.to_string(),
            source,
            solution: inherited.solution.clone(),
            inline,
        })
    }

    fn source_of(&self, name: &str, s: &str, inherited: &Inherited) -> Result<Source> {
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
        if s.ends_with(".in") && !s.contains(' ') {
            return Ok(Source::Copy(s));
        }
        Ok(Source::Command(
            seeded(&s, &inherited.salt).map_err(|m| bad(self.shown, name, m))?,
        ))
    }

    /// Each `include:` made the case it names, found by its name or its base name.
    fn resolve_includes(&self, plan: &mut Plan) -> Result<()> {
        let names: Vec<String> = plan.cases.iter().map(|c| c.name.clone()).collect();
        for c in &mut plan.cases {
            let Source::Include(wanted) = &c.source else {
                continue;
            };
            let found: Vec<&String> = names
                .iter()
                .filter(|n| *n == wanted || n.rsplit('/').next() == Some(wanted.as_str()))
                .filter(|n| **n != c.name)
                .collect();
            match found.as_slice() {
                [one] => c.source = Source::Include((*one).clone()),
                [] => {
                    return Err(bad(
                        self.shown,
                        &c.name,
                        format!("it includes `{wanted}`, which generators.yaml does not make"),
                    ))
                }
                _ => {
                    return Err(bad(
                        self.shown,
                        &c.name,
                        format!("it includes `{wanted}`, which names several cases"),
                    ))
                }
            }
        }
        Ok(())
    }
}

fn is_directory(m: &Map<String, Value>) -> bool {
    m.get("type").is_some_and(|t| text_of(t) == "directory")
        || (m.get("type").is_none()
            && (m.contains_key("data") || m.contains_key("include"))
            && !m.contains_key("input")
            && !m.contains_key("generate"))
}

/// `{seed}` or `{seed:N}` in `command` replaced by its seed: the format's, the last 31 bits
/// of the SHA-512 of the salt and the command as written.
pub fn seeded(command: &str, salt: &str) -> std::result::Result<String, String> {
    let count = command.matches("{seed").count();
    if count > 1 {
        return Err("`{seed}` may appear once in a command".into());
    }
    let Some(start) = command.find("{seed") else {
        return Ok(command.to_string());
    };
    let Some(len) = command[start..].find('}') else {
        return Err("`{seed` is not closed".into());
    };
    let tag = &command[start..start + len + 1];
    let valid = tag == "{seed}"
        || tag
            .strip_prefix("{seed:")
            .and_then(|t| t.strip_suffix('}'))
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    if !valid {
        return Err(format!("`{tag}` is not {{seed}} or {{seed:N}}"));
    }
    let digest = Sha512::digest(format!("{salt}{command}").as_bytes());
    let last = u32::from_be_bytes(digest[60..64].try_into().expect("four bytes"));
    Ok(command.replacen(tag, &(last & 0x7fff_ffff).to_string(), 1))
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        v => v.to_string(),
    }
}

fn with_newline(s: &str) -> String {
    if s.is_empty() || s.ends_with('\n') {
        s.to_string()
    } else {
        format!("{s}\n")
    }
}

fn bad(shown: &str, key: &str, message: String) -> Error {
    Error::Config {
        path: format!("{shown} ({key})"),
        line: None,
        message,
        fix: "write it as the format's generators document says (see the guide: docs/src/generators.md)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_is_the_formats_hash_of_the_salt_and_the_command() {
        let a = seeded("gen.py {seed}", "").unwrap();
        let b = seeded("gen.py {seed:1}", "").unwrap();
        let c = seeded("gen.py {seed}", "salt").unwrap();
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(a, seeded("gen.py {seed}", "").unwrap());
        let n: u64 = a.strip_prefix("gen.py ").unwrap().parse().unwrap();
        assert!(n < 1 << 31);
        assert!(seeded("gen.py {seed} {seed:2}", "").is_err());
    }
}
