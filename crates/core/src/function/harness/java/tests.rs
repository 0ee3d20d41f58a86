//! The Java harness built by javac and run by java on JSON inputs: every type read and written,
//! a wrong solution told apart, and the form recognised.

use super::*;
use crate::function::harness::testing::{self, sig, EVERY_PARAM, EVERY_PARAM_CASES};
use std::process::Command;

/// The solution wrapped, built as the judge builds it (`Main.java`), and run on each case.
fn judged(source: &str, signature: &Signature, cases: &[(&str, &str)]) {
    if !testing::have("javac") || !testing::have("java") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Main.java"), wrap(source, signature)).unwrap();
    testing::build(
        Command::new("javac")
            .args(["-encoding", "UTF-8", "-d", "."])
            .arg("Main.java")
            .current_dir(dir.path()),
    );
    testing::expect(
        dir.path(),
        &[
            "java",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            ".",
            "Main",
        ],
        cases,
    );
}

const DESCRIBE: &str = r##"import java.util.stream.*;

public class Solution {
    public String describe(int i, long l, double d, boolean b, char c, String s, int[] a, int[][] m, char[][] g, String[] wordList, ListNode head, TreeNode root) {
        List<String> list = new ArrayList<>();
        for (ListNode n = head; n != null; n = n.next) list.add(String.valueOf(n.val));
        String grid = Arrays.stream(g).map(String::new).collect(Collectors.joining("/"));
        int total = Arrays.stream(m).flatMapToInt(Arrays::stream).sum();
        return i + "|" + l + "|" + (long) (d * 2) + "|" + b + "|" + c + "|" + s + "|" + Arrays.stream(a).sum() + "|"
            + m.length + "x" + total + "|" + grid + "|" + String.join(",", wordList) + "|" + String.join(">", list) + "|" + tree(root);
    }

    private String tree(TreeNode t) {
        return t == null ? "#" : t.val + "(" + tree(t.left) + "," + tree(t.right) + ")";
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

const REVERSE: &str = "class Solution {
    public ListNode reverseList(ListNode head) {
        ListNode done = null;
        while (head != null) {
            ListNode next = head.next;
            head.next = done;
            done = head;
            head = next;
        }
        return done;
    }
}
";

#[test]
fn lists_and_trees_come_back_as_leetcode_writes_them() {
    judged(
        REVERSE,
        &sig("reverseList", &["head: ListNode"], "ListNode"),
        &[("[1,2,3]\n", "[3,2,1]"), ("[]\n", "[]"), ("[7]", "[7]")],
    );
    judged(
        "class Solution {\n    public TreeNode invertTree(TreeNode root) {\n        if (root != null) {\n            TreeNode left = root.left;\n            root.left = invertTree(root.right);\n            root.right = invertTree(left);\n        }\n        return root;\n    }\n}\n",
        &sig("invertTree", &["root: TreeNode"], "TreeNode"),
        &[
            ("[4,2,7,1,3,6,9]\n", "[4,7,2,9,6,3,1]"),
            ("[1,null,2,3]\n", "[1,2,null,null,3]"),
            ("[]\n", "[]"),
        ],
    );
}

#[test]
fn a_wrong_solution_prints_another_answer() {
    judged(
        "class Solution {\n    public ListNode reverseList(ListNode head) {\n        return head;\n    }\n}\n",
        &sig("reverseList", &["head: ListNode"], "ListNode"),
        &[("[1,2,3]\n", "[1,2,3]")],
    );
}

#[test]
fn matrices_doubles_longs_and_strings_in_and_out() {
    judged(
        "class Solution {\n    public char[][] fill(int n, char c) {\n        char[][] g = new char[n][n];\n        for (char[] row : g) Arrays.fill(row, c);\n        return g;\n    }\n}\n",
        &sig("fill", &["n: int", "c: char"], "char[][]"),
        &[("2\n\"x\"\n", r#"[["x","x"],["x","x"]]"#), ("0\n\"x\"\n", "[]")],
    );
    judged(
        "class Solution {\n    public double total(double[] xs, long k, boolean[] flags) {\n        double s = 0;\n        for (double x : xs) s += x;\n        for (boolean f : flags) if (f) s += 1.0 / k;\n        return s * k;\n    }\n}\n",
        &sig("total", &["xs: double[]", "k: long", "flags: bool[]"], "double"),
        &[("[0.1,0.2]\n1\n[]\n", "0.30000000000000004"), ("[1.5e3]\n2\n[true,false,true]\n", "3002.0")],
    );
    judged(
        "class Solution {\n    public long[] rowSums(int[][] m, String[] words) {\n        long[] s = new long[m.length];\n        for (int i = 0; i < m.length; i++) { s[i] = words.length; for (int x : m[i]) s[i] += x; }\n        return s;\n    }\n}\n",
        &sig("rowSums", &["m: int[][]", "words: string[]"], "long[]"),
        &[("[[2147483647,1],[ -3 ]]\n[\"a\"]\n", "[2147483649,-2]"), ("[]\n[]\n", "[]")],
    );
    judged(
        "class Solution {\n    public String[] firstAndRest(String s, boolean even) {\n        return new String[] {s.substring(0, 1), s.substring(1), String.valueOf(even)};\n    }\n}\n",
        &sig("firstAndRest", &["s: string", "even: bool"], "string[]"),
        &[("\"a\\tb\\n\"\nfalse\n", r#"["a","\tb\n","false"]"#)],
    );
}

const NQUEENS: &str = "class Solution {
    public int totalNQueens(int n) {
        return place((1 << n) - 1, 0, 0, 0);
    }

    private int place(int full, int cols, int d1, int d2) {
        if (cols == full) return 1;
        int count = 0;
        for (int free = full & ~(cols | d1 | d2); free != 0; free &= free - 1) {
            int bit = free & -free;
            count += place(full, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
        }
        return count;
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
    assert!(is_function_form(DESCRIBE));
    let program = "import java.util.*;\npublic class Main {\n    public static void main(String[] args) {\n        new Scanner(System.in).nextInt();\n    }\n}\nclass Solution {}\n";
    assert!(!is_function_form(program));
    assert!(is_function_form(
        "class Solution {\n    // static void main is not here\n    String s = \"void main\";\n}\n"
    ));
}

#[test]
fn a_source_without_the_method_is_told_what_was_expected() {
    let queens = sig("totalNQueens", &["n: int"], "int");
    assert!(defines(NQUEENS, &queens));
    assert!(!defines(REVERSE, &queens));
    assert!(!defines(
        "class Solution {\n    public int totalNQueens(int n, int m) { return 0; }\n}\n",
        &queens
    ));
    assert!(!defines("class Solution {\n    // public int totalNQueens(int n)\n    int f() { return totalNQueens(3); }\n}\n", &queens));
    let message = missing(&queens);
    assert!(
        message.contains("public int totalNQueens(int n)"),
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
            "ok: bool",
        ],
        "long[]",
    );
    assert_eq!(
        signature_line(&s),
        "public long[] addTwoNumbers(ListNode l1, TreeNode root, char[][] grid, boolean ok)"
    );
    assert_eq!(
        declaration(&sig("totalNQueens", &["n: int"], "int")),
        "class Solution {\n    public int totalNQueens(int n) {\n        \n    }\n}\n"
    );
}
