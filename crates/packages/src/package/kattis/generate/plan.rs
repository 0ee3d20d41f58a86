//! `generators/generators.yaml` read into a plan: every case it makes (by its name under
//! `data/`), how (a generator's command with `{seed}`, `{count}` and `{name}`, a copied file,
//! text given inline, or a case kept as it is), the solution that writes its answer, the
//! settings files of its folders, and the cases a folder includes from elsewhere. As the
//! generators document of the format has it, with the keys of BAPCtools, its reference tool
//! (`generate`, `copy`, `in`, `ans`, `out`, `yaml`, `count`, `include`), and its rules for
//! seeds and numbers, so that the same document makes the same data.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use super::numbers::{count_of, numbered_name, seeded};
use crate::package::kattis::Constants;
use judge_core::error::{Error, Location, Result};

/// How a case's input comes about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `null`: the case is made by hand and kept as it is in `data/`.
    Manual,
    /// A file under `generators/` (`manual/large.in`), copied with its siblings of the known
    /// extensions.
    Copy(String),
    /// A generator's command, `{seed}` and `{count}` already replaced; `{name}` is replaced
    /// when it runs.
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
    /// The key generators.yaml gives it, before its number and its count (`small-tree`):
    /// what an `include` names.
    pub key: String,
    pub source: Source,
    /// The solution that writes its `.ans` when nothing else does (a command whose program is
    /// a path from the package's root), none when turned off.
    pub solution: Option<String>,
    /// Files given inline, by extension (`ans:`, `out:`, `desc:`, `hint:`, `yaml:`).
    pub inline: BTreeMap<String, String>,
}

impl Case {
    /// Its base name, which `{name}` stands for.
    pub fn base(&self) -> &str {
        base(&self.name)
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

/// What generators.yaml says. Its cases are in the order they are made: every case made
/// here first, then the copies that includes make of them, which read what those made.
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

/// The folders of `data/` in the order the reference tool makes (and numbers) them; others
/// follow by name.
const TOP_ORDER: &[&str] = &[
    "sample",
    "secret",
    "invalid_output",
    "invalid_answer",
    "invalid_input",
    "valid_output",
];

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
    let root = crate::yaml::value(&text).map_err(|e| Error::Config {
        at: Location::file(&shown).with_line(e.line),
        message: e.message,
        fix: "correct the YAML".into(),
    })?;
    let root = match root {
        Value::Object(root) => root,
        Value::Null => Map::new(),
        _ => return Err(bad(&shown, "the file", "it is not a map of keys".into())),
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
    let mut reader = Reader {
        shown: &shown,
        constants: crate::package::kattis::constants(dir)?,
        numbered: numbered_cases(&root),
        number: 0,
        folders: Vec::new(),
        includes: Vec::new(),
    };
    reader.directory("", &root, &Inherited::default(), &mut plan)?;
    reader.resolve_includes(&mut plan)?;
    Ok(Some(plan))
}

struct Reader<'a> {
    shown: &'a str,
    /// problem.yaml's constants, put into commands (`{{max_n}}`) before their seeds.
    constants: Constants,
    /// How many cases the document's lists number: the width of every number.
    numbered: usize,
    /// The number the last numbered case got: they run through the whole document.
    number: usize,
    /// Every folder, by its path and its key, which an include may name.
    folders: Vec<(String, String)>,
    /// Every `include:` entry: the folder it is in, and what it names.
    includes: Vec<(String, String)>,
}

impl Reader<'_> {
    /// A folder: its settings files, then its entries (numbered when a list), then what it
    /// includes, left to be resolved once every case is known.
    fn directory(
        &mut self,
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
        let (items, numbered): (Vec<&Map<String, Value>>, bool) = match map.get("data") {
            None | Some(Value::Null) => (Vec::new(), false),
            Some(Value::Object(m)) => (vec![m], false),
            Some(Value::Array(list)) => {
                let maps = list
                    .iter()
                    .map(Value::as_object)
                    .collect::<Option<Vec<_>>>();
                let Some(maps) = maps else {
                    return Err(bad(self.shown, path, "a list of data holds maps".into()));
                };
                (maps, true)
            }
            Some(_) => {
                return Err(bad(
                    self.shown,
                    path,
                    "`data` is not a map or a list".into(),
                ))
            }
        };
        // Groups in a list are numbered within their folder, cases through the document.
        let groups = items
            .iter()
            .flat_map(|m| m.values())
            .filter(|v| folder(v).is_some())
            .count();
        let mut group = 0;
        for m in items {
            for (key, value) in ordered(m, path.is_empty()) {
                let Some(sub) = folder(value) else {
                    self.cases(path, key, value, numbered, &inherited, plan)?;
                    continue;
                };
                let name = if numbered {
                    group += 1;
                    numbered_name(key, group, groups)
                } else {
                    key.clone()
                };
                let child = self.child(path, &name)?;
                self.folders.push((child.clone(), key.clone()));
                self.directory(&child, sub, &inherited, plan)?;
            }
        }
        match map.get("include") {
            None | Some(Value::Null) => {}
            Some(Value::Array(names)) => {
                for n in names {
                    self.includes.push((path.to_string(), text_of(n)));
                }
            }
            Some(_) => {
                return Err(bad(
                    self.shown,
                    path,
                    "`include` is not a list of names".into(),
                ))
            }
        }
        Ok(())
    }

