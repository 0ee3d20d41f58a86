//! The `data/` tree: cases paired by name, groups in problemtools' order, and each group's
//! settings (`testdata.yaml`, `test_group.yaml`) inherited from its parent's.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::super::inside;
use super::constants::Constants;
use super::meta::{as_number, as_text, parse_yaml, words};
use super::{dir_name, sorted_entries};
use judge_core::error::{Error, Location, Result};
use judge_core::grading::{CustomGrader, GraderFlags, Group, Item, OnReject};
use judge_core::workspace::{TestCase, ValidatorCase, ValidatorCaseKind};

/// A group's settings, as its folder's settings file and its parent's give them.
#[derive(Debug, Clone)]
pub(super) struct Settings {
    on_reject: OnReject,
    grader_flags: String,
    /// The package's own graders grade the group (`grading: custom`).
    custom_grading: bool,
    accept_score: f64,
    reject_score: f64,
    range: Option<(f64, f64)>,
    input_validator_flags: Vec<String>,
    output_validator_flags: Vec<String>,
    /// Arguments for the submission (`args`, 2025-09).
    args: Vec<String>,
}

impl Settings {
    pub(super) fn defaults() -> Settings {
        Settings {
            on_reject: OnReject::Break,
            grader_flags: String::new(),
            custom_grading: false,
            accept_score: 1.0,
            reject_score: 0.0,
            range: None,
            input_validator_flags: Vec::new(),
            output_validator_flags: Vec::new(),
            args: Vec::new(),
        }
    }

    /// These settings with a folder's settings file on top (what it leaves out is inherited).
    fn with(
        &self,
        file: &Map<String, Value>,
        shown: &str,
        warnings: &mut Vec<String>,
    ) -> Result<Settings> {
        let bad = |key: &str, v: &Value, fix: &str| Error::Config {
            at: Location::file(shown),
            message: format!("{key}: `{}` is not what the format allows", as_text(v)),
            fix: fix.to_string(),
        };
        let mut s = self.clone();
        for (key, v) in file {
            match key.as_str() {
                "on_reject" => {
                    s.on_reject = match as_text(v).as_str() {
                        "break" => OnReject::Break,
                        "continue" => OnReject::Continue,
                        _ => return Err(bad(key, v, "write break or continue")),
                    }
                }
                "grader_flags" => s.grader_flags = as_text(v),
                "accept_score" => {
                    s.accept_score = as_number(v).ok_or_else(|| bad(key, v, "write a number"))?
                }
                "reject_score" => {
                    s.reject_score = as_number(v).ok_or_else(|| bad(key, v, "write a number"))?
                }
                "range" => {
                    let parts: Vec<f64> = as_text(v)
                        .split_whitespace()
                        .map(|p| match p {
                            "-inf" => Some(f64::NEG_INFINITY),
                            "inf" | "+inf" => Some(f64::INFINITY),
                            p => p.parse().ok(),
                        })
                        .collect::<Option<_>>()
                        .ok_or_else(|| bad(key, v, "write two numbers: range: 0 50"))?;
                    let [lo, hi] = parts[..] else {
                        return Err(bad(key, v, "write two numbers: range: 0 50"));
                    };
                    s.range = Some((lo, hi));
                }
                "input_validator_flags" | "input_validator_args" => {
                    s.input_validator_flags = words(v);
                }
                "output_validator_flags" | "output_validator_args" => {
                    s.output_validator_flags = words(v);
                }
                "args" => s.args = words(v),
                // What a case is about, for people: not used in judging.
                "description" | "hint" | "full_feedback" => {}
                // A group's own static validation case: read by `static_case`, not inherited.
                "static_validation_score" | "static_validator_args" => {}
                "grading" => match as_text(v).as_str() {
                    "default" => s.custom_grading = false,
                    "custom" => s.custom_grading = true,
                    other => warnings.push(format!(
                        "{shown}: grading: `{other}` is neither default nor custom (ignored)"
                    )),
                },
                other => warnings.push(format!("{shown}: unknown key `{other}` (ignored)")),
            }
        }
        Ok(s)
    }
}

