//! `judge listen` driven as Competitive Companion drives it: a real HTTP client POSTing its
//! documented JSON to a real listener, then the problems it made judged.

use std::time::Duration;

use crate::common::{self, Running, Workspace};

/// A listener on a free port: the process and its address.
pub(crate) struct Listening {
    pub(crate) listener: Running,
    pub(crate) url: String,
    pub(crate) port: u16,
}

/// `judge listen --port 0 ARGS...` in `ws`, once it says where it listens.
pub(crate) fn listen(ws: &Workspace, args: &[&str]) -> Listening {
    let mut listener = ws
        .judge()
        .args(["listen", "--port", "0"])
        .args(args)
        .spawn();
    let url = common::first_address(&mut listener);
    let port = url
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    Listening {
        listener,
        url,
        port,
    }
}

impl Listening {
    /// POSTs `body` as Competitive Companion does: the status and the answer's text.
    pub(crate) fn post(&self, body: &[u8]) -> (u16, String) {
        self.post_with(body, &[("Content-Type", "application/json")])
    }

    pub(crate) fn post_with(&self, body: &[u8], headers: &[(&str, &str)]) -> (u16, String) {
        post_to(&self.url, body, headers)
    }

    /// Waits for the listener to stop after its batch (`--once`), with exit code `code`: its
    /// exit code, stdout and stderr.
    fn finish(self, code: i32) -> (Option<i32>, String, String) {
        let out = self
            .listener
            .expect_exit(code)
            .wait(Duration::from_secs(20));
        (out.code, out.stdout, out.stderr)
    }
}

/// POSTs `body` to `url` with `headers`, from any thread: the status and the answer's text.
pub(crate) fn post_to(url: &str, body: &[u8], headers: &[(&str, &str)]) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into();
    let mut request = agent.post(url);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let mut response = request.send(body).unwrap();
    let text = response.body_mut().read_to_string().unwrap();
    (response.status().as_u16(), text)
}

/// Codeforces 4A as Competitive Companion sends it, in batch `batch` of `size`.
pub(crate) fn watermelon(batch: &str, size: usize) -> String {
    format!(
        r#"{{
    "name": "A. Watermelon",
    "group": "Codeforces - Codeforces Beta Round 4 (Div. 2 Only)",
    "url": "https://codeforces.com/problemset/problem/4/A",
    "interactive": false,
    "memoryLimit": 64,
    "timeLimit": 1000,
    "tests": [{{"input": "8\n", "output": "YES\n"}}],
    "testType": "single",
    "input": {{"type": "stdin"}},
    "output": {{"type": "stdout"}},
    "languages": {{"java": {{"mainClass": "Main", "taskClass": "AWatermelon"}}}},
    "batch": {{"id": "{batch}", "size": {size}}}
}}"#
    )
}

/// AtCoder ABC 300 A as Competitive Companion sends it.
pub(crate) fn abc300_a(batch: &str, size: usize) -> String {
    format!(
        r#"{{"name":"A - N-choice question","group":"AtCoder - UNIQUE VISION Programming Contest 2023 Spring(AtCoder Beginner Contest 300)","url":"https://atcoder.jp/contests/abc300/tasks/abc300_a","interactive":false,"memoryLimit":1024,"timeLimit":2000,"tests":[{{"input":"3 125 175\n200 300 400\n","output":"2\n"}},{{"input":"1 1 1\n2\n","output":"1\n"}},{{"input":"5 123 456\n135 246 357 468 579\n","output":"5\n"}}],"testType":"single","input":{{"type":"stdin"}},"output":{{"type":"stdout"}},"languages":{{"java":{{"mainClass":"Main","taskClass":"ANChoiceQuestion"}}}},"batch":{{"id":"{batch}","size":{size}}}}}"#
    )
}

/// Reads all of stdin into `s`.
const READ_ALL: &str = "use std::io::Read;\nfn input() -> String { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); s }\n";

pub(crate) fn watermelon_right() -> String {
    format!("{READ_ALL}fn main() {{ let w: u32 = input().trim().parse().unwrap(); println!(\"{{}}\", if w % 2 == 0 && w > 2 {{ \"YES\" }} else {{ \"NO\" }}); }}\n")
}

pub(crate) fn watermelon_wrong() -> String {
    format!("{READ_ALL}fn main() {{ let _ = input(); println!(\"NO\"); }}\n")
}

pub(crate) fn abc300_a_right() -> String {
    format!("{READ_ALL}fn main() {{ let v: Vec<u64> = input().split_whitespace().map(|t| t.parse().unwrap()).collect(); let i = v[3..].iter().position(|&c| c == v[1] + v[2]).unwrap(); println!(\"{{}}\", i + 1); }}\n")
}

pub(crate) fn abc300_a_wrong() -> String {
    format!("{READ_ALL}fn main() {{ let _ = input(); println!(\"1\"); }}\n")
}

