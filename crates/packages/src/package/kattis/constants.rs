//! `constants` of problem.yaml: each `{{name}}` in the files the format names (validators,
//! submissions, Markdown statements, `test_group.yaml`) becomes the constant's value. A
//! program whose files hold one is copied, with the values in, into the judge's cache, and
//! built from there: the package itself is never written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

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
            let ok_name = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !ok_name {
                return Err(bad(
                    "constants",
                    format!("`{name}` is not a constant's name (letters, digits and _, not first a digit)"),
                    "rename it",
                ));
            }
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => {
                    return Err(bad(
                        "constants",
                        format!("`{name}` is not an int, a float or a string"),
                        "give it a number or a string",
                    ))
                }
            };
            out.insert(name.clone(), text);
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
}
