//! A folder of problems each with a `config.yaml` (Hydro's layout, as LiveCodeBench-Pro and
//! FrontierCS publish theirs): the problem's id is its folder's name; `time` and `memory`
//! (`1s`, `500ms`; `256m`, `1g`), or each subtask's where they all agree; the tests are the
//! subtasks' `cases` (`{input, output}` files), else `n_cases` numbered `1.in` with `1.ans` (or
//! `1.out`), else every `.in` of the folder, in `testdata/` where there is one; `checker`
//! (`chk.cc`, or `{file: chk.cc}`) a testlib checker; `type: interactive` with its
//! `interactor`. A `testlib.h` in the problem's folder (or the data set's) is the one its
//! programs are built with.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;
use sha2::Digest;

use super::{
    dataset_error, hex, unique, with_tests, Compare, DataProblem, Dataset, Format, Program,
    Programs, Spec, Test,
};
use crate::Error;

const CONFIG: &str = "config.yaml";

/// Whether the folder `root` is a problem (it holds a `config.yaml`) or holds problems.
pub(super) fn holds(root: &Path) -> bool {
    root.join(CONFIG).is_file()
        || std::fs::read_dir(root).is_ok_and(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.path().join(CONFIG).is_file())
        })
}

/// The problems of the folder `root` (or `root` alone, when it is a problem itself).
pub(super) fn read(root: &Path) -> Result<Dataset, Error> {
    let mut dirs: Vec<PathBuf> = if root.join(CONFIG).is_file() {
        vec![root.to_path_buf()]
    } else {
        let entries = std::fs::read_dir(root).map_err(|e| Error::io("read", root, e))?;
        entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join(CONFIG).is_file())
            .collect()
    };
    if dirs.is_empty() {
        return Err(dataset_error(
            root,
            None,
            "the folder holds no problem: no config.yaml in it nor in its folders".into(),
            "give the folder of the problems (each a folder with its config.yaml), or a data set file",
        ));
    }
    dirs.sort_by_key(|a| natural(name_of(a)));
    let shared = std::fs::read(root.join("testlib.h")).ok();
    let problems = dirs
        .iter()
        .enumerate()
        .map(|(i, dir)| DataProblem {
            id: name_of(dir).to_string(),
            row: i + 1,
            spec: spec(dir, shared.as_deref()),
            references: Vec::new(),
        })
        .collect();
    Ok(Dataset {
        path: root.to_path_buf(),
        format: Format::ConfigYaml,
        sha256: folder_hash(root, &dirs)?,
        // Its files are hashed together, as one folder: no shard of its own to record.
        files: Vec::new(),
        tests: Vec::new(),
        problems: unique(problems),
    })
}

