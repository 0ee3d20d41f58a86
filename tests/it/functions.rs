//! Function problems (`[function]`, LeetCode's form): solutions in Python, C++, Java, Rust,
//! JavaScript and Go written as LeetCode's editor takes them, judged through the judge's
//! harness, right and wrong; `judge new --from` making them whole programs, AC on their own, and
//! `judge new --function`; whole programs beside them; the compile error of a missing function;
//! and each bad declaration or test named with its file, its line and the fix.

use crate::common::{Test, Workspace};

const HEAD: &str = "title = \"F\"\ntime_limit = \"5s\"\nmemory_limit = \"256MiB\"\n";

/// A workspace with problem `id` declaring `function` (the lines of `[function]`).
fn function_problem(id: &str, function: &str, cases: &[(&str, &str, &str)]) -> Workspace {
    let ws = Workspace::new();
    ws.problem(id, &format!("{HEAD}\n[function]\n{function}"), cases);
    ws
}

/// `judge run FILE --problem ID --json`, with `source` in FILE.
fn run(ws: &Workspace, id: &str, file: &str, source: &str) -> Test {
    let path = ws.write(file, source);
    ws.judge()
        .args(["run", path.to_str().unwrap(), "--problem", id, "--json"])
}

fn verdict(ws: &Workspace, id: &str, file: &str, source: &str, code: i32) -> String {
    let doc = run(ws, id, file, source).expect_exit(code).run().json();
    doc["verdict"].as_str().unwrap().to_string()
}

const TWO_SUM: &str =
    "name = \"twoSum\"\nparams = [\"nums: int[]\", \"target: int\"]\nreturns = \"int[]\"\n";

fn two_sum() -> Workspace {
    function_problem(
        "two-sum",
        TWO_SUM,
        &[
            ("1", "[2,7,11,15]\n9\n", "[0,1]\n"),
            ("2", "[3,2,4]\n6\n", "[1, 2]\n"),
            ("3", "[-1000000000,5,1000000000]\n0\n", "[0,2]\n"),
        ],
    )
}

const TWO_SUM_PY: &str = "class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n        seen = {}\n        for i, x in enumerate(nums):\n            if target - x in seen:\n                return [seen[target - x], i]\n            seen[x] = i\n        return []\n";

const TWO_SUM_CPP: &str = "class Solution {\npublic:\n    vector<int> twoSum(vector<int>& nums, int target) {\n        unordered_map<int, int> seen;\n        for (int i = 0; i < (int)nums.size(); i++) {\n            auto it = seen.find(target - nums[i]);\n            if (it != seen.end()) return {it->second, i};\n            seen[nums[i]] = i;\n        }\n        return {};\n    }\n};\n";

#[test]
fn python_and_cpp_in_leetcodes_form_are_judged_right_and_wrong() {
    let ws = two_sum();
    assert_eq!(verdict(&ws, "two-sum", "a.py", TWO_SUM_PY, 0), "AC");
    assert_eq!(verdict(&ws, "two-sum", "a.cpp", TWO_SUM_CPP, 0), "AC");
    let reversed = TWO_SUM_PY.replace("[seen[target - x], i]", "[i, seen[target - x]]");
    let doc = run(&ws, "two-sum", "b.py", &reversed)
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    let detail = doc["cases"][0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("at [0]: expected 0, received 1"),
        "{detail}"
    );
    let wrong = TWO_SUM_CPP.replace("i < (int)nums.size()", "i < 2");
    assert_eq!(verdict(&ws, "two-sum", "b.cpp", &wrong, 1), "WA");
}

