//! `constants` of problem.yaml: each `{{name}}` in the files the format names (validators,
//! submissions, Markdown statements, `test_group.yaml`) becomes the constant's value. A
//! program whose files hold one is copied, with the values in, into the judge's cache, and
//! built from there: the package itself is never written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use judge_core::error::{Error, Result};

/// `constants`: names and the text each `{{name}}` becomes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constants(pub BTreeMap<String, String>);

impl Constants {
    pub(super) fn read(
        value: Option<&Value>,
        bad: &dyn Fn(&str, String, &str) -> Error,
    ) -> Result<Constants> {
        let map = match value {
            None | Some(Value::Null) => return Ok(Constants::default()),
            Some(Value::Object(m)) => m,
            Some(_) => {
                return Err(bad(
                    "constants",
                    "`constants` is not a map of names to values".into(),
                    "write constants:\\n  max_n: 1000",
                ))
            }
        };
        let mut out = BTreeMap::new();
        for (name, v) in map {
            if !is_name(name) {
                return Err(bad(
                    "constants",
                    format!("`{name}` is not a constant's name (letters, digits and _, not first a digit)"),
                    "rename it",
                ));
            }
            // A map gives the value and its variants, each its own `{{name.variant}}`.
            let variants = match v {
                Value::Object(m) => m.clone(),
                scalar => Map::from_iter([("value".to_string(), scalar.clone())]),
            };
            let Some(value) = variants.get("value").and_then(scalar_text) else {
                return Err(bad(
                    "constants",
                    format!("`{name}` has no `value` that is an int, a float or a string"),
                    "give it a number or a string, or a map with `value:` and its variants",
                ));
            };
            out.insert(name.clone(), value);
            for (variant, v) in &variants {
                let text = match v {
                    _ if variant == "value" => scalar_text(v),
                    Value::String(s) => Some(s.clone()),
                    _ => None,
                };
                match text {
                    Some(text) if is_name(variant) => {
                        out.insert(format!("{name}.{variant}"), text);
                    }
                    _ => {
                        return Err(bad(
                            "constants",
                            format!("`{name}.{variant}` is not a variant: a name of letters, digits and _, and a string"),
                            "write each variant as a string, `tex: 5 \\cdot 10^6`",
                        ))
                    }
                }
            }
        }
        Ok(Constants(out))
    }

    /// `text` with every `{{name}}` of a known constant replaced; others are left as they are.
    pub fn apply(&self, text: &str) -> String {
        if self.0.is_empty() || !text.contains("{{") {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(i) = rest.find("{{") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            match after.find("}}").map(|j| (&after[..j], j)) {
                Some((name, j)) if self.0.contains_key(name) => {
                    out.push_str(&self.0[name]);
                    rest = &after[j + 2..];
                }
                _ => {
                    out.push_str("{{");
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// The value of `name`, for a statement's `\constant{name}`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }
}

impl Constants {
    /// The program at `path` as it is built: itself when none of its files names a constant,
    /// else a copy with the values in, under `cache` (keyed by what went into it). A folder
    /// program's files are all copied; a single file is copied with the header files beside
    /// it, which it may include.
    pub fn program(&self, path: &Path, cache: &Path) -> Result<PathBuf> {
        if self.0.is_empty() {
            return Ok(path.to_path_buf());
        }
        let (folder, file) = match path.parent() {
            Some(parent) if path.is_file() => (parent, path.file_name()),
            _ => (path, None),
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
            .map_err(|e| Error::list(folder, e))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .filter(|p| file.is_none() || Some(p.as_path()) == Some(path) || is_header(p))
            .collect();
        files.sort();
        let mut hasher = blake3::Hasher::new();
        let mut changed = false;
        let mut contents = Vec::new();
        for f in &files {
            let bytes = std::fs::read(f).map_err(|e| Error::read(f, e))?;
            let new = match std::str::from_utf8(&bytes) {
                Ok(text) => {
                    let applied = self.apply(text);
                    changed |= applied != text;
                    applied.into_bytes()
                }
                Err(_) => bytes,
            };
            hasher.update(f.file_name().unwrap_or_default().as_encoded_bytes());
            hasher.update(&new);
            contents.push(new);
        }
        if !changed {
            return Ok(path.to_path_buf());
        }
        let dir = cache
            .join("constants")
            .join(&hasher.finalize().to_hex()[..24])
            .join(folder.file_name().unwrap_or_default());
        std::fs::create_dir_all(&dir).map_err(|e| Error::create(&dir, e))?;
        for (f, bytes) in files.iter().zip(contents) {
            let to = dir.join(f.file_name().unwrap_or_default());
            std::fs::write(&to, bytes).map_err(|e| Error::write(&to, e))?;
        }
        Ok(match file {
            Some(name) => dir.join(name),
            None => dir,
        })
    }
}

/// A constant's or a variant's name: letters, digits and `_`, not first a digit.
fn is_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A constant's value as the text put in: an int, a float or a string.
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A file a single-file program may include from beside it.
fn is_header(p: &Path) -> bool {
    p.extension()
        .is_some_and(|e| ["h", "hpp", "hh", "hxx"].iter().any(|h| e == *h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_are_replaced_and_others_kept() {
        let c = Constants(BTreeMap::from([("max_n".to_string(), "1000".to_string())]));
        assert_eq!(
            c.apply("n <= {{max_n}}, {{other}} {{"),
            "n <= 1000, {{other}} {{"
        );
    }

    #[test]
    fn a_constant_with_variants_gives_its_value_and_each_variant() {
        let bad = |key: &str, message: String, fix: &str| Error::Config {
            at: judge_core::error::Location::file(key),
            message,
            fix: fix.into(),
        };
        let yaml = "max_n:\n  value: 5000000\n  tex: 5 \\cdot 10^6\n  py: 5_000_000\nk: 3\n";
        let v = crate::yaml::value(yaml).unwrap();
        let c = Constants::read(Some(&v), &bad).unwrap();
        assert_eq!(
            c.apply("{{max_n}} {{max_n.value}} {{max_n.tex}} {{max_n.py}} {{k}} {{max_n.cpp}}"),
            "5000000 5000000 5 \\cdot 10^6 5_000_000 3 {{max_n.cpp}}"
        );
        assert_eq!(c.get("max_n.tex"), Some("5 \\cdot 10^6"));
        for wrong in [
            "n:\n  tex: '5'\n",
            "n:\n  value: 5\n  tex: 5\n",
            "n:\n  value: 5\n  9x: '5'\n",
        ] {
            let v = crate::yaml::value(wrong).unwrap();
            assert!(Constants::read(Some(&v), &bad).is_err(), "{wrong}");
        }
    }
}
