//! Languages: which one a file is written in (by its extension), and the commands that build and run it.
//!
//! Every language is data: a compile command (none for an interpreter that only checks syntax
//! or runs the source as it is), a run command, and the program that tells its version. The
//! built-in table follows the big judges ([`builtin`]); `judge.toml` changes a language or adds
//! one ([`config`]), so a new language needs no code. Commands are argument lists with
//! placeholders, filled in by [`Vars`]: never a shell line.

pub mod builtin;
pub mod config;
pub mod detect;
pub mod java;

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

pub use config::{ClusterSettings, Config, RustSettings, TimeRule};

/// The placeholders a command may use, and what each becomes.
pub const PLACEHOLDERS: &[(&str, &str)] = &[
    ("source", "the source file, copied into the build folder"),
    ("file", "the source's file name"),
    ("stem", "the source's file name without its extension"),
    (
        "dir",
        "the build folder, kept in the cache with what the compiler made",
    ),
    ("binary", "the compiled program: {dir}/solution"),
    (
        "class",
        "Java: the class whose main method starts the program",
    ),
    (
        "memory_mb",
        "the memory limit in MiB (a run command's heap size)",
    ),
    (
        "stack_mb",
        "a thread's stack: the memory limit in MiB, at most 1024 (Java's largest)",
    ),
    (
        "checks",
        "the language's extra checks with --checks (several arguments, or none)",
    ),
    ("edition", "Rust: the edition (2021 unless set)"),
    (
        "toolchain",
        "Rust: +TOOLCHAIN when one is pinned (none otherwise)",
    ),
];

/// One argument of a command, with placeholders: `-Xmx{memory_mb}m`, `{source}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg(String);

/// A command: a program and its arguments, each a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command(pub Vec<Arg>);

impl Command {
    /// A command from argument templates, each checked for unknown placeholders.
    pub fn parse(args: &[&str]) -> Result<Command, String> {
        let args = args
            .iter()
            .map(|a| {
                placeholders(a)?;
                Ok(Arg(a.to_string()))
            })
            .collect::<Result<Vec<_>, String>>()?;
        if args.is_empty() {
            return Err("the command is empty".into());
        }
        Ok(Command(args))
    }

    /// A command written as one line: split on whitespace, with "double" or 'single' quotes
    /// keeping an argument together (no shell is involved).
    pub fn parse_line(line: &str) -> Result<Command, String> {
        let words = split_words(line)?;
        Command::parse(&words.iter().map(String::as_str).collect::<Vec<_>>())
    }

    /// The program, before placeholders: `g++`, `{binary}`.
    pub fn program(&self) -> &str {
        &self.0[0].0
    }

    /// Whether the program is something the build makes (`{binary}`, `{dir}/...`), not a
    /// program to be found on PATH.
    pub fn runs_build_output(&self) -> bool {
        self.program().contains('{')
    }

    /// The arguments with every placeholder filled in. `{checks}` alone becomes the check
    /// flags (maybe none); an argument that comes out empty (`{toolchain}` unset) is dropped.
    pub fn render(&self, vars: &Vars) -> Vec<String> {
        let mut out = Vec::new();
        for Arg(a) in &self.0 {
            if a == "{checks}" {
                out.extend(vars.checks.iter().cloned());
                continue;
            }
            let text = fill(a, vars);
            if !text.is_empty() {
                out.push(text);
            }
        }
        out
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|Arg(a)| {
                if a.is_empty() || a.contains(char::is_whitespace) {
                    format!("\"{a}\"")
                } else {
                    a.clone()
                }
            })
            .collect();
        f.write_str(&parts.join(" "))
    }
}

/// The values placeholders stand for, for one build or run.
#[derive(Debug, Clone, Default)]
pub struct Vars {
    pub source: String,
    pub file: String,
    pub stem: String,
    pub dir: String,
    pub binary: String,
    pub class: String,
    pub memory_mb: u64,
    pub checks: Vec<String>,
    pub edition: String,
    pub toolchain: String,
}

