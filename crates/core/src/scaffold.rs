//! Creating files from the templates kept in the binary: a new attempt, a practice workspace, a new problem.

use std::path::{Path, PathBuf};

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::lang::Language;
use crate::workspace::{Solution, Workspace};

/// Solutions made for stdin/stdout judging, one per built-in language: read all input at once,
/// parse tokens, write through one buffer (`sys.stdin.buffer`, `ios::sync_with_stdio(false)`,
/// `BufferedReader`).
pub const SOLUTION_TEMPLATES: &[(&str, &str)] = &[
    ("rust", include_str!("../templates/solution.rs")),
    ("c", include_str!("../templates/solution.c")),
    ("cpp", include_str!("../templates/solution.cpp")),
    ("python", include_str!("../templates/solution.py")),
    ("java", include_str!("../templates/solution.java")),
    ("javascript", include_str!("../templates/solution.js")),
];

const EXAMPLE_ID: &str = "a-plus-b";
const EXAMPLE: &[(&str, &str)] = &[
    (
        "problems/a-plus-b/problem.toml",
        include_str!("../templates/example/problem.toml"),
    ),
    (
        "problems/a-plus-b/statement.md",
        include_str!("../templates/example/statement.md"),
    ),
    (
        "problems/a-plus-b/gen.rs",
        include_str!("../templates/example/gen.rs"),
    ),
    (
        "solutions/a-plus-b/sum.rs",
        include_str!("../templates/example/sum.rs"),
    ),
    ("testcases/a-plus-b/1.in", "1 2\n"),
    ("testcases/a-plus-b/1.out", "3\n"),
    ("testcases/a-plus-b/2.in", "-5 5\n"),
    ("testcases/a-plus-b/2.out", "0\n"),
    ("testcases/a-plus-b/3.in", "1000000000 1000000000\n"),
    ("testcases/a-plus-b/3.out", "2000000000\n"),
    ("testcases/a-plus-b/4.in", "-1000000000 -999999999\n"),
    ("testcases/a-plus-b/4.out", "-1999999999\n"),
    (".gitignore", ".judge/\n"),
];

const PROBLEM: &[(&str, &str)] = &[
    (
        "problem.toml",
        include_str!("../templates/problem/problem.toml"),
    ),
    (
        "statement.md",
        include_str!("../templates/problem/statement.md"),
    ),
    ("gen.rs", include_str!("../templates/problem/gen.rs")),
];

/// Fills `{{key}}` placeholders.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(template.to_string(), |t, (k, v)| {
        t.replace(&format!("{{{{{k}}}}}"), v)
    })
}

/// Names of solutions and problems: letters, digits, `-` and `_`, as they become file names.
pub fn check_name(name: &str, what: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && !name.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err(Error::BadName {
            name: name.to_string(),
            what: what.to_string(),
        })
    }
}

/// Writes a file that must not exist yet.
pub fn create(path: &Path, content: &[u8]) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::create(dir, e))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => Error::Exists {
                path: path.to_path_buf(),
            },
            _ => Error::create(path, e),
        })?;
    std::io::Write::write_all(&mut file, content).map_err(|e| Error::write(path, e))
}

/// Creates `solutions/PROBLEM/NAME.EXT` from the language's template, or as a copy of `from`
/// (in `from`'s language). `language` is a language's key (`python`) or an extension (`py`);
/// without one, Rust.
pub fn new_solution(
    ws: &Workspace,
    problem: &str,
    name: &str,
    language: Option<&str>,
    from: Option<&Solution>,
) -> Result<PathBuf> {
    check_name(name, "solution")?;
    let p = ws.problem(problem)?;
    let language = match from {
        Some(f) => ws.language_of(&f.path)?,
        None => attempt_language(ws, language)?,
    };
    let extension = language.extensions.first().cloned().unwrap_or_default();
    let path = ws
        .root
        .join("solutions")
        .join(problem)
        .join(format!("{name}.{extension}"));
    let content = match from {
        Some(s) => std::fs::read(&s.path).map_err(|e| Error::read(&s.path, e))?,
        None => {
            let template = SOLUTION_TEMPLATES
                .iter()
                .find(|(id, _)| *id == language.id)
                .map(|(_, t)| *t)
                .ok_or_else(|| Error::NoTemplate {
                    language: language.name.clone(),
                })?;
            fill(
                template,
                &[("problem", problem), ("title", &p.title), ("name", name)],
            )
            .into_bytes()
        }
    };
    create(&path, &content)?;
    Ok(path)
}

