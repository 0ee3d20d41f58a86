//! The languages the judge knows without configuration: those of the package format's languages
//! table (its codes, extensions and entry points), with the flags the big judges use.
//!
//! Codeforces, AtCoder and Baekjoon compile C++ with `-O2` and a recent GNU standard, define
//! `ONLINE_JUDGE`, link C with `-lm`, and give Java a heap and a thread stack from the memory
//! limit. Python's "compilation" is a syntax check, so a syntax error is CE with Python's own
//! message, not a runtime error. The other languages of the table are built as Debian's
//! packages of their toolchains build them; each is used wherever its toolchain is installed.

use super::{Command, Kind, Language};

/// The order languages are listed in: the judge's first languages, then the table's.
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

/// One language of the table: `id` is also its code unless `code` differs.
struct Spec {
    id: &'static str,
    code: &'static str,
    name: &'static str,
    extensions: &'static [&'static str],
    compile: Option<&'static str>,
    run: &'static str,
    /// A command printing the version, when `PROGRAM --version` does not.
    version: Option<&'static str>,
    /// The Debian package(s) of its toolchain, or where it comes from.
    install: &'static str,
    entry: &'static [&'static str],
}

impl Spec {
    fn language(&self) -> Language {
        Language {
            id: self.id.into(),
            name: self.name.into(),
            code: self.code.into(),
            extensions: words(self.extensions),
            compile: self.compile.map(cmd),
            run: cmd(self.run),
            version: self.version.map(cmd),
            resolve: None,
            checks: Vec::new(),
            install: Some(if self.install.contains("://") {
                self.install.to_string()
            } else {
                format!("Debian: apt-get install {}", self.install)
            }),
            kind: Kind::Plain,
            entry: words(self.entry),
            compile_env: Vec::new(),
            compile_reads: Vec::new(),
        }
    }
}

const fn spec(
    id: &'static str,
    name: &'static str,
    extensions: &'static [&'static str],
    compile: Option<&'static str>,
    run: &'static str,
    install: &'static str,
) -> Spec {
    Spec {
        id,
        code: id,
        name,
        extensions,
        compile,
        run,
        version: None,
        install,
        entry: &[],
    }
}