/// The placeholder names used in `arg`; an error names one that does not exist.
fn placeholders(arg: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut rest = arg;
    while let Some(open) = rest.find('{') {
        if rest[open..].starts_with("{{") {
            rest = &rest[open + 2..];
            continue;
        }
        let Some(close) = rest[open..].find('}') else {
            return Err(format!(
                "`{arg}` opens a placeholder with `{{` but never closes it"
            ));
        };
        let name = &rest[open + 1..open + close];
        if !PLACEHOLDERS.iter().any(|(p, _)| *p == name) {
            let known: Vec<String> = PLACEHOLDERS
                .iter()
                .map(|(p, _)| format!("{{{p}}}"))
                .collect();
            return Err(format!(
                "unknown placeholder `{{{name}}}` in `{arg}`; the placeholders are {}",
                known.join(", ")
            ));
        }
        if name == "checks" && arg != "{checks}" {
            return Err(format!(
                "`{{checks}}` stands for several arguments, so it must be an argument of its own, not part of `{arg}`"
            ));
        }
        names.push(name.to_string());
        rest = &rest[open + close + 1..];
    }
    Ok(names)
}

fn fill(arg: &str, v: &Vars) -> String {
    let mut out = String::new();
    let mut rest = arg;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        if rest[open..].starts_with("{{") || rest[open..].starts_with("}}") {
            out.push_str(&rest[open..open + 1]);
            rest = &rest[open + 2..];
            continue;
        }
        let Some(close) = rest[open..].find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let name = &rest[open + 1..open + close];
        match name {
            "source" => out.push_str(&v.source),
            "file" => out.push_str(&v.file),
            "stem" => out.push_str(&v.stem),
            "dir" => out.push_str(&v.dir),
            "binary" => out.push_str(&v.binary),
            "class" => out.push_str(&v.class),
            "memory_mb" => out.push_str(&v.memory_mb.to_string()),
            "stack_mb" => out.push_str(&v.memory_mb.min(1024).to_string()),
            "edition" => out.push_str(&v.edition),
            "toolchain" => out.push_str(&v.toolchain),
            other => {
                out.push('{');
                out.push_str(other);
                out.push('}');
            }
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("`{line}` has a {q} that is never closed"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// What a language needs from the build beyond its commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Commands as written.
    Plain,
    /// Rust: the edition and a pinned toolchain fill `{edition}` and `{toolchain}`, the
    /// compiler's identity is remembered through rustup's own files, panics are explained.
    Rust,
    /// Java: the source is saved as `{class}.java`, the class found in it.
    Java,
}

/// A language the judge can build and run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Language {
    /// The key in judge.toml and in reports: `rust`, `cpp`, `python`.
    pub id: String,
    /// As people write it: "C++", "Python 3".
    pub name: String,
    /// File extensions without the dot.
    pub extensions: Vec<String>,
    /// Builds `{source}` into `{dir}`; for an interpreter, a syntax check (or none at all).
    pub compile: Option<Command>,
    pub run: Command,
    /// Asks the compiler (or the interpreter) for its version: its identity in the cache key.
    pub version: Option<Command>,
    /// A command printing the path of the program that really runs, when the one on PATH may
    /// be a launcher (pyenv's shims are shell scripts that choose a Python).
    pub resolve: Option<Command>,
    /// Extra compiler flags for `--checks` (overflow checks, debug assertions, sanitizers).
    pub checks: Vec<String>,
    /// Where its programs come from, said when they are missing: "Debian: apt-get install g++".
    pub install: Option<String>,
    pub kind: Kind,
}

impl Language {
    /// The program whose identity keys the cache: the compiler, or the interpreter.
    pub fn identity_program(&self) -> &Command {
        match &self.compile {
            Some(c) => c,
            None => &self.run,
        }
    }

    /// Whether its runtime reserves far more address space than it uses (the JVM, V8): held to
    /// its resident memory only, as problemtools exempts the JVM from its address-space limit.
    pub fn reserves_address_space(&self) -> bool {
        self.kind == Kind::Java || self.id == "javascript"
    }

    /// "Python 3 (.py)"
    pub fn describe(&self) -> String {
        let exts: Vec<String> = self.extensions.iter().map(|e| format!(".{e}")).collect();
        format!("{} ({})", self.name, exts.join(" "))
    }
}

/// Every language the workspace knows: the built-in ones, changed or added to by judge.toml.
#[derive(Debug, Clone)]
pub struct Languages {
    by_id: BTreeMap<String, Arc<Language>>,
}

impl Default for Languages {
    fn default() -> Languages {
        Languages::new(builtin::languages())
    }
}

impl Languages {
    pub fn new(list: Vec<Language>) -> Languages {
        Languages {
            by_id: list
                .into_iter()
                .map(|l| (l.id.clone(), Arc::new(l)))
                .collect(),
        }
    }

    pub fn get(&self, id: &str) -> Option<&Arc<Language>> {
        self.by_id.get(id)
    }

    pub fn insert(&mut self, language: Language) {
        self.by_id.insert(language.id.clone(), Arc::new(language));
    }

    pub fn all(&self) -> impl Iterator<Item = &Arc<Language>> {
        self.by_id.values()
    }

    /// The language of a file, by its extension (case-insensitive).
    pub fn of_path(&self, path: &Path) -> Option<&Arc<Language>> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        self.by_id.values().find(|l| l.extensions.contains(&ext))
    }

    /// "Rust (.rs), C (.c), ..."
    pub fn known(&self) -> String {
        let mut all: Vec<&Arc<Language>> = self
            .by_id
            .values()
            .filter(|l| !l.extensions.is_empty())
            .collect();
        all.sort_by_key(|l| {
            builtin::ORDER
                .iter()
                .position(|id| *id == l.id)
                .unwrap_or(99)
        });
        all.iter()
            .map(|l| l.describe())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vars {
        Vars {
            source: "/b/x.cpp".into(),
            file: "x.cpp".into(),
            stem: "x".into(),
            dir: "/b".into(),
            binary: "/b/solution".into(),
            memory_mb: 256,
            checks: vec!["-D_GLIBCXX_DEBUG".into(), "-fsanitize=undefined".into()],
            ..Vars::default()
        }
    }

    #[test]
    fn commands_fill_placeholders_and_drop_empty_arguments() {
        let c = Command::parse_line("g++ {checks} -O2 {toolchain} -o {binary} {source}").unwrap();
        assert_eq!(
            c.render(&vars()),
            [
                "g++",
                "-D_GLIBCXX_DEBUG",
                "-fsanitize=undefined",
                "-O2",
                "-o",
                "/b/solution",
                "/b/x.cpp"
            ]
        );
        let c = Command::parse_line("java '-Xmx{memory_mb}m' -cp {dir} Main").unwrap();
        assert_eq!(c.render(&vars()), ["java", "-Xmx256m", "-cp", "/b", "Main"]);
        assert_eq!(c.to_string(), "java -Xmx{memory_mb}m -cp {dir} Main");
        let c = Command::parse(&["echo", "{{literal}}"]).unwrap();
        assert_eq!(c.render(&vars()), ["echo", "{literal}"]);
        assert!(Command::parse_line("{binary}").unwrap().runs_build_output());
        assert!(!Command::parse_line("python3 {source}")
            .unwrap()
            .runs_build_output());
    }

    #[test]
    fn bad_commands_say_what_is_wrong() {
        let e = Command::parse_line("g++ {sourse}").unwrap_err();
        assert!(
            e.contains("unknown placeholder `{sourse}`") && e.contains("{source}"),
            "{e}"
        );
        let e = Command::parse_line("g++ -x{checks}").unwrap_err();
        assert!(e.contains("argument of its own"), "{e}");
        assert!(Command::parse_line("  ").is_err());
        assert!(Command::parse_line("run \"unclosed").is_err());
        assert!(Command::parse_line("x {open").is_err());
    }

    #[test]
    fn languages_are_found_by_extension() {
        let l = Languages::default();
        let id = |p: &str| l.of_path(Path::new(p)).map(|l| l.id.as_str());
        assert_eq!(id("a/b.rs"), Some("rust"));
        assert_eq!(id("x.CPP"), Some("cpp"));
        assert_eq!(id("x.cc"), Some("cpp"));
        assert_eq!(id("x.c"), Some("c"));
        assert_eq!(id("x.py"), Some("python"));
        assert_eq!(id("Main.java"), Some("java"));
        assert_eq!(id("x.js"), Some("javascript"));
        assert_eq!(id("x.kt"), None);
        assert!(
            l.known()
                .starts_with("Rust (.rs), C (.c), C++ (.cpp .cc .cxx"),
            "{}",
            l.known()
        );
    }
}