/// The verdict of `source` on the samples of `problem`, as `solutions/PROBLEM/NAME.rs`.
pub(crate) fn verdict(ws: &Workspace, problem: &str, name: &str, source: &str) -> String {
    ws.write(&format!("solutions/{problem}/{name}.rs"), source);
    let out = ws
        .judge()
        .args(["run", name, "--problem", problem, "--samples", "--json"])
        // Any verdict is an answer here: its code is checked against it below.
        .any_exit()
        .run();
    let doc = out.json();
    let verdict = doc["verdict"].as_str().unwrap().to_string();
    assert_eq!(
        out.code,
        Some(if verdict == "AC" { 0 } else { 1 }),
        "{doc:#}"
    );
    verdict
}

/// Whether 127.0.0.1:`port` is listened on, and nothing wider is (from /proc/net/tcp*).
fn listens_on_loopback_only(port: u16) -> bool {
    let mut loopback = false;
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let text = std::fs::read_to_string(table).unwrap_or_default();
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (Some(local), Some(state)) = (fields.get(1), fields.get(3)) else {
                continue;
            };
            let (address, p) = local.split_once(':').unwrap();
            if *state != "0A" || u16::from_str_radix(p, 16) != Ok(port) {
                continue;
            }
            if address == "0100007F" {
                loopback = true;
            } else {
                return false;
            }
        }
    }
    loopback
}

#[test]
fn one_problem_becomes_a_problem_to_judge() {
    let ws = Workspace::new();
    let listener = listen(&ws, &["--once", "--new"]);
    assert!(
        listens_on_loopback_only(listener.port),
        "bound beyond 127.0.0.1"
    );
    let (status, text) = listener.post(abc300_a("b1", 1).as_bytes());
    assert_eq!((status, text.as_str()), (200, "created abc300-a\n"));
    let (code, out, err) = listener.finish(0);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains(
            "created abc300-a: 3 samples · 2 s · 1 GiB · judge run main --problem abc300-a"
        ),
        "{out}"
    );
    assert!(
        out.contains("started solutions/abc300-a/main.rs from the template"),
        "{out}"
    );
    let toml = std::fs::read_to_string(ws.path().join("problems/abc300-a/problem.toml")).unwrap();
    assert!(
        toml.contains("time_limit = \"2s\"") && toml.contains("memory_limit = \"1GiB\""),
        "{toml}"
    );
    assert!(
        toml.contains("url = \"https://atcoder.jp/contests/abc300/tasks/abc300_a\""),
        "{toml}"
    );
    assert_eq!(
        std::fs::read_to_string(ws.path().join("testcases/abc300-a/3.in")).unwrap(),
        "5 123 456\n135 246 357 468 579\n"
    );
    assert!(ws.path().join("solutions/abc300-a/main.rs").is_file());
    assert_eq!(verdict(&ws, "abc300-a", "right", &abc300_a_right()), "AC");
    assert_eq!(verdict(&ws, "abc300-a", "wrong", &abc300_a_wrong()), "WA");

    // The same problem again: recognised, nothing written twice.
    let listener = listen(&ws, &["--once"]);
    let (status, _) = listener.post(abc300_a("b2", 1).as_bytes());
    assert_eq!(status, 200);
    let (_, out, _) = listener.finish(0);
    assert!(
        out.contains("abc300-a: already here, nothing new (3 tests there)"),
        "{out}"
    );
    assert!(out.contains("judge run main --problem abc300-a"), "{out}");
}

#[test]
fn a_contest_arrives_as_a_batch_and_once_stops_after_it() {
    let ws = Workspace::new();
    let listener = listen(&ws, &["--once"]);
    let batch = "6f1c9a52-1d7e-4a4b-9a55-2f0e8d3c7b10";
    let third = watermelon(batch, 3)
        .replace("A. Watermelon", "B. Watermelon Again")
        .replace("problem/4/A", "problem/4/B")
        .replace(
            r#""input": "8\n", "output": "YES\n""#,
            r#""input": "2\n", "output": "NO\n""#,
        );
    for body in [watermelon(batch, 3), abc300_a(batch, 3), third] {
        assert_eq!(listener.post(body.as_bytes()).0, 200);
    }
    let (code, out, err) = listener.finish(0);
    assert_eq!(code, Some(0), "{out}{err}");
    for id in ["cf-4a", "abc300-a", "cf-4b"] {
        assert!(out.contains(&format!("created {id}: ")), "{out}");
        assert!(ws
            .path()
            .join("problems")
            .join(id)
            .join("problem.toml")
            .is_file());
    }
    assert!(out.contains("all 3 problems of"), "{out}");
    assert_eq!(verdict(&ws, "cf-4b", "right", &watermelon_right()), "AC");
    assert_eq!(verdict(&ws, "cf-4a", "wrong", &watermelon_wrong()), "WA");
}

