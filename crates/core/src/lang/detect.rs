//! Which language a piece of pasted code is in, told from what only that language writes: a
//! shebang, `#include`, `fn main`, `def`/`import`, `public static void main`,
//! `console.log`/`require(`, and a function in LeetCode's form (`class Solution`, `impl
//! Solution`, `var f = function(`, a lone `func`). Code that shows the marks of none, or of several, is not told:
//! the caller then falls back on a default, never on a guess.

/// The key of the built-in language `code` is written in, when it tells (`rust`, `c`, `cpp`,
/// `python`, `java`, `javascript`, `bash`, and `go` in LeetCode's form); `None` when it does not, or is ambiguous.
pub fn detect(code: &str) -> Option<&'static str> {
    if let Some(language) = shebang(code) {
        return Some(language);
    }
    let lines: Vec<&str> = code.lines().map(str::trim).collect();
    let has = |needle: &str| code.contains(needle);
    let line_starts = |prefix: &str| lines.iter().any(|l| l.starts_with(prefix));
    let mut found = Vec::new();
    if has("fn main(") || has("println!(") || line_starts("use std::") {
        found.push("rust");
    }
    if line_starts("#include") {
        let cpp = [
            "iostream",
            "bits/stdc++",
            "using namespace",
            "std::",
            "<vector>",
            "<cstdio>",
            "<algorithm>",
        ];
        found.push(if cpp.iter().any(|m| has(m)) {
            "cpp"
        } else {
            "c"
        });
    }
    if has("public static void main") || line_starts("import java.") {
        found.push("java");
    }
    if has("console.log") || has("require(") || has("process.stdin") {
        found.push("javascript");
    }
    if lines.iter().any(|l| python_line(l)) {
        found.push("python");
    }
    found.extend(leetcode(&lines, &has));
    found.sort_unstable();
    found.dedup();
    match found.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// A function in LeetCode's form, as its editor gives it (no `#include`, no `main`): C++'s
/// `class Solution` with `public:`, Java's with `public` methods, Rust's `impl Solution`,
/// JavaScript's `var f = function(`, Go's top-level `func`.
fn leetcode(lines: &[&str], has: &dyn Fn(&str) -> bool) -> Option<&'static str> {
    let line_starts = |prefix: &str| lines.iter().any(|l| l.starts_with(prefix));
    let class = line_starts("class Solution {") || line_starts("public class Solution {");
    if class && line_starts("public:") {
        Some("cpp")
    } else if class && line_starts("public ") {
        Some("java")
    } else if line_starts("impl Solution") {
        Some("rust")
    } else if lines
        .iter()
        .any(|l| l.starts_with("var ") && l.contains(" = function("))
    {
        Some("javascript")
    } else if line_starts("func ") && !has(";") {
        Some("go")
    } else {
        None
    }
}

/// `#!/usr/bin/env python3`, `#!/bin/bash`, `#!/usr/bin/env node` on the first line.
fn shebang(code: &str) -> Option<&'static str> {
    let first = code.lines().next()?.strip_prefix("#!")?;
    let program = first
        .split_whitespace()
        .map(|w| w.rsplit('/').next().unwrap_or(w))
        .find(|w| *w != "env")?;
    match program {
        p if p.starts_with("python") => Some("python"),
        "node" | "nodejs" => Some("javascript"),
        "bash" | "sh" => Some("bash"),
        _ => None,
    }
}

/// A line only Python writes: `def f(...):`, `import sys` (no `;`, no quotes: not Java's or
/// JavaScript's), `from x import y`, `if __name__`, `for i in range(n):`, `print(...)` with no
/// `;`, `input()`.
fn python_line(line: &str) -> bool {
    let import = line.strip_prefix("import ").is_some_and(|rest| {
        rest.chars()
            .all(|c| c.is_alphanumeric() || " _.,".contains(c))
    });
    let from = line
        .strip_prefix("from ")
        .is_some_and(|rest| rest.contains(" import ") && !rest.contains(['\'', '"', ';']));
    let def = line.starts_with("def ") && line.ends_with(':');
    let for_in = line.starts_with("for ") && line.contains(" in ") && line.ends_with(':');
    let print = line.starts_with("print(") && !line.ends_with(';');
    import
        || from
        || def
        || for_in
        || print
        || line.contains("input()")
        || line.starts_with("if __name__")
}

#[cfg(test)]
mod tests {
    use super::detect;

    #[test]
    fn each_language_by_what_only_it_writes() {
        let told = [
            ("#!/usr/bin/env python3\nprint(2 * int(input()))\n", "python"),
            ("#!/bin/bash\nread n\necho $((n * 2))\n", "bash"),
            ("#!/usr/bin/env node\nlet x = 1\n", "javascript"),
            ("#include <bits/stdc++.h>\nusing namespace std;\nint main() { int n; cin >> n; cout << 2 * n; }\n", "cpp"),
            ("#include <stdio.h>\nint main(void) { int n; scanf(\"%d\", &n); printf(\"%d\\n\", 2 * n); }\n", "c"),
            ("use std::io::Read;\nfn main() {\n    println!(\"42\");\n}\n", "rust"),
            ("n = int(input())\nprint(n * 2)\ndef f(x):\n    return x\n", "python"),
            ("import sys\nprint(int(sys.stdin.readline()) * 2)\n", "python"),
            ("from math import gcd\nprint(gcd(4, 6))\n", "python"),
            // What a newcomer pastes: no import, no function.
            ("n = int(input())\nprint(n * 2)\n", "python"),
            ("import java.util.*;\npublic class Main {\n    public static void main(String[] args) {}\n}\n", "java"),
            ("const lines = require('fs').readFileSync(0, 'utf8');\nconsole.log(2 * Number(lines));\n", "javascript"),
            // LeetCode's form, as its editor gives it: no include, no main, no import.
            ("class Solution:\n    def totalNQueens(self, n: int) -> int:\n        return n\n", "python"),
            ("class Solution {\npublic:\n    int totalNQueens(int n) {\n        return n;\n    }\n};\n", "cpp"),
            ("class Solution {\n    public int totalNQueens(int n) {\n        return n;\n    }\n}\n", "java"),
            ("impl Solution {\n    pub fn total_n_queens(n: i32) -> i32 {\n        n\n    }\n}\n", "rust"),
            ("/**\n * @param {number} n\n */\nvar totalNQueens = function(n) {\n    return n;\n};\n", "javascript"),
            ("func totalNQueens(n int) int {\n\treturn n\n}\n", "go"),
        ];
        for (code, language) in told {
            assert_eq!(detect(code), Some(language), "{code}");
        }
    }

    #[test]
    fn code_that_does_not_tell_is_not_guessed() {
        for code in [
            "",
            "int main() { return 0; }\n",
            "x = 1\n",
            // Marks of two languages: ambiguous.
            "fn main() {}\nimport sys\n",
            // JavaScript's modules, not Python's imports.
            "import fs from 'fs';\n",
            "#!/usr/bin/env ruby\nputs 1\n",
        ] {
            assert_eq!(detect(code), None, "{code:?}");
        }
    }
}