/// The folders of `data/` that hold cases testing the validators, never used to judge a
/// submission: the format's three, and BAPCtools' `invalid_answer`.
pub(super) const VALIDATION_FOLDERS: [(&str, ValidatorCaseKind); 4] = [
    ("invalid_input", ValidatorCaseKind::InvalidInput),
    ("invalid_answer", ValidatorCaseKind::InvalidAnswer),
    ("invalid_output", ValidatorCaseKind::InvalidOutput),
    ("valid_output", ValidatorCaseKind::ValidOutput),
];

/// The package's data tree, as its settings files are read: with its constants in.
pub(super) struct Tree<'a> {
    pub(super) package: &'a Path,
    pub(super) constants: &'a Constants,
}

impl Tree<'_> {
    /// The cases that test the validators, from `data/invalid_input`, `invalid_answer`,
    /// `invalid_output` and `valid_output`, with their folders' and their own settings.
    pub(super) fn validator_cases(&self, warnings: &mut Vec<String>) -> Result<Vec<ValidatorCase>> {
        let mut out = Vec::new();
        for (folder, kind) in VALIDATION_FOLDERS {
            let dir = self.package.join("data").join(folder);
            if dir.is_dir() {
                self.walk_validator_cases(
                    &dir,
                    folder,
                    kind,
                    &Settings::defaults(),
                    &mut out,
                    warnings,
                )?;
            }
        }
        Ok(out)
    }

    fn walk_validator_cases(
        &self,
        dir: &Path,
        path: &str,
        kind: ValidatorCaseKind,
        parent: &Settings,
        out: &mut Vec<ValidatorCase>,
        warnings: &mut Vec<String>,
    ) -> Result<()> {
        let settings = self.settings_of(dir, path, parent, warnings)?;
        for entry in sorted_entries(dir) {
            let name = entry
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let child = format!("{path}/{name}");
            let real = inside(self.package, &entry)?;
            if real.is_dir() {
                self.walk_validator_cases(&entry, &child, kind, &settings, out, warnings)?;
                continue;
            }
            let Some(stem) = name.strip_suffix(".in") else {
                continue;
            };
            let own = dir.join(format!("{stem}.yaml"));
            let settings = if own.is_file() {
                let shown = format!("{}/data/{path}/{stem}.yaml", dir_name(self.package));
                let text = std::fs::read_to_string(&own).map_err(|e| Error::read(&own, e))?;
                match parse_yaml(&self.constants.apply(&text)) {
                    Ok(Value::Object(map)) => settings.with(&map, &shown, warnings)?,
                    _ => settings.clone(),
                }
            } else {
                settings.clone()
            };
            let beside = |ext: &str| {
                let p = dir.join(format!("{stem}.{ext}"));
                p.is_file().then_some(p)
            };
            out.push(ValidatorCase {
                name: format!("{path}/{stem}"),
                kind,
                input: real,
                answer: beside("ans"),
                output: beside("out"),
                input_flags: settings.input_validator_flags.clone(),
                output_flags: settings.output_validator_flags.clone(),
            });
        }
        Ok(())
    }

    /// A folder's settings: its parent's, with its settings files on top.
    fn settings_of(
        &self,
        dir: &Path,
        path: &str,
        parent: &Settings,
        warnings: &mut Vec<String>,
    ) -> Result<Settings> {
        let mut settings = parent.clone();
        for file in ["testdata.yaml", "test_group.yaml"] {
            let f = dir.join(file);
            if !f.is_file() {
                continue;
            }
            let shown = format!("{}/data/{path}/{file}", dir_name(self.package));
            let text = std::fs::read_to_string(&f).map_err(|e| Error::read(&f, e))?;
            let value = parse_yaml(&self.constants.apply(&text)).map_err(|e| Error::Config {
                at: Location::file(&shown).with_line(e.line),
                message: e.message,
                fix: "correct the YAML".into(),
            })?;
            if let Value::Object(map) = value {
                settings = settings.with(&map, &shown, warnings)?;
            }
        }
        Ok(settings)
    }

    /// Reads one folder of the data tree: its cases and subgroups, sorted by name as problemtools
    /// sorts them.
    pub(super) fn read_group(
        &self,
        dir: &Path,
        path: &str,
        parent: &Settings,
        cases: &mut Vec<TestCase>,
        warnings: &mut Vec<String>,
    ) -> Result<Group> {
        let package = self.package;
        let (settings, own) = self.group_settings(dir, path, parent, warnings)?;
        let mut items = Vec::new();
        let mut case_points = std::collections::BTreeMap::new();
        if let Some((case, points)) = static_case(package, path, &own)? {
            if let Some(p) = points {
                case_points.insert(case.name.clone(), p);
            }
            items.push(Item::Case(case.name.clone()));
            cases.push(case);
        }
        for entry in sorted_entries(dir) {
            let name = entry
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let child = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}/{name}")
            };
            let real = inside(package, &entry)?;
            if real.is_dir()
                && path.is_empty()
                && VALIDATION_FOLDERS.iter().any(|(f, _)| *f == name)
            {
                // Cases of the validators' (`judge validate`), never a submission's.
                continue;
            }
            if real.is_dir() && name.ends_with(".files") {
                // A case's files, beside its input.
                continue;
            }
            if real.is_dir() {
                let group = self.read_group(&entry, &child, &settings, cases, warnings)?;
                if !group.cases().is_empty() {
                    items.push(Item::Group(group));
                }
                continue;
            }
            let Some(stem) = name.strip_suffix(".in") else {
                continue;
            };
            let case = self.read_case((dir, stem, &child), real, &settings, warnings)?;
            items.push(Item::Case(case.name.clone()));
            cases.push(case);
        }
        self.group(path, settings, case_points, items)
    }

    /// A folder's settings: its parent's, with its `testdata.yaml` (or `test_group.yaml`) over
    /// them; and what those files say, as written.
    fn group_settings(
        &self,
        dir: &Path,
        path: &str,
        parent: &Settings,
        warnings: &mut Vec<String>,
    ) -> Result<(Settings, Map<String, Value>)> {
        let mut settings = parent.clone();
        let mut own = Map::new();
        for file in ["testdata.yaml", "test_group.yaml"] {
            let f = dir.join(file);
            if !f.is_file() {
                continue;
            }
            let shown = format!(
                "{}/data/{}{file}",
                dir_name(self.package),
                if path.is_empty() {
                    String::new()
                } else {
                    format!("{path}/")
                }
            );
            let text = std::fs::read_to_string(&f).map_err(|e| Error::read(&f, e))?;
            let text = self.constants.apply(&text);
            let value = parse_yaml(&text).map_err(|e| Error::Config {
                at: Location::file(&shown).with_line(e.line),
                message: e.message,
                fix: "correct the YAML".into(),
            })?;
            if let Value::Object(map) = value {
                settings = settings.with(&map, &shown, warnings)?;
                own.extend(map);
            }
        }
        Ok((settings, own))
    }

    /// The case of `STEM.in` in `dir` (`child` in the data tree; `input`, its real path): its
    /// answer, description, own settings and files.
    fn read_case(
        &self,
        (dir, stem, child): (&Path, &str, &str),
        input: PathBuf,
        settings: &Settings,
        warnings: &mut Vec<String>,
    ) -> Result<TestCase> {
        let package = self.package;
        let answer = dir.join(format!("{stem}.ans"));
        if !answer.is_file() {
            return Err(Error::TestData {
                at: Location::file(format!("{}/data/{child}", dir_name(package))),
                message: "an input without an answer: there is no .ans beside it".into(),
                fix: format!("add {stem}.ans"),
            });
        }
        let answer = inside(package, &answer)?;
        let case_name = child.strip_suffix(".in").unwrap_or(child).to_string();
        let description = std::fs::read_to_string(dir.join(format!("{stem}.desc")))
            .ok()
            .map(|d| d.trim().to_string())
            .filter(|d| !d.is_empty());
        // A case's own settings (`NAME.yaml`, 2025-09) over its group's.
        let own = dir.join(format!("{stem}.yaml"));
        let settings = if own.is_file() {
            let shown = format!("{}/data/{}.yaml", dir_name(package), case_name);
            let text = std::fs::read_to_string(&own).map_err(|e| Error::read(&own, e))?;
            match parse_yaml(&self.constants.apply(&text)) {
                Ok(Value::Object(map)) => settings.with(&map, &shown, warnings)?,
                Ok(_) => settings.clone(),
                Err(e) => {
                    return Err(Error::Config {
                        at: Location::file(shown).with_line(e.line),
                        message: e.message,
                        fix: "correct the YAML".into(),
                    })
                }
            }
        } else {
            settings.clone()
        };
        if !settings.args.is_empty() {
            return Err(Error::TestData {
                at: Location::file(format!("{}/data/{child}", dir_name(package))),
                message: format!(
                    "its `args` ({}) are arguments for the submission, which the judge does not pass",
                    settings.args.join(" ")
                ),
                fix: "give the case its input on stdin, or judge the package where submissions take arguments".into(),
            });
        }
        let files = dir.join(format!("{stem}.files"));
        let files = if files.is_dir() {
            Some(inside(package, &files)?)
        } else {
            None
        };
        Ok(TestCase {
            sample: case_name.starts_with("sample/"),
            name: case_name,
            input,
            answer,
            description,
            validator_flags: settings.output_validator_flags.clone(),
            input_validator_flags: settings.input_validator_flags.clone(),
            files,
            static_validation: None,
        })
    }

    /// The group of the folder at `path`, graded by its settings.
    fn group(
        &self,
        path: &str,
        settings: Settings,
        case_points: std::collections::BTreeMap<String, f64>,
        items: Vec<Item>,
    ) -> Result<Group> {
        let package = self.package;
        Ok(Group {
            path: path.to_string(),
            on_reject: settings.on_reject,
            flags: GraderFlags::parse(&settings.grader_flags),
            accept_score: settings.accept_score,
            reject_score: settings.reject_score,
            range: settings.range,
            case_points,
            requires: Vec::new(),
            custom: settings
                .custom_grading
                .then(|| -> Result<CustomGrader> {
                    Ok(CustomGrader {
                        programs: sorted_entries(&package.join("graders"))
                            .iter()
                            .map(|p| inside(package, p))
                            .collect::<Result<_>>()?,
                        args: settings
                            .grader_flags
                            .split_whitespace()
                            .map(String::from)
                            .collect(),
                    })
                })
                .transpose()?,
            items,
        })
    }
}