#[test]
fn a_problem_that_reads_and_writes_files() {
    let ws = Workspace::new();
    let listener = listen(&ws, &["--once"]);
    let body = watermelon("f1", 1)
        .replace(
            r#""input": {"type": "stdin"}"#,
            r#""input": {"type": "file", "fileName": "input.txt"}"#,
        )
        .replace(
            r#""output": {"type": "stdout"}"#,
            r#""output": {"type": "file", "fileName": "output.txt"}"#,
        );
    assert_eq!(listener.post(body.as_bytes()).0, 200);
    let (_, out, _) = listener.finish(0);
    assert!(out.contains("reads input.txt, writes output.txt"), "{out}");
    let toml = std::fs::read_to_string(ws.path().join("problems/cf-4a/problem.toml")).unwrap();
    assert!(
        toml.contains("input_file = \"input.txt\"")
            && toml.contains("output_file = \"output.txt\""),
        "{toml}"
    );
    let right = "fn main() { let w: u32 = std::fs::read_to_string(\"input.txt\").unwrap().trim().parse().unwrap(); std::fs::write(\"output.txt\", if w % 2 == 0 && w > 2 { \"YES\\n\" } else { \"NO\\n\" }).unwrap(); }\n";
    assert_eq!(verdict(&ws, "cf-4a", "files", right), "AC");
    // The right answer on stdout is not the file.
    let to_stdout = right
        .replace("std::fs::write(\"output.txt\", ", "print!(\"{}\", ")
        .replace(").unwrap(); }", "); }");
    ws.write("solutions/cf-4a/stdout.rs", &to_stdout);
    let doc = ws
        .judge()
        .args(["run", "stdout", "--problem", "cf-4a", "--json"])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["verdict"], "WA", "{doc:#}");
    let detail = doc["cases"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("wrote no output.txt"), "{detail}");
}

#[test]
fn bad_requests_are_refused_with_the_reason_and_write_nothing() {
    let ws = Workspace::new();
    let listener = listen(&ws, &["--once"]);
    let whole = watermelon("bad", 1);
    let no_output = whole.replace(r#", "output": "YES\n""#, "");
    for (body, status, reason) in [
        ("hello".to_string(), 400, "not JSON"),
        (
            r#"{"title": "x"}"#.to_string(),
            400,
            "not Competitive Companion's JSON",
        ),
        (
            no_output,
            400,
            "test 1 of 1 of `A. Watermelon` has no output",
        ),
        (
            whole[..whole.len() / 2].to_string(),
            400,
            "the JSON ends early",
        ),
        (
            whole.replace("\"interactive\": false", "\"interactive\": true"),
            400,
            "interactive",
        ),
    ] {
        let (got, text) = listener.post(body.as_bytes());
        assert_eq!(got, status, "{text}");
        assert!(text.contains(reason), "{reason} not in {text}");
    }
    // A web page the user visits cannot send problems.
    let (got, _) = listener.post_with(whole.as_bytes(), &[("Origin", "https://example.com")]);
    assert_eq!(got, 403);
    let entries = |dir: &str| std::fs::read_dir(ws.path().join(dir)).map_or(0, |d| d.count());
    assert_eq!(entries("problems"), 0, "a refused problem left files");
    assert_eq!(entries("testcases"), 0);
    // The batch still ends with the next good problem.
    assert_eq!(listener.post(whole.as_bytes()).0, 200);
    let (code, out, err) = listener.finish(2);
    assert_eq!(code, Some(2), "--once with refusals exits 2: {out}{err}");
    assert_eq!(err.matches("error: refused a request").count(), 6, "{err}");
    assert!(err.contains("(400): not JSON"), "{err}");
    assert!(out.contains("created cf-4a"), "{out}");
}

#[test]
fn an_oversized_request_is_refused() {
    let ws = Workspace::new();
    let listener = listen(&ws, &["--once"]);
    let huge = watermelon("big", 1).replace("8\\n", &"8 ".repeat(9 << 20));
    assert!(huge.len() > 16 << 20);
    let (status, text) = listener.post(huge.as_bytes());
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("over 16 MiB"), "{text}");
    assert_eq!(
        std::fs::read_dir(ws.path().join("problems"))
            .unwrap()
            .count(),
        0
    );
    assert_eq!(listener.post(watermelon("b", 1).as_bytes()).0, 200);
    let (_, _, err) = listener.finish(2);
    assert!(err.contains("(413): the request is over 16 MiB"), "{err}");
}

#[test]
fn a_port_in_use_is_named_with_the_fix() {
    let ws = Workspace::new();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let err = ws
        .judge()
        .args(["listen", "--port", &port])
        .expect_exit(2)
        .run()
        .stderr;
    assert!(err.contains(&format!("port {port} is in use")), "{err}");
    assert!(err.contains("--port"), "{err}");
}

#[test]
fn ctrl_c_stops_the_listener_cleanly() {
    let ws = Workspace::new();
    let listener = listen(&ws, &[]);
    assert_eq!(listener.post(watermelon("c", 1).as_bytes()).0, 200);
    let stopped = listener
        .listener
        .expect_exit(130)
        .ctrl_c(Duration::from_secs(20));
    assert_eq!(stopped.code, Some(130));
    let out = stopped.stdout;
    assert!(out.contains("created cf-4a"), "{out}");
    let names: Vec<String> = std::fs::read_dir(ws.path().join("problems"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["cf-4a"], "nothing half-made is left");
}
