//! `judge import` on real folders and files written the way online-judge-tools, cph,
//! cargo-compete and Competitive Companion write them; then the imported problems judged.

use crate::common::{self, Test, Workspace};
use crate::listen::{
    abc300_a, abc300_a_right, abc300_a_wrong, verdict, watermelon, watermelon_right,
    watermelon_wrong,
};

/// `judge import ARGS...` in `ws`.
fn import(ws: &Workspace, args: &[&str]) -> Test {
    ws.judge().arg("import").args(args)
}

fn read(ws: &Workspace, rel: &str) -> String {
    std::fs::read_to_string(ws.path().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Writes `text` to `rel` under `dir`, making the folders.
fn put(dir: &std::path::Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// What `oj download https://atcoder.jp/contests/abc300/tasks/abc300_a` leaves in `abc300_a/test`.
fn oj_folder(ws: &Workspace) {
    for (i, (input, output)) in [
        ("3 125 175\n200 300 400\n", "2\n"),
        ("1 1 1\n2\n", "1\n"),
        ("5 123 456\n135 246 357 468 579\n", "5\n"),
    ]
    .iter()
    .enumerate()
    {
        ws.write(&format!("abc300_a/test/sample-{}.in", i + 1), input);
        ws.write(&format!("abc300_a/test/sample-{}.out", i + 1), output);
    }
}

#[test]
fn an_online_judge_tools_folder() {
    let ws = Workspace::new();
    oj_folder(&ws);
    let out = import(&ws, &["abc300_a/test"]).expect_exit(0).run().stdout;
    assert!(
        out.starts_with(
            "created abc300-a: 3 samples · 2 s · 256 MiB · judge new main --problem abc300-a"
        ),
        "{out}"
    );
    assert!(
        out.contains("gives no limits: time 2s and memory 256MiB assumed"),
        "{out}"
    );
    let toml = read(&ws, "problems/abc300-a/problem.toml");
    assert!(
        toml.contains("samples = [\"sample-1\", \"sample-2\", \"sample-3\"]"),
        "{toml}"
    );
    assert!(toml.contains("# assumed"), "{toml}");
    assert_eq!(read(&ws, "testcases/abc300-a/sample-2.out"), "1\n");
    assert_eq!(verdict(&ws, "abc300-a", "right", &abc300_a_right()), "AC");
    assert_eq!(verdict(&ws, "abc300-a", "wrong", &abc300_a_wrong()), "WA");

    // Again: recognised. A new sample in the folder: added, the rest left as it was.
    let out = import(&ws, &["abc300_a/test"]).expect_exit(0).run().stdout;
    assert!(
        out.starts_with("abc300-a: already here, nothing new (3 tests there)"),
        "{out}"
    );
    ws.write("abc300_a/test/sample-4.in", "2 1 1\n5 2\n");
    ws.write("abc300_a/test/sample-4.out", "2\n");
    // A clashing answer for an input that is there already is left out, and said.
    ws.write("abc300_a/test/extra.in", "1 1 1\n2\n");
    ws.write("abc300_a/test/extra.out", "7\n");
    let out = import(&ws, &["abc300_a/test"]).expect_exit(0).run().stdout;
    assert!(
        out.starts_with("updated abc300-a: 1 new sample, 3 already there"),
        "{out}"
    );
    assert!(
        out.contains("left out a test whose input is case sample-2's"),
        "{out}"
    );
    assert_eq!(read(&ws, "testcases/abc300-a/sample-2.out"), "1\n");
    assert!(read(&ws, "problems/abc300-a/problem.toml").contains("\"sample-3\", \"sample-4\"]"));
    assert_eq!(verdict(&ws, "abc300-a", "right", &abc300_a_right()), "AC");

    // A test without its output: an error, nothing written.
    ws.write("lonely/test/sample-1.in", "1\n");
    let err = import(&ws, &["lonely/test"]).expect_exit(2).run().stderr;
    assert!(
        err.contains("a test without output: there is no sample-1.out"),
        "{err}"
    );
    assert!(!ws.path().join("problems/lonely").exists());
}

#[test]
fn the_folder_oj_download_ran_in_is_taken_for_its_test_folder() {
    let ws = Workspace::new();
    oj_folder(&ws);
    // oj's template leaves the attempt beside `test/`.
    ws.write("abc300_a/main.py", "print(1)\n");
    let out = import(&ws, &["abc300_a"]).expect_exit(0).run().stdout;
    assert!(
        out.starts_with(
            "created abc300-a: 3 samples · 2 s · 256 MiB · judge new main --problem abc300-a"
        ),
        "{out}"
    );
    assert_eq!(read(&ws, "testcases/abc300-a/sample-3.out"), "5\n");
    // A folder with neither: the formats there are, as before.
    ws.write("empty/readme.txt", "nothing\n");
    import(&ws, &["empty"])
        .expect_exit(2)
        .stderr_has("not a format judge import knows")
        .run();
}

/// What cph keeps for `a.cpp` once Competitive Companion sent it Codeforces 4A.
const CPH_PROB: &str = r#"{"name":"A. Watermelon","group":"Codeforces - Codeforces Beta Round 4 (Div. 2 Only)","url":"https://codeforces.com/problemset/problem/4/A","interactive":false,"memoryLimit":64,"timeLimit":1000,"tests":[{"input":"8\n","output":"YES\n","id":1716042339301},{"input":"2\n","output":"NO\n","id":1716042361712}],"testType":"single","input":{"type":"stdin"},"output":{"type":"stdout"},"languages":{"java":{"mainClass":"Main","taskClass":"AWatermelon"}},"batch":{"id":"5e3f4a88-6b53-4a2b-8d0c-0f7b1d2a9e61","size":1},"srcPath":"a.cpp","local":false}"#;

#[test]
fn a_cph_problem_file() {
    let ws = Workspace::new();
    let prob = ".cph/.a.cpp_0cc175b9c0f1b6a831c399e269772661.prob";
    ws.write(prob, CPH_PROB);
    let out = import(&ws, &[prob, "--new"]).expect_exit(0).run().stdout;
    assert!(
        out.starts_with("created cf-4a: 2 samples · 1 s · 64 MiB · judge run main --problem cf-4a"),
        "{out}"
    );
    assert_eq!(verdict(&ws, "cf-4a", "right", &watermelon_right()), "AC");
    assert_eq!(verdict(&ws, "cf-4a", "wrong", &watermelon_wrong()), "WA");

    // A problem made in cph by hand is named after its source; --name names it anything.
    ws.write(
        "mine/.cph/.b.cpp_x.prob",
        r#"{"name":"Local: b","url":"/home/me/mine/b.cpp","interactive":false,"memoryLimit":1024,"timeLimit":3000,"group":"local","tests":[{"id":1,"input":"4\n","output":"YES\n"}],"srcPath":"/home/me/mine/b.cpp","local":true}"#,
    );
    let out = import(&ws, &["mine/.cph/.b.cpp_x.prob"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        out.starts_with("created b: 1 sample · 3 s · 1 GiB"),
        "{out}"
    );
    let out = import(&ws, &["mine/.cph/.b.cpp_x.prob", "--name", "even-split"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(out.starts_with("created even-split: "), "{out}");

    // A half-written file: the reason, nothing written.
    ws.write("half.prob", &CPH_PROB[..CPH_PROB.len() / 2]);
    let err = import(&ws, &["half.prob"]).expect_exit(2).run().stderr;
    assert!(err.contains("ends early"), "{err}");
}

/// A cargo-compete package for ABC 300 as `cargo compete new abc300` makes it, with test
/// suites for A (samples and, as `--full` adds, more tests in files), B (Float) and C (Checker).
fn compete_package(ws: &Workspace) {
    ws.write(
        "abc300/Cargo.toml",
        "[package]\nname = \"abc300\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[package.metadata.cargo-compete.bin]\nabc300-a = { alias = \"a\", problem = \"https://atcoder.jp/contests/abc300/tasks/abc300_a\" }\nabc300-b = { alias = \"b\", problem = \"https://atcoder.jp/contests/abc300/tasks/abc300_b\" }\nabc300-c = { alias = \"c\", problem = \"https://atcoder.jp/contests/abc300/tasks/abc300_c\" }\n\n[[bin]]\nname = \"abc300-a\"\npath = \"src/bin/a.rs\"\n",
    );
    ws.write(
        "abc300/testcases/a.yml",
        "---\ntype: Batch\ntimelimit: 2s\nmatch: Lines\n\ncases:\n  - name: sample1\n    in: |\n      3 125 175\n      200 300 400\n    out: |\n      2\n  - name: sample2\n    in: |\n      1 1 1\n      2\n    out: |\n      1\n\nextend:\n  - type: Text\n    path: \"./a\"\n    in: /in/*.txt\n    out: /out/*.txt\n",
    );
    ws.write(
        "abc300/testcases/a/in/01_random.txt",
        "5 123 456\n135 246 357 468 579\n",
    );
    ws.write("abc300/testcases/a/out/01_random.txt", "5\n");
    ws.write(
        "abc300/testcases/b.yml",
        "---\ntype: Batch\ntimelimit: 1500ms\nmatch:\n  Float:\n    relative_error: 0.000001\n    absolute_error: 0.000001\n\ncases:\n  - name: sample1\n    in: |\n      1\n    out: |\n      0.5\n\n# the folder comes with `cargo compete download --full`: not there yet\nextend:\n  - type: Text\n    path: \"./b\"\n    in: /in/*.txt\n    out: /out/*.txt\n",
    );
    ws.write(
        "abc300/testcases/c.yml",
        "---\ntype: Batch\ntimelimit: 2s\nmatch:\n  Checker:\n    cmd: read n < \"$INPUT\" && read a < \"$ACTUAL_OUTPUT\" && [ $((a % 2)) -eq 0 ] && [ \"$a\" -gt \"$n\" ]\n    shell: Bash\n\ncases:\n  - name: sample1\n    in: |\n      7\n    out: |\n      8\n  - name: sample2\n    in: |\n      10\n",
    );
}

#[test]
fn cargo_compete_test_suites() {
    let ws = Workspace::new();
    compete_package(&ws);
    let out = import(&ws, &["abc300/testcases/a.yml"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        out.starts_with("created abc300-a: 2 samples + 1 test · 2 s · 256 MiB"),
        "{out}"
    );
    let toml = read(&ws, "problems/abc300-a/problem.toml");
    assert!(toml.contains("checker = \"lines\""), "{toml}");
    assert!(
        toml.contains("url = \"https://atcoder.jp/contests/abc300/tasks/abc300_a\""),
        "{toml}"
    );
    assert_eq!(read(&ws, "testcases/abc300-a/01_random.out"), "5\n");
    assert_eq!(verdict(&ws, "abc300-a", "right", &abc300_a_right()), "AC");
    assert_eq!(verdict(&ws, "abc300-a", "wrong", &abc300_a_wrong()), "WA");

    // The whole testcases folder: the rest of the suites (A is recognised).
    let out = import(&ws, &["abc300/testcases"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(out.contains("abc300-a: already here"), "{out}");
    let toml = read(&ws, "problems/abc300-b/problem.toml");
    assert!(
        toml.contains("checker = \"float\"") && toml.contains("float_relative = 1e-6"),
        "{toml}"
    );
    assert!(toml.contains("time_limit = \"1.5s\""), "{toml}");
    let half = "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let n: f64 = s.trim().parse().unwrap(); println!(\"{}\", n / 2.0 + 1e-9); }\n";
    assert_eq!(verdict(&ws, "abc300-b", "right", half), "AC");
    assert_eq!(
        verdict(&ws, "abc300-b", "wrong", &half.replace("1e-9", "1e-3")),
        "WA"
    );

    // `match: Checker`: a checker program that runs the command as cargo-compete does.
    let toml = read(&ws, "problems/abc300-c/problem.toml");
    assert!(toml.contains("checker_program = \"checker.sh\""), "{toml}");
    let even = "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let n: u64 = s.trim().parse().unwrap(); println!(\"{}\", 2 * n + 2); }\n";
    assert_eq!(verdict(&ws, "abc300-c", "right", even), "AC");
    assert_eq!(
        verdict(&ws, "abc300-c", "wrong", &even.replace("2 * n + 2", "n")),
        "WA"
    );

    // A suite that is not one: the reason.
    ws.write("bad.yml", "type: Batch\nmatch: Sideways\n");
    let err = import(&ws, &["bad.yml"]).expect_exit(2).run().stderr;
    assert!(err.contains("not a cargo-compete test suite"), "{err}");
}

#[test]
fn saved_competitive_companion_json_and_limits_that_differ() {
    let ws = Workspace::new();
    ws.write(
        "contest.json",
        format!("[{}, {}]", watermelon("s", 2), abc300_a("s", 2)),
    );
    let out = import(&ws, &["contest.json"]).expect_exit(0).run().stdout;
    assert!(
        out.contains("created cf-4a: 1 sample · 1 s · 64 MiB"),
        "{out}"
    );
    assert!(
        out.contains("created abc300-a: 3 samples · 2 s · 1 GiB"),
        "{out}"
    );
    assert_eq!(verdict(&ws, "cf-4a", "right", &watermelon_right()), "AC");
    assert_eq!(verdict(&ws, "cf-4a", "wrong", &watermelon_wrong()), "WA");

    // The problem as the user keeps it, with a comment; then an import with another limit.
    let toml_path = "problems/cf-4a/problem.toml";
    let mine = read(&ws, toml_path).replace(
        "time_limit = \"1s\"",
        "time_limit = \"3s\"   # my machine is slow",
    );
    ws.write(toml_path, &mine);
    ws.write("again.json", watermelon("t", 1));
    let out = import(&ws, &["again.json"]).expect_exit(0).run().stdout;
    assert!(
        out.contains("kept the time limit 3s (the import says 1s; --force takes it)"),
        "{out}"
    );
    assert_eq!(read(&ws, toml_path), mine, "kept means untouched");
    let out = import(&ws, &["again.json", "--force"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(out.contains("replaced the time limit 3s with 1s"), "{out}");
    let forced = read(&ws, toml_path);
    assert!(
        forced.contains("time_limit = \"1s\"   # my machine is slow"),
        "{forced}"
    );

    // Another problem that would get the same id is not merged into this one.
    ws.write(
        "other.json",
        watermelon("u", 1).replace("problemset/problem/4/A", "gym/100001/problem/A"),
    );
    let out = import(&ws, &["other.json"]).expect_exit(0).run().stdout;
    assert!(out.starts_with("created cf-gym100001a: "), "{out}");
    // --name says where, whatever the URL.
    let out = import(&ws, &["other.json", "--name", "cf-4a"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(out.starts_with("cf-4a: already here"), "{out}");

    // What is no format at all: the formats there are.
    ws.write("notes.txt", "hello\n");
    let err = import(&ws, &["notes.txt"]).expect_exit(2).run().stderr;
    assert!(err.contains("not a format judge import knows"), "{err}");
    assert!(
        err.contains("online-judge-tools") && err.contains("cargo-compete"),
        "{err}"
    );
}

#[test]
fn a_problem_from_another_url_gets_its_own_id() {
    let ws = Workspace::new();
    let first = r#"{"name":"Sum","url":"https://example.org/p/1","memoryLimit":64,"timeLimit":1000,"tests":[{"input":"1 2\n","output":"3\n"}]}"#;
    let second = first
        .replace("p/1", "p/2")
        .replace("1 2\\n", "2 2\\n")
        .replace("3\\n", "4\\n");
    ws.write("first.json", first);
    ws.write("second.json", &second);
    assert!(import(&ws, &["first.json"])
        .expect_exit(0)
        .run()
        .stdout
        .starts_with("created sum: "));
    let out = import(&ws, &["second.json"]).expect_exit(0).run().stdout;
    assert!(out.starts_with("created sum-2: "), "{out}");
    let out = import(&ws, &["second.json"]).expect_exit(0).run().stdout;
    assert!(out.starts_with("sum-2: already here"), "{out}");
    assert_eq!(read(&ws, "testcases/sum/1.in"), "1 2\n");
}

/// A Kattis package (2023-07) imported: its data tree, default validator and submissions by
/// folder become a problem that gets the verdicts the package gets where it lies.
#[test]
fn a_kattis_package() {
    let ws = Workspace::new();
    let pkg = tempfile::tempdir().unwrap();
    let dir = pkg.path().join("hello");
    let write = |rel: &str, text: &str| put(&dir, rel, text);
    write(
        "problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Hello\nlimits:\n  time_limit: 1\n  memory: 256\n",
    );
    for (rel, input, answer) in [
        ("sample/1", "1 2\n", "3\n"),
        ("secret/1", "10 20\n", "30\n"),
        ("secret/2", "5 5\n", "10\n"),
    ] {
        write(&format!("data/{rel}.in"), input);
        write(&format!("data/{rel}.ans"), answer);
    }
    let sum = "a, b = map(int, input().split())\nprint(a + b)\n";
    write("submissions/accepted/sum.py", sum);
    // The same file name in another folder: both come along.
    write(
        "submissions/wrong_answer/sum.py",
        "a, b = map(int, input().split())\nprint(a + b + (a == 5))\n",
    );
    write(
        "submissions/time_limit_exceeded/spin.py",
        "a, b = map(int, input().split())\nwhile a == 5:\n    pass\nprint(a + b)\n",
    );
    let out = import(&ws, &[dir.to_str().unwrap()])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        out.contains("created hello: 1 sample + 2 tests · 1 s · 256 MiB"),
        "{out}"
    );
    let toml = read(&ws, "problems/hello/problem.toml");
    assert!(toml.contains("checker = \"kattis\""), "{toml}");
    assert!(toml.contains("\"wrong_answer-sum\" = \"WA\""), "{toml}");
    assert!(
        toml.contains("\"time_limit_exceeded-spin\" = \"TLE\""),
        "{toml}"
    );
    assert_eq!(read(&ws, "solutions/hello/accepted-sum.py"), sum);
    assert_eq!(read(&ws, "testcases/hello/secret-2.in"), "5 5\n");

    let imported = common::verified(ws.path(), "hello");
    assert_eq!(imported.len(), 3, "{imported:?}");
    assert_eq!(imported, common::verified(pkg.path(), "hello"));
    assert_eq!(imported["wrong_answer-sum"], "WA");
}

/// problemtools' interactive `guess` (2023-07, `type: interactive`; its output validator,
/// `output_validator/guess_validator/validate.cc` with `validate.h`, is the interactor, and its
/// samples are `.interaction` files only) imported: the interactor comes along with its header,
/// the sample interactions with it, and every submission gets its folder's verdict in the
/// workspace as it does in the package.
#[test]
#[cfg_attr(
    not(judge_has_pypi),
    ignore = "needs python3 with pip and the network (pypi.org) to download problemtools"
)]
#[cfg_attr(not(judge_has_gxx), ignore = "needs g++ (Debian: apt-get install g++)")]
fn problemtools_interactive_guess_keeps_its_interactor_and_sample_interactions() {
    let guess = common::problemtools::examples().join("guess");
    let ws = Workspace::new();
    let out = import(&ws, &[guess.to_str().unwrap()])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        out.contains("created guess: 0 samples + 10 tests, 2 sample interactions"),
        "{out}"
    );
    assert!(
        out.contains("interactive: validate.cc (Kattis protocol)"),
        "{out}"
    );
    let toml = read(&ws, "problems/guess/problem.toml");
    assert!(toml.contains("interactor = \"validate.cc\""), "{toml}");
    assert!(toml.contains("interactor_protocol = \"kattis\""), "{toml}");
    // The interactor decides alone: no comparing checker beside it.
    assert!(!toml.contains("checker"), "{toml}");
    assert_eq!(
        read(&ws, "problems/guess/validate.h"),
        std::fs::read_to_string(guess.join("output_validator/guess_validator/validate.h")).unwrap()
    );
    for n in ["1", "2"] {
        assert_eq!(
            read(&ws, &format!("testcases/guess/sample-{n}.interaction")),
            std::fs::read_to_string(guess.join(format!("data/sample/{n}.interaction"))).unwrap()
        );
    }
    let shown = ws
        .judge()
        .args(["show", "guess"])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(shown.contains("Sample interactions"), "{shown}");
    assert!(
        shown.contains("sample-1") && shown.contains("sample-2"),
        "{shown}"
    );
    assert!(
        shown.contains(">792") && shown.contains("<correct"),
        "{shown}"
    );

    // `verified` asserts that every submission got its expected verdict.
    let imported = common::verified(ws.path(), "guess");
    for (name, expected) in [
        ("accepted-guess", "AC"),
        ("time_limit_exceeded-guess_no_flush", "TLE"),
        ("wrong_answer-guess_tle", "WA"),
        ("wrong_answer-guess_0", "WA"),
        ("run_time_error-guess_rte_after_correct", "RE"),
    ] {
        assert_eq!(imported[name], expected, "{name}: {imported:?}");
    }
    #[cfg(judge_has_java)]
    assert_eq!(imported["wrong_answer-GuessCrash"], "WA", "{imported:?}");
    assert!(imported.len() >= 8, "{imported:?}");

    // Imported again: nothing new, and the same problem.
    let out = import(&ws, &[guess.to_str().unwrap()])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(out.starts_with("guess: already here, nothing new"), "{out}");
    assert_eq!(read(&ws, "problems/guess/problem.toml"), toml);
}

/// A Polygon interactive package: the secret number is the test's input, the solution guesses
/// and the interactor (testlib's protocol, `interactor INPUT OUTPUT ANSWER`, exit 0 or 1)
/// answers, then writes to OUTPUT how many guesses were made; the checker (testlib's `check
/// INPUT OUTPUT ANSWER`) reads that and accepts at most the answer's count. Neither includes
/// testlib.h: they share `protocol.h`, which the import writes once.
const GUESS_PROTOCOL_H: &str =
    "// The most guesses the interactor allows.\nconst int MAX_GUESSES = 10;\n";

const GUESS_INTERACTOR: &str = r#"#include <cstdio>
#include "protocol.h"
int main(int argc, char *argv[]) {
    if (argc < 4) { std::fprintf(stderr, "usage: interactor INPUT OUTPUT ANSWER\n"); return 3; }
    FILE *in = std::fopen(argv[1], "r");
    FILE *out = std::fopen(argv[2], "w");
    int secret;
    if (!in || !out || std::fscanf(in, "%d", &secret) != 1) { std::fprintf(stderr, "bad files\n"); return 3; }
    for (int guesses = 1; guesses <= MAX_GUESSES; guesses++) {
        int guess;
        if (std::scanf("%d", &guess) != 1) { std::fprintf(stderr, "wrong answer: no guess\n"); return 1; }
        if (guess == secret) {
            std::printf("correct\n");
            std::fflush(stdout);
            std::fprintf(out, "%d\n", guesses);
            std::fclose(out);
            return 0;
        }
        std::printf(guess < secret ? "higher\n" : "lower\n");
        std::fflush(stdout);
    }
    std::fprintf(stderr, "wrong answer: more than %d guesses\n", MAX_GUESSES);
    return 1;
}
"#;

const GUESS_CHECKER: &str = r#"#include <cstdio>
#include "protocol.h"
int main(int argc, char *argv[]) {
    if (argc < 4) return 3;
    FILE *out = std::fopen(argv[2], "r");
    FILE *ans = std::fopen(argv[3], "r");
    int guesses, most;
    if (!ans || std::fscanf(ans, "%d", &most) != 1 || most > MAX_GUESSES) return 3;
    if (!out || std::fscanf(out, "%d", &guesses) != 1) { std::fprintf(stderr, "wrong answer: the interactor wrote no count\n"); return 1; }
    if (guesses > most) { std::fprintf(stderr, "wrong answer: %d guesses, at most %d\n", guesses, most); return 1; }
    std::fprintf(stderr, "ok %d guesses\n", guesses);
    return 0;
}
"#;

/// A guessing solution in Python: `next` gives the next guess from `lo`, `hi` (the range
/// still possible) and the last guess.
fn guesser(first: &str, next: &str) -> String {
    format!(
        "lo, hi = 1, 100\nguess = {first}\nwhile True:\n    print(guess, flush=True)\n    said = input().strip()\n    if said == 'correct':\n        break\n    if said == 'higher':\n        lo = guess + 1\n    else:\n        hi = guess - 1\n    guess = {next}\n"
    )
}

#[test]
#[cfg_attr(not(judge_has_gxx), ignore = "needs g++ (Debian: apt-get install g++)")]
fn a_polygon_interactive_package_keeps_its_interactor_and_checker() {
    let pkg = tempfile::tempdir().unwrap();
    let dir = pkg.path().join("guess");
    let write = |rel: &str, text: &str| put(&dir, rel, text);
    // The secret number, and the most guesses the checker accepts.
    let tests = [("42\n", "7\n"), ("3\n", "7\n"), ("100\n", "7\n")];
    for (i, (input, answer)) in tests.iter().enumerate() {
        write(&format!("tests/{:02}", i + 1), input);
        write(&format!("tests/{:02}.a", i + 1), answer);
    }
    write("files/protocol.h", GUESS_PROTOCOL_H);
    write("files/interactor.cpp", GUESS_INTERACTOR);
    write("files/check.cpp", GUESS_CHECKER);
    // Binary search: at most 7 guesses. Upwards from 1: over 10 on 42 (the interactor
    // rejects). Upwards from 35: 8 on 42, which the interactor accepts and the checker not.
    let solutions = [
        (
            "solutions/bisect.py",
            "main",
            guesser("50", "(lo + hi) // 2"),
        ),
        (
            "solutions/linear.py",
            "wrong-answer",
            guesser("1", "guess + 1"),
        ),
        (
            "solutions/near.py",
            "wrong-answer",
            guesser("35", "guess + 1 if lo > guess else guess - 1"),
        ),
    ];
    for (path, _, source) in &solutions {
        write(path, source);
    }
    let listed: Vec<(&str, &str, &str)> = solutions
        .iter()
        .map(|(path, tag, _)| (*path, *tag, "python.3"))
        .collect();
    write(
        "problem.xml",
        &common::polygon::interactive_xml(&common::polygon::InteractiveXml {
            short_name: "guess-number",
            title: "Guess the Number",
            time_ms: 2000,
            tests: tests.len(),
            resources: &["protocol.h"],
            solutions: &listed,
        }),
    );

    let ws = Workspace::new();
    let out = import(&ws, &[dir.to_str().unwrap()])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(
        out.contains("interactive: interactor.cpp (testlib protocol)"),
        "{out}"
    );
    let toml = read(&ws, "problems/guess-number/problem.toml");
    for line in [
        "interactor = \"interactor.cpp\"",
        "interactor_protocol = \"testlib\"",
        "checker = \"custom\"",
        "checker_program = \"check.cpp\"",
    ] {
        assert!(toml.contains(line), "{line}: {toml}");
    }
    assert_eq!(
        read(&ws, "problems/guess-number/protocol.h"),
        GUESS_PROTOCOL_H
    );
    assert_eq!(
        read(&ws, "problems/guess-number/interactor.cpp"),
        GUESS_INTERACTOR
    );

    let imported = common::verified(ws.path(), "guess-number");
    assert_eq!(
        imported,
        [("bisect", "AC"), ("linear", "WA"), ("near", "WA")]
            .map(|(s, v)| (s.to_string(), v.to_string()))
            .into()
    );
    assert_eq!(imported, common::verified(pkg.path(), "guess"));
    // Who rejected: the interactor (more than 10 guesses), then the checker (8 guesses).
    for (solution, said) in [
        ("linear", "more than 10 guesses"),
        ("near", "8 guesses, at most 7"),
    ] {
        let text = ws
            .judge()
            .args(["run", solution, "--problem", "guess-number"])
            .expect_exit(1)
            .run()
            .stdout;
        assert!(text.contains(said), "{solution}: {text}");
    }
}
