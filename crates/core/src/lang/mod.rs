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

pub use config::{
    ClusterSettings, Config, RustSettingError, RustSettings, TimeRule, TimeRuleError,
};

/// The placeholders a command may use, and what each becomes.
pub const PLACEHOLDERS: &[(&str, &str)] = &[
    (
        "source",
        "the source file (a program of several: its entry point), in the build folder",
    ),
    (
        "sources",
        "every source file of the program, in the build folder (several arguments)",
    ),
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

/// A command that cannot be used as written in `judge.toml`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("the command is empty")]
    Empty,
    #[error("`{line}` has a {quote} that is never closed")]
    UnclosedQuote { line: String, quote: char },
    #[error("`{arg}` opens a placeholder with `{{` but never closes it")]
    UnclosedPlaceholder { arg: String },
    /// `known`: every placeholder, as written in a command.
    #[error("unknown placeholder `{{{name}}}` in `{arg}`; the placeholders are {}", known.join(", "))]
    UnknownPlaceholder {
        name: String,
        arg: String,
        known: Vec<String>,
    },
    /// `{checks}` or `{sources}` inside a longer argument.
    #[error("`{{{many}}}` stands for several arguments, so it must be an argument of its own, not part of `{arg}`")]
    NotAlone { many: String, arg: String },
}

/// Why the language of a program cannot be told.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoLanguage {
    #[error("none of its files is in a language the judge knows")]
    NoneKnown,
    /// The names of the two languages with as many files each.
    #[error("as many of its files are in {0} as in {1}, so its language cannot be told")]
    Tie(String, String),
    /// A file's extension (without its dot) that no language claims.
    #[error("no language claims `.{0}` here")]
    Unclaimed(String),
}

/// A command: a program and its arguments, each a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command(pub Vec<Arg>);

impl Command {
    /// A command from argument templates, each checked for unknown placeholders.
    pub fn parse(args: &[&str]) -> Result<Command, CommandError> {
        let args = args
            .iter()
            .map(|a| {
                placeholders(a)?;
                Ok(Arg(a.to_string()))
            })
            .collect::<Result<Vec<_>, CommandError>>()?;
        if args.is_empty() {
            return Err(CommandError::Empty);
        }
        Ok(Command(args))
    }

