//! JavaScript in LeetCode's form: `var twoSum = function(nums, target) { ... };` (or
//! `function twoSum(...)`, or `const twoSum = (...) => ...`), run by node with LeetCode's
//! `ListNode` and `TreeNode` in scope and a harness that reads the arguments as JSON.

use crate::function::signature::{Signature, Type};
use crate::verdict::HARNESS_EXIT;

/// LeetCode's `ListNode` constructor.
const LIST: &str = include_str!("javascript/list.js");
/// LeetCode's `TreeNode` constructor.
const TREE: &str = include_str!("javascript/tree.js");
/// The conversions between LeetCode's lists and trees and their JSON arrays.
const NODES: &str = include_str!("javascript/json.js");

/// The type as LeetCode's JSDoc writes it.
pub fn js_type(ty: &Type) -> String {
    match ty {
        Type::Int | Type::Long | Type::Double => "number".into(),
        Type::Bool => "boolean".into(),
        Type::Char => "character".into(),
        Type::String => "string".into(),
        Type::Array(element) => format!("{}[]", js_type(element)),
        Type::ListNode => "ListNode".into(),
        Type::TreeNode => "TreeNode".into(),
    }
}

/// `var totalNQueens = function(n)`, with its types as JSDoc says them before it:
/// `/** @param {number} n @return {number} */ var totalNQueens = function(n)`.
pub fn signature_line(sig: &Signature) -> String {
    let mut doc: Vec<String> = sig
        .params
        .iter()
        .map(|p| format!("@param {{{}}} {}", js_type(&p.ty), p.name))
        .collect();
    doc.push(format!("@return {{{}}}", js_type(&sig.returns)));
    format!("/** {} */ {}", doc.join(" "), head(sig))
}

/// `var totalNQueens = function(n)`.
fn head(sig: &Signature) -> String {
    let names: Vec<&str> = sig.params.iter().map(|p| p.name.as_str()).collect();
    format!("var {} = function({})", sig.name, names.join(", "))
}

/// The function as LeetCode's JavaScript editor starts it, JSDoc first.
pub fn declaration(sig: &Signature) -> String {
    let mut out = String::from("/**\n");
    for p in &sig.params {
        out.push_str(&format!(" * @param {{{}}} {}\n", js_type(&p.ty), p.name));
    }
    out.push_str(&format!(" * @return {{{}}}\n */\n", js_type(&sig.returns)));
    out.push_str(&format!("{} {{\n    \n}};\n", head(sig)));
    out
}

/// A function that reads no stdin: LeetCode's form, not a whole program (which reads
/// `process.stdin`, through `readline` or `fs.readFileSync`).
pub fn is_function_form(source: &str) -> bool {
    let code = code_only(source);
    let reads = ["process.stdin", "readline", "readFileSync"]
        .iter()
        .any(|r| source.contains(r));
    !reads && (code.contains("function") || code.contains("=>"))
}

/// Whether the source defines the function, with the declared number of parameters where its
/// parameter list can be read.
pub fn defines(source: &str, sig: &Signature) -> bool {
    let code = code_only(source);
    let name = sig.name.as_str();
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].trim_end();
        let after = code[at + name.len()..].trim_start();
        let whole = !code[..at]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.');
        if !whole || after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let params = if before.ends_with("function") {
            after.strip_prefix('(')
        } else if let Some(value) = after
            .strip_prefix('=')
            .filter(|v| !v.starts_with(['=', '>']))
        {
            function_params(value.trim_start())
        } else {
            None
        };
        params.is_some_and(|p| arity(p) == sig.params.len())
    })
}

/// The parameter list (after its `(`) of a function expression or an arrow function; for an
/// arrow's lone parameter (`x => ...`), that parameter.
fn function_params(value: &str) -> Option<&str> {
    let value = value.strip_prefix("async").map_or(value, str::trim_start);
    if let Some(rest) = value.strip_prefix("function") {
        let rest = rest.trim_start();
        let rest = rest.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_' || c == '$');
        return rest.trim_start().strip_prefix('(');
    }
    if let Some(rest) = value.strip_prefix('(') {
        let close = rest.find(')')?;
        return rest[close + 1..]
            .trim_start()
            .starts_with("=>")
            .then_some(rest);
    }
    let lone = value
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|&end| end > 0 && value[end..].trim_start().starts_with("=>"))?;
    Some(&value[..lone])
}

/// How many parameters a list (after its `(`, or an arrow's lone parameter) names.
fn arity(params: &str) -> usize {
    let inside = params[..params.find(')').unwrap_or(params.len())].trim();
    let inside = inside.trim_end_matches(',');
    if inside.is_empty() {
        0
    } else {
        inside.split(',').count()
    }
}

/// The compile error for a source without the function.
pub fn missing(sig: &Signature) -> String {
    format!(
        "no function `{}` with {} parameter{} is defined: the problem declares `{sig}`, which JavaScript writes as\n\n{}",
        sig.name,
        sig.params.len(),
        if sig.params.len() == 1 { "" } else { "s" },
        declaration(sig).replace("    \n", "    // ...\n")
    )
}

/// The whole program: the solution as written, LeetCode's constructors it leaves out, then a
/// block that reads one JSON value per parameter, one a line, calls, and prints the result as
/// JSON.
pub fn wrap(source: &str, sig: &Signature) -> String {
    let code = code_only(source);
    let mut out = source.trim_end().to_string();
    out.push_str(
        "\n\n// The judge's harness: LeetCode's definitions, then the call with JSON in and out.\n",
    );
    for (name, text) in [("ListNode", LIST), ("TreeNode", TREE)] {
        let defined = [format!("function {name}"), format!("class {name}")]
            .iter()
            .any(|d| code.contains(d.as_str()));
        if !defined {
            out.push_str(text);
            out.push('\n');
        }
    }
    out.push_str("{\n");
    out.push_str(&NODES.replace("JUDGE_HARNESS_EXIT", &HARNESS_EXIT.to_string()));
    out.push_str(&call(sig));
    out.push_str("}\n");
    out
}

/// The lines read, each argument parsed, the call, and the result printed.
fn call(sig: &Signature) -> String {
    let lines = if sig.params.iter().any(|p| p.name == "lines") {
        "inputLines"
    } else {
        "lines"
    };
    let mut out = format!(
        "    const {lines} = require('fs').readFileSync(0, 'utf8').split('\\n').filter((line) => line.trim() !== '');\n"
    );
    for (i, p) in sig.params.iter().enumerate() {
        let parsed = format!("judgeParse({lines}[{i}])");
        let value = match p.ty {
            Type::ListNode => format!("toList({parsed})"),
            Type::TreeNode => format!("toTree({parsed})"),
            _ => parsed,
        };
        out.push_str(&format!("    const {} = {value};\n", p.name));
    }
    let names: Vec<&str> = sig.params.iter().map(|p| p.name.as_str()).collect();
    let called = format!("{}({})", sig.name, names.join(", "));
    out.push_str(&format!(
        "    console.log(JSON.stringify(judgeChecked({called}, '{}')));\n",
        sig.returns
    ));
    out
}

/// The source with comments and string literals blanked (lines kept), so that a name in one
/// is not taken for code.
fn code_only(source: &str) -> String {
    super::code_only(source, b"\"'`", b"`", b"")
}

#[cfg(test)]
mod tests;
