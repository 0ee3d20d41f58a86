//! Every language as a user meets it: AC, WA, RE, TLE and CE in C, C++, Python, Java and
//! JavaScript; judge.toml changing and adding languages; a missing compiler; --checks; more time
//! for a language; Rust against C++ against Python in one matrix; nothing left running.

use crate::common::{self, procs, Test, Workspace};

/// "Double it" with room for a JVM or node: input 21, answer 42; 256 MiB, 1 s.
pub(crate) fn doubling() -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n",
        &[("1", "21\n", "42\n"), ("2", "5\n", "10\n")],
    );
    ws
}

/// One program per verdict, in one language.
pub(crate) struct Fixtures {
    pub(crate) ext: &'static str,
    pub(crate) ac: &'static str,
    pub(crate) wa: &'static str,
    pub(crate) re: &'static str,
    pub(crate) tle: &'static str,
    pub(crate) ce: &'static str,
    /// A piece of the compiler's message on the CE fixture.
    pub(crate) ce_says: &'static str,
}

/// Judges each fixture through `judge run --json`, as a user would, and checks its verdict, the
/// language reported, and that nothing it started is left running.
pub(crate) fn judge_all_verdicts(language: &str, f: &Fixtures) {
    let ws = doubling();
    let cache = ws.path().join("cache");
    for (name, source, verdict) in [
        ("ac", f.ac, "AC"),
        ("wa", f.wa, "WA"),
        ("re", f.re, "RE"),
        ("tle", f.tle, "TLE"),
        ("ce", f.ce, "CE"),
    ] {
        let file = format!("solutions/double/{name}.{}", f.ext);
        ws.write(&file, source);
        let doc = ws
            .judge()
            .cache(&cache)
            .args(["run", &file, "--json", "--no-history"])
            .expect_exit(if verdict == "AC" { 0 } else { 1 })
            .run()
            .json();
        assert_eq!(doc["verdict"], verdict, "{language} {name}: {doc:#}");
        assert_eq!(doc["language"], language, "{doc:#}");
        match verdict {
            "CE" => {
                let d = doc["compile"]["diagnostics"].as_str().unwrap();
                assert!(d.contains(f.ce_says), "{language}: {d}");
                assert!(
                    !d.contains(&cache.display().to_string()),
                    "no build path: {d}"
                );
            }
            // On a loaded machine the wall-clock cap may come first, and says so.
            "TLE" => {
                let detail = doc["cases"][0]["detail"].as_str().unwrap_or_default();
                assert!(
                    detail == "CPU time over the limit"
                        || detail.contains("the machine was too busy to give it its CPU time"),
                    "{language}: {detail}"
                );
            }
            "RE" => assert!(
                doc["cases"][0]["detail"]
                    .as_str()
                    .unwrap()
                    .contains("exit code")
                    || doc["cases"][0]["detail"]
                        .as_str()
                        .unwrap()
                        .contains("killed by")
            ),
            _ => {}
        }
        assert!(
            doc["compile"]["compiler"]
                .as_str()
                .is_some_and(|c| !c.is_empty()),
            "{doc:#}"
        );
    }
    let left = procs::using(&cache);
    assert!(left.is_empty(), "{language}: still running: {left:?}");
}

#[test]
#[cfg_attr(not(judge_has_gcc), ignore = "needs gcc (Debian: apt-get install gcc)")]
fn c_programs_get_every_verdict() {
    judge_all_verdicts(
        "c",
        &Fixtures {
            ext: "c",
            ac: "#include <stdio.h>\nint main(void) { long n; scanf(\"%ld\", &n); printf(\"%ld\\n\", 2 * n); return 0; }\n",
            wa: "#include <stdio.h>\nint main(void) { long n; scanf(\"%ld\", &n); printf(\"%ld\\n\", 2 * n + 1); return 0; }\n",
            re: "#include <stdio.h>\nint main(void) { long n; scanf(\"%ld\", &n); return 3; }\n",
            tle: "int main(void) { volatile unsigned long x = 1; for (;;) x = x * 3 + 1; }\n",
            ce: "int main(void) { return 0 }\n",
            ce_says: "error",
        },
    );
}

#[test]
#[cfg_attr(not(judge_has_gxx), ignore = "needs g++ (Debian: apt-get install g++)")]
fn cpp_programs_get_every_verdict() {
    judge_all_verdicts(
        "cpp",
        &Fixtures {
            ext: "cpp",
            ac: "#include <iostream>\nint main() { long long n; std::cin >> n; std::cout << 2 * n << '\\n'; }\n",
            wa: "#include <iostream>\nint main() { long long n; std::cin >> n; std::cout << 2 * n - 1 << '\\n'; }\n",
            re: "#include <vector>\nint main() { std::vector<int> v; return v.at(3); }\n",
            tle: "int main() { volatile unsigned long long x = 1; for (;;) x = x * 3 + 1; }\n",
            ce: "int main() { undeclared(); }\n",
            ce_says: "undeclared",
        },
    );
}

