//! The languages the judge knows without configuration, with the flags the big judges use.
//!
//! Codeforces, AtCoder and Baekjoon compile C++ with `-O2` and a recent GNU standard, define
//! `ONLINE_JUDGE`, link C with `-lm`, and give Java a heap and a thread stack from the memory
//! limit. Python's "compilation" is a syntax check, so a syntax error is CE with Python's own
//! message, not a runtime error.

use super::{Command, Kind, Language};

/// The order languages are listed in.
pub const ORDER: &[&str] = &[
    "rust",
    "c",
    "cpp",
    "python",
    "pypy",
    "java",
    "javascript",
    "bash",
];

fn cmd(line: &str) -> Command {
    Command::parse_line(line).expect("built-in commands are valid")
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The built-in table.
pub fn languages() -> Vec<Language> {
    vec![
        Language {
            id: "rust".into(),
            name: "Rust".into(),
            extensions: words(&["rs"]),
            compile: Some(cmd(
                "rustc {toolchain} --edition {edition} -O {checks} --cfg online_judge --crate-type bin \
                 --crate-name solution -o {binary} --remap-path-prefix {dir}/= --color always {source}",
            )),
            run: cmd("{binary}"),
            version: Some(cmd("rustc {toolchain} -vV")),
            resolve: None,
            checks: words(&["-C", "overflow-checks=on", "-C", "debug-assertions=on"]),
            install: Some("rustup (https://rustup.rs)".into()),
            kind: Kind::Rust,
        },
        Language {
            id: "c".into(),
            name: "C".into(),
            extensions: words(&["c"]),
            compile: Some(cmd(
                "gcc -std=gnu11 -O2 -DONLINE_JUDGE {checks} -o {binary} {source} -lm",
            )),
            run: cmd("{binary}"),
            version: None,
            resolve: None,
            checks: words(&["-fsanitize=undefined", "-fno-sanitize-recover=all"]),
            install: Some("Debian: apt-get install gcc".into()),
            kind: Kind::Plain,
        },
        Language {
            id: "cpp".into(),
            name: "C++".into(),
            extensions: words(&["cpp", "cc", "cxx"]),
            compile: Some(cmd(
                "g++ -std=gnu++20 -O2 -DONLINE_JUDGE {checks} -o {binary} {source}",
            )),
            run: cmd("{binary}"),
            version: None,
            resolve: None,
            checks: words(&[
                "-D_GLIBCXX_DEBUG",
                "-fsanitize=undefined",
                "-fno-sanitize-recover=all",
            ]),
            install: Some("Debian: apt-get install g++".into()),
            kind: Kind::Plain,
        },
        Language {
            id: "python".into(),
            name: "Python 3".into(),
            extensions: words(&["py"]),
            compile: Some(cmd("python3 -m py_compile {source}")),
            run: cmd("python3 {source}"),
            version: None,
            resolve: Some(cmd("python3 -c 'import sys; print(sys.executable)'")),
            checks: Vec::new(),
            install: Some("Debian: apt-get install python3".into()),
            kind: Kind::Plain,
        },
        // Claims no extension: `[language.pypy] extensions = ["py"]` in judge.toml runs Python
        // solutions on PyPy instead.
        Language {
            id: "pypy".into(),
            name: "PyPy 3".into(),
            extensions: Vec::new(),
            compile: Some(cmd("pypy3 -m py_compile {source}")),
            run: cmd("pypy3 {source}"),
            version: None,
            resolve: None,
            checks: Vec::new(),
            install: Some("Debian: apt-get install pypy3".into()),
            kind: Kind::Plain,
        },
        Language {
            id: "java".into(),
            name: "Java".into(),
            extensions: words(&["java"]),
            compile: Some(cmd("javac -encoding UTF-8 -d {dir} {source}")),
            run: cmd(
                "java -Xmx{memory_mb}m -Xss{stack_mb}m -XX:+UseSerialGC -DONLINE_JUDGE=true -cp {dir} {class}",
            ),
            version: Some(cmd("javac -version")),
            resolve: None,
            checks: Vec::new(),
            install: Some("Debian: apt-get install default-jdk-headless".into()),
            kind: Kind::Java,
        },
        Language {
            id: "javascript".into(),
            name: "JavaScript".into(),
            extensions: words(&["js"]),
            compile: Some(cmd("node --check {source}")),
            run: cmd("node {source}"),
            version: None,
            resolve: None,
            checks: Vec::new(),
            install: Some("Debian: apt-get install nodejs".into()),
            kind: Kind::Plain,
        },
        Language {
            id: "bash".into(),
            name: "Bash".into(),
            extensions: words(&["sh"]),
            compile: Some(cmd("bash -n {source}")),
            run: cmd("bash {source}"),
            version: None,
            resolve: None,
            checks: Vec::new(),
            install: Some("Debian: apt-get install bash".into()),
            kind: Kind::Plain,
        },
    ]
}