#[test]
fn a_whole_program_is_still_accepted_and_a_missing_function_is_a_compile_error() {
    let ws = two_sum();
    let program = "import json, sys\nnums, target = [json.loads(l) for l in sys.stdin.read().split('\\n') if l.strip()]\nfor i in range(len(nums)):\n    for j in range(i + 1, len(nums)):\n        if nums[i] + nums[j] == target:\n            print(f\"[{i}, {j}]\")\n";
    assert_eq!(verdict(&ws, "two-sum", "whole.py", program, 0), "AC");

    let misnamed = TWO_SUM_PY.replace("def twoSum", "def two_sum");
    let doc = run(&ws, "two-sum", "misnamed.py", &misnamed)
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "CE", "{doc:#}");
    let said = doc["compile"]["diagnostics"].as_str().unwrap();
    assert!(
        said.contains("no method `twoSum` taking 2 arguments"),
        "{said}"
    );
    assert!(
        said.contains("def twoSum(self, nums: List[int], target: int) -> List[int]"),
        "{said}"
    );

    let one_param = TWO_SUM_CPP.replace("vector<int>& nums, int target", "vector<int>& nums");
    let doc = run(&ws, "two-sum", "one.cpp", &one_param)
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "CE", "{doc:#}");
    let said = doc["compile"]["diagnostics"].as_str().unwrap();
    assert!(
        said.contains("vector<int> twoSum(vector<int>& nums, int target)"),
        "{said}"
    );
}

#[test]
fn matrices_strings_chars_bools_longs_and_doubles_reach_the_function() {
    let ws = function_problem(
        "mix",
        "name = \"mix\"\nparams = [\"grid: int[][]\", \"s: string\", \"c: char\", \"flag: bool\", \"big: long\", \"x: double\"]\nreturns = \"double[]\"\n",
        &[
            ("1", "[[1,2],[3,4]]\n\"a \\\"b\\\" a\"\n\"a\"\ntrue\n9000000000\n1.0\n", "[10, 2, 1, 9000000001, 0.333333333]\n"),
            ("2", "[]\n\"\"\n\"z\"\nfalse\n-1\n2\n", "[0, 0, 0, 0, 0.666666667]\n"),
        ],
    );
    let py = "class Solution:\n    def mix(self, grid: List[List[int]], s: str, c: str, flag: bool, big: int, x: float) -> List[float]:\n        return [sum(map(sum, grid)), s.count(c), int(flag), big + 1, x / 3]\n";
    assert_eq!(verdict(&ws, "mix", "mix.py", py, 0), "AC");
    let cpp = "class Solution {\npublic:\n    vector<double> mix(vector<vector<int>>& grid, string s, char c, bool flag, long long big, double x) {\n        long long total = 0;\n        for (auto& row : grid) for (int v : row) total += v;\n        return {double(total), double(count(s.begin(), s.end(), c)), double(flag), double(big + 1), x / 3};\n    }\n};\n";
    assert_eq!(verdict(&ws, "mix", "mix.cpp", cpp, 0), "AC");
    let off = py.replace("x / 3", "x / 3 + 1e-3");
    assert_eq!(verdict(&ws, "mix", "off.py", &off, 1), "WA");
}

#[test]
fn lists_and_trees_are_read_and_written_as_leetcode_writes_them() {
    let ws = function_problem(
        "nodes",
        "name = \"mirror\"\nparams = [\"root: TreeNode\", \"head: ListNode\"]\nreturns = \"TreeNode\"\n",
        &[
            ("1", "[4,2,7,1,3,6,9]\n[1,2,3]\n", "[4,7,2,9,6,3,1,null,null,null,null,null,null,6]\n"),
            ("2", "[1,null,2]\n[]\n", "[1,2]\n"),
            ("3", "[]\n[5]\n", "[]\n"),
        ],
    );
    // The tree mirrored, with the list's sum added as the last node's left child.
    let py = "class Solution:\n    def mirror(self, root: Optional[TreeNode], head: Optional[ListNode]) -> Optional[TreeNode]:\n        def flip(n):\n            if n:\n                n.left, n.right = flip(n.right), flip(n.left)\n            return n\n        root = flip(root)\n        total = 0\n        while head:\n            total += head.val\n            head = head.next\n        node = root\n        while node and (node.left or node.right):\n            node = node.right or node.left\n        if node and total:\n            node.left = TreeNode(total)\n        return root\n";
    assert_eq!(verdict(&ws, "nodes", "nodes.py", py, 0), "AC");
    let cpp = "class Solution {\n    TreeNode* flip(TreeNode* n) {\n        if (n) { TreeNode* l = n->left; n->left = flip(n->right); n->right = flip(l); }\n        return n;\n    }\npublic:\n    TreeNode* mirror(TreeNode* root, ListNode* head) {\n        root = flip(root);\n        int total = 0;\n        for (; head; head = head->next) total += head->val;\n        TreeNode* node = root;\n        while (node && (node->left || node->right)) node = node->right ? node->right : node->left;\n        if (node && total) node->left = new TreeNode(total);\n        return root;\n    }\n};\n";
    assert_eq!(verdict(&ws, "nodes", "nodes.cpp", cpp, 0), "AC");
}

