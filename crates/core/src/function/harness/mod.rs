//! The harness of a function problem, one module per language: the function as that
//! language's editor starts it, its signature in the language's words, whether a source is in
//! function form and defines the function, and the whole program that is built: the source
//! unchanged with the code that reads the arguments (one JSON value per line), calls the
//! function and prints what it returns as JSON.
//!
//! Every language module has the same six functions; a language is one variant of
//! [`FnLanguage`] and one arm in each of its methods.

pub mod cpp;
pub mod go;
pub mod java;
pub mod javascript;
pub mod python;
pub mod rust;

#[cfg(test)]
mod testing;

use super::signature::Signature;
use crate::verdict::{HarnessSaid, HARNESS_EXIT};

/// What starts the line on which a harness says why it printed no return value, before it
/// exits with [`HARNESS_EXIT`]; the kind and the words follow.
pub const MARKER: &str = "@judge-harness ";

/// How a harness tells the judge why it ended with [`HARNESS_EXIT`]: `MARKER KIND WORDS`, the
/// last such line of its stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The function returned a value of another type than declared (a dynamic language's
    /// solution only): `WORDS` say what it returned.
    WrongType,
    /// The returned value has no JSON (a `double` NaN or infinite): `WORDS` are the value.
    NotJson,
    /// An argument could not be read, though the judge checked every input against the
    /// signature before judging: `WORDS` are the reader's.
    Unreadable,
}

impl Kind {
    const ALL: [(Kind, &'static str); 3] = [
        (Kind::WrongType, "wrong-type"),
        (Kind::NotJson, "not-json"),
        (Kind::Unreadable, "unreadable"),
    ];
}

/// What the harness of problem `problem` said on `stderr` when its run ended with exit status
/// `code`: `None` unless that is [`HARNESS_EXIT`] and the harness's line is there (then the run
/// is judged as any other that exits so).
pub fn said(code: i32, stderr: &[u8], sig: &Signature, problem: &str) -> Option<HarnessSaid> {
    if code != HARNESS_EXIT {
        return None;
    }
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().rev().find_map(|l| l.strip_prefix(MARKER))?;
    let (kind, words) = Kind::ALL
        .iter()
        .find_map(|(k, name)| Some((*k, line.strip_prefix(name)?.strip_prefix(' ')?)))?;
    let returns = &sig.returns;
    Some(match kind {
        Kind::WrongType => HarnessSaid::WrongType(format!("`{}` {words}", sig.name)),
        Kind::NotJson => HarnessSaid::Judge(format!(
            "`{}` returned {words}, which JSON cannot write (a {returns} in JSON is a finite number), so its output cannot be checked\n  fix: if {words} may be a right answer, have problem `{problem}` ask for a finite stand-in in its statement (as LeetCode asks for -1), since its problem.toml declares `returns = \"{returns}\"` under [function]",
            sig.name
        )),
        Kind::Unreadable => HarnessSaid::Judge(format!(
            "the judge's harness could not read the arguments of `{sig}` ({words}), though the judge checked every input of problem `{problem}` against them\n  fix: this is the judge's fault, not the solution's: please report it with the test's input"
        )),
    })
}

/// A language whose solutions may be written as LeetCode's editor takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FnLanguage {
    Python,
    Cpp,
    Java,
    Rust,
    JavaScript,
    Go,
}