/// The group's static validation case (2025-09's `static_validation_score`, with
/// `static_validator_args`), first in the group, and the points it gives when accepted (none
/// for `pass-fail`). The format names no such case: the judge calls it `GROUP/(static
/// validation)`, a name no case file can have.
fn static_case(
    package: &Path,
    path: &str,
    own: &Map<String, Value>,
) -> Result<Option<(TestCase, Option<f64>)>> {
    let Some(score) = own.get("static_validation_score") else {
        if own.contains_key("static_validator_args") {
            return Err(Error::Config {
                at: Location::file(format!("{}/data/{path}", dir_name(package))),
                message: "`static_validator_args` without `static_validation_score`".into(),
                fix: "add static_validation_score (pass-fail, or the points of the static case)"
                    .into(),
            });
        }
        return Ok(None);
    };
    let points = match score {
        Value::String(s) if s == "pass-fail" => None,
        v => Some(
            as_number(v)
                .filter(|n| *n >= 0.0)
                .ok_or_else(|| Error::Config {
                    at: Location::file(format!("{}/data/{path}", dir_name(package))),
                    message: format!(
                        "static_validation_score: `{}` is neither pass-fail nor a score",
                        as_text(v)
                    ),
                    fix: "write static_validation_score: pass-fail, or a whole number of points"
                        .into(),
                })?,
        ),
    };
    let args = own
        .get("static_validator_args")
        .map(words)
        .unwrap_or_default();
    let name = match path {
        "" => "(static validation)".to_string(),
        p => format!("{p}/(static validation)"),
    };
    Ok(Some((
        TestCase {
            sample: name.starts_with("sample/"),
            name,
            static_validation: Some(args),
            ..TestCase::default()
        },
        points,
    )))
}