/// The table's other languages. Extensions in parentheses in the table (Perl's `.pl`, Octave's
/// `.m`, Forth's `.fs`) are not used to tell a language, as the table says; its variants that
/// claim no extension of their own (C with GMP...) are chosen by `submissions.yaml` alone.
#[rustfmt::skip]
const TABLE: &[Spec] = &[
    spec("ada", "Ada", &["adb", "ads"], Some("gnatmake -q -O2 -D {dir} -o {binary} {source}"), "{binary}", "gnat"),
    spec("algol68", "Algol 68", &["a68"], None, "a68g {source}", "algol68g"),
    spec("apl", "APL", &["apl"], None, "apl --script -f {source}", "https://www.gnu.org/software/apl/"),
    spec("cgmp", "C with GMP", &[], Some("gcc -std=gnu11 -O2 -DONLINE_JUDGE -o {binary} {sources} -lgmp -lm"), "{binary}", "gcc libgmp-dev"),
    spec("cobol", "COBOL", &["cob"], Some("cobc -x -O2 -free -o {binary} {sources}"), "{binary}", "gnucobol"),
    spec("cppgmp", "C++ with GMP", &[], Some("g++ -std=gnu++20 -O2 -DONLINE_JUDGE -o {binary} {sources} -lgmpxx -lgmp"), "{binary}", "g++ libgmp-dev"),
    spec("crystal", "Crystal", &["cr"], Some("crystal build --release -o {binary} {source}"), "{binary}", "https://crystal-lang.org"),
    spec("csharp", "C#", &["cs"], Some("mcs -out:{dir}/solution.exe -optimize+ -r:System.Numerics {sources}"), "mono {dir}/solution.exe", "mono-mcs mono-runtime"),
    spec("d", "D", &["d"], Some("gdc -O2 -o {binary} {sources}"), "{binary}", "gdc"),
    spec("dart", "Dart", &["dart"], Some("dart compile exe -o {binary} {source}"), "{binary}", "https://dart.dev"),
    spec("elixir", "Elixir", &["ex"], None, "elixir {source}", "elixir"),
    spec("erlang", "Erlang", &["erl"], Some("erlc -o {dir} {sources}"), "erl -noshell -pa {dir} -s {stem} main -s init stop", "erlang-base"),
    spec("forth", "Forth", &["fth", "4th", "forth", "frt"], None, "gforth {source} -e bye", "gforth"),
    spec("fortran", "Fortran", &["f90"], Some("gfortran -O2 -o {binary} {sources}"), "{binary}", "gfortran"),
    spec("fsharp", "F#", &["fs"], Some("fsharpc --nologo --optimize+ --out:{dir}/solution.exe {sources}"), "mono {dir}/solution.exe", "fsharp mono-runtime"),
    spec("gerbil", "Gerbil", &["ss"], Some("gxc -O -exe -o {binary} {source}"), "{binary}", "gerbil-scheme"),
    Spec { version: Some("go version"), ..spec("go", "Go", &["go"], Some("go build -o {binary} {sources}"), "{binary}", "golang-go") },
    spec("haskell", "Haskell", &["hs"], Some("ghc -O2 -v0 -outputdir {dir} -o {binary} {sources}"), "{binary}", "ghc"),
    spec("javaalgs4", "Java with Algs4", &[], Some("javac -encoding UTF-8 -d {dir} {sources}"), "java -Xmx{memory_mb}m -Xss{stack_mb}m -cp {dir}:/usr/share/java/algs4.jar {stem}", "https://algs4.cs.princeton.edu"),
    spec("julia", "Julia", &["jl"], None, "julia {source}", "https://julialang.org"),
    Spec { version: Some("kotlinc -version"), entry: &["main.kt"], ..spec("kotlin", "Kotlin", &["kt"], Some("kotlinc -nowarn -include-runtime -d {dir}/solution.jar {sources}"), "java -Xmx{memory_mb}m -Xss{stack_mb}m -XX:+UseSerialGC -jar {dir}/solution.jar", "kotlin") },
    Spec { entry: &["main.lisp", "main.cl"], ..spec("lisp", "Common Lisp", &["lisp", "cl"], None, "sbcl --script {source}", "sbcl") },
    Spec { version: Some("lua -v"), ..spec("lua", "Lua", &["lua"], None, "lua {source}", "lua5.4") },
    spec("modula2", "Modula-2", &["mod", "def"], Some("gm2 -O2 -o {binary} {source}"), "{binary}", "gm2"),
    spec("nim", "Nim", &["nim"], Some("nim compile -d:release --hints:off --nimcache:{dir}/nimcache -o:{binary} {source}"), "{binary}", "nim"),
    spec("objectivec", "Objective-C", &["m"], Some("gcc -O2 -x objective-c -o {binary} {sources} -lobjc"), "{binary}", "gobjc"),
    Spec { version: Some("ocamlopt -version"), ..spec("ocaml", "OCaml", &["ml"], Some("ocamlopt -O2 -o {binary} {sources}"), "{binary}", "ocaml-nox") },
    spec("octave", "Octave", &[], None, "octave --no-gui --quiet {source}", "octave"),
    spec("odin", "Odin", &["odin"], Some("odin build {source} -file -o:speed -out:{binary}"), "{binary}", "https://odin-lang.org"),
    spec("pascal", "Pascal", &["pas"], Some("fpc -O2 -v0 -o{binary} {source}"), "{binary}", "fpc"),
    spec("perl", "Perl", &["pm"], Some("perl -c {source}"), "perl {source}", "perl"),
    Spec { entry: &["main.php"], ..spec("php", "PHP", &["php"], Some("php -l {source}"), "php -d memory_limit=-1 {source}", "php-cli") },
    spec("prolog", "Prolog", &["pl"], Some("swipl -O -q -g main -t halt -o {binary} -c {sources}"), "{binary}", "swi-prolog-nox"),
    Spec { entry: &["main.py2", "main.py"], ..spec("python2", "Python 2", &["py2"], Some("python2 -m py_compile {sources}"), "python2 {source}", "https://www.python.org (Python 2 is no longer packaged)") },
    Spec { code: "python3numpy", ..spec("python3numpy", "Python 3 with NumPy", &[], Some("python3 -m py_compile {sources}"), "python3 {source}", "python3-numpy") },
    spec("racket", "Racket", &["rkt"], None, "racket {source}", "racket"),
    spec("ruby", "Ruby", &["rb"], Some("ruby -c {source}"), "ruby {source}", "ruby"),
    Spec { version: Some("scalac -version"), ..spec("scala", "Scala", &["scala", "sc"], Some("scalac -d {dir} {sources}"), "scala -J-Xmx{memory_mb}m -cp {dir} {stem}", "scala") },
    spec("simula", "Simula", &["sim"], Some("cim -o {binary} {source}"), "{binary}", "cim"),
    spec("smalltalk", "Smalltalk", &["st"], None, "gst {source}", "gnu-smalltalk"),
    spec("snobol", "Snobol", &["sno"], None, "snobol4 -b {source}", "https://www.regressive.org/snobol4/"),
    spec("swift", "Swift", &["swift"], Some("swiftc -O -o {binary} {sources}"), "{binary}", "https://www.swift.org"),
    spec("typescript", "TypeScript", &["ts"], Some("tsc --outDir {dir} {sources}"), "node {dir}/{stem}.js", "node-typescript"),
    spec("visualbasic", "Visual Basic", &["vb"], Some("vbnc -nologo -optimize+ -out:{dir}/solution.exe {sources}"), "mono {dir}/solution.exe", "mono-vbnc"),
    spec("zig", "Zig", &["zig"], Some("zig build-exe -O ReleaseSafe -femit-bin={binary} {source}"), "{binary}", "https://ziglang.org"),
];

