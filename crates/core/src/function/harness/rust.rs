//! Rust in LeetCode's form: `impl Solution { pub fn total_n_queens(n: i32) -> i32 { ... } }`,
//! compiled by plain rustc with the harness around it (`struct Solution;`, LeetCode's
//! `ListNode` and `TreeNode`, `Rc` and `RefCell` in scope, JSON in and out).

use super::{definitions, has_pair};
use crate::function::signature::{snake_case, Signature, Type};
use crate::verdict::HARNESS_EXIT;

/// LeetCode's `ListNode`, with `new`.
const LIST: &str = include_str!("rust/list.txt");
/// LeetCode's `TreeNode`, with `new`.
const TREE: &str = include_str!("rust/tree.txt");
/// The JSON reader and writer, a module of the wrapped program.
const JSON: &str = include_str!("rust/json.txt");

/// The type as LeetCode's Rust editor writes it.
pub fn rust_type(ty: &Type) -> String {
    match ty {
        Type::Int => "i32".into(),
        Type::Long => "i64".into(),
        Type::Double => "f64".into(),
        Type::Bool => "bool".into(),
        Type::Char => "char".into(),
        Type::String => "String".into(),
        Type::Array(element) => format!("Vec<{}>", rust_type(element)),
        Type::ListNode => "Option<Box<ListNode>>".into(),
        Type::TreeNode => "Option<Rc<RefCell<TreeNode>>>".into(),
    }
}

/// `pub fn total_n_queens(n: i32) -> i32`.
pub fn signature_line(sig: &Signature) -> String {
    let params: Vec<String> = sig
        .params
        .iter()
        .map(|p| format!("{}: {}", snake_case(&p.name), rust_type(&p.ty)))
        .collect();
    format!(
        "pub fn {}({}) -> {}",
        sig.snake_name(),
        params.join(", "),
        rust_type(&sig.returns)
    )
}

/// The function as LeetCode's Rust editor starts it.
pub fn declaration(sig: &Signature) -> String {
    format!(
        "impl Solution {{\n    {} {{\n        \n    }}\n}}\n",
        signature_line(sig)
    )
}

/// An `impl Solution` and no `fn main`: LeetCode's form, not a whole program.
pub fn is_function_form(source: &str) -> bool {
    let code = code_only(source);
    let words = super::words(&code, &[]);
    has_pair(&words, "impl", "Solution") && !has_pair(&words, "fn", "main")
}

/// Whether the source has `fn snake_name` with the declared number of parameters.
pub fn defines(source: &str, sig: &Signature) -> bool {
    let code = code_only(source);
    let name = sig.snake_name();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("fn ") {
        let after = rest[at + 3..].trim_start();
        let preceded = rest[..at]
            .chars()
            .last()
            .is_none_or(|c| !c.is_alphanumeric() && c != '_');
        if preceded && after.starts_with(&name) {
            let params = after[name.len()..].trim_start();
            if let Some(arity) = params.strip_prefix('(').map(arity) {
                if arity == sig.params.len() {
                    return true;
                }
            }
        }
        rest = &rest[at + 3..];
    }
    false
}

/// The compile error for a source without the function.
pub fn missing(sig: &Signature) -> String {
    format!(
        "`impl Solution` has no `{}`: the problem declares `{sig}`, which Rust writes as\n\n{}",
        signature_line(sig),
        declaration(sig).replace("        \n", "        // ...\n")
    )
}

/// The whole program: the solution as written, then LeetCode's definitions it leaves out, then
/// `main`, which reads one JSON value per parameter, calls, and prints the result as JSON.
pub fn wrap(source: &str, sig: &Signature) -> String {
    let code = code_only(source);
    let words = super::words(&code, &[]);
    let mut out = source.trim_end().to_string();
    out.push_str(
        "\n\n// The judge's harness: LeetCode's definitions, then the call with JSON in and out.\n",
    );
    if !has_pair(&words, "struct", "Solution") {
        out.push_str("struct Solution;\n\n");
    }
    out.push_str("#[allow(unused_imports)]\nuse leetcode::*;\nmod leetcode {\n    pub use std::cell::RefCell;\n    pub use std::rc::Rc;\n}\n\n");
    out.push_str(&definitions(
        &words,
        "struct",
        &[("ListNode", LIST), ("TreeNode", TREE)],
    ));
    out.push_str(&main(sig));
    out.push('\n');
    out.push_str(&JSON.replace("JUDGE_HARNESS_EXIT", &HARNESS_EXIT.to_string()));
    out
}