#[test]
#[cfg_attr(
    not(judge_has_python3),
    ignore = "needs python3 (Debian: apt-get install python3)"
)]
fn python_programs_get_every_verdict() {
    judge_all_verdicts(
        "python",
        &Fixtures {
            ext: "py",
            ac: "import sys\nn = int(sys.stdin.buffer.read())\nprint(2 * n)\n",
            wa: "import sys\nn = int(sys.stdin.buffer.read())\nprint(2 * n + 1)\n",
            re: "raise ValueError('no')\n",
            tle: "x = 1\nwhile True:\n    x = x * 3 % 1000003\n",
            ce: "print(1\n",
            ce_says: "SyntaxError",
        },
    );
}

#[test]
#[cfg_attr(
    not(judge_has_java),
    ignore = "needs javac and java (Debian: apt-get install default-jdk-headless)"
)]
fn java_programs_get_every_verdict() {
    judge_all_verdicts(
        "java",
        &Fixtures {
            ext: "java",
            // Any class name: the judge reads it from the file.
            ac: "import java.util.*;\npublic class Doubler { public static void main(String[] a) { long n = new Scanner(System.in).nextLong(); System.out.println(2 * n); } }\n",
            wa: "import java.util.*;\nclass Main { public static void main(String[] a) { long n = new Scanner(System.in).nextLong(); System.out.println(2 * n + 1); } }\n",
            re: "public class Main { public static void main(String[] a) { throw new IllegalStateException(\"no\"); } }\n",
            tle: "public class Main { public static void main(String[] a) { long x = 1; while (true) x = x * 3 + 1; } }\n",
            ce: "public class Main { public static void main(String[] a) { int x = } }\n",
            ce_says: "error",
        },
    );
}

#[test]
#[cfg_attr(
    not(judge_has_node),
    ignore = "needs node (Debian: apt-get install nodejs)"
)]
fn javascript_programs_get_every_verdict() {
    judge_all_verdicts(
        "javascript",
        &Fixtures {
            ext: "js",
            ac: "const n = BigInt(require('fs').readFileSync(0, 'utf8').trim());\nconsole.log(String(2n * n));\n",
            wa: "const n = BigInt(require('fs').readFileSync(0, 'utf8').trim());\nconsole.log(String(2n * n + 1n));\n",
            re: "throw new Error('no');\n",
            tle: "let x = 1;\nwhile (true) { x = (x * 3 + 1) % 1000003; }\n",
            ce: "function (\n",
            ce_says: "SyntaxError",
        },
    );
}