/// The language of a new attempt: a key (`python`) or an extension (`py`), Rust without one;
/// an error when there is no such language.
pub fn attempt_language(ws: &Workspace, language: Option<&str>) -> Result<Arc<Language>> {
    let languages = &ws.config.languages;
    Ok(match language {
        Some(l) => languages
            .get(l)
            .or_else(|| languages.of_path(Path::new(&format!("x.{l}"))))
            .cloned()
            .ok_or_else(|| Error::UnknownLanguageName {
                name: l.to_string(),
                known: languages.known(),
            })?,
        None => languages
            .get(crate::workspace::DEFAULT_LANGUAGE)
            .cloned()
            .expect("Rust is built in"),
    })
}

/// Whether there is a template for attempts in `language`.
pub fn has_template(language: &Language) -> bool {
    SOLUTION_TEMPLATES.iter().any(|(id, _)| *id == language.id)
}

/// Creates a practice workspace in `dir` with the example problem. Returns the files created.
pub fn init(dir: &Path) -> Result<Vec<PathBuf>> {
    if dir.join("problems").exists() {
        return Err(Error::Exists {
            path: dir.join("problems"),
        });
    }
    // Check everything first: a refusal leaves nothing half-made.
    for (rel, _) in EXAMPLE {
        if dir.join(rel).exists() {
            return Err(Error::Exists {
                path: dir.join(rel),
            });
        }
    }
    let mut created = Vec::new();
    for (rel, content) in EXAMPLE {
        let path = dir.join(rel);
        create(&path, content.as_bytes())?;
        created.push(path);
    }
    Ok(created)
}

/// The example problem of a fresh workspace.
pub fn example_problem() -> &'static str {
    EXAMPLE_ID
}

/// Creates `problems/ID/` (problem.toml, statement.md, gen.rs) and an empty `testcases/ID/`.
pub fn new_problem(ws: &Workspace, id: &str, title: &str) -> Result<Vec<PathBuf>> {
    check_name(id, "problem")?;
    let dir = ws.problems_dir().join(id);
    if dir.exists() {
        return Err(Error::Exists { path: dir });
    }
    let mut created = Vec::new();
    for (rel, content) in PROBLEM {
        let path = dir.join(rel);
        create(
            &path,
            fill(content, &[("id", id), ("title", &title.replace('"', "'"))]).as_bytes(),
        )?;
        created.push(path);
    }
    // Where its tests and its solutions go: made now, so that the first file written there
    // (`cat > solutions/ID/brute.py`) finds its folder.
    for folder in ["testcases", "solutions"] {
        let dir = ws.root.join(folder).join(id);
        std::fs::create_dir_all(&dir).map_err(|e| Error::create(&dir, e))?;
        // Git keeps no empty folder; the judge skips hidden files.
        let keep = dir.join(".gitkeep");
        if !keep.exists() {
            create(&keep, b"")?;
        }
        created.push(dir);
    }
    Ok(created)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_placeholders() {
        assert!(check_name("my-try_2", "solution").is_ok());
        for bad in ["", "../x", "a b", "-x", "x.rs"] {
            assert!(check_name(bad, "solution").is_err(), "{bad}");
        }
        assert_eq!(
            fill("a {{x}} {{y}} {{x}}", &[("x", "1"), ("y", "2")]),
            "a 1 2 1"
        );
    }
}