    /// `name` under the folder `path`, refused when it cannot name a file.
    fn child(&self, path: &str, name: &str) -> Result<String> {
        let child = if path.is_empty() {
            name.to_string()
        } else {
            format!("{path}/{name}")
        };
        if name.is_empty() || name.contains('/') || name.starts_with('.') {
            let why = if name.is_empty() {
                "a case or a folder in a map needs a name (only a list numbers unnamed ones)"
            } else {
                "not a case's or a folder's name"
            };
            return Err(bad(self.shown, &child, why.into()));
        }
        Ok(child)
    }

    /// The case `key` of the folder `dir`, or its copies when it has a `count`: each its own
    /// number in a list, and `-1`, `-2`, ... after its name.
    fn cases(
        &mut self,
        dir: &str,
        key: &str,
        value: &Value,
        numbered: bool,
        parent: &Inherited,
        plan: &mut Plan,
    ) -> Result<()> {
        let count =
            count_of(value).map_err(|m| bad(self.shown, &format!("{dir}/{key}"), m.to_string()))?;
        let copies = count.unwrap_or(1);
        let width = copies.to_string().len();
        for index in 0..copies {
            let mut name = if numbered {
                self.number += 1;
                numbered_name(key, self.number, self.numbered)
            } else {
                key.to_string()
            };
            if count.is_some() {
                name = format!("{name}-{:0width$}", index + 1);
            }
            let full = self.child(dir, &name)?;
            if plan.cases.iter().any(|c| c.name == full) {
                return Err(bad(self.shown, &full, "two entries make this case".into()));
            }
            let case = self.case(&full, key, value, parent, count.map(|_| index))?;
            plan.cases.push(case);
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

    /// One case from its value: null, a path ending in `.in`, a command, or a map. `index`
    /// is its copy's, from 0, when it has a `count`.
    fn case(
        &self,
        name: &str,
        key: &str,
        value: &Value,
        parent: &Inherited,
        index: Option<usize>,
    ) -> Result<Case> {
        let mut inherited = parent.clone();
        let mut inline = BTreeMap::new();
        let source = match value {
            Value::Null => Source::Manual,
            Value::String(s) => self.source_of(name, s, &inherited, index)?,
            Value::Object(m) => {
                inherited = self.inherited(name, m, parent)?;
                for ext in ["ans", "out", "desc", "hint"] {
                    if let Some(v) = m.get(ext) {
                        inline.insert(ext.to_string(), with_newline(&text_of(v)));
                    }
                }
                match m.get("yaml") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) => {
                        inline.insert("yaml".into(), with_newline(s));
                    }
                    Some(v) => {
                        let yaml = serde_saphyr::to_string(v)
                            .map_err(|e| bad(self.shown, &format!("{name}/yaml"), e.to_string()))?;
                        inline.insert("yaml".into(), with_newline(&yaml));
                    }
                }
                if let Some(c) = m.get("input").or_else(|| m.get("generate")) {
                    self.source_of(name, &text_of(c), &inherited, index)?
                } else if let Some(c) = m.get("copy") {
                    Source::Copy(text_of(c))
                } else if let Some(i) = m.get("in") {
                    Source::Inline(with_newline(&text_of(i)))
                } else {
                    return Err(bad(
                        self.shown,
                        name,
                        "a case's map needs `generate` (a command), `copy` or `in`".into(),
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
            key: key.to_string(),
            source,
            solution: inherited.solution.clone(),
            inline,
        })
    }

    /// A path ending in `.in` (copied), or a command: its constants put in, then `{count}`
    /// (the copy's number, from 1) when the case has a count, then its seed.
    fn source_of(
        &self,
        name: &str,
        s: &str,
        inherited: &Inherited,
        index: Option<usize>,
    ) -> Result<Source> {
        let s = s.trim();
        if s.ends_with(".in") && !s.contains(char::is_whitespace) {
            return Ok(Source::Copy(s.to_string()));
        }
        let mut command = self.constants.apply(s);
        if let Some(i) = index {
            command = command.replace("{count}", &(i + 1).to_string());
        }
        let seeded = seeded(&command, &inherited.salt, index.unwrap_or(0))
            .map_err(|m| bad(self.shown, name, m.to_string()))?;
        // Run and shown with its words one space apart; the seed hashed it as written.
        Ok(Source::Command(
            seeded.split_whitespace().collect::<Vec<_>>().join(" "),
        ))
    }

    /// Each `include:` made into copies of the cases it names, in the folder it is in: a
    /// case by its key or its name, or every case of a folder. Only the cases the document
    /// makes are named, never the copies other includes make.
    fn resolve_includes(&self, plan: &mut Plan) -> Result<()> {
        let made = plan.cases.clone();
        for (folder, wanted) in &self.includes {
            let here = if folder.is_empty() { "data" } else { folder };
            let cases: Vec<&Case> = made
                .iter()
                .filter(|c| c.name == *wanted || c.key == *wanted || c.base() == wanted)
                .collect();
            let folders: Vec<&String> = self
                .folders
                .iter()
                .filter(|(p, k)| p == wanted || k == wanted || base(p) == wanted)
                .map(|(p, _)| p)
                .collect();
            let targets: Vec<(String, String)> = match (cases.as_slice(), folders.as_slice()) {
                ([one], []) => vec![(one.name.clone(), one.key.clone())],
                ([], [dir]) => plan
                    .cases
                    .iter()
                    .filter(|c| c.name.starts_with(&format!("{dir}/")))
                    .map(|c| match &c.source {
                        Source::Include(original) => (original.clone(), c.key.clone()),
                        _ => (c.name.clone(), c.key.clone()),
                    })
                    .collect(),
                ([], []) => {
                    return Err(bad(
                        self.shown,
                        here,
                        format!("it includes `{wanted}`, which generators.yaml does not make: name a case or a folder"),
                    ))
                }
                _ => {
                    let all: Vec<&str> = cases
                        .iter()
                        .map(|c| c.name.as_str())
                        .chain(folders.iter().map(|f| f.as_str()))
                        .collect();
                    return Err(bad(
                        self.shown,
                        here,
                        format!("it includes `{wanted}`, which names several: {}", all.join(", ")),
                    ));
                }
            };
            for (target, key) in targets {
                let name = self.child(folder, base(&target))?;
                let source = Source::Include(target.clone());
                match plan.cases.iter().find(|c| c.name == name) {
                    Some(c) if c.source == source => {}
                    Some(_) => {
                        return Err(bad(
                            self.shown,
                            &name,
                            format!("it includes {target}, but another entry makes {name}"),
                        ))
                    }
                    None => plan.cases.push(Case {
                        name,
                        key,
                        source,
                        solution: None,
                        inline: BTreeMap::new(),
                    }),
                }
            }
        }
        Ok(())
    }
}

/// A folder's map, when `v` is one: `type: directory`, or the keys only a folder has.
fn folder(v: &Value) -> Option<&Map<String, Value>> {
    let m = v.as_object()?;
    let is = m.get("type").is_some_and(|t| text_of(t) == "directory")
        || (m.get("type").is_none()
            && (m.contains_key("data") || m.contains_key("include"))
            && !m.contains_key("input")
            && !m.contains_key("generate"));
    is.then_some(m)
}

/// A map's entries in the order they are made: by name, the top folders of `data/` in the
/// reference tool's order.
fn ordered(m: &Map<String, Value>, top: bool) -> Vec<(&String, &Value)> {
    let mut entries: Vec<(&String, &Value)> = m.iter().collect();
    let rank = |k: &str| match top {
        true => TOP_ORDER
            .iter()
            .position(|t| *t == k)
            .unwrap_or(TOP_ORDER.len()),
        false => 0,
    };
    entries.sort_by(|a, b| (rank(a.0), a.0).cmp(&(rank(b.0), b.0)));
    entries
}

/// How many cases the lists of the folder `map` and of the folders under it number.
fn numbered_cases(map: &Map<String, Value>) -> usize {
    let each = |v: &Value, listed: bool| match folder(v) {
        Some(sub) => numbered_cases(sub),
        None if listed => count_of(v).ok().flatten().unwrap_or(1),
        None => 0,
    };
    match map.get("data") {
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_object)
            .flat_map(|m| m.values())
            .map(|v| each(v, true))
            .sum(),
        Some(Value::Object(m)) => m.values().map(|v| each(v, false)).sum(),
        _ => 0,
    }
}

/// The last part of a name under `data/`.
fn base(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
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
        at: Location::file(shown).with_key(key),
        message,
        fix: "write it as the format's generators document says (see the guide: docs/src/format/generators.md)".into(),
    }
}
