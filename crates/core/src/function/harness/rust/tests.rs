//! The Rust harness built by rustc and run on JSON inputs: every type read and written, a wrong
//! solution told apart, and the form recognised.

use super::*;
use crate::function::harness::testing::{self, sig, EVERY_PARAM, EVERY_PARAM_CASES};
use std::path::PathBuf;
use std::process::Command;

/// The solution wrapped and built; `None` (said) when rustc is missing outside CI.
fn built(source: &str, signature: &Signature) -> Option<(tempfile::TempDir, PathBuf)> {
    if !testing::have("rustc") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("main.rs");
    std::fs::write(&file, wrap(source, signature)).unwrap();
    let binary = dir.path().join("solution");
    testing::build(
        Command::new("rustc")
            .args(["--edition", "2021", "--crate-type", "bin", "-o"])
            .arg(&binary)
            .arg(&file),
    );
    Some((dir, binary))
}

fn judged(source: &str, signature: &Signature, cases: &[(&str, &str)]) {
    if let Some((dir, binary)) = built(source, signature) {
        testing::expect(dir.path(), &[binary.to_str().unwrap()], cases);
    }
}

const DESCRIBE: &str = r##"use std::cell::RefCell;
use std::rc::Rc;

impl Solution {
    pub fn describe(i: i32, l: i64, d: f64, b: bool, c: char, s: String, a: Vec<i32>, m: Vec<Vec<i32>>, g: Vec<Vec<char>>, word_list: Vec<String>, head: Option<Box<ListNode>>, root: Option<Rc<RefCell<TreeNode>>>) -> String {
        let mut list = Vec::new();
        let mut node = &head;
        while let Some(n) = node {
            list.push(n.val.to_string());
            node = &n.next;
        }
        let grid: Vec<String> = g.iter().map(|row| row.iter().collect()).collect();
        let total: i32 = m.iter().flatten().sum();
        format!("{}|{}|{}|{}|{}|{}|{}|{}x{}|{}|{}|{}|{}", i, l, (d * 2.0) as i64, b, c, s, a.iter().sum::<i32>(), m.len(), total, grid.join("/"), word_list.join(","), list.join(">"), tree(&root))
    }
}

fn tree(t: &Option<Rc<RefCell<TreeNode>>>) -> String {
    match t {
        None => "#".into(),
        Some(n) => {
            let n = n.borrow();
            format!("{}({},{})", n.val, tree(&n.left), tree(&n.right))
        }
    }
}
"##;

#[test]
fn every_parameter_type_reads_as_leetcode_writes_it() {
    judged(
        DESCRIBE,
        &sig("describe", &EVERY_PARAM, "string"),
        &EVERY_PARAM_CASES,
    );
}

const REVERSE: &str = "impl Solution {
    pub fn reverse_list(head: Option<Box<ListNode>>) -> Option<Box<ListNode>> {
        let (mut done, mut rest) = (None, head);
        while let Some(mut node) = rest {
            rest = node.next.take();
            node.next = done;
            done = Some(node);
        }
        done
    }
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
    let wrong = "impl Solution {\n    pub fn reverse_list(head: Option<Box<ListNode>>) -> Option<Box<ListNode>> {\n        head\n    }\n}\n";
    judged(
        wrong,
        &sig("reverseList", &["head: ListNode"], "ListNode"),
        &[("[1,2,3]\n", "[1,2,3]")],
    );
}

const INVERT: &str = "impl Solution {
    pub fn invert_tree(root: Option<Rc<RefCell<TreeNode>>>) -> Option<Rc<RefCell<TreeNode>>> {
        if let Some(node) = &root {
            let mut node = node.borrow_mut();
            let (left, right) = (node.left.take(), node.right.take());
            node.left = Self::invert_tree(right);
            node.right = Self::invert_tree(left);
        }
        root
    }
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

const FILL: &str = "impl Solution {
    pub fn fill(n: i32, c: char) -> Vec<Vec<char>> {
        vec![vec![c; n as usize]; n as usize]
    }
}
";

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

const SCALARS: &str = "impl Solution {
    pub fn total(xs: Vec<f64>, k: i64, flags: Vec<bool>) -> f64 {
        xs.iter().sum::<f64>() * k as f64 + flags.iter().filter(|&&f| f).count() as f64
    }
}
";