impl FnLanguage {
    pub const ALL: &'static [FnLanguage] = &[
        FnLanguage::Python,
        FnLanguage::Cpp,
        FnLanguage::Java,
        FnLanguage::Rust,
        FnLanguage::JavaScript,
        FnLanguage::Go,
    ];

    /// The harness language of the judge's language `id` (`python`, `pypy`, `cpp`, `java`, `rust`, `javascript`, `go`), if it has one.
    pub fn of(id: &str) -> Option<FnLanguage> {
        match id {
            "python" | "pypy" => Some(FnLanguage::Python),
            "cpp" => Some(FnLanguage::Cpp),
            "java" => Some(FnLanguage::Java),
            "rust" => Some(FnLanguage::Rust),
            "javascript" => Some(FnLanguage::JavaScript),
            "go" => Some(FnLanguage::Go),
            _ => None,
        }
    }

    /// The language's name, as the guide's type table heads its column.
    pub fn name(self) -> &'static str {
        match self {
            FnLanguage::Python => "Python",
            FnLanguage::Cpp => "C++",
            FnLanguage::Java => "Java",
            FnLanguage::Rust => "Rust",
            FnLanguage::JavaScript => "JavaScript",
            FnLanguage::Go => "Go",
        }
    }

    /// The function as the language's editor starts it, its body empty.
    pub fn declaration(self, sig: &Signature) -> String {
        match self {
            FnLanguage::Python => python::declaration(sig),
            FnLanguage::Cpp => cpp::declaration(sig),
            FnLanguage::Java => java::declaration(sig),
            FnLanguage::Rust => rust::declaration(sig),
            FnLanguage::JavaScript => javascript::declaration(sig),
            FnLanguage::Go => go::declaration(sig),
        }
    }

    /// The declaration in the language's words, one line.
    pub fn signature_line(self, sig: &Signature) -> String {
        match self {
            FnLanguage::Python => python::signature_line(sig),
            FnLanguage::Cpp => cpp::signature_line(sig),
            FnLanguage::Java => java::signature_line(sig),
            FnLanguage::Rust => rust::signature_line(sig),
            FnLanguage::JavaScript => javascript::signature_line(sig),
            FnLanguage::Go => go::signature_line(sig),
        }
    }

    /// Whether `source` is in function form rather than a whole stdin/stdout program.
    pub fn is_function_form(self, source: &str) -> bool {
        match self {
            FnLanguage::Python => python::is_function_form(source),
            FnLanguage::Cpp => cpp::is_function_form(source),
            FnLanguage::Java => java::is_function_form(source),
            FnLanguage::Rust => rust::is_function_form(source),
            FnLanguage::JavaScript => javascript::is_function_form(source),
            FnLanguage::Go => go::is_function_form(source),
        }
    }

    /// Whether `source` defines the declared function.
    pub fn defines(self, source: &str, sig: &Signature) -> bool {
        match self {
            FnLanguage::Python => python::defines(source, sig),
            FnLanguage::Cpp => cpp::defines(source, sig),
            FnLanguage::Java => java::defines(source, sig),
            FnLanguage::Rust => rust::defines(source, sig),
            FnLanguage::JavaScript => javascript::defines(source, sig),
            FnLanguage::Go => go::defines(source, sig),
        }
    }

    /// The whole program: `source` with the harness.
    pub fn wrap(self, source: &str, sig: &Signature) -> String {
        match self {
            FnLanguage::Python => python::wrap(source, sig),
            FnLanguage::Cpp => cpp::wrap(source, sig),
            FnLanguage::Java => java::wrap(source, sig),
            FnLanguage::Rust => rust::wrap(source, sig),
            FnLanguage::JavaScript => javascript::wrap(source, sig),
            FnLanguage::Go => go::wrap(source, sig),
        }
    }

    /// The compile error of a function-form source that does not define the function.
    pub fn missing(self, sig: &Signature) -> String {
        match self {
            FnLanguage::Python => python::missing(sig),
            FnLanguage::Cpp => cpp::missing(sig),
            FnLanguage::Java => java::missing(sig),
            FnLanguage::Rust => rust::missing(sig),
            FnLanguage::JavaScript => javascript::missing(sig),
            FnLanguage::Go => go::missing(sig),
        }
    }
}

/// What is built of a solution to a function problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Built {
    /// A whole stdin/stdout program, or a language with no harness: built as it is.
    AsItIs,
    /// In function form: this program, the source with the harness.
    Wrapped(String),
    /// In function form without the declared function: this compile error.
    Missing(String),
}

/// What to build of `source`, in the judge's language `language`, for a problem that declares
/// `sig`.
pub fn prepare(language: &str, source: &str, sig: &Signature) -> Built {
    let Some(lang) = FnLanguage::of(language) else {
        return Built::AsItIs;
    };
    if !lang.is_function_form(source) {
        return Built::AsItIs;
    }
    if !lang.defines(source, sig) {
        return Built::Missing(lang.missing(sig));
    }
    Built::Wrapped(lang.wrap(source, sig))
}