fn name_of(dir: &Path) -> &str {
    dir.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// Numbers in their order (`2` before `10`), then names as they are.
fn natural(name: &str) -> (u64, String) {
    (name.parse().unwrap_or(u64::MAX), name.to_string())
}

/// SHA-256 over every file of the problems' folders, their paths and bytes, in a fixed order.
fn folder_hash(root: &Path, dirs: &[PathBuf]) -> Result<String, Error> {
    let mut files = Vec::new();
    for dir in dirs {
        walk(dir, &mut files).map_err(|e| Error::io("read", dir, e))?;
    }
    files.sort();
    let mut hash = sha2::Sha256::new();
    for file in files {
        let bytes = std::fs::read(&file).map_err(|e| Error::io("read", &file, e))?;
        let relative = file.strip_prefix(root).unwrap_or(&file);
        hash.update(relative.to_string_lossy().as_bytes());
        hash.update([0]);
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    Ok(hex(&hash.finalize()))
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// The problem in `dir`, or why it cannot be judged.
fn spec(dir: &Path, shared_testlib: Option<&[u8]>) -> Result<Spec, String> {
    let text = std::fs::read_to_string(dir.join(CONFIG))
        .map_err(|e| format!("its {CONFIG} cannot be read: {e}"))?;
    let config: Value = if text.trim().is_empty() {
        Value::Null
    } else {
        serde_saphyr::from_str(&text).map_err(|e| {
            let first = e.to_string();
            format!(
                "its {CONFIG} is not YAML: {}",
                first.lines().next().unwrap_or("")
            )
        })?
    };
    let data = if dir.join("testdata").is_dir() {
        dir.join("testdata")
    } else {
        dir.to_path_buf()
    };
    let subtasks: &[Value] = config
        .get("subtasks")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let (time, memory) = limits(&config, subtasks)?;
    let interactive = match config.get("type").and_then(Value::as_str) {
        None | Some("default") => false,
        Some("interactive") => true,
        Some(other) => {
            return Err(format!(
                "its {CONFIG} says `type: {other}`, and only `default` and `interactive` problems are judged"
            ))
        }
    };
    if let Some(kind) = config.get("checker_type").and_then(Value::as_str) {
        if kind != "testlib" {
            return Err(format!(
                "its {CONFIG} says `checker_type: {kind}`, and only testlib checkers are run"
            ));
        }
    }
    let program = |key: &str| -> Result<Option<Program>, String> {
        let Some(name) = file_named(config.get(key)) else {
            return Ok(None);
        };
        inside(&name)?;
        let path = [dir.join(&name), data.join(&name)]
            .into_iter()
            .find(|p| p.is_file())
            .ok_or_else(|| format!("its {CONFIG} names the {key} `{name}`, which is not there"))?;
        let source = std::fs::read_to_string(&path)
            .map_err(|e| format!("its {key} `{name}` cannot be read: {e}"))?;
        Ok(Some(Program::Testlib(source)))
    };
    let checker = program("checker")?;
    let interactor = program("interactor")?;
    if interactive && interactor.is_none() {
        return Err(format!(
            "its {CONFIG} says `type: interactive` and names no `interactor`"
        ));
    }
    let testlib = [dir.join("testlib.h"), data.join("testlib.h")]
        .iter()
        .find_map(|p| std::fs::read(p).ok())
        .or_else(|| shared_testlib.map(<[u8]>::to_vec));
    let tests = tests(&data, subtasks)?;
    with_tests(tests, |tests| Spec {
        tests,
        time,
        memory_bytes: memory,
        // Hydro's default comparison: lines, trailing spaces and blank lines at the end aside.
        compare: Compare::Lines,
        function: None,
        programs: Programs {
            checker,
            interactor,
            files: None,
            testlib,
        },
    })
}

/// A file the config names is the problem's own: a path that climbs out of its folder (or
/// starts at the root) is refused.
fn inside(name: &str) -> Result<(), String> {
    let path = Path::new(name);
    if path.is_absolute()
        || path
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        return Err(format!(
            "its {CONFIG} names `{name}`, outside the problem's folder"
        ));
    }
    Ok(())
}

/// `chk.cc`, or `{file: chk.cc, lang: ...}`.
fn file_named(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Object(o) => o.get("file")?.as_str().map(str::to_string),
        _ => None,
    }
}

/// The problem's limits: its own, else its subtasks' where they all give the same.
fn limits(config: &Value, subtasks: &[Value]) -> Result<(Duration, u64), String> {
    let one = |key: &str| -> Result<Option<Value>, String> {
        if let Some(v) = config.get(key) {
            return Ok(Some(v.clone()));
        }
        let given: Vec<&Value> = subtasks.iter().filter_map(|s| s.get(key)).collect();
        match given.first() {
            None => Ok(None),
            Some(first) if given.iter().all(|v| v == first) && given.len() == subtasks.len() => {
                Ok(Some((*first).clone()))
            }
            Some(_) => Err(format!(
                "its subtasks give different `{key}` limits, and one limit per problem is judged"
            )),
        }
    };
    let time = match one("time")? {
        None => return Err(format!("its {CONFIG} gives no `time`")),
        Some(v) => duration(&v).ok_or_else(|| {
            format!(
                "its `time` is `{}`, not a duration such as `1s` or `500ms`",
                plain(&v)
            )
        })?,
    };
    let memory = match one("memory")? {
        None => return Err(format!("its {CONFIG} gives no `memory`")),
        Some(v) => bytes(&v).ok_or_else(|| {
            format!(
                "its `memory` is `{}`, not a size such as `256m` or `1g`",
                plain(&v)
            )
        })?,
    };
    Ok((time, memory))
}

fn plain(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// `1s`, `1.5s`, `500ms`: a number without a unit is refused (seconds or milliseconds?).
fn duration(v: &Value) -> Option<Duration> {
    let text = v.as_str()?.trim().to_ascii_lowercase();
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else {
        return None;
    };
    let n: f64 = number.trim().parse().ok()?;
    (n > 0.0 && n.is_finite()).then(|| Duration::from_secs_f64(n * scale))
}

/// `256m`, `256MB`, `1g`, `65536k`: binary units, as Hydro reads them.
fn bytes(v: &Value) -> Option<u64> {
    let text = v.as_str()?.trim().to_ascii_lowercase();
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = &text[digits.len()..];
    let scale: f64 = match unit {
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1048576.0,
        "g" | "gb" | "gib" => 1073741824.0,
        _ => return None,
    };
    let n: f64 = digits.trim().parse().ok()?;
    (n > 0.0 && n.is_finite()).then_some((n * scale) as u64)
}

/// The tests: the subtasks' named cases, else `n_cases` numbered from 1, else every `.in`.
fn tests(data: &Path, subtasks: &[Value]) -> Result<Vec<Test>, String> {
    let named: Vec<(String, Option<String>)> = subtasks
        .iter()
        .filter_map(|s| s.get("cases").and_then(Value::as_array))
        .flatten()
        .map(|c| {
            let input = c.get("input").and_then(Value::as_str).map(str::to_string);
            let output = c.get("output").and_then(Value::as_str).map(str::to_string);
            input
                .map(|i| (i, output))
                .ok_or_else(|| "a subtask's case names no `input` file".to_string())
        })
        .collect::<Result<_, _>>()?;
    let counted: u64 = subtasks
        .iter()
        .filter_map(|s| s.get("n_cases").and_then(Value::as_u64))
        .sum();
    // Lazily: a count far beyond the files there stops at the first missing one.
    let stems: Box<dyn Iterator<Item = (String, Option<String>)>> = if !named.is_empty() {
        Box::new(named.into_iter())
    } else if counted > 0 {
        Box::new((1..=counted).map(|i| (format!("{i}.in"), None)))
    } else {
        let mut ins: Vec<String> = std::fs::read_dir(data)
            .map_err(|e| format!("its tests' folder cannot be read: {e}"))?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".in"))
            .collect();
        ins.sort_by_key(|n| natural(n.trim_end_matches(".in")));
        Box::new(ins.into_iter().map(|i| (i, None)))
    };
    stems
        .map(|(input, output)| {
            let output = match output {
                Some(o) => o,
                None => {
                    let stem = input.strip_suffix(".in").unwrap_or(&input);
                    [format!("{stem}.ans"), format!("{stem}.out")]
                        .into_iter()
                        .find(|o| data.join(o).is_file())
                        .ok_or_else(|| {
                            format!("the test `{input}` has no `{stem}.ans` nor `{stem}.out`")
                        })?
                }
            };
            let read = |name: &str| {
                inside(name)?;
                std::fs::read_to_string(data.join(name))
                    .map_err(|e| format!("the test file `{name}` cannot be read: {e}"))
            };
            Ok(Test {
                input: read(&input)?,
                output: read(&output)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::String(text.into())
    }

    #[test]
    fn limits_are_read_in_hydros_units() {
        assert_eq!(duration(&s("1s")), Some(Duration::from_secs(1)));
        assert_eq!(duration(&s("500ms")), Some(Duration::from_millis(500)));
        assert_eq!(duration(&s("2.5s")), Some(Duration::from_millis(2500)));
        assert_eq!(duration(&s("1000")), None);
        assert_eq!(bytes(&s("256m")), Some(256 << 20));
        assert_eq!(bytes(&s("1024MB")), Some(1 << 30));
        assert_eq!(bytes(&s("1g")), Some(1 << 30));
        assert_eq!(bytes(&s("256")), None);
    }

    #[test]
    fn a_file_outside_the_problems_folder_is_refused() {
        assert!(inside("chk.cc").is_ok());
        assert!(inside("data/1.in").is_ok());
        assert!(inside("../other/chk.cc").is_err());
        assert!(inside("/etc/passwd").is_err());
    }

    #[test]
    fn subtasks_limits_count_only_where_they_agree() {
        let same: Value =
            serde_json::json!([{"time": "2s", "memory": "64m"}, {"time": "2s", "memory": "64m"}]);
        let (t, m) = limits(&Value::Null, same.as_array().unwrap()).unwrap();
        assert_eq!((t, m), (Duration::from_secs(2), 64 << 20));
        let differ: Value =
            serde_json::json!([{"time": "1s", "memory": "64m"}, {"time": "2s", "memory": "64m"}]);
        assert!(limits(&Value::Null, differ.as_array().unwrap()).is_err());
    }
}
