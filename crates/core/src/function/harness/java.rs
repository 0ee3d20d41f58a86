//! Java in LeetCode's form: `class Solution { public int totalNQueens(int n) { ... } }`, with
//! `java.util.*` in scope and LeetCode's `ListNode` and `TreeNode`. The harness's class `Main`
//! holds `main`, so the judge names the file `Main.java`; a `public` on the solution's top-level
//! classes is blanked, since javac lets only the file's own class be public.

use crate::function::signature::{Signature, Type};
use crate::verdict::HARNESS_EXIT;

/// LeetCode's `ListNode`, with its three constructors.
const LIST: &str = include_str!("java/list.java");
/// LeetCode's `TreeNode`, with its three constructors.
const TREE: &str = include_str!("java/tree.java");
/// The JSON reader (`JsonIn`) and writer (`JsonOut`).
const JSON: &str = include_str!("java/json.java");
/// What LeetCode's Java has in scope, and what the harness uses.
const IMPORTS: &str =
    "import java.util.*;\nimport java.io.*;\nimport java.nio.charset.StandardCharsets;\n";

/// The type as LeetCode's Java editor writes it.
pub fn java_type(ty: &Type) -> String {
    match ty {
        Type::Int => "int".into(),
        Type::Long => "long".into(),
        Type::Double => "double".into(),
        Type::Bool => "boolean".into(),
        Type::Char => "char".into(),
        Type::String => "String".into(),
        Type::Array(element) => format!("{}[]", java_type(element)),
        Type::ListNode => "ListNode".into(),
        Type::TreeNode => "TreeNode".into(),
    }
}

/// `public int totalNQueens(int n)`.
pub fn signature_line(sig: &Signature) -> String {
    let params: Vec<String> = sig
        .params
        .iter()
        .map(|p| format!("{} {}", java_type(&p.ty), p.name))
        .collect();
    format!(
        "public {} {}({})",
        java_type(&sig.returns),
        sig.name,
        params.join(", ")
    )
}

/// The class as LeetCode's Java editor starts it.
pub fn declaration(sig: &Signature) -> String {
    format!(
        "class Solution {{\n    {} {{\n        \n    }}\n}}\n",
        signature_line(sig)
    )
}

/// A `class Solution` and no `static void main`: LeetCode's form, not a whole program.
pub fn is_function_form(source: &str) -> bool {
    let code = code_only(source);
    let words = super::words(&code, &['$']);
    super::has_pair(&words, "class", "Solution") && !super::has_pair(&words, "void", "main")
}

/// Whether the source has a method `name` with the declared number of parameters.
pub fn defines(source: &str, sig: &Signature) -> bool {
    let code = code_only(source);
    let name = sig.name.as_str();
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].trim_end();
        let declared = before
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ']' || c == '>')
            && !before.ends_with("return")
            && !before.ends_with("new");
        let whole = !code[..at]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let params = code[at + name.len()..].trim_start().strip_prefix('(');
        declared && whole && params.is_some_and(|p| arity(p) == sig.params.len())
    })
}

/// How many parameters a list (after its `(`) has, counting commas outside `<>`.
fn arity(params: &str) -> usize {
    let inside = &params[..params.find(')').unwrap_or(params.len())];
    if inside.trim().is_empty() {
        return 0;
    }
    let mut depth = 0i32;
    1 + inside
        .chars()
        .filter(|&c| {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            c == ',' && depth == 0
        })
        .count()
}

/// The compile error for a source without the method.
pub fn missing(sig: &Signature) -> String {
    format!(
        "class Solution has no method `{}`: the problem declares `{sig}`, which Java writes as\n\n{}",
        signature_line(sig),
        declaration(sig).replace("        \n", "        // ...\n")
    )
}

/// The whole program: the imports LeetCode gives, the solution as written (a top-level
/// `public` blanked), LeetCode's classes it leaves out, then `Main`, which reads one JSON value
/// per parameter, calls, and prints the result as JSON.
pub fn wrap(source: &str, sig: &Signature) -> String {
    let code = code_only(source);
    let mut out = String::from(IMPORTS);
    out.push_str(&without_top_level_public(source, &code));
    out.push_str(
        "\n\n// The judge's harness: LeetCode's definitions, then the call with JSON in and out.\n",
    );
    let words = super::words(&code, &['$']);
    out.push_str(&super::definitions(
        &words,
        "class",
        &[("ListNode", LIST), ("TreeNode", TREE)],
    ));
    out.push_str(&main(sig));
    out.push('\n');
    out.push_str(&JSON.replace("JUDGE_HARNESS_EXIT", &HARNESS_EXIT.to_string()));
    out
}

/// The source with each `public` outside every brace replaced by spaces.
fn without_top_level_public(source: &str, code: &str) -> String {
    let mut out = source.trim_end().as_bytes().to_vec();
    let mut depth = 0usize;
    let b = code.as_bytes();
    for i in 0..b.len().min(out.len()) {
        match b[i] {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b'p' if depth == 0
                && code[i..].starts_with("public")
                && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
                && !b.get(i + 6).is_some_and(|c| c.is_ascii_alphanumeric()) =>
            {
                out[i..i + 6].copy_from_slice(b"      ");
            }
            _ => {}
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| source.to_string())
}

/// `class Main`: each argument read in order, the call, the result printed.
fn main(sig: &Signature) -> String {
    let mut out = String::from(
        "class Main {\n    public static void main(String[] args) throws IOException {\n        JsonIn stdin = new JsonIn(System.in);\n",
    );
    for p in &sig.params {
        out.push_str(&format!(
            "        {} {} = {};\n",
            java_type(&p.ty),
            p.name,
            read(&p.ty)
        ));
    }
    let names: Vec<&str> = sig.params.iter().map(|p| p.name.as_str()).collect();
    out.push_str(&format!(
        "        JsonOut.{}(new Solution().{}({}));\n    }}\n}}\n",
        if matches!(sig.returns, Type::ListNode | Type::TreeNode) {
            "printNode"
        } else {
            "print"
        },
        sig.name,
        names.join(", ")
    ));
    out
}

/// The expression that reads a value of the type.
fn read(ty: &Type) -> String {
    match ty {
        Type::Array(element) if primitive(element) => {
            format!("stdin.read{}Array()", scalar(element))
        }
        Type::Array(element) => format!(
            "stdin.readArray({}::new, {})",
            java_type(ty),
            supplier(element)
        ),
        other => format!("stdin.read{}()", scalar(other)),
    }
}

/// A supplier of a value of the type: a method reference where there is one.
fn supplier(ty: &Type) -> String {
    match ty {
        Type::Array(element) if !primitive(element) => format!("() -> {}", read(ty)),
        Type::Array(element) => format!("stdin::read{}Array", scalar(element)),
        other => format!("stdin::read{}", scalar(other)),
    }
}

fn primitive(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Int | Type::Long | Type::Double | Type::Bool | Type::Char
    )
}

/// The name a reader ends with.
fn scalar(ty: &Type) -> &'static str {
    match ty {
        Type::Int => "Int",
        Type::Long => "Long",
        Type::Double => "Double",
        Type::Bool => "Bool",
        Type::Char => "Char",
        Type::String | Type::Array(_) => "String",
        Type::ListNode => "List",
        Type::TreeNode => "Tree",
    }
}

/// The source with comments, strings and character literals blanked byte for byte (lines and
/// offsets kept), so that a name in one is not taken for code.
fn code_only(source: &str) -> String {
    super::code_only(source, b"\"'", b"", b"")
}

#[cfg(test)]
mod tests;
