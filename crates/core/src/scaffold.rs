//! Creating files from the templates kept in the binary: a new attempt, a practice workspace, a new problem.

use std::path::{Path, PathBuf};

use std::sync::Arc;

use crate::atomic;
use crate::error::{Error, Location, Result};
use crate::function::harness::{self, Built, FnLanguage};
use crate::lang::Language;
use crate::workspace::{Problem, Solution, Workspace};

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

/// Writes a file that must not exist yet, whole or not at all ([`atomic::create`]).
pub fn create(path: &Path, content: &[u8]) -> Result<()> {
    atomic::create(path, content)
}

/// A solution made by [`new_solution`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSolution {
    pub path: PathBuf,
    /// Whether it was copied from a function in LeetCode's form and made a whole program.
    pub made_whole: bool,
}

/// Creates `solutions/PROBLEM/NAME.EXT` from the language's template, the problem's function,
/// or as a copy of `from` (in `from`'s language). `language` is a language's key (`python`) or
/// an extension (`py`); without one, Rust.
pub fn new_solution(
    ws: &Workspace,
    problem: &str,
    name: &str,
    language: Option<&str>,
    start: Start<'_>,
) -> Result<NewSolution> {
    check_name(name, "solution")?;
    let p = ws.problem(problem)?;
    let language = match start {
        Start::From(f) => ws.language_of(&f.path)?,
        _ => attempt_language(ws, language)?,
    };
    let extension = language.extensions.first().cloned().unwrap_or_default();
    let path = ws
        .root
        .join("solutions")
        .join(problem)
        .join(format!("{name}.{extension}"));
    let mut made_whole = false;
    let content = match start {
        Start::From(s) => {
            let bytes = std::fs::read(&s.path).map_err(|e| Error::read(&s.path, e))?;
            let whole = std::str::from_utf8(&bytes)
                .ok()
                .and_then(|source| whole_program(&p, &language.id, source));
            made_whole = whole.is_some();
            whole.map_or(bytes, String::into_bytes)
        }
        Start::Function => function_template(ws, &p, &language)?.into_bytes(),
        Start::Template => {
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
    Ok(NewSolution { path, made_whole })
}

/// What a new solution starts from.
#[derive(Debug, Clone, Copy)]
pub enum Start<'a> {
    /// The language's template of a whole stdin/stdout program.
    Template,
    /// The problem's declared function, as the language's editor starts it (LeetCode's form).
    Function,
    /// A copy of a solution; one in function form becomes the whole stdin/stdout program the
    /// harness makes of it, so practice in the contest's form starts from the user's own code.
    From(&'a Solution),
}

/// The declared function in `language`, its body empty; an error when the problem declares
/// none or the language has no function form.
fn function_template(ws: &Workspace, problem: &Problem, language: &Language) -> Result<String> {
    let Some(function) = &problem.function else {
        return Err(Error::Config {
            at: Location::file(ws.show(&problem.dir.join("problem.toml"))),
            message: format!("`{}` declares no function to start from", problem.id),
            fix: "declare one under [function] (see the guide's function problems), or leave out --function for the program template".into(),
        });
    };
    let Some(lang) = FnLanguage::of(&language.id) else {
        return Err(Error::Unsupported {
            what: format!("a function in {}", language.name),
            fix: format!("write it in one of {}", function_languages()),
        });
    };
    Ok(lang.declaration(&function.signature))
}

/// The languages a function may be written in, for messages: `Python, C++, ...`.
fn function_languages() -> String {
    let names: Vec<&str> = FnLanguage::ALL.iter().map(|l| l.name()).collect();
    names.join(", ")
}

/// The whole program the harness makes of `source` (in the language `language`) when it is the
/// problem's declared function in LeetCode's form, as the build makes it ([`harness::prepare`]);
/// `None` for anything else: a whole program, no function declared, the function missing.
pub fn whole_program(problem: &Problem, language: &str, source: &str) -> Option<String> {
    let function = problem.function.as_ref()?;
    match harness::prepare(language, source, &function.signature) {
        Built::Wrapped(program) => Some(program),
        Built::AsItIs | Built::Missing(_) => None,
    }
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

/// Creates `problems/ID/` (problem.toml, statement.md, gen.rs), and empty `testcases/ID/` and
/// `solutions/ID/`.
/// The problem's folder is made in a hidden folder of `problems/` and renamed into place, so a
/// judge killed meanwhile leaves no problem with some of its files.
pub fn new_problem(ws: &Workspace, id: &str, title: &str) -> Result<Vec<PathBuf>> {
    check_name(id, "problem")?;
    let dir = ws.problems_dir().join(id);
    if dir.exists() {
        return Err(Error::Exists { path: dir });
    }
    let staged = atomic::staging(&ws.problems_dir(), "new-problem")?;
    let mut created = Vec::new();
    for (rel, content) in PROBLEM {
        create(
            &staged.path().join(id).join(rel),
            fill(content, &[("id", id), ("title", &title.replace('"', "'"))]).as_bytes(),
        )?;
        created.push(dir.join(rel));
    }
    // Where its tests and its solutions go, first: a problem never shows without its tests'
    // folder, and the first file written in its solutions' (`cat > solutions/ID/brute.py`)
    // finds it.
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
    atomic::place(&staged.path().join(id), &dir)?;
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