#[test]
fn order_any_takes_the_returned_array_as_a_multiset() {
    let subsets = "name = \"subsets\"\nparams = [\"nums: int[]\"]\nreturns = \"int[][]\"\n";
    let cases = [("1", "[1,2]\n", "[[],[1],[2],[1,2]]\n")];
    let py = "class Solution:\n    def subsets(self, nums: List[int]) -> List[List[int]]:\n        out = [[]]\n        for x in nums:\n            out += [s + [x] for s in out]\n        return out[::-1]\n";
    let any = function_problem("subsets", &format!("{subsets}order = \"any\"\n"), &cases);
    assert_eq!(verdict(&any, "subsets", "s.py", py, 0), "AC");
    let given = function_problem("subsets", subsets, &cases);
    assert_eq!(verdict(&given, "subsets", "s.py", py, 1), "WA");
}

/// The judge's answer to `judge run` on a problem whose files are wrong: exit 2, and stderr.
fn refused(ws: &Workspace, id: &str) -> String {
    run(ws, id, "a.py", TWO_SUM_PY).expect_exit(2).run().stderr
}

#[test]
fn a_bad_declaration_names_problem_toml_its_line_and_the_fix() {
    for (function, said, fix) in [
        (
            "name = \"f\"\nparams = [\"n: integer\"]\nreturns = \"int\"\n",
            "[function] params: unknown type `integer`",
            "write a type such as",
        ),
        (
            "name = \"f\"\nparams = [\"n int\"]\nreturns = \"int\"\n",
            "[function] params: parameter `n int` does not read",
            "write each parameter as \"name: type\"",
        ),
        (
            "name = \"f\"\nparams = []\nreturns = \"int[][][]\"\n",
            "[function] returns: `int[][][]` has more than two `[]`",
            "write a type such as",
        ),
        (
            "params = []\nreturns = \"int\"\n",
            "missing field `name`",
            "add a line `name = \"twoSum\"` under [function]",
        ),
    ] {
        let ws = function_problem("p", function, &[("1", "1\n", "1\n")]);
        let stderr = refused(&ws, "p");
        assert!(stderr.contains("problems/p/problem.toml:"), "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
        assert!(stderr.contains(fix), "{stderr}");
    }
}

#[test]
fn a_test_that_does_not_fit_the_signature_is_the_problems_error() {
    for (input, answer, file, said) in [
        (
            "[1,2]\n",
            "[0,1]\n",
            "1.in",
            "2: 1 line where twoSum declares 2 parameters (nums: int[], target: int)",
        ),
        (
            "[1,2\n3\n",
            "[0,1]\n",
            "1.in",
            "1: expected a JSON value of type int[] for parameter `nums`, found `[1,2`",
        ),
        (
            "[1,2]\n\"3\"\n",
            "[0,1]\n",
            "1.in",
            "2: expected a JSON value of type int for parameter `target`, found `\"3\"`",
        ),
        (
            "[1,2]\n3\n",
            "0 1\n",
            "1.out",
            "1: expected a JSON value of type int[] (what twoSum returns), found `0 1`",
        ),
    ] {
        let ws = function_problem("p", TWO_SUM, &[("1", input, answer)]);
        let stderr = refused(&ws, "p");
        assert!(
            stderr.contains(&format!("testcases/p/{file}:{said}")),
            "{stderr}"
        );
        assert!(stderr.contains("fix: write "), "{stderr}");
    }
}

#[test]
fn stress_and_compare_judge_function_solutions() {
    let ws = two_sum();
    // Sums of two distinct powers of two are unique: every input has one answer.
    ws.write("problems/two-sum/gen.py", "import random, sys\nr = random.Random(int(sys.argv[1]))\nn = r.randint(2, 6)\nnums = r.sample([1 << k for k in range(20)], n)\ni, j = sorted(r.sample(range(n), 2))\nprint(nums)\nprint(nums[i] + nums[j])\n");
    let toml = format!("{HEAD}generator = \"gen.py\"\n\n[expected]\nreference = \"AC\"\nfunction = \"AC\"\n\n[function]\n{TWO_SUM}");
    ws.write("problems/two-sum/problem.toml", toml);
    ws.write("solutions/two-sum/function.py", TWO_SUM_PY);
    let brute = "class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n        for i in range(len(nums)):\n            for j in range(i + 1, len(nums)):\n                if nums[i] + nums[j] == target:\n                    return [i, j]\n";
    ws.write("solutions/two-sum/reference.py", brute);
    ws.judge()
        .args([
            "stress",
            "function",
            "--against",
            "reference",
            "--count",
            "20",
        ])
        .expect_exit(0)
        .run();
    let off = brute.replace(
        "return [i, j]",
        "return [i, j] if len(nums) < 5 else [j, i]",
    );
    ws.write("solutions/two-sum/off.py", off);
    let text = ws
        .judge()
        .args(["stress", "off", "--against", "reference", "--count", "20"])
        .expect_exit(1)
        .run()
        .stdout;
    assert!(text.contains("seed"), "{text}");
    std::fs::remove_file(ws.path().join("solutions/two-sum/off.py")).unwrap();
    let text = ws
        .judge()
        .args(["compare", "two-sum"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        text.contains("function") && text.contains("reference"),
        "{text}"
    );
}

/// A function over a list, a tree, a matrix and a string, in each language's form: the list's
/// sum, the tree's, the matrix's (past 32 bits) and the string's length.
const SUMMARY: &str = "name = \"summary\"\nparams = [\"head: ListNode\", \"root: TreeNode\", \"grid: int[][]\", \"word: string\"]\nreturns = \"long[]\"\n";

fn summary() -> Workspace {
    function_problem(
        "mix",
        SUMMARY,
        &[
            (
                "1",
                "[1,2,3]\n[1,null,2,3]\n[[1,2],[3,4]]\n\"abc\"\n",
                "[6,6,10,3]\n",
            ),
            ("2", "[]\n[]\n[[5]]\n\"\"\n", "[0,0,5,0]\n"),
            (
                "3",
                "[-5]\n[10,-1,null,2]\n[[1000000000,1000000000]]\n\"a\\\"b\"\n",
                "[-5,11,2000000000,3]\n",
            ),
        ],
    )
}

const SUMMARY_JAVA: &str = "class Solution {
    public long[] summary(ListNode head, TreeNode root, int[][] grid, String word) {
        long a = 0;
        for (ListNode p = head; p != null; p = p.next) a += p.val;
        long g = 0;
        for (int[] row : grid) for (int x : row) g += x;
        return new long[]{a, tree(root), g, word.length()};
    }

    private long tree(TreeNode t) {
        return t == null ? 0 : t.val + tree(t.left) + tree(t.right);
    }
}
";

const SUMMARY_RUST: &str = "impl Solution {
    pub fn summary(head: Option<Box<ListNode>>, root: Option<Rc<RefCell<TreeNode>>>, grid: Vec<Vec<i32>>, word: String) -> Vec<i64> {
        let mut a = 0i64;
        let mut p = &head;
        while let Some(n) = p {
            a += n.val as i64;
            p = &n.next;
        }
        fn tree(t: &Option<Rc<RefCell<TreeNode>>>) -> i64 {
            match t {
                None => 0,
                Some(n) => {
                    let n = n.borrow();
                    n.val as i64 + tree(&n.left) + tree(&n.right)
                }
            }
        }
        let g: i64 = grid.iter().flatten().map(|&x| x as i64).sum();
        vec![a, tree(&root), g, word.len() as i64]
    }
}
";