#[test]
#[cfg_attr(
    not(judge_has_java),
    ignore = "needs javac and java (Debian: apt-get install default-jdk-headless)"
)]
fn a_jvm_footprint_counts_and_a_class_without_main_is_ce() {
    let ws = doubling();
    ws.write(
        "solutions/double/Threads.java",
        "public class Threads { public static void main(String[] a) throws Exception {\n\
         java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();\n\
         Thread[] t = new Thread[8];\n\
         for (int i = 0; i < 8; i++) { t[i] = new Thread(() -> { long x = 0; while (cpu.getCurrentThreadCpuTime() < 100_000_000L) x++; if (x == 7) System.out.print(\"\"); }); t[i].start(); }\n\
         for (Thread x : t) x.join();\n\
         long n = new java.util.Scanner(System.in).nextLong(); System.out.println(2 * n); } }\n",
    );
    // Each of 8 threads spins for 100 ms of its own CPU time: 800 ms in all, whatever the wall
    // clock (a busy machine stretches it) and however many cores share them.
    let doc = ws
        .judge()
        .args([
            "run",
            "Threads",
            "--no-history",
            "--json",
            "--time-limit",
            "5s",
        ])
        .expect_exit(0)
        .run()
        .json();
    let case = &doc["cases"][0];
    // The virtual machine's own memory is the program's, as on the online judges.
    assert!(case["memory_kb"].as_u64().unwrap() > 20 << 10, "{case}");
    // CPU time counts every thread, not only the main one (which spins not at all).
    assert!(case["time_ms"].as_u64().unwrap() >= 800, "{case}");
    ws.write(
        "solutions/double/Lib.java",
        "class Lib { int twice(int n) { return 2 * n; } }\n",
    );
    let doc = ws
        .judge()
        .args(["run", "Lib", "--no-history", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "CE");
    assert!(doc["compile"]["diagnostics"]
        .as_str()
        .unwrap()
        .contains("public static void main"));
}

#[test]
#[cfg_attr(
    not(judge_has_python3),
    ignore = "needs python3 (Debian: apt-get install python3)"
)]
fn a_function_that_prints_nothing_is_judged_with_a_hint() {
    let ws = doubling();
    ws.write(
        "solutions/double/leetcode.py",
        "class Solution:\n    def double(self, n: int) -> int:\n        return 2 * n\n",
    );
    let doc = ws
        .judge()
        .args(["run", "leetcode", "--no-history", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA");
    assert!(
        doc["cases"][0]["hint"]
            .as_str()
            .unwrap()
            .contains("printed nothing"),
        "{doc:#}"
    );
}

#[test]
fn judge_toml_adds_a_language_and_names_what_is_missing() {
    let ws = doubling();
    // A language of the workspace's own: a "compiler" that copies a shell script, run by bash.
    ws.write(
        "judge.toml",
        "[language.doubler]\nname = \"Doubler\"\nextensions = [\"dbl\"]\n\
         compile = [\"cp\", \"{source}\", \"{dir}/prog.sh\"]\nrun = \"bash {dir}/prog.sh\"\n\
         version = \"cp --version\"\n\n\
         [language.ghost]\nextensions = [\"gh\"]\nrun = \"ghost-lang-that-is-not-installed {source}\"\n\
         install = \"the ghost project\"\n",
    );
    ws.write("solutions/double/twice.dbl", "read n; echo $((2 * n))\n");
    let doc = ws
        .judge()
        .args(["run", "twice", "--no-history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["language"], "doubler");
    assert_eq!(doc["language_name"], "Doubler");
    // A missing interpreter is the machine's problem, never the solution's: exit 2, no CE.
    ws.write("solutions/double/boo.gh", "boo\n");
    ws.judge()
        .args(["run", "boo", "--no-history"])
        .expect_exit(2)
        .stderr_has("ghost needs `ghost-lang-that-is-not-installed`, which is not installed")
        .stderr_has("the ghost project")
        .run();
    // compare goes on without it, saying so.
    let doc = ws
        .judge()
        .args(["compare", "double", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["skipped"][0]["solution"], "boo");
    assert_eq!(doc["solutions"].as_array().unwrap().len(), 1);
    // An unknown placeholder is an error with the line and the fix.
    ws.write(
        "judge.toml",
        "[language.cpp]\n\ncompile = \"g++ -o {binary} {sourse}\"\n",
    );
    ws.judge()
        .arg("list")
        .expect_exit(2)
        .stderr_has("judge.toml:3: language.cpp.compile: unknown placeholder `{sourse}`")
        .stderr_has("fix:")
        .run();
}

#[test]
fn a_file_in_no_language_lists_the_languages() {
    let ws = doubling();
    ws.write("notes.txt", "42\n");
    ws.judge()
        .args(["run", "notes.txt", "--no-history"])
        .expect_exit(2)
        .stderr_has("no language claims `.txt`")
        .stderr_has("Python 3 (.py .py3)")
        .stderr_has("more (judge list --languages lists them)")
        .stderr_has("[language.NAME]")
        .run();
}

#[test]
fn a_changed_compiler_is_a_new_build() {
    let ws = doubling();
    let cache = ws.path().join("cache");
    let compiler = ws.write(
        "mycc",
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo mycc 1.0; exit 0; fi\ncp \"$1\" \"$2\"\n",
    );
    let mut perms = std::fs::metadata(&compiler).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&compiler, perms).unwrap();
    ws.write(
        "judge.toml",
        "[language.copied]\nextensions = [\"cp\"]\ncompile = \"./mycc {source} {dir}/prog.sh\"\nrun = \"bash {dir}/prog.sh\"\n",
    );
    ws.write("solutions/double/c.cp", "read n; echo $((2 * n))\n");
    let run = || {
        ws.judge()
            .cache(&cache)
            .args(["run", "c", "--json", "--no-history"])
            .expect_exit(0)
            .run()
            .json()
    };
    let first = run();
    assert_eq!(first["verdict"], "AC", "{first:#}");
    assert_eq!(first["compile"]["cached"], false);
    assert_eq!(first["compile"]["compiler"], "mycc 1.0");
    assert_eq!(run()["compile"]["cached"], true);
    // A new version of the compiler: its identity changed, so the build is not reused.
    std::fs::write(
        &compiler,
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo mycc 2.0; exit 0; fi\ncp \"$1\" \"$2\"\n",
    )
    .unwrap();
    let again = run();
    assert_eq!(again["compile"]["cached"], false, "{again:#}");
    assert_eq!(again["compile"]["compiler"], "mycc 2.0");
}

#[test]
fn checks_turn_a_silent_overflow_into_a_runtime_error_with_its_line() {
    let src = common::repo().join("tests/fixtures/queens-u8.rs");
    let src = src.to_str().unwrap();
    let args = [
        "run",
        src,
        "--problem",
        "nqueens-ii",
        "--case",
        "09",
        "--no-history",
    ];
    let doc = Test::at(common::shipped())
        .args(args)
        .arg("--json")
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(
        doc["verdict"], "WA",
        "without checks the shift wraps: {doc:#}"
    );
    let doc = Test::at(common::shipped())
        .args(args)
        .args(["--checks", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "RE", "{doc:#}");
    let hint = doc["cases"][0]["hint"].as_str().unwrap();
    assert!(
        hint.starts_with("panicked at queens-u8.rs:13:19: attempt to shift left with overflow"),
        "{hint}"
    );
    assert!(hint.contains("let bit = 1u8 << col;"), "{hint}");
    // The table shows it under the case.
    Test::at(common::shipped())
        .args(args)
        .arg("--checks")
        .expect_exit(1)
        .stdout_has("note: panicked at queens-u8.rs:13:19: attempt to shift left with overflow")
        .stdout_has("13 │ let bit = 1u8 << col;")
        .run();
}

#[test]
#[cfg_attr(not(judge_has_gxx), ignore = "needs g++ (Debian: apt-get install g++)")]
fn checks_catch_undefined_behaviour_in_cpp() {
    let ws = doubling();
    // Signed overflow: undefined; at -O2 the program goes on with some answer or other.
    ws.write(
        "solutions/double/ub.cpp",
        "#include <iostream>\n#include <climits>\nint main() { int n; std::cin >> n; int big = INT_MAX - 5; big += n; std::cout << (big < 0 ? 2 * n : 2 * n + 1) << '\\n'; }\n",
    );
    let doc = ws
        .judge()
        .args(["run", "ub", "--no-history", "--json"])
        // Undefined behaviour: either verdict is right, and its code with it.
        .any_exit()
        .run()
        .json();
    assert!(
        ["AC", "WA"].contains(&doc["verdict"].as_str().unwrap()),
        "{doc:#}"
    );
    let doc = ws
        .judge()
        .args(["run", "ub", "--checks", "--no-history", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "RE", "{doc:#}");
    assert!(doc["cases"][0]["stderr"]
        .as_str()
        .unwrap()
        .contains("signed integer overflow"));
}

#[test]
#[cfg_attr(
    not(judge_has_python3),
    ignore = "needs python3 (Debian: apt-get install python3)"
)]
fn a_problem_gives_a_language_more_time() {
    let ws = Workspace::new();
    let toml = "title = \"Slow\"\ntime_limit = \"300ms\"\nmemory_limit = \"256MiB\"\n";
    ws.problem("slow", toml, &[("1", "21\n", "42\n")]);
    // About 0.5 s of Python: over 300 ms, within 300 ms x 3 + 1 s.
    ws.write(
        "solutions/slow/busy.py",
        "import time\nn = int(input())\nend = time.process_time() + 0.5\nwhile time.process_time() < end:\n    pass\nprint(2 * n)\n",
    );
    let doc = ws
        .judge()
        .args(["run", "busy", "--no-history", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "TLE", "{doc:#}");
    ws.write(
        "problems/slow/problem.toml",
        format!("{toml}\n[language_time]\npython = \"3x + 1s\"\n"),
    );
    let doc = ws
        .judge()
        .args(["run", "busy", "--no-history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["verdict"], "AC", "{doc:#}");
    assert_eq!(doc["limits"]["time_ms"], 1900);
    assert_eq!(doc["time_rule"]["base_ms"], 300);
    assert_eq!(doc["time_rule"]["rule"], "x 3 + 1 s");
    ws.judge()
        .args(["run", "busy", "--no-history"])
        .stdout_has("limits: time 1.90 s = 300 ms x 3 + 1 s for Python 3")
        .expect_exit(0)
        .run();
}

#[test]
#[cfg_attr(
    not(all(judge_has_gxx, judge_has_python3)),
    ignore = "needs g++ and python3"
)]
fn rust_cpp_and_python_in_one_matrix() {
    let doc = Test::at(common::shipped())
        .args([
            "compare",
            "nqueens-ii",
            "bitmask",
            "cpp-bitmask",
            "py-mirror",
            "--json",
        ])
        .expect_exit(0)
        .run()
        .json();
    let languages: Vec<&str> = doc["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["language"].as_str().unwrap())
        .collect();
    assert_eq!(languages, ["rust", "cpp", "python"]);
    assert_eq!(doc["solutions"][0]["verdict"], "AC");
    assert_eq!(doc["solutions"][1]["verdict"], "AC");
    // The Python mirror search is expected AC or TLE: either is a match.
    assert_eq!(doc["solutions"][2]["matches_expected"], true, "{doc:#}");
}

#[test]
#[cfg_attr(
    not(judge_has_python3),
    ignore = "needs python3 (Debian: apt-get install python3)"
)]
fn a_python_brute_force_is_a_stress_reference() {
    let doc = Test::at(common::shipped())
        .args([
            "stress",
            "bitmask",
            "--against",
            "py-bitmask",
            "--count",
            "15",
            "--json",
        ])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["verdict"], "AC");
    assert_eq!(doc["seeds_tried"], 15);
}

#[test]
#[cfg_attr(
    not(judge_has_python3),
    ignore = "needs python3 (Debian: apt-get install python3)"
)]
fn new_starts_an_attempt_in_any_language() {
    let ws = doubling();
    ws.judge()
        .args(["new", "mine", "--lang", "py"])
        .expect_exit(0)
        .stdout_has("created solutions/double/mine.py")
        .run();
    ws.judge()
        .args(["new", "other.cpp"])
        .expect_exit(0)
        .stdout_has("created solutions/double/other.cpp")
        .run();
    // The templates compile and run as they are (they print n: wrong, not broken).
    let doc = ws
        .judge()
        .args(["run", "mine", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    assert_eq!(doc["language"], "python");
    ws.judge()
        .args(["new", "x", "--lang", "whitespace"])
        .expect_exit(2)
        .stderr_has("there is no language `whitespace`")
        .run();
    // The history says which language each submission was in.
    let history = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(history[0]["language"], "python");
}

#[test]
#[cfg_attr(not(judge_has_rustup), ignore = "needs rustup (https://rustup.rs)")]
fn a_pinned_rust_toolchain_that_is_not_installed_is_named() {
    let ws = doubling();
    ws.write("solutions/double/r.rs", "fn main() {}\n");
    ws.write("judge.toml", "[language.rust]\ntoolchain = \"0.1.0\"\n");
    ws.judge()
        .args(["run", "r", "--no-history"])
        .expect_exit(2)
        .stderr_has("the Rust toolchain `0.1.0` is not installed")
        .stderr_has("rustup toolchain install 0.1.0")
        .run();
    // A problem's own [rust] settings are read too.
    ws.write("judge.toml", "");
    ws.write(
        "problems/double/problem.toml",
        "title = \"Double\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n\n[rust]\ntoolchain = \"0.1.0\"\n",
    );
    ws.judge()
        .args(["run", "r", "--no-history"])
        .expect_exit(2)
        .stderr_has("`0.1.0` is not installed")
        .run();
}

#[test]
#[cfg_attr(
    not(judge_has_python3),
    ignore = "needs python3 (Debian: apt-get install python3)"
)]
fn generators_and_checkers_in_python() {
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n\
         generator = \"gen.py\"\nchecker = \"custom\"\nchecker_program = \"check.py\"\n",
        &[("1", "21\n", "42\n")],
    );
    ws.write(
        "problems/double/gen.py",
        "import sys\nprint(int(sys.argv[1]) * 7 % 1000)\n",
    );
    // A checker in Python, testlib's way: checker INPUT OUTPUT ANSWER, exit 0 AC, 1 WA.
    ws.write(
        "problems/double/check.py",
        "import sys\n_, inp, out, ans = sys.argv\ngot = open(out).read().split()\n\
         want = open(ans).read().split()\nif got != want:\n    print(f'expected {want}, got {got}', file=sys.stderr)\n    sys.exit(1)\n",
    );
    ws.write("solutions/double/ok.py", "print(2 * int(input()))\n");
    ws.write(
        "solutions/double/off.py",
        "n = int(input())\nprint(2 * n + (n == 7))\n",
    );
    ws.judge()
        .args(["run", "ok", "--no-history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let doc = ws
        .judge()
        .args(["stress", "off", "--against", "ok", "--count", "5", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["disagreement"]["seed"], 1);
    assert!(doc["disagreement"]["attempt"]["detail"]
        .as_str()
        .unwrap()
        .contains("expected ['14'], got ['15']"));
}
