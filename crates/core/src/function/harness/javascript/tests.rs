//! The JavaScript harness run by node on JSON inputs: every type read and written, the three
//! ways to define the function, a wrong solution told apart, and the form recognised.

use super::*;
use crate::function::harness::testing::{self, sig, EVERY_PARAM, EVERY_PARAM_CASES};

/// The solution wrapped and run by node on each case.
fn judged(source: &str, signature: &Signature, cases: &[(&str, &str)]) {
    if !testing::have("node") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.js"), wrap(source, signature)).unwrap();
    testing::expect(dir.path(), &["node", "main.js"], cases);
}

const DESCRIBE: &str = r##"/**
 * @return {string}
 */
var describe = function(i, l, d, b, c, s, a, m, g, wordList, head, root) {
    const list = [];
    for (let node = head; node !== null; node = node.next) list.push(node.val);
    const tree = (t) => (t === null ? '#' : `${t.val}(${tree(t.left)},${tree(t.right)})`);
    const sum = (xs) => xs.reduce((x, y) => x + y, 0);
    return [i, l, Math.trunc(d * 2), b, c, s, sum(a), `${m.length}x${sum(m.map(sum))}`,
        g.map((row) => row.join('')).join('/'), wordList.join(','), list.join('>'), tree(root)].join('|');
};
"##;

#[test]
fn every_parameter_type_reads_as_leetcode_writes_it() {
    judged(
        DESCRIBE,
        &sig("describe", &EVERY_PARAM, "string"),
        &EVERY_PARAM_CASES,
    );
}

const REVERSE: &str = "function reverseList(head) {
    let done = null;
    while (head) [head.next, done, head] = [done, head, head.next];
    return done;
}
";

#[test]
fn a_list_comes_back_reversed_and_an_empty_one_as_brackets() {
    judged(
        REVERSE,
        &sig("reverseList", &["head: ListNode"], "ListNode"),
        &[("[1,2,3]\n", "[3,2,1]"), ("[]\n", "[]"), ("[7]", "[7]")],
    );
}

#[test]
fn a_wrong_solution_prints_another_answer() {
    judged(
        "const reverseList = (head) => head\n",
        &sig("reverseList", &["head: ListNode"], "ListNode"),
        &[("[1,2,3]\n", "[1,2,3]")],
    );
}

const INVERT: &str = "const invertTree = root => {
    if (root) [root.left, root.right] = [invertTree(root.right), invertTree(root.left)];
    return root;
}
";

#[test]
fn a_tree_comes_back_level_by_level_with_nulls() {
    judged(
        INVERT,
        &sig("invertTree", &["root: TreeNode"], "TreeNode"),
        &[
            ("[4,2,7,1,3,6,9]\n", "[4,7,2,9,6,3,1]"),
            ("[1,null,2,3]\n", "[1,2,null,null,3]"),
            ("[]\n", "[]"),
        ],
    );
}

/// No semicolon after the function: the harness's block still starts a statement.
const FILL: &str = "class TreeNode {}\nvar fill = function(n, c) {\n    return Array.from({ length: n }, () => Array(n).fill(c))\n}";

#[test]
fn a_char_matrix_comes_back_as_strings() {
    judged(
        FILL,
        &sig("fill", &["n: int", "c: char"], "char[][]"),
        &[
            ("2\n\"x\"\n", r#"[["x","x"],["x","x"]]"#),
            ("0\n\"x\"\n", "[]"),
        ],
    );
}

#[test]
fn doubles_longs_and_matrices_in_and_out() {
    judged(
        "var total = function(xs, k, flags) {\n    return xs.reduce((a, b) => a + b, 0) * k + flags.filter((f) => f).length;\n};\n",
        &sig("total", &["xs: double[]", "k: long", "flags: bool[]"], "double"),
        &[
            ("[0.1,0.2]\n1\n[]\n", "0.30000000000000004"),
            ("[1.5e3]\n2\n[true,false,true]\n", "3002"),
        ],
    );
    judged(
        "var rowSums = function(m, words) {\n    return m.map((r) => r.reduce((a, b) => a + b, words.length));\n};\n",
        &sig("rowSums", &["m: int[][]", "words: string[]"], "long[]"),
        &[
            ("[[2147483647,1],[ -3 ]]\n[\"a\"]\n", "[2147483649,-2]"),
            ("[]\n[]\n", "[]"),
        ],
    );
    judged(
        "var firstAndRest = function(s, even) {\n    return [s[0], s.slice(1), String(even)];\n};\n",
        &sig("firstAndRest", &["s: string", "even: bool"], "string[]"),
        &[("\"a\\tb\\n\"\nfalse\n", r#"["a","\tb\n","false"]"#)],
    );
}

const NQUEENS: &str = "/**
 * @param {number} n
 * @return {number}
 */
var totalNQueens = function(n) {
    const full = (1 << n) - 1;
    const place = (cols, d1, d2) => {
        if (cols === full) return 1;
        let count = 0;
        for (let free = full & ~(cols | d1 | d2); free !== 0; free &= free - 1) {
            const bit = free & -free;
            count += place(cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1);
        }
        return count;
    };
    return place(0, 0, 0);
};
";

#[test]
fn scalars_in_and_out() {
    judged(
        NQUEENS,
        &sig("totalNQueens", &["n: int"], "int"),
        &[("1\n", "1"), ("8\n", "92")],
    );
}

#[test]
fn the_form_is_told_from_a_whole_program() {
    assert!(is_function_form(NQUEENS));
    assert!(is_function_form(INVERT));
    for program in [
        "const rl = require('readline').createInterface({ input: process.stdin });\nrl.on('line', (l) => console.log(l));\n",
        "const data = require(\"fs\").readFileSync(0, \"utf8\");\nfunction main() {}\n",
        "process.stdin.on('data', function (d) { console.log(String(d)); });\n",
    ] {
        assert!(!is_function_form(program), "{program}");
    }
}

#[test]
fn a_source_without_the_function_is_told_what_was_expected() {
    let queens = sig("totalNQueens", &["n: int"], "int");
    assert!(defines(NQUEENS, &queens));
    assert!(defines("function totalNQueens(n) { return 0; }", &queens));
    assert!(defines("let totalNQueens = async n => 0;", &queens));
    assert!(defines(
        "const totalNQueens = function queens(n) {};",
        &queens
    ));
    assert!(!defines(REVERSE, &queens));
    assert!(!defines("var totalNQueens = function(n, m) {};", &queens));
    assert!(!defines("// var totalNQueens = function(n) {};", &queens));
    assert!(!defines("if (totalNQueens == 1) {}", &queens));
    let message = missing(&queens);
    assert!(
        message.contains("var totalNQueens = function(n) {"),
        "{message}"
    );
    assert!(message.contains("totalNQueens(n: int) -> int"), "{message}");
}

#[test]
fn the_template_and_the_line_are_leetcodes() {
    let s = sig(
        "addTwoNumbers",
        &["l1: ListNode", "root: TreeNode", "grid: char[][]"],
        "long[]",
    );
    assert_eq!(
        signature_line(&s),
        "/** @param {ListNode} l1 @param {TreeNode} root @param {character[][]} grid @return {number[]} */ var addTwoNumbers = function(l1, root, grid)"
    );
    assert_eq!(
        declaration(&sig("totalNQueens", &["n: int"], "int")),
        "/**\n * @param {number} n\n * @return {number}\n */\nvar totalNQueens = function(n) {\n    \n};\n"
    );
}
