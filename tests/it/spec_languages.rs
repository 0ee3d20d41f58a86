//! The package format's languages beyond the judge's first ones, as CI installs them from
//! Debian: Go, Haskell, C# (Mono), Ruby and Kotlin each get AC, WA, RE, TLE and CE through
//! `judge run`; `judge list --languages` names the installed toolchains with their versions.

use crate::common::Test;
use crate::languages::{judge_all_verdicts, Fixtures};

#[test]
#[cfg_attr(
    not(judge_has_go),
    ignore = "needs go (Debian: apt-get install golang-go)"
)]
fn go_programs_get_every_verdict() {
    judge_all_verdicts(
        "go",
        &Fixtures {
            ext: "go",
            ac: "package main\nimport \"fmt\"\nfunc main() { var n int64; fmt.Scan(&n); fmt.Println(2 * n) }\n",
            wa: "package main\nimport \"fmt\"\nfunc main() { var n int64; fmt.Scan(&n); fmt.Println(2*n + 1) }\n",
            re: "package main\nfunc main() { var a []int; i := 3; println(a[i]) }\n",
            tle: "package main\nvar x uint64 = 1\nfunc main() { for { x = x*3 + 1 } }\n",
            ce: "package main\nfunc main() { undeclared() }\n",
            ce_says: "undefined: undeclared",
        },
    );
}

#[test]
#[cfg_attr(not(judge_has_ghc), ignore = "needs ghc (Debian: apt-get install ghc)")]
fn haskell_programs_get_every_verdict() {
    judge_all_verdicts(
        "haskell",
        &Fixtures {
            ext: "hs",
            ac: "main :: IO ()\nmain = do\n  n <- readLn :: IO Integer\n  print (2 * n)\n",
            wa: "main :: IO ()\nmain = do\n  n <- readLn :: IO Integer\n  print (2 * n + 1)\n",
            re: "main :: IO ()\nmain = do\n  n <- readLn :: IO Integer\n  print (n `div` 0)\n",
            tle: "spin :: Int -> Int\nspin x = spin ((x * 3 + 1) `mod` 1000003)\n\nmain :: IO ()\nmain = print (spin 1)\n",
            ce: "main :: IO ()\nmain = print (undeclared 1)\n",
            ce_says: "undeclared",
        },
    );
}

#[test]
#[cfg_attr(
    not(judge_has_mono),
    ignore = "needs mcs and mono (Debian: apt-get install mono-mcs mono-runtime)"
)]
fn csharp_programs_get_every_verdict() {
    judge_all_verdicts(
        "csharp",
        &Fixtures {
            ext: "cs",
            // Any class name: Mono runs the one Main.
            ac: "using System;\nclass Doubling { static void Main() { long n = long.Parse(Console.ReadLine().Trim()); Console.WriteLine(2 * n); } }\n",
            wa: "using System;\nclass Doubling { static void Main() { long n = long.Parse(Console.ReadLine().Trim()); Console.WriteLine(2 * n + 1); } }\n",
            re: "using System;\nclass Doubling { static void Main() { int[] a = new int[1]; int i = 3; Console.WriteLine(a[i]); } }\n",
            tle: "class Doubling { static void Main() { ulong x = 1; while (true) { x = x * 3 + 1; } } }\n",
            ce: "class Doubling { static void Main() { Undeclared(); } }\n",
            ce_says: "Undeclared",
        },
    );
}

#[test]
#[cfg_attr(
    not(judge_has_ruby),
    ignore = "needs ruby (Debian: apt-get install ruby)"
)]
fn ruby_programs_get_every_verdict() {
    judge_all_verdicts(
        "ruby",
        &Fixtures {
            ext: "rb",
            ac: "n = gets.to_i\nputs 2 * n\n",
            wa: "n = gets.to_i\nputs 2 * n + 1\n",
            re: "raise ArgumentError, 'no'\n",
            tle: "x = 1\nloop { x = (x * 3 + 1) % 1000003 }\n",
            // `ruby -c` is its syntax check: CE with Ruby's own message.
            ce: "def f(\n",
            ce_says: "syntax error",
        },
    );
}