/// The source with `//` and `/* */` comments and the literals between `quotes` blanked byte for
/// byte (lines and offsets kept), so that a name in one is not taken for code: the C-like
/// languages' rule. A literal ends at its quote, or at the end of its line unless its quote is
/// in `spanning` (Go's raw strings, JavaScript's templates); a backslash escapes the next byte
/// unless its quote is in `raw` (Go's raw strings). Only ASCII bytes are put in place of others,
/// and whole characters kept, so the result is still UTF-8.
fn code_only(source: &str, quotes: &[u8], spanning: &[u8], raw: &[u8]) -> String {
    let b = source.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let end = match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                (i..b.len()).find(|&j| b[j] == b'\n').unwrap_or(b.len())
            }
            b'/' if b.get(i + 1) == Some(&b'*') => source[i + 2..]
                .find("*/")
                .map_or(b.len(), |e| i + 2 + e + 2),
            q if quotes.contains(&q) => {
                let mut j = i + 1;
                while j < b.len() && b[j] != q && (spanning.contains(&q) || b[j] != b'\n') {
                    j += if b[j] == b'\\' && !raw.contains(&q) {
                        2
                    } else {
                        1
                    };
                }
                (j + 1).min(b.len())
            }
            c => {
                out.push(c);
                i += 1;
                continue;
            }
        };
        out.extend(
            b[i..end]
                .iter()
                .map(|&c| if c == b'\n' { b'\n' } else { b' ' }),
        );
        i = end;
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The words of C-like code, in order: runs of letters, digits, `_` and the `also` characters.
fn words<'a>(code: &'a str, also: &[char]) -> Vec<&'a str> {
    code.split(|c: char| !c.is_alphanumeric() && c != '_' && !also.contains(&c))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether `first` is followed by `second` somewhere among the words.
fn has_pair(words: &[&str], first: &str, second: &str) -> bool {
    words.windows(2).any(|w| w[0] == first && w[1] == second)
}

/// LeetCode's definitions (`(name, text)`), each one the code does not declare itself
/// (`keyword name`: `class ListNode`, `type TreeNode`), as the harness appends them.
fn definitions(words: &[&str], keyword: &str, definitions: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (name, text) in definitions {
        if !has_pair(words, keyword, name) {
            out.push_str(text);
            out.push('\n');
        }
    }
    out
}

/// How many parameters a parameter list has (the text between its parentheses): its commas
/// outside brackets of any kind, plus one unless it is empty.
fn arity(list: &str) -> usize {
    let mut depth = 0i32;
    let mut commas = 0;
    for c in list.chars() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => commas += 1,
            _ => {}
        }
    }
    match list.trim() {
        "" => 0,
        _ => commas + 1,
    }
}

/// The text between the parenthesis at `open` and the one that closes it.
fn parenthesised(text: &str, open: usize) -> Option<&str> {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The parameter lists of every call or definition of `name` in `text` (`name(` with no
/// letter, digit or `_` before the name).
fn parameter_lists<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(name).map(|i| from + i) {
        from = at + name.len();
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &text[from..];
        let open = from + (rest.len() - rest.trim_start().len());
        if text[open..].starts_with('(') {
            found.extend(parenthesised(text, open));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_harness_is_heard_only_with_its_exit_status_and_its_line() {
        let s = testing::sig("f", &["n: int"], "double");
        let nan = b"a trace\n@judge-harness not-json NaN\n";
        let Some(HarnessSaid::Judge(why)) = said(HARNESS_EXIT, nan, &s, "p") else {
            panic!("the judge's case");
        };
        assert!(
            why.starts_with("`f` returned NaN, which JSON cannot write"),
            "{why}"
        );
        assert!(
            why.contains("problem `p`") && why.contains("returns = \"double\""),
            "{why}"
        );
        assert_eq!(
            said(
                HARNESS_EXIT,
                b"@judge-harness wrong-type returned a str where int was declared\n",
                &s,
                "p"
            ),
            Some(HarnessSaid::WrongType(
                "`f` returned a str where int was declared".into()
            ))
        );
        let Some(HarnessSaid::Judge(why)) =
            said(HARNESS_EXIT, b"@judge-harness unreadable bad\n", &s, "p")
        else {
            panic!("the judge's case");
        };
        assert!(
            why.contains("could not read the arguments of `f(n: int) -> double` (bad)"),
            "{why}"
        );
        // Another status, no line, or a kind the judge does not know: not the harness's word.
        assert_eq!(said(1, nan, &s, "p"), None);
        assert_eq!(said(HARNESS_EXIT, b"exit(86)\n", &s, "p"), None);
        assert_eq!(
            said(HARNESS_EXIT, b"@judge-harness other x\n", &s, "p"),
            None
        );
    }

    #[test]
    fn arity_counts_commas_outside_brackets() {
        assert_eq!(arity(""), 0);
        assert_eq!(arity(" self "), 1);
        assert_eq!(arity("vector<vector<int>>& grid, int k"), 2);
        assert_eq!(arity("self, d: Dict[str, int], k: int"), 3);
        assert_eq!(
            parameter_lists("x = f(1); def f(a, b): g(f(2))", "f"),
            vec!["1", "a, b", "2"]
        );
        assert!(parameter_lists("gf(1)", "f").is_empty());
    }
}
