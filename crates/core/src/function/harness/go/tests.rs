//! The Go harness built by `go build` and run on JSON inputs: every type read and written, the
//! standard library used without imports, a wrong solution told apart, and the form recognised.

use super::*;
use crate::function::harness::testing::{self, sig, EVERY_PARAM, EVERY_PARAM_CASES};
use std::path::PathBuf;
use std::process::Command;

/// The solution wrapped and built; `None` (said) when go is missing outside CI.
fn built(source: &str, signature: &Signature) -> Option<(tempfile::TempDir, PathBuf)> {
    if !testing::have("go") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("main.go");
    std::fs::write(&file, wrap(source, signature)).unwrap();
    let binary = dir.path().join("solution");
    testing::build(
        Command::new("go")
            .args(["build", "-o"])
            .arg(&binary)
            .arg(&file)
            .current_dir(dir.path())
            .env("GO111MODULE", "off"),
    );
    Some((dir, binary))
}

fn judged(source: &str, signature: &Signature, cases: &[(&str, &str)]) {
    if let Some((dir, binary)) = built(source, signature) {
        testing::expect(dir.path(), &[binary.to_str().unwrap()], cases);
    }
}

const DESCRIBE: &str = r##"func describe(i int, l int64, d float64, b bool, c byte, s string, a []int, m [][]int, g [][]byte, wordList []string, head *ListNode, root *TreeNode) string {
	sum, total := 0, 0
	for _, x := range a {
		sum += x
	}
	for _, row := range m {
		for _, x := range row {
			total += x
		}
	}
	rows := []string{}
	for _, row := range g {
		rows = append(rows, string(row))
	}
	list := []string{}
	for ; head != nil; head = head.Next {
		list = append(list, strconv.Itoa(head.Val))
	}
	return fmt.Sprintf("%d|%d|%d|%t|%c|%s|%d|%dx%d|%s|%s|%s|%s", i, l, int64(d*2), b, c, s, sum, len(m), total,
		strings.Join(rows, "/"), strings.Join(wordList, ","), strings.Join(list, ">"), tree(root))
}

func tree(t *TreeNode) string {
	if t == nil {
		return "#"
	}
	return fmt.Sprintf("%d(%s,%s)", t.Val, tree(t.Left), tree(t.Right))
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

const REVERSE: &str = "/**
 * Definition for singly-linked list.
 * type ListNode struct {
 *     Val int
 *     Next *ListNode
 * }
 */
func reverseList(head *ListNode) *ListNode {
	var done *ListNode
	for head != nil {
		head, head.Next, done = head.Next, done, head
	}
	return done
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
        "func reverseList(head *ListNode) *ListNode {\n\treturn head\n}\n",
        &sig("reverseList", &["head: ListNode"], "ListNode"),
        &[("[1,2,3]\n", "[1,2,3]")],
    );
}

const INVERT: &str = "func invertTree(root *TreeNode) *TreeNode {
	if root != nil {
		root.Left, root.Right = invertTree(root.Right), invertTree(root.Left)
	}
	return root
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

/// Its own import block, one package used without import, and a variable named like another.
const FILL: &str = "package main

import (
	\"sort\" // sorted, for nothing
)

func fill(n int, c byte) [][]byte {
	grid := [][]byte{}
	list := []int{3, 1, 2}
	sort.Ints(list)
	for i := 0; i < n; i++ {
		grid = append(grid, []byte(strings.Repeat(string(c), n)))
	}
	return grid
}
";

#[test]
fn a_char_matrix_comes_back_as_strings_and_imports_are_found() {
    judged(
        FILL,
        &sig("fill", &["n: int", "c: char"], "char[][]"),
        &[
            ("2\n\"x\"\n", r#"[["x","x"],["x","x"]]"#),
            ("0\n\"x\"\n", "[]"),
        ],
    );
}

const SCALARS: &str = "import \"math\"

func total(xs []float64, k int64, flags []bool) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	for _, f := range flags {
		if f {
			sum += 1 / float64(k)
		}
	}
	return math.Abs(sum * float64(k))
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
            ("[1.5e3]\n2\n[true,false,true]\n", "3002"),
        ],
    );
}

const MATRIX: &str = "func rowSums(m [][]int, words []string) []int64 {
	sums := []int64{}
	for _, row := range m {
		s := int64(len(words))
		for _, x := range row {
			s += int64(x)
		}
		sums = append(sums, s)
	}
	return sums
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

const SPLIT: &str = "func firstAndRest(s string, even bool) []string {
	return []string{s[:1], s[1:], strconv.FormatBool(even)}
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

const NQUEENS: &str = "func totalNQueens(n int) int {
	full := 1<<n - 1
	var place func(cols, d1, d2 int) int
	place = func(cols, d1, d2 int) int {
		if cols == full {
			return 1
		}
		count := 0
		for free := full &^ (cols | d1 | d2); free != 0; free &= free - 1 {
			bit := free & -free
			count += place(cols|bit, (d1|bit)<<1, (d2|bit)>>1)
		}
		return count
	}
	return place(0, 0, 0)
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
fn the_imports_are_the_harness_s_the_solution_s_and_those_it_names() {
    let program = wrap(FILL, &sig("fill", &["n: int", "c: char"], "char[][]"));
    assert!(program.starts_with("package main\n\nimport (\n\t\"bufio\"\n\t\"io\"\n\t\"os\"\n\t\"strconv\"\n\t\"sort\"\n\t\"strings\"\n)\n\nvar _ = strings.Split\n"), "{program}");
    assert!(
        program.contains(
            "// package main\n\n// import (\n// \t\"sort\" // sorted, for nothing\n// )\n"
        ),
        "{program}"
    );
    assert!(!program.contains("container/list"), "{program}");
    let own = "func list() int { return len(strings.Fields(\"a b\")) }\n";
    assert!(!wrap(own, &sig("list", &[], "int")).contains("container/list"));
}

#[test]
fn the_form_is_told_from_a_whole_program() {
    assert!(is_function_form(NQUEENS));
    assert!(is_function_form(FILL));
    let program =
        "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar n int\n\tfmt.Scan(&n)\n}\n";
    assert!(!is_function_form(program));
    assert!(is_function_form(
        "// func main() is not here\nfunc f() string { return \"func main() {}\" }\n"
    ));
}

#[test]
fn a_source_without_the_function_is_told_what_was_expected() {
    let queens = sig("totalNQueens", &["n: int"], "int");
    assert!(defines(NQUEENS, &queens));
    assert!(!defines(REVERSE, &queens));
    assert!(!defines(
        "func totalNQueens(n, m int) int { return 0 }\n",
        &queens
    ));
    assert!(!defines("// func totalNQueens(n int) int\n", &queens));
    assert!(!defines(
        "type S struct{}\nfunc (s S) totalNQueens(n int) int { return 0 }\n",
        &queens
    ));
    let message = missing(&queens);
    assert!(
        message.contains("func totalNQueens(n int) int"),
        "{message}"
    );
    assert!(message.contains("totalNQueens(n: int) -> int"), "{message}");
}

#[test]
fn the_template_and_the_line_are_leetcodes() {
    let s = sig(
        "addTwoNumbers",
        &[
            "l1: ListNode",
            "root: TreeNode",
            "grid: char[][]",
            "x: double",
        ],
        "long[]",
    );
    assert_eq!(
        signature_line(&s),
        "func addTwoNumbers(l1 *ListNode, root *TreeNode, grid [][]byte, x float64) []int64"
    );
    assert_eq!(
        declaration(&sig("totalNQueens", &["n: int"], "int")),
        "func totalNQueens(n int) int {\n\t\n}\n"
    );
}