#[test]
#[cfg_attr(
    not(judge_has_kotlin),
    ignore = "needs kotlinc and java (Debian: apt-get install kotlin)"
)]
fn kotlin_programs_get_every_verdict() {
    judge_all_verdicts(
        "kotlin",
        &Fixtures {
            ext: "kt",
            ac: "fun main() { val n = readLine()!!.trim().toLong(); println(2 * n) }\n",
            wa: "fun main() { val n = readLine()!!.trim().toLong(); println(2 * n + 1) }\n",
            re: "fun main() { val a = IntArray(1); val i = 3; println(a[i]) }\n",
            tle: "fun main() { var x = 1L; while (true) { x = (x * 3 + 1) % 1000003 } }\n",
            ce: "fun main() { undeclared() }\n",
            ce_says: "undeclared",
        },
    );
}

#[test]
#[cfg_attr(
    not(all(
        judge_has_go,
        judge_has_ghc,
        judge_has_mono,
        judge_has_ruby,
        judge_has_kotlin,
        judge_has_pypy3
    )),
    ignore = "needs go, ghc, mcs and mono, ruby, kotlinc and pypy3 (Debian: apt-get install golang-go ghc mono-mcs mono-runtime ruby kotlin pypy3)"
)]
fn list_languages_names_the_installed_toolchains_with_their_versions() {
    let dir = tempfile::tempdir().unwrap();
    // Outside any workspace: the languages are the machine's.
    let doc = Test::outside(dir.path())
        .args(["list", "--languages", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let of = |id: &str| {
        doc.as_array()
            .unwrap()
            .iter()
            .find(|l| l["id"] == id)
            .unwrap_or_else(|| panic!("no {id}: {doc:#}"))
            .clone()
    };
    for (id, says) in [
        ("go", "go version go"),
        ("haskell", "Glasgow Haskell"),
        ("csharp", "Mono C# compiler"),
        ("ruby", "ruby "),
        ("kotlin", "kotlinc-jvm"),
        ("pypy", "PyPy"),
    ] {
        let l = of(id);
        assert_eq!(l["installed"], true, "{l:#}");
        let version = l["version"].as_str().unwrap();
        assert!(version.contains(says), "{id}: {version}");
    }
    assert_eq!(of("kotlin")["extensions"][0], "kt");
    assert_eq!(of("csharp")["code"], "csharp");

    // In a workspace, judge.toml's languages too; one whose program is missing says what it
    // needs and how to install it.
    let ws = crate::languages::doubling();
    ws.write(
        "judge.toml",
        "[language.ghost]\nextensions = [\"gh\"]\nrun = \"ghost-lang-that-is-not-installed {source}\"\n\
         install = \"the ghost project\"\n",
    );
    let text = ws
        .judge()
        .args(["list", "--languages"])
        .expect_exit(0)
        .run()
        .stdout;
    let line = |id: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("  {id} ")))
            .unwrap_or_else(|| panic!("no line for {id}: {text}"))
            .to_string()
    };
    assert!(line("go").contains(".go") && line("go").contains("go version go"));
    assert!(
        line("ghost").contains("needs `ghost-lang-that-is-not-installed` (the ghost project)"),
        "{text}"
    );
    let installed = text.find("\ninstalled\n").map_or(0, |i| i + 1);
    let missing = text.find("\nnot installed\n").unwrap();
    assert!(text.starts_with("installed\n") || installed > 0, "{text}");
    assert!(text.find(&line("ruby")).unwrap() < missing, "{text}");
    assert!(text.find(&line("ghost")).unwrap() > missing, "{text}");
    assert!(
        regex::Regex::new(r"\n\d+ of \d+ languages installed\n$")
            .unwrap()
            .is_match(&text),
        "{text}"
    );
}