    /// A command written as one line: split on whitespace, with "double" or 'single' quotes
    /// keeping an argument together (no shell is involved).
    pub fn parse_line(line: &str) -> Result<Command, CommandError> {
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
            if a == "{sources}" {
                out.extend(vars.sources.iter().cloned());
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
    /// Every source file: `{sources}`.
    pub sources: Vec<String>,
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
fn placeholders(arg: &str) -> Result<Vec<String>, CommandError> {
    let mut names = Vec::new();
    let mut rest = arg;
    while let Some(open) = rest.find('{') {
        if rest[open..].starts_with("{{") {
            rest = &rest[open + 2..];
            continue;
        }
        let Some(close) = rest[open..].find('}') else {
            return Err(CommandError::UnclosedPlaceholder {
                arg: arg.to_string(),
            });
        };
        let name = &rest[open + 1..open + close];
        if !PLACEHOLDERS.iter().any(|(p, _)| *p == name) {
            return Err(CommandError::UnknownPlaceholder {
                name: name.to_string(),
                arg: arg.to_string(),
                known: PLACEHOLDERS
                    .iter()
                    .map(|(p, _)| format!("{{{p}}}"))
                    .collect(),
            });
        }
        for many in ["checks", "sources"] {
            if name == many && arg != format!("{{{many}}}") {
                return Err(CommandError::NotAlone {
                    many: many.to_string(),
                    arg: arg.to_string(),
                });
            }
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

fn split_words(line: &str) -> Result<Vec<String>, CommandError> {
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
        return Err(CommandError::UnclosedQuote {
            line: line.to_string(),
            quote: q,
        });
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Whether a Python file's first line asks for Python 2 (`#!/usr/bin/env python2`).
fn asks_for_python2(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 128];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    let first = head[..n].split(|&b| b == b'\n').next().unwrap_or_default();
    let first = String::from_utf8_lossy(first);
    first.starts_with("#!") && first.contains("python2")
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
    /// A program folder with `build` and `run` scripts (the package format's rule for any
    /// program): `build` runs in a copy of the folder, then `run` is the program.
    Scripts,
}

/// A language the judge can build and run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Language {
    /// The key in judge.toml and in reports: `rust`, `cpp`, `python`.
    pub id: String,
    /// As people write it: "C++", "Python 3".
    pub name: String,
    /// Its code in the package format's languages table (`cpp`, `python3`, `csharp`): the
    /// name of its `include/` folder, the static validator's first argument.
    pub code: String,
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
    /// The file names that start a program of several files, best first (the languages
    /// table's default entry points: `main.py`, `main.js`); see `compile::source`.
    pub entry: Vec<String>,
    /// Environment variables of its compiler, with placeholders (Go's build cache goes in
    /// the build folder: the home folder is not writable in the sandbox).
    pub compile_env: Vec<(String, String)>,
    /// What its compiler reads beyond its installation, sandboxed (Debian's GHC keeps its
    /// package database in `/var/lib/ghc`).
    pub compile_reads: Vec<std::path::PathBuf>,
}

impl Language {
    /// Whether its compile step only checks the source and makes nothing that the run uses
    /// (Python's `py_compile`, Ruby's and Perl's `-c`, PHP's `-l`): an interpreted language,
    /// whose failed check an execution service reports as the run's error, as an interpreter
    /// would have.
    pub fn checks_only(&self) -> bool {
        self.compile.as_ref().is_some_and(|c| {
            let c = c.to_string();
            !c.contains("{binary}") && !c.contains("{dir}")
        })
    }

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
        // problemtools exempts the JVM languages and Common Lisp; V8 and Mono reserve alike,
        // and PyPy does not even start under 300 MiB of address space (its nursery and JIT):
        // DOMjudge and Kattis hold it to what it uses.
        self.kind == Kind::Java
            || [
                "pypy",
                "javascript",
                "kotlin",
                "scala",
                "lisp",
                "csharp",
                "fsharp",
                "visualbasic",
            ]
            .contains(&self.id.as_str())
    }

    /// Whether `path` is one of its source files, by extension.
    pub fn claims(&self, path: &Path) -> bool {
        path.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| self.extensions.contains(&e.to_ascii_lowercase()))
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

    /// The language of a file, by its extension (case-insensitive); a `.py` whose first line
    /// asks for Python 2 is Python 2, as the package format's tools tell it.
    pub fn of_path(&self, path: &Path) -> Option<&Arc<Language>> {
        let found = self.by_id.values().find(|l| l.claims(path))?;
        if found.code == "python3" && asks_for_python2(path) {
            return self.get("python2").or(Some(found));
        }
        Some(found)
    }

    /// The language of a program of several files: the one most of its source files are in
    /// (files no language claims, such as headers, aside). Two languages with as many files
    /// each, or none at all, cannot be told apart: the format says building fails.
    pub fn of_files(&self, files: &[std::path::PathBuf]) -> Result<Arc<Language>, NoLanguage> {
        let mut counts: Vec<(&Arc<Language>, usize)> = Vec::new();
        for f in files {
            if let Some(l) = self.of_path(f) {
                match counts.iter_mut().find(|(c, _)| c.id == l.id) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((l, 1)),
                }
            }
        }
        counts.sort_by_key(|c| std::cmp::Reverse(c.1));
        match counts.as_slice() {
            [] => Err(NoLanguage::NoneKnown),
            [(one, _)] => Ok(Arc::clone(one)),
            [(a, n), (b, m), ..] if n == m => Err(NoLanguage::Tie(a.name.clone(), b.name.clone())),
            [(first, _), ..] => Ok(Arc::clone(first)),
        }
    }

    /// The language whose code in the package format's table is `code` (`python3`, `cpp`).
    pub fn by_code(&self, code: &str) -> Option<&Arc<Language>> {
        self.by_id
            .values()
            .find(|l| l.code == code && !l.extensions.is_empty())
            .or_else(|| self.by_id.values().find(|l| l.code == code))
    }

    /// "Rust (.rs), C (.c), ...": the judge's first languages, then how many more the
    /// package format's table brings (`judge list --languages` lists them).
    pub fn known(&self) -> String {
        let mut all: Vec<&Arc<Language>> = self
            .by_id
            .values()
            .filter(|l| !l.extensions.is_empty())
            .collect();
        let rank = |l: &Arc<Language>| builtin::ORDER.iter().position(|id| *id == l.id);
        all.sort_by_key(|l| rank(l).unwrap_or(usize::MAX));
        let (first, more): (Vec<&Arc<Language>>, Vec<_>) =
            all.into_iter().partition(|l| rank(l).is_some());
        let mut text = first
            .iter()
            .map(|l| l.describe())
            .collect::<Vec<_>>()
            .join(", ");
        if !more.is_empty() {
            text.push_str(&format!(
                " and {} more (judge list --languages lists them)",
                more.len()
            ));
        }
        text
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
    fn a_compile_step_that_makes_nothing_is_a_check() {
        let languages = Languages::default();
        let check = |id: &str| languages.get(id).unwrap().checks_only();
        for id in ["python", "ruby", "perl", "php", "bash", "javascript"] {
            assert!(check(id), "{id}");
        }
        for id in ["cpp", "c", "rust", "java", "go", "csharp"] {
            assert!(!check(id), "{id}");
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
        let e = Command::parse_line("g++ {sourse}").unwrap_err().to_string();
        assert!(
            e.starts_with(
                "unknown placeholder `{sourse}` in `{sourse}`; the placeholders are {source}, "
            ),
            "{e}"
        );
        let e = Command::parse_line("g++ -x{checks}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`{checks}` stands for several arguments, so it must be an argument of its own, not part of `-x{checks}`"
        );
        assert_eq!(Command::parse_line("  "), Err(CommandError::Empty));
        assert_eq!(
            Command::parse_line("run \"unclosed")
                .unwrap_err()
                .to_string(),
            "`run \"unclosed` has a \" that is never closed"
        );
        assert_eq!(
            Command::parse_line("x {open").unwrap_err().to_string(),
            "`{open` opens a placeholder with `{` but never closes it"
        );
    }

    #[test]
    fn a_program_of_several_files_is_in_the_language_of_most_of_them() {
        let l = Languages::default();
        let of = |files: &[&str]| {
            let files: Vec<std::path::PathBuf> = files.iter().map(Into::into).collect();
            l.of_files(&files).map(|l| l.id.clone())
        };
        assert_eq!(of(&["a.cpp", "b.cpp", "x.h", "notes.txt"]).unwrap(), "cpp");
        assert_eq!(of(&["a.py", "b.py", "c.cpp"]).unwrap(), "python");
        let tie = of(&["a.c", "b.cpp"]).unwrap_err().to_string();
        assert!(
            tie.contains("C++") && tie.contains("cannot be told"),
            "{tie}"
        );
        assert_eq!(of(&["README", "x.h"]), Err(NoLanguage::NoneKnown));
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
        // The package format's table: its extensions, and only those it tells languages by.
        assert_eq!(id("x.kt"), Some("kotlin"));
        assert_eq!(id("x.hs"), Some("haskell"));
        assert_eq!(id("x.cs"), Some("csharp"));
        assert_eq!(id("x.c++"), Some("cpp"));
        assert_eq!(id("x.py3"), Some("python"));
        assert_eq!(id("x.pl"), Some("prolog"));
        assert_eq!(id("x.txt"), None);
        assert_eq!(l.get("python").unwrap().code, "python3");
        assert_eq!(l.by_code("python3").map(|l| l.id.as_str()), Some("python"));
        assert!(
            l.known()
                .starts_with("Rust (.rs), C (.c), C++ (.cpp .cc .cxx .c++"),
            "{}",
            l.known()
        );
    }
}