/// `fn main`: a `let` per parameter, read in order, and the result printed.
fn main(sig: &Signature) -> String {
    let names: Vec<String> = sig.params.iter().map(|p| snake_case(&p.name)).collect();
    let input = if names.iter().any(|n| n == "input") {
        "json_input"
    } else {
        "input"
    };
    let mut out = format!("fn main() {{\n    let mut {input} = json::Input::from_stdin();\n");
    for (name, p) in names.iter().zip(&sig.params) {
        out.push_str(&format!(
            "    let {name}: {} = {input}.read();\n",
            rust_type(&p.ty)
        ));
    }
    out.push_str(&format!(
        "    json::print(Solution::{}({}));\n}}\n",
        sig.snake_name(),
        names.join(", ")
    ));
    out
}

/// How many parameters a list that starts after its `(` has, counting commas outside brackets.
fn arity(params: &str) -> usize {
    let mut depth = 0i32;
    let mut commas = 0;
    let mut any = false;
    for c in params.chars() {
        match c {
            '(' | '[' | '<' | '{' => depth += 1,
            ')' if depth == 0 => break,
            ')' | ']' | '>' | '}' => depth -= 1,
            ',' if depth == 0 => commas += 1,
            c if c.is_whitespace() => continue,
            _ => {}
        }
        any = true;
    }
    // A trailing comma (`fn f(a: i32,)`) adds no parameter.
    let trailing = params
        .split(')')
        .next()
        .is_some_and(|p| p.trim_end().ends_with(','));
    if any {
        commas + 1 - usize::from(trailing)
    } else {
        0
    }
}

/// The source with comments, strings and character literals blanked (lines kept), so that a
/// name in one is not taken for code. A `'` starts a character literal only when it closes one
/// or two characters later (`'a'`, `'\n'`); otherwise it is a lifetime.
fn code_only(source: &str) -> String {
    let b: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let blank = |out: &mut String, from: &[char]| {
        out.extend(from.iter().map(|&c| if c == '\n' { '\n' } else { ' ' }))
    };
    while i < b.len() {
        let end = match b[i] {
            '/' if b.get(i + 1) == Some(&'/') => {
                (i..b.len()).find(|&j| b[j] == '\n').unwrap_or(b.len())
            }
            '/' if b.get(i + 1) == Some(&'*') => block_comment_end(&b, i),
            'r' if matches!(b.get(i + 1), Some('"' | '#'))
                && (i == 0 || !b[i - 1].is_alphanumeric()) =>
            {
                raw_string_end(&b, i + 1)
            }
            '"' => quoted_end(&b, i, '"'),
            '\'' if b.get(i + 2) == Some(&'\'') || (b.get(i + 1) == Some(&'\\')) => {
                quoted_end(&b, i, '\'')
            }
            c => {
                out.push(c);
                i += 1;
                continue;
            }
        };
        blank(&mut out, &b[i..end]);
        i = end;
    }
    out
}

/// Where a `/* ... */` that starts at `i` ends, nested ones counted.
fn block_comment_end(b: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < b.len() {
        if b[i] == '/' && b.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// Where a raw string whose `#`s or quote start at `i` ends.
fn raw_string_end(b: &[char], mut i: usize) -> usize {
    let hashes = b[i..].iter().take_while(|&&c| c == '#').count();
    i += hashes;
    if b.get(i) != Some(&'"') {
        return i;
    }
    i += 1;
    while i < b.len() {
        if b[i] == '"'
            && b[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return i + 1 + hashes;
        }
        i += 1;
    }
    b.len()
}

/// Where a literal that opens with `quote` at `i` ends, escapes skipped.
fn quoted_end(b: &[char], mut i: usize, quote: char) -> usize {
    i += 1;
    while i < b.len() && b[i] != quote {
        i += if b[i] == '\\' { 2 } else { 1 };
    }
    (i + 1).min(b.len())
}

#[cfg(test)]
mod tests;
