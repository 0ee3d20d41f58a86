//! Python's harness: `class Solution` with the method, as LeetCode's editor takes it, with
//! `List`, `Optional`, `ListNode`, `TreeNode` and the usual modules in scope; the arguments
//! read with the `json` module and the result printed compact.

use super::super::signature::{Signature, Type};
use super::{arity, parameter_lists};
use crate::verdict::HARNESS_EXIT;

/// The type in Python's annotations, as LeetCode writes them.
pub fn type_name(ty: &Type) -> String {
    match ty {
        Type::Int | Type::Long => "int".into(),
        Type::Double => "float".into(),
        Type::Bool => "bool".into(),
        Type::Char | Type::String => "str".into(),
        Type::Array(e) => format!("List[{}]", type_name(e)),
        Type::ListNode => "Optional[ListNode]".into(),
        Type::TreeNode => "Optional[TreeNode]".into(),
    }
}

pub fn signature_line(sig: &Signature) -> String {
    let params: String = sig
        .params
        .iter()
        .map(|p| format!(", {}: {}", p.name, type_name(&p.ty)))
        .collect();
    format!(
        "def {}(self{params}) -> {}",
        sig.name,
        type_name(&sig.returns)
    )
}

pub fn declaration(sig: &Signature) -> String {
    format!(
        "class Solution:\n    {}:\n        pass\n",
        signature_line(sig)
    )
}