const SUMMARY_JS: &str = "var summary = function(head, root, grid, word) {
    let a = 0;
    for (let p = head; p; p = p.next) a += p.val;
    const tree = (t) => t ? t.val + tree(t.left) + tree(t.right) : 0;
    let g = 0;
    for (const row of grid) for (const x of row) g += x;
    return [a, tree(root), g, word.length];
};
";

const SUMMARY_GO: &str =
    "func summary(head *ListNode, root *TreeNode, grid [][]int, word string) []int64 {
	var a int64
	for p := head; p != nil; p = p.Next {
		a += int64(p.Val)
	}
	var tree func(t *TreeNode) int64
	tree = func(t *TreeNode) int64 {
		if t == nil {
			return 0
		}
		return int64(t.Val) + tree(t.Left) + tree(t.Right)
	}
	var g int64
	for _, row := range grid {
		for _, x := range row {
			g += int64(x)
		}
	}
	return []int64{a, tree(root), g, int64(len(word))}
}
";

/// In the language with extension `ext`: the right solution AC, one that miscounts the string
/// WA; `judge new --from` makes it a whole program, AC on its own; `judge new --function`
/// starts from the declaration.
fn judged_in(ext: &str, right: &str, miscount: (&str, &str)) {
    let ws = summary();
    assert_eq!(verdict(&ws, "mix", &format!("a.{ext}"), right, 0), "AC");
    let wrong = right.replace(miscount.0, miscount.1);
    assert_ne!(wrong, right);
    assert_eq!(verdict(&ws, "mix", &format!("b.{ext}"), &wrong, 1), "WA");

    ws.write(&format!("solutions/mix/mine.{ext}"), right);
    ws.judge()
        .args(["new", "contest", "--from", "mine"])
        .expect_exit(0)
        .run();
    let program =
        std::fs::read_to_string(ws.path().join(format!("solutions/mix/contest.{ext}"))).unwrap();
    assert!(program.len() > right.len() && program.contains(right.trim()));
    let doc = ws
        .judge()
        .args(["run", "contest", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["verdict"], "AC", "{doc:#}");

    ws.judge()
        .args([
            "new",
            "fresh",
            "--problem",
            "mix",
            "--function",
            "--lang",
            ext,
        ])
        .expect_exit(0)
        .run();
    let template =
        std::fs::read_to_string(ws.path().join(format!("solutions/mix/fresh.{ext}"))).unwrap();
    assert!(template.contains("summary"), "{template}");
}

#[test]
#[cfg_attr(not(judge_has_java), ignore = "needs javac and java")]
fn java_in_leetcodes_form_with_lists_trees_and_matrices() {
    judged_in("java", SUMMARY_JAVA, ("word.length()", "word.length() + 1"));
}

#[test]
fn rust_in_leetcodes_form_with_lists_trees_and_matrices() {
    judged_in(
        "rs",
        SUMMARY_RUST,
        ("word.len() as i64", "word.len() as i64 + 1"),
    );
}

#[test]
#[cfg_attr(not(judge_has_node), ignore = "needs node")]
fn javascript_in_leetcodes_form_with_lists_trees_and_matrices() {
    judged_in("js", SUMMARY_JS, ("word.length]", "word.length + 1]"));
}

#[test]
#[cfg_attr(not(judge_has_go), ignore = "needs go")]
fn go_in_leetcodes_form_with_lists_trees_and_matrices() {
    judged_in(
        "go",
        SUMMARY_GO,
        ("int64(len(word))", "int64(len(word)) + 1"),
    );
}

const SUMMARY_PY: &str = "class Solution:
    def summary(self, head: Optional[ListNode], root: Optional[TreeNode], grid: List[List[int]], word: str) -> List[int]:
        a = 0
        while head:
            a += head.val
            head = head.next

        def tree(t):
            return t.val + tree(t.left) + tree(t.right) if t else 0

        return [a, tree(root), sum(map(sum, grid)), len(word)]
";

const SUMMARY_CPP: &str = "class Solution {
public:
    vector<long long> summary(ListNode* head, TreeNode* root, vector<vector<int>>& grid, string word) {
        long long a = 0;
        for (ListNode* p = head; p; p = p->next) a += p->val;
        long long g = 0;
        for (auto& row : grid) for (int x : row) g += x;
        return {a, tree(root), g, (long long)word.size()};
    }

    long long tree(TreeNode* t) { return t ? t->val + tree(t->left) + tree(t->right) : 0; }
};
";

