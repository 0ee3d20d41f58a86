//! C++'s harness: `class Solution` with the member function, as LeetCode's editor takes it,
//! with the usual headers, `using namespace std` and LeetCode's `ListNode` and `TreeNode`; the
//! arguments read by a small JSON reader of the judge's own, the result written compact.

use super::super::signature::{Signature, Type};
use super::{arity, parameter_lists};
use crate::verdict::HARNESS_EXIT;

/// The type in C++, as LeetCode writes it.
pub fn type_name(ty: &Type) -> String {
    match ty {
        Type::Int => "int".into(),
        Type::Long => "long long".into(),
        Type::Double => "double".into(),
        Type::Bool => "bool".into(),
        Type::Char => "char".into(),
        Type::String => "string".into(),
        Type::Array(e) => format!("vector<{}>", type_name(e)),
        Type::ListNode => "ListNode*".into(),
        Type::TreeNode => "TreeNode*".into(),
    }
}

/// A parameter's type: vectors by reference, as LeetCode passes them.
fn param_type(ty: &Type) -> String {
    match ty {
        Type::Array(_) => format!("{}&", type_name(ty)),
        _ => type_name(ty),
    }
}

pub fn signature_line(sig: &Signature) -> String {
    let params: Vec<String> = sig
        .params
        .iter()
        .map(|p| format!("{} {}", param_type(&p.ty), p.name))
        .collect();
    format!(
        "{} {}({})",
        type_name(&sig.returns),
        sig.name,
        params.join(", ")
    )
}

pub fn declaration(sig: &Signature) -> String {
    format!(
        "class Solution {{\npublic:\n    {} {{\n        \n    }}\n}};\n",
        signature_line(sig)
    )
}

/// A `class Solution`, and no `main`.
pub fn is_function_form(source: &str) -> bool {
    has_class(source) && parameter_lists(source, "main").is_empty()
}

fn has_class(source: &str) -> bool {
    source
        .split("class Solution")
        .skip(1)
        .any(|rest| rest.trim_start().starts_with(['{', ':']))
}

/// A member function named as declared with one parameter per declared one.
pub fn defines(source: &str, sig: &Signature) -> bool {
    parameter_lists(source, &sig.name)
        .iter()
        .any(|list| arity(list) == sig.params.len())
}

pub fn missing(sig: &Signature) -> String {
    format!(
        "the solution has `class Solution` but no member function `{}` taking {} parameter{}; LeetCode's editor declares it:\n\nclass Solution {{\npublic:\n    {}\n}};\n",
        sig.name,
        sig.params.len(),
        if sig.params.len() == 1 { "" } else { "s" },
        signature_line(sig)
    )
}

/// What LeetCode's C++ has in scope before the solution.
const PRELUDE: &str = "\
#include <bits/stdc++.h>
using namespace std;
";

const LIST_NODE: &str = "
struct ListNode {
    int val;
    ListNode *next;
    ListNode() : val(0), next(nullptr) {}
    ListNode(int x) : val(x), next(nullptr) {}
    ListNode(int x, ListNode *next) : val(x), next(next) {}
};
";

const TREE_NODE: &str = "
struct TreeNode {
    int val;
    TreeNode *left;
    TreeNode *right;
    TreeNode() : val(0), left(nullptr), right(nullptr) {}
    TreeNode(int x) : val(x), left(nullptr), right(nullptr) {}
    TreeNode(int x, TreeNode *left, TreeNode *right) : val(x), left(left), right(right) {}
};
";

/// The JSON reader and writer, for the types every signature may use.
const JSON: &str = include_str!("cpp_json.hpp");

const LIST_CODE: &str = "
void read(Reader& in, ListNode*& head) {
    vector<int> values;
    read(in, values);
    head = nullptr;
    for (auto v = values.rbegin(); v != values.rend(); ++v) head = new ListNode(*v, head);
}

void write(string& out, ListNode* head) {
    vector<int> values;
    for (; head; head = head->next) values.push_back(head->val);
    write(out, values);
}
";

const TREE_CODE: &str = include_str!("cpp_tree.hpp");

fn uses(sig: &Signature, node: &Type) -> bool {
    sig.params.iter().any(|p| p.ty == *node) || sig.returns == *node
}

pub fn wrap(source: &str, sig: &Signature) -> String {
    let mut out = String::from(PRELUDE);
    for (node, definition) in [(Type::ListNode, LIST_NODE), (Type::TreeNode, TREE_NODE)] {
        if uses(sig, &node) {
            out.push_str(definition);
        }
    }
    out.push('\n');
    out.push_str(source.trim_end());
    out.push_str("\n\nnamespace json {\n");
    out.push_str(&format!("const int harness_exit = {HARNESS_EXIT};\n"));
    out.push_str(JSON);
    for (node, code) in [(Type::ListNode, LIST_CODE), (Type::TreeNode, TREE_CODE)] {
        if uses(sig, &node) {
            out.push_str(code);
        }
    }
    out.push_str("}  // namespace json\n\n");
    out.push_str(&format!("// {sig}: one JSON value per line, in this order.\nint main() {{\n    json::Reader in(stdin);\n"));
    for p in &sig.params {
        out.push_str(&format!(
            "    {} {};\n    json::read(in, {});\n",
            type_name(&p.ty),
            p.name,
            p.name
        ));
    }
    let names: Vec<&str> = sig.params.iter().map(|p| p.name.as_str()).collect();
    out.push_str(&format!(
        "    string out;\n    json::write(out, Solution().{}({}));\n    out += '\\n';\n    fwrite(out.data(), 1, out.size(), stdout);\n}}\n",
        sig.name,
        names.join(", ")
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
            "vector<int> twoSum(vector<int>& nums, int target)"
        );
        let t = sig("f", &["grid: char[][]", "s: string", "k: long"], "TreeNode");
        assert_eq!(
            signature_line(&t),
            "TreeNode* f(vector<vector<char>>& grid, string s, long long k)"
        );
        assert!(declaration(&s).starts_with("class Solution {\npublic:\n    vector<int> twoSum("));
    }

    #[test]
    fn function_form_and_definition_are_read_from_the_source() {
        let s = sig("totalNQueens", &["n: int"], "int");
        let function = "class Solution {\npublic:\n    int totalNQueens(int n) { return 1; }\n};\n";
        assert!(is_function_form(function));
        assert!(defines(function, &s));
        assert!(!defines(
            "class Solution {\npublic:\n    int totalNQueens() { return 1; }\n};\n",
            &s
        ));
        assert!(!is_function_form(
            "class Solution {};\nint main() { return 0; }\n"
        ));
        assert!(!is_function_form("int main() { return 0; }\n"));
        assert!(missing(&s).contains("int totalNQueens(int n)"));
    }
}