/// A `class Solution` at the top level, and nothing that reads stdin or runs as a script.
pub fn is_function_form(source: &str) -> bool {
    let has_class = source.lines().any(|l| {
        l.starts_with("class Solution")
            && !l["class Solution".len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
    });
    let reads = ["__main__", "sys.stdin", "input(", "open(0"]
        .iter()
        .any(|s| source.contains(s));
    has_class && !reads
}

/// A `def NAME(self, ...)` with one parameter per declared one.
pub fn defines(source: &str, sig: &Signature) -> bool {
    parameter_lists(source, &format!("def {}", sig.name))
        .iter()
        .any(|list| arity(list) == sig.params.len() + 1)
}

pub fn missing(sig: &Signature) -> String {
    format!(
        "the solution has `class Solution` but no method `{}` taking {} argument{}; LeetCode's editor declares it:\n\nclass Solution:\n    {}:\n",
        sig.name,
        sig.params.len(),
        if sig.params.len() == 1 { "" } else { "s" },
        signature_line(sig)
    )
}

/// What LeetCode's Python has in scope before the solution.
const PRELUDE: &str = "\
import bisect, collections, functools, heapq, itertools, json, math, string, sys
from bisect import *
from collections import *
from functools import *
from heapq import *
from itertools import *
from typing import *
";

const LIST_NODE: &str = "
class ListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next
";

const TREE_NODE: &str = "
class TreeNode:
    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right
";

/// The conversions between LeetCode's JSON and its nodes.
const LIST_CODE: &str = "
def list_from_json(values):
    head = None
    for value in reversed(values):
        head = ListNode(value, head)
    return head


def list_to_json(head):
    values = []
    while head:
        values.append(head.val)
        head = head.next
    return values
";

const TREE_CODE: &str = "
def tree_from_json(values):
    if not values:
        return None
    root = TreeNode(values[0])
    level, i = [root], 1
    while level and i < len(values):
        next_level = []
        for node in level:
            for side in (\"left\", \"right\"):
                if i < len(values) and values[i] is not None:
                    child = TreeNode(values[i])
                    setattr(node, side, child)
                    next_level.append(child)
                i += 1
        level = next_level
    return root


def tree_to_json(root):
    values, level = [], [root] if root else []
    while level:
        next_level = []
        for node in level:
            values.append(node.val if node else None)
            if node:
                next_level += [node.left, node.right]
        level = next_level
    while values and values[-1] is None:
        values.pop()
    return values
";

/// What the harness does with the returned value before it prints it: Python's values carry
/// their own types, so one of another type than declared is told apart (the solution's wrong
/// answer, said as such) from a `float` NaN or infinite, which JSON cannot write (the judge's
/// case), each said on stderr after the judge's marker, the run ending with the harness's
/// exit status.
const RESULT_CODE: &str = r#"
def judge_refuse(kind, words):
    sys.stdout.flush()
    sys.stderr.write("@judge-harness " + kind + " " + words + "\n")
    sys.stderr.flush()
    sys.exit(JUDGE_HARNESS_EXIT)


def judge_kind(value):
    if value is None:
        return "None"
    name = type(value).__name__
    return ("an " if name[0] in "aeiouAEIOU" else "a ") + name


JUDGE_RANGES = {"int": 1 << 31, "long": 1 << 63}
# The exact Python types of each scalar (a bool is an int to isinstance, never to type).
JUDGE_TYPES = {"int": (int,), "long": (int,), "double": (float, int), "bool": (bool,), "string": (str,)}


def judge_fits(values, ty):
    """Whether a list is all of scalar type `ty`, in range and finite: the common case, fast."""
    if ty not in JUDGE_TYPES or not all(type(x) in JUDGE_TYPES[ty] for x in values):
        return False
    if ty in JUDGE_RANGES:
        return not values or (min(values) >= -JUDGE_RANGES[ty] and max(values) < JUDGE_RANGES[ty])
    return ty != "double" or all(map(math.isfinite, values))


def judge_wrong(value, ty, at):
    """What `value` is instead of a `ty` and where, or None when it is one; a double JSON
    cannot write is refused as the judge's case."""
    if ty.endswith("[]"):
        if not isinstance(value, (list, tuple)):
            return judge_kind(value), at
        if judge_fits(value, ty[:-2]):
            return None
        for i, item in enumerate(value):
            wrong = judge_wrong(item, ty[:-2], at + "[" + str(i) + "]")
            if wrong:
                return wrong
        return None
    if type(value) not in JUDGE_TYPES.get(ty, (str,)):
        return judge_kind(value), at
    if ty in JUDGE_RANGES and not -JUDGE_RANGES[ty] <= value < JUDGE_RANGES[ty]:
        return "the integer " + str(value) + ", out of " + ty + "'s range,", at
    if ty == "double" and not math.isfinite(value):
        name = "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
        judge_refuse("not-json", name + (" (at " + at + ")" if at else ""))
    if ty == "char" and len(value) != 1:
        return "a str of length " + str(len(value)), at
    return None


def judge_checked(value, ty, node=None):
    """The returned value, checked against the declared type `ty`, made JSON's."""
    wrong = None
    if node is None:
        wrong = judge_wrong(value, ty, "")
    elif value is not None and not isinstance(value, node):
        wrong = judge_kind(value), ""
    else:
        value = list_to_json(value) if ty == "ListNode" else tree_to_json(value)
        for i, v in enumerate(value):
            if v is not None or ty == "ListNode":
                wrong = wrong or judge_wrong(v, "int", ".val of node " + str(i))
    if wrong:
        what, at = wrong
        judge_refuse("wrong-type", "returned " + what + (" at " + at if at else "") + " where " + ty + " was declared")
    return value
"#;

fn uses(sig: &Signature, node: &Type) -> bool {
    sig.params.iter().any(|p| p.ty == *node) || sig.returns == *node
}

/// The argument `values[i]` as the function takes it.
fn argument(i: usize, ty: &Type) -> String {
    match ty {
        Type::ListNode => format!("list_from_json(values[{i}])"),
        Type::TreeNode => format!("tree_from_json(values[{i}])"),
        _ => format!("values[{i}]"),
    }
}

pub fn wrap(source: &str, sig: &Signature) -> String {
    let mut out = String::from(PRELUDE);
    for (node, class) in [(Type::ListNode, LIST_NODE), (Type::TreeNode, TREE_NODE)] {
        if uses(sig, &node) {
            out.push_str(class);
        }
    }
    out.push_str("\n\n");
    out.push_str(source.trim_end());
    out.push_str("\n\n");
    for (node, code) in [(Type::ListNode, LIST_CODE), (Type::TreeNode, TREE_CODE)] {
        if uses(sig, &node) {
            out.push_str(code);
            out.push('\n');
        }
    }
    let args: Vec<String> = sig
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| argument(i, &p.ty))
        .collect();
    let node = match sig.returns {
        Type::ListNode => ", ListNode",
        Type::TreeNode => ", TreeNode",
        _ => "",
    };
    out.push_str(&format!("\nJUDGE_HARNESS_EXIT = {HARNESS_EXIT}\n"));
    out.push_str(RESULT_CODE);
    out.push_str(&format!(
        "
def main():
    # {sig}: one JSON value per line, in this order.
    try:
        values = [json.loads(line) for line in sys.stdin.read().splitlines() if line.strip()]
    except ValueError as e:
        judge_refuse(\"unreadable\", str(e))
    result = judge_checked(Solution().{}({}), \"{}\"{node})
    print(json.dumps(result, separators=(\",\", \":\")))


if __name__ == \"__main__\":
    main()
",
        sig.name,
        args.join(", "),
        sig.returns
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::function::harness::testing::sig;

    #[test]
    fn the_declaration_is_leetcodes() {
        let s = sig("twoSum", &["nums: int[]", "target: int"], "int[]");
        assert_eq!(
            signature_line(&s),
            "def twoSum(self, nums: List[int], target: int) -> List[int]"
        );
        let t = sig("mergeTrees", &["a: TreeNode", "b: TreeNode"], "TreeNode");
        assert_eq!(
            signature_line(&t),
            "def mergeTrees(self, a: Optional[TreeNode], b: Optional[TreeNode]) -> Optional[TreeNode]"
        );
        assert!(declaration(&s).starts_with("class Solution:\n    def twoSum(self,"));
    }

    #[test]
    fn function_form_and_definition_are_read_from_the_source() {
        let s = sig("totalNQueens", &["n: int"], "int");
        let function =
            "class Solution:\n    def totalNQueens(self, n: int) -> int:\n        return 1\n";
        assert!(is_function_form(function));
        assert!(defines(function, &s));
        assert!(!defines(
            "class Solution:\n    def totalNQueens(self) -> int:\n        return 1\n",
            &s
        ));
        assert!(!defines(
            "class Solution:\n    def total(self, n):\n        return 1\n",
            &s
        ));
        let program = "import sys\nclass Solution:\n    pass\nprint(sys.stdin.read())\n";
        assert!(!is_function_form(program));
        assert!(!is_function_form("class SolutionB:\n    pass\n"));
        assert!(missing(&s).contains("def totalNQueens(self, n: int) -> int"));
    }
}
