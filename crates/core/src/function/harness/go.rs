//! Go in LeetCode's form: `func twoSum(nums []int, target int) []int` with no `package` line,
//! the standard library used without imports. The harness adds `package main`, the imports the
//! solution uses (those it wrote, and the standard packages it names), LeetCode's `ListNode`
//! and `TreeNode`, and `main` with JSON in and out.

use crate::function::signature::{Signature, Type};
use crate::verdict::HARNESS_EXIT;

/// LeetCode's `ListNode`.
const LIST: &str = include_str!("go/list.go");
/// LeetCode's `TreeNode`.
const TREE: &str = include_str!("go/tree.go");
/// The JSON reader and writer.
const JSON: &str = include_str!("go/json.go");

/// What the harness itself imports.
const HARNESS_IMPORTS: [&str; 4] = ["bufio", "io", "os", "strconv"];

/// The standard packages a LeetCode solution names without importing them: the name it is
/// used by, its path, and one of its functions, named once so that an import the solution
/// turns out not to use (a variable of that name shadowing it) is no compile error.
const STANDARD: [(&str, &str, &str); 18] = [
    ("sort", "sort", "sort.Ints"),
    ("strings", "strings", "strings.Split"),
    ("strconv", "strconv", "strconv.Itoa"),
    ("math", "math", "math.Abs"),
    ("fmt", "fmt", "fmt.Sprint"),
    ("bits", "math/bits", "bits.OnesCount"),
    ("rand", "math/rand", "rand.Intn"),
    ("big", "math/big", "big.NewInt"),
    ("heap", "container/heap", "heap.Init"),
    ("list", "container/list", "list.New"),
    ("ring", "container/ring", "ring.New"),
    ("unicode", "unicode", "unicode.IsDigit"),
    ("utf8", "unicode/utf8", "utf8.RuneLen"),
    ("bytes", "bytes", "bytes.Compare"),
    ("regexp", "regexp", "regexp.MustCompile"),
    ("slices", "slices", "slices.Sort[[]int]"),
    ("maps", "maps", "maps.Clone[map[int]int]"),
    ("cmp", "cmp", "cmp.Compare[int]"),
];

/// The type as LeetCode's Go editor writes it.
pub fn go_type(ty: &Type) -> String {
    match ty {
        Type::Int => "int".into(),
        Type::Long => "int64".into(),
        Type::Double => "float64".into(),
        Type::Bool => "bool".into(),
        Type::Char => "byte".into(),
        Type::String => "string".into(),
        Type::Array(element) => format!("[]{}", go_type(element)),
        Type::ListNode => "*ListNode".into(),
        Type::TreeNode => "*TreeNode".into(),
    }
}

/// `func totalNQueens(n int) int`.
pub fn signature_line(sig: &Signature) -> String {
    let params: Vec<String> = sig
        .params
        .iter()
        .map(|p| format!("{} {}", p.name, go_type(&p.ty)))
        .collect();
    format!(
        "func {}({}) {}",
        sig.name,
        params.join(", "),
        go_type(&sig.returns)
    )
}

/// The function as LeetCode's Go editor starts it.
pub fn declaration(sig: &Signature) -> String {
    format!("{} {{\n\t\n}}\n", signature_line(sig))
}

/// A function and no `func main`: LeetCode's form, not a whole program.
pub fn is_function_form(source: &str) -> bool {
    let code = code_only(source);
    func_arities(&code, "main").next().is_none() && code.contains("func ")
}

/// Whether the source has `func name` (not a method) with the declared number of parameters.
pub fn defines(source: &str, sig: &Signature) -> bool {
    func_arities(&code_only(source), &sig.name).any(|n| n == sig.params.len())
}

/// The compile error for a source without the function.
pub fn missing(sig: &Signature) -> String {
    format!(
        "no `{}` is defined: the problem declares `{sig}`, which Go writes as\n\n{}",
        signature_line(sig),
        declaration(sig).replace("\t\n", "\t// ...\n")
    )
}

/// The whole program: `package main` and the imports, the solution as written (its own
/// `package` and `import` lines commented out, their imports merged above), LeetCode's types it
/// leaves out, and `main`, which reads one JSON value per parameter, calls, and prints the
/// result as JSON.
pub fn wrap(source: &str, sig: &Signature) -> String {
    let code = code_only(source);
    let (own, spans) = own_imports(&code, source);
    let mut out = String::from("package main\n\n");
    out.push_str(&imports(&code, &own));
    out.push('\n');
    out.push_str(&comment_out(source, &spans));
    out.push_str(
        "\n\n// The judge's harness: LeetCode's definitions, then the call with JSON in and out.\n",
    );
    let words = super::words(&code, &[]);
    out.push_str(&super::definitions(
        &words,
        "type",
        &[("ListNode", LIST), ("TreeNode", TREE)],
    ));
    out.push_str(&main(sig));
    out.push('\n');
    out.push_str(&JSON.replace("JUDGE_HARNESS_EXIT", &HARNESS_EXIT.to_string()));
    out
}