#[test]
fn a_double_comes_back_with_the_digits_that_read_it_back() {
    judged(
        SCALARS,
        &sig(
            "total",
            &["xs: double[]", "k: long", "flags: bool[]"],
            "double",
        ),
        &[
            ("[0.1,0.2]\n1\n[]\n", "0.30000000000000004"),
            ("[1.5e3]\n2\n[true,false,true]\n", "3002.0"),
        ],
    );
}

const MATRIX: &str = "impl Solution {
    pub fn row_sums(m: Vec<Vec<i32>>, words: Vec<String>) -> Vec<i64> {
        m.iter().map(|r| r.iter().map(|&x| x as i64).sum::<i64>() + words.len() as i64).collect()
    }
}
";

#[test]
fn a_matrix_in_and_an_array_of_longs_out() {
    judged(
        MATRIX,
        &sig("rowSums", &["m: int[][]", "words: string[]"], "long[]"),
        &[
            ("[[2147483647,1],[ -3 ]]\n[\"a\"]\n", "[2147483649,-2]"),
            ("[]\n[]\n", "[]"),
        ],
    );
}

const SPLIT: &str = "impl Solution {
    pub fn first_and_rest(s: String, even: bool) -> Vec<String> {
        let first: String = s.chars().take(1).collect();
        vec![first, s.chars().skip(1).collect(), even.to_string()]
    }
}
";

#[test]
fn strings_come_back_escaped() {
    judged(
        SPLIT,
        &sig("firstAndRest", &["s: string", "even: bool"], "string[]"),
        &[("\"a\\tb\\n\"\nfalse\n", r#"["a","\tb\n","false"]"#)],
    );
}

const NQUEENS: &str = "impl Solution {
    pub fn total_n_queens(n: i32) -> i32 {
        fn place(full: u32, cols: u32, d1: u32, d2: u32) -> i32 {
            if cols == full {
                return 1;
            }
            let mut free = full & !(cols | d1 | d2);
            let mut count = 0;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                count += place(full, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
            }
            count
        }
        place((1u32 << n) - 1, 0, 0, 0)
    }
}
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
    let program = "use std::io::*;\nstruct Solution;\nimpl Solution { fn f() {} }\nfn main() {\n    let mut s = String::new();\n    stdin().read_line(&mut s).unwrap();\n}\n";
    assert!(!is_function_form(program));
    assert!(!is_function_form("// impl Solution\nfn main() {}\n"));
    assert!(is_function_form(
        "impl Solution {\n    // fn main() is not here\n    pub fn f<'a>(s: &'a str) -> i32 { let q = \"fn main\"; 0 }\n}\n"
    ));
}

#[test]
fn a_source_without_the_function_is_told_what_was_expected() {
    let queens = sig("totalNQueens", &["n: int"], "int");
    assert!(defines(NQUEENS, &queens));
    assert!(!defines(REVERSE, &queens));
    assert!(!defines(
        "impl Solution {\n    pub fn total_n_queens(n: i32, m: i32) -> i32 { 0 }\n}\n",
        &queens
    ));
    assert!(!defines(
        "impl Solution {\n    // pub fn total_n_queens(n: i32) -> i32\n}\n",
        &queens
    ));
    assert!(defines(
        &DESCRIBE.replace("Self", "Solution"),
        &sig("describe", &EVERY_PARAM, "string")
    ));
    let message = missing(&queens);
    assert!(
        message.contains("pub fn total_n_queens(n: i32) -> i32"),
        "{message}"
    );
    assert!(message.contains("totalNQueens(n: int) -> int"), "{message}");
}

#[test]
fn the_template_and_the_line_are_leetcodes() {
    let s = sig(
        "addTwoNumbers",
        &["l1: ListNode", "rootNode: TreeNode", "grid: char[][]"],
        "long[]",
    );
    assert_eq!(
        signature_line(&s),
        "pub fn add_two_numbers(l1: Option<Box<ListNode>>, root_node: Option<Rc<RefCell<TreeNode>>>, grid: Vec<Vec<char>>) -> Vec<i64>"
    );
    assert_eq!(
        declaration(&sig("totalNQueens", &["n: int"], "int")),
        "impl Solution {\n    pub fn total_n_queens(n: i32) -> i32 {\n        \n    }\n}\n"
    );
}