#[test]
fn python_in_leetcodes_form_with_lists_trees_and_matrices() {
    judged_in("py", SUMMARY_PY, ("len(word)]", "len(word) + 1]"));
}

#[test]
fn cpp_in_leetcodes_form_with_lists_trees_and_matrices() {
    judged_in(
        "cpp",
        SUMMARY_CPP,
        ("(long long)word.size()", "(long long)word.size() + 1"),
    );
}

/// A problem whose function returns `returns`, its one case's answer `answer`.
fn returning(returns: &str, answer: &str) -> Workspace {
    function_problem(
        "r",
        &format!("name = \"f\"\nparams = [\"n: int\"]\nreturns = \"{returns}\"\n"),
        &[("1", "1\n", answer)],
    )
}

/// The run's one case: its verdict and its detail.
fn judged_case(ws: &Workspace, file: &str, source: &str, code: i32) -> (String, String) {
    let doc = run(ws, "r", file, source).expect_exit(code).run().json();
    let case = &doc["cases"][0];
    (
        case["verdict"].as_str().unwrap().to_string(),
        case["detail"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn a_python_function_returning_another_type_than_declared_is_a_wrong_answer_that_says_so() {
    let ws = returning("int", "1\n");
    for (returned, said) in [
        ("str(n)", "`f` returned a str where int was declared"),
        ("n / 1", "`f` returned a float where int was declared"),
        ("None", "`f` returned None where int was declared"),
        ("True", "`f` returned a bool where int was declared"),
        (
            "1 << 40",
            "`f` returned the integer 1099511627776, out of int's range, where int was declared",
        ),
    ] {
        let py = format!(
            "class Solution:\n    def f(self, n: int) -> int:\n        return {returned}\n"
        );
        let (verdict, detail) = judged_case(&ws, "a.py", &py, 1);
        assert_eq!((verdict.as_str(), detail.as_str()), ("WA", said));
    }
    let ws = returning("int[][]", "[[1]]\n");
    let py = "class Solution:\n    def f(self, n: int) -> List[List[int]]:\n        return [[n], [n, {n}]]\n";
    let (verdict, detail) = judged_case(&ws, "a.py", py, 1);
    assert_eq!(verdict, "WA");
    assert_eq!(
        detail,
        "`f` returned a set at [1][1] where int[][] was declared"
    );
    // A tuple is written as the list it holds, as LeetCode takes it.
    let py =
        "class Solution:\n    def f(self, n: int) -> List[List[int]]:\n        return ((n,),)\n";
    assert_eq!(judged_case(&ws, "a.py", py, 0).0, "AC");
}

#[test]
fn a_double_that_json_cannot_write_is_the_judges_case_not_the_solutions() {
    let ws = returning("double", "1.5\n");
    let py = "class Solution:\n    def f(self, n: int) -> float:\n        return float('nan')\n";
    let (verdict, detail) = judged_case(&ws, "a.py", py, 2);
    assert_eq!(verdict, "IE");
    assert!(
        detail.starts_with("`f` returned NaN, which JSON cannot write"),
        "{detail}"
    );
    assert!(detail.contains("problem `r`"), "{detail}");
    assert!(detail.contains("fix: "), "{detail}");
    let cpp = "class Solution {\npublic:\n    double f(int n) { return -n / 0.0; }\n};\n";
    let (verdict, detail) = judged_case(&ws, "a.cpp", cpp, 2);
    assert_eq!(verdict, "IE");
    assert!(
        detail.starts_with("`f` returned -Infinity, which JSON cannot write"),
        "{detail}"
    );
    // In an array too, and the run's text says it is the judge's case.
    let ws = returning("double[]", "[1.5]\n");
    let cpp =
        "class Solution {\npublic:\n    vector<double> f(int n) { return {1.5, n / 0.0}; }\n};\n";
    let (verdict, detail) = judged_case(&ws, "a.cpp", cpp, 2);
    assert_eq!(verdict, "IE");
    assert!(detail.contains("returned Infinity"), "{detail}");
    let py = "class Solution:\n    def f(self, n: int) -> List[float]:\n        return [1.5, float('inf')]\n";
    let (verdict, detail) = judged_case(&ws, "a.py", py, 2);
    assert_eq!(verdict, "IE");
    assert!(detail.contains("returned Infinity (at [1])"), "{detail}");
    // A finite double is judged as ever; a C++ crash is still the solution's RE.
    let cpp = "class Solution {\npublic:\n    vector<double> f(int n) { return {1.5}; }\n};\n";
    assert_eq!(judged_case(&ws, "a.cpp", cpp, 0).0, "AC");
    let cpp = "class Solution {\npublic:\n    vector<double> f(int n) { exit(86); }\n};\n";
    let (verdict, detail) = judged_case(&ws, "b.cpp", cpp, 1);
    assert_eq!((verdict.as_str(), detail.as_str()), ("RE", "exit code 86"));
}

#[test]
#[cfg_attr(not(judge_has_node), ignore = "needs node")]
fn a_javascript_function_returning_another_type_is_a_wrong_answer_and_nan_the_judges_case() {
    let ws = returning("int", "1\n");
    let js = "var f = function(n) {\n    return String(n);\n};\n";
    let (verdict, detail) = judged_case(&ws, "a.js", js, 1);
    assert_eq!(
        (verdict.as_str(), detail.as_str()),
        ("WA", "`f` returned a string where int was declared")
    );
    let ws = returning("double", "1.5\n");
    let js = "var f = function(n) {\n    return 0 / 0;\n};\n";
    let (verdict, detail) = judged_case(&ws, "a.js", js, 2);
    assert_eq!(verdict, "IE");
    assert!(
        detail.starts_with("`f` returned NaN, which JSON"),
        "{detail}"
    );
}

#[test]
fn judge_list_shows_the_declared_function() {
    let ws = two_sum();
    let text = ws.judge().args(["list"]).expect_exit(0).run().stdout;
    assert!(
        text.contains(
            "  function twoSum(nums: int[], target: int) -> int[] · in LeetCode's form or as a whole program\n"
        ),
        "{text}"
    );
    let doc = ws
        .judge()
        .args(["list", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(
        doc[0]["function"],
        "twoSum(nums: int[], target: int) -> int[]"
    );
    let plain = Workspace::new();
    plain.problem("p", HEAD, &[("1", "1\n", "1\n")]);
    let text = plain.judge().args(["list"]).expect_exit(0).run().stdout;
    assert!(!text.contains("function"), "{text}");
    let doc = plain
        .judge()
        .args(["list", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert!(doc[0]["function"].is_null(), "{doc:#}");
}

#[test]
fn a_double_that_json_cannot_write_is_the_judges_case_in_rust_too() {
    let ws = returning("double[]", "[1.5]\n");
    let rust = "impl Solution {\n    pub fn f(n: i32) -> Vec<f64> {\n        vec![1.5, f64::NAN * n as f64]\n    }\n}\n";
    let (verdict, detail) = judged_case(&ws, "a.rs", rust, 2);
    assert_eq!(verdict, "IE");
    assert!(
        detail.starts_with("`f` returned NaN, which JSON"),
        "{detail}"
    );
}

#[test]
#[cfg_attr(not(judge_has_java), ignore = "needs javac and java")]
fn a_double_that_json_cannot_write_is_the_judges_case_in_java_too() {
    let ws = returning("double", "1.5\n");
    let java =
        "class Solution {\n    public double f(int n) {\n        return n / 0.0;\n    }\n}\n";
    let (verdict, detail) = judged_case(&ws, "a.java", java, 2);
    assert_eq!(verdict, "IE");
    assert!(
        detail.starts_with("`f` returned Infinity, which JSON"),
        "{detail}"
    );
}