/// The import block: the harness's packages, the solution's own import specs, and the standard
/// packages it names (`sort.Ints`) without importing them, each named once in `var _`.
fn imports(code: &str, own: &[String]) -> String {
    let path_of = |spec: &str| spec.split('"').nth(1).unwrap_or("").to_string();
    let own_paths: Vec<String> = own.iter().map(|s| path_of(s)).collect();
    let mut specs: Vec<String> = HARNESS_IMPORTS
        .iter()
        .filter(|p| !own_paths.iter().any(|o| o == *p))
        .map(|p| format!("\"{p}\""))
        .collect();
    specs.extend(own.iter().cloned());
    let words = super::words(code, &[]);
    let mut uses = Vec::new();
    for (name, path, member) in STANDARD {
        let known = specs.iter().any(|s| path_of(s) == path);
        if !known && names_package(code, &words, name) {
            specs.push(format!("\"{path}\""));
            uses.push(member);
        }
    }
    let mut out = format!("import (\n\t{}\n)\n", specs.join("\n\t"));
    for member in uses {
        out.push_str(&format!("\nvar _ = {member}\n"));
    }
    out
}

/// Whether the code uses `name.Exported` and declares nothing of that name at the top level.
fn names_package(code: &str, words: &[&str], name: &str) -> bool {
    let used = code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().last();
        let after = &code[at + name.len()..];
        before.is_none_or(|c| !c.is_alphanumeric() && c != '_' && c != '.')
            && after.starts_with('.')
            && after[1..].starts_with(|c: char| c.is_ascii_uppercase())
    });
    let declared = words
        .windows(2)
        .any(|w| matches!(w[0], "func" | "type" | "var" | "const") && w[1] == name);
    used && !declared
}

/// The solution's own import specs, and the byte spans of its `package` and `import` lines.
fn own_imports(code: &str, source: &str) -> (Vec<String>, Vec<(usize, usize)>) {
    let mut specs = Vec::new();
    let mut spans = Vec::new();
    let mut at = 0;
    for line in code.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let text = line.trim_start();
        if text.starts_with("package ") {
            spans.push((start, at));
        }
        let Some(rest) = text.strip_prefix("import") else {
            continue;
        };
        let rest = rest.trim_start();
        if rest.starts_with('(') {
            let close = code[start..]
                .find(')')
                .map_or(code.len(), |c| start + c + 1);
            let body = &source[start..close];
            let open = body.find('(').map_or(0, |o| o + 1);
            let inner = body[open..].strip_suffix(')').unwrap_or(&body[open..]);
            specs.extend(
                inner
                    .split(['\n', ';'])
                    .map(|s| s.split("//").next().unwrap_or("").trim())
                    .filter(|s| s.contains('"'))
                    .map(str::to_string),
            );
            spans.push((start, close));
        } else if source[start..at].contains('"') {
            let spec = source[start..at].trim().trim_start_matches("import").trim();
            specs.push(spec.split("//").next().unwrap_or("").trim().to_string());
            spans.push((start, at));
        }
    }
    (specs, spans)
}

/// The source with each line a span touches commented out, so its lines keep their numbers.
fn comment_out(source: &str, spans: &[(usize, usize)]) -> String {
    let mut out = String::with_capacity(source.len() + 64);
    let mut at = 0;
    for line in source.trim_end().split_inclusive('\n') {
        let (start, end) = (at, at + line.len());
        at = end;
        if spans.iter().any(|&(s, e)| s < end && start < e) {
            out.push_str("// ");
        }
        out.push_str(line);
    }
    out
}

/// `func main`: each argument read in order, the call, the result printed.
fn main(sig: &Signature) -> String {
    let mut out = String::from("func main() {\n\tstdin := newJSONReader()\n");
    for p in &sig.params {
        out.push_str(&format!("\t{} := {}(stdin)\n", p.name, reader(&p.ty)));
    }
    let args: Vec<&str> = sig.params.iter().map(|p| p.name.as_str()).collect();
    out.push_str(&format!(
        "\tstdout := bufio.NewWriter(os.Stdout)\n\t{}(stdout, {}({}))\n\tstdout.WriteString(\"\\n\")\n\tstdout.Flush()\n}}\n",
        writer(&sig.returns),
        sig.name,
        args.join(", ")
    ));
    out
}

/// The harness's function that reads a value of the type.
fn reader(ty: &Type) -> String {
    match ty {
        Type::Array(element) => format!("jsonArrayOf({})", reader(element)),
        other => format!("json{}", suffix(other)),
    }
}

/// The harness's function that writes a value of the type.
fn writer(ty: &Type) -> String {
    match ty {
        Type::Array(element) => format!("jsonWriteArrayOf({})", writer(element)),
        other => format!("jsonWrite{}", suffix(other)),
    }
}

/// The name a scalar's or a node's reader and writer end with.
fn suffix(ty: &Type) -> &'static str {
    match ty {
        Type::Int => "Int",
        Type::Long => "Int64",
        Type::Double => "Float64",
        Type::Bool => "Bool",
        Type::Char => "Byte",
        Type::String | Type::Array(_) => "String",
        Type::ListNode => "List",
        Type::TreeNode => "Tree",
    }
}

/// The parameter counts of every `func name(` (a method's receiver comes first, so a method is
/// not one).
fn func_arities<'a>(code: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    code.match_indices("func").filter_map(move |(at, _)| {
        let before = code[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let rest = code[at + 4..].trim_start();
        let after = rest.strip_prefix(name)?.trim_start();
        let params = after.strip_prefix('(')?;
        let end = params.find(')')?;
        let inside = params[..end].trim();
        Some(if inside.is_empty() {
            0
        } else {
            inside.trim_end_matches(',').split(',').count()
        })
    })
}

/// The source with comments, strings (`"..."`, raw `` `...` ``) and runes blanked, byte for
/// byte (lines and offsets kept), so that a name in one is not taken for code.
fn code_only(source: &str) -> String {
    super::code_only(source, b"\"'`", b"`", b"`")
}

#[cfg(test)]
mod tests;