/// The built-in table.
pub fn languages() -> Vec<Language> {
    let mut all = vec![
        rust(),
        c(),
        cpp(),
        python(),
        pypy(),
        java(),
        javascript(),
        bash(),
    ];
    all.extend(TABLE.iter().map(from_table));
    all
}

/// Rust, built by rustc with the checks of a debug build kept on.
fn rust() -> Language {
    Language {
        id: "rust".into(),
        name: "Rust".into(),
        code: "rust".into(),
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
        entry: words(&["main.rs"]),
        compile_env: Vec::new(),
        compile_reads: Vec::new(),
    }
}

/// C, by gcc.
fn c() -> Language {
    Language {
        id: "c".into(),
        name: "C".into(),
        code: "c".into(),
        extensions: words(&["c"]),
        compile: Some(cmd(
            "gcc -std=gnu11 -O2 -DONLINE_JUDGE {checks} -o {binary} {sources} -lm",
        )),
        run: cmd("{binary}"),
        version: None,
        resolve: None,
        checks: words(&["-fsanitize=undefined", "-fno-sanitize-recover=all"]),
        install: Some("Debian: apt-get install gcc".into()),
        kind: Kind::Plain,
        entry: Vec::new(),
        compile_env: Vec::new(),
        compile_reads: Vec::new(),
    }
}

/// C++, by g++ with the library's debug mode among the checks.
fn cpp() -> Language {
    Language {
        id: "cpp".into(),
        name: "C++".into(),
        code: "cpp".into(),
        extensions: words(&["cpp", "cc", "cxx", "c++"]),
        compile: Some(cmd(
            "g++ -std=gnu++20 -O2 -DONLINE_JUDGE {checks} -o {binary} {sources}",
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
        entry: Vec::new(),
        compile_env: Vec::new(),
        compile_reads: Vec::new(),
    }
}

/// Python 3, its sources compiled first to find syntax errors before the cases.
fn python() -> Language {
    Language {
        id: "python".into(),
        name: "Python 3".into(),
        code: "python3".into(),
        extensions: words(&["py", "py3"]),
        compile: Some(cmd("python3 -m py_compile {sources}")),
        run: cmd("python3 {source}"),
        version: None,
        resolve: Some(cmd("python3 -c 'import sys; print(sys.executable)'")),
        checks: Vec::new(),
        install: Some("Debian: apt-get install python3".into()),
        kind: Kind::Plain,
        entry: words(&["__main__.py", "main.py"]),
        compile_env: Vec::new(),
        compile_reads: Vec::new(),
    }
}

/// PyPy 3. It claims no extension: `[language.pypy] extensions = ["py"]` in judge.toml runs Python
/// solutions on PyPy instead; a package's run on it where it is installed.
fn pypy() -> Language {
    Language {
        id: "pypy".into(),
        name: "PyPy 3".into(),
        code: "python3".into(),
        extensions: Vec::new(),
        compile: Some(cmd("pypy3 -m py_compile {sources}")),
        run: cmd("pypy3 {source}"),
        // `pypy3 --version` names Python's version first, PyPy's on a second line.
        version: Some(cmd(
            "pypy3 -c 'import sys, platform; print(\"PyPy\", \".\".join(map(str, sys.pypy_version_info[:3])), \"(Python\", platform.python_version() + \")\")'",
        )),
        resolve: None,
        checks: Vec::new(),
        install: Some("Debian: apt-get install pypy3".into()),
        kind: Kind::Plain,
        entry: words(&["__main__.py", "main.py"]),
        compile_env: Vec::new(),
        compile_reads: Vec::new(),
    }
}

/// Java, its class found in the source.
fn java() -> Language {
    Language {
        id: "java".into(),
        name: "Java".into(),
        code: "java".into(),
        extensions: words(&["java"]),
        compile: Some(cmd("javac -encoding UTF-8 -d {dir} {sources}")),
        run: cmd(
            "java -Xmx{memory_mb}m -Xss{stack_mb}m -XX:+UseSerialGC -DONLINE_JUDGE=true -cp {dir} {class}",
        ),
        version: Some(cmd("javac -version")),
        resolve: None,
        checks: Vec::new(),
        install: Some("Debian: apt-get install default-jdk-headless".into()),
        kind: Kind::Java,
        entry: words(&["Main.java"]),
        compile_env: Vec::new(),
        compile_reads: Vec::new(),
    }
}

/// JavaScript on Node.
fn javascript() -> Language {
    Language {
        id: "javascript".into(),
        name: "JavaScript".into(),
        code: "javascript".into(),
        extensions: words(&["js"]),
        compile: Some(cmd("node --check {source}")),
        run: cmd("node {source}"),
        version: None,
        resolve: None,
        checks: Vec::new(),
        install: Some("Debian: apt-get install nodejs".into()),
        kind: Kind::Plain,
        entry: words(&["main.js"]),
        compile_env: Vec::new(),
        compile_reads: Vec::new(),
    }
}

/// Bash.
fn bash() -> Language {
    Language {
        id: "bash".into(),
        name: "Bash".into(),
        code: "bash".into(),
        extensions: words(&["sh"]),
        compile: Some(cmd("bash -n {source}")),
        run: cmd("bash {source}"),
        version: None,
        resolve: None,
        checks: Vec::new(),
        install: Some("Debian: apt-get install bash".into()),
        kind: Kind::Plain,
        entry: Vec::new(),
        compile_env: Vec::new(),
        compile_reads: Vec::new(),
    }
}

/// A language of the short table, with what its build needs beyond the table's columns.
fn from_table(s: &Spec) -> Language {
    let mut language = s.language();
    match language.id.as_str() {
        // `go build` keeps a cache in the home folder, which a sandboxed build cannot write.
        "go" => {
            language.compile_env = vec![
                ("GOCACHE".into(), "{dir}/.gocache".into()),
                ("GOPATH".into(), "{dir}/.gopath".into()),
            ]
        }
        // Debian links GHC's package database there.
        "haskell" => language.compile_reads = vec!["/var/lib/ghc".into()],
        _ => {}
    }
    language
}

/// The search path of `build` scripts: the system's.
pub const SYSTEM_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// A program folder with `build` and `run` scripts, as the package format builds any program:
/// `build` (when there is one) runs in a copy of the folder, then `run` is the program.
pub fn scripts() -> Language {
    Language {
        id: "scripts".into(),
        name: "build and run scripts".into(),
        code: "scripts".into(),
        extensions: Vec::new(),
        compile: Some(cmd("{dir}/build")),
        run: cmd("{dir}/run"),
        version: None,
        resolve: None,
        checks: Vec::new(),
        install: None,
        kind: Kind::Scripts,
        entry: Vec::new(),
        // The system's programs (the format promises `python3`, `cc` and `c++` on the path),
        // as a judging machine has them; the copy of the folder is its home.
        compile_env: vec![
            ("PATH".into(), SYSTEM_PATH.into()),
            ("HOME".into(), "{dir}".into()),
        ],
        compile_reads: Vec::new(),
    }
}
