//! `judge api`'s own door, `POST /v1/judge` and `/v1/batch`, through a real HTTP client (ureq)
//! against a real server: a problem of the workspace judged as `judge run --json` judges it (the
//! same answer), tests sent with the request under each checker (tokens, float, a function, a
//! testlib checker), partial credit, a line per test streamed as it is decided (and a client
//! that goes away stopping the work), batches answered in order or refused at once, bad
//! requests refused with a JSON reason; and the rule that keeps web pages out of every door
//! when there is no token.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{repo, shipped, Test};

/// A running `judge api` (`crate::api::Api`), with the calls of this door.
struct Api(crate::api::Api);

impl std::ops::Deref for Api {
    type Target = crate::api::Api;

    fn deref(&self) -> &crate::api::Api {
        &self.0
    }
}

impl Api {
    /// `judge api --port 0 ARGS...` in `dir`.
    fn start(dir: &Path, args: &[&str]) -> Api {
        Api(crate::api::Api::start_at(dir, args))
    }

    /// In the shipped workspace.
    fn shipped(args: &[&str]) -> Api {
        Api::start(&shipped(), args)
    }

    /// `POST path` with `body`: the status and the JSON answer.
    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, _, doc) = self.0.post(path, body, &[]);
        (status, doc)
    }

    /// `POST /v1/judge` answered 200: the answer.
    fn judge(&self, body: Value) -> Value {
        let (status, doc) = self.post("/v1/judge", &body);
        assert_eq!(status, 200, "{}", cap(&doc.to_string()));
        assert_eq!(doc["schema"], "judge.api.judge/1");
        doc
    }

    /// `judge_api_running` of `/metrics`: programs running now.
    fn running(&self) -> f64 {
        let (_, text) = self.get("/metrics");
        text.lines()
            .find_map(|l| l.strip_prefix("judge_api_running "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no judge_api_running in {}", cap(&text)))
    }

    fn address(&self) -> &str {
        self.base.trim_start_matches("http://")
    }

    /// Waits until a program runs.
    fn until_running(&self) {
        let started = Instant::now();
        while self.running() < 1.0 {
            assert!(started.elapsed() < Duration::from_secs(60), "never ran");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(300)))
        .build()
        .into()
}

/// At most a few hundred characters of `text`, for an assertion's message.
fn cap(text: &str) -> String {
    text.chars().take(400).collect()
}

/// A raw HTTP/1.1 request with the headers given: the status of its answer, and its body.
fn raw(address: &str, head: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {}", cap(&answer)));
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body.to_string())
}

fn source(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap()
}

const PY_SUM: &str = "import sys\na, b = map(int, sys.stdin.read().split())\nprint(a + b)\n";

/// The answer with what a machine measures, and the fields only the service's answer has,
/// set aside: what must be the same as `judge run --json`'s. (`expected` is what the problem
/// expects of a solution it names: the code sent is none of them.)
fn judged_fields(doc: &Value) -> Value {
    let mut doc = doc.clone();
    let fields = doc.as_object_mut().unwrap();
    for k in [
        "schema", "score", "tests", "solution", "path", "compile", "expected",
    ] {
        fields.remove(k);
    }
    for case in fields["cases"].as_array_mut().unwrap() {
        let case = case.as_object_mut().unwrap();
        for k in [
            "time_ms",
            "wall_ms",
            "memory_kb",
            "saved_output",
            "parallel",
            "rerun",
        ] {
            case.remove(k);
        }
    }
    doc
}

#[test]
fn a_workspace_problem_is_judged_as_judge_run_judges_it() {
    let api = Api::shipped(&["--jobs", "2"]);
    for (solution, language, exit, verdict) in [
        ("nqueens-ii/cpp-bitmask.cpp", "cpp", 0, "AC"),
        ("nqueens/twice.rs", "rust", 1, "WA"),
    ] {
        let problem = solution.split('/').next().unwrap();
        let code = source(&format!("solutions/{solution}"));
        let doc = api.judge(json!({"problem": problem, "language": language, "code": code}));
        let run = Test::at(shipped())
            .args([
                "run",
                solution.trim_end_matches(".cpp").trim_end_matches(".rs"),
            ])
            .args(["--json", "--full", "--no-history"])
            .expect_exit(exit)
            .run()
            .json();
        assert_eq!(doc["verdict"], verdict, "{}", cap(&doc.to_string()));
        let (ours, theirs) = (judged_fields(&doc), judged_fields(&run));
        let differ: Vec<&String> = ours
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, v)| theirs.get(k.as_str()) != Some(v))
            .map(|(k, _)| k)
            .collect();
        assert!(
            ours == theirs,
            "the service's answer is judge run's but for {differ:?}"
        );
        assert_eq!(doc["compile"]["diagnostics"], run["compile"]["diagnostics"]);
        let (passed, total) = (
            doc["passed"].as_f64().unwrap(),
            doc["total"].as_f64().unwrap(),
        );
        assert_eq!(doc["score"].as_f64().unwrap(), passed / total);
        let tests = doc["tests"].as_array().unwrap();
        assert_eq!(tests.len(), doc["cases"].as_array().unwrap().len());
        for (i, t) in tests.iter().enumerate() {
            assert_eq!(t["test"], i + 1);
            assert_eq!(t["name"], doc["cases"][i]["name"]);
            assert_eq!(t["verdict"], doc["cases"][i]["verdict"]);
            assert!(t["margin"].as_f64().unwrap() <= 1.0, "{t}");
        }
        assert!(
            !doc.to_string().contains("execute."),
            "no folder of the service's in the answer"
        );
    }
    // Over its time limit (asked lower than the problem's): TLE, and partial credit.
    let code = source("solutions/nqueens-ii/py-bitmask.py");
    let doc = api.judge(
        json!({"problem": "nqueens-ii", "language": "python", "code": code, "time_limit_ms": 300}),
    );
    assert_eq!(doc["verdict"], "TLE", "{}", cap(&doc.to_string()));
    let score = doc["score"].as_f64().unwrap();
    assert!(score > 0.0 && score < 1.0, "{score}");
    let over = doc["tests"].as_array().unwrap().iter();
    let over: Vec<&Value> = over.filter(|t| t["verdict"] == "TLE").collect();
    assert!(!over.is_empty());
    assert!(over.iter().all(|t| t["margin"].as_f64().unwrap() <= 0.0));
}

#[test]
fn tests_sent_are_judged_under_the_checker_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let api = Api::start(dir.path(), &["--jobs", "2"]);
    let tests = json!([
        {"input": "1 2\n", "output": "3\n"},
        {"input": "10 20\n", "output": "30"},
        {"input": "2 2\n", "output": "5\n"},
    ]);
    let doc = api.judge(json!({"tests": tests, "language": "python", "code": PY_SUM}));
    assert_eq!(doc["verdict"], "WA", "{}", cap(&doc.to_string()));
    assert_eq!(
        (doc["passed"].as_u64(), doc["total"].as_u64()),
        (Some(2), Some(3))
    );
    assert!((doc["score"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-9);
    let verdicts: Vec<&str> = doc["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["AC", "AC", "WA"]);
    assert_eq!(doc["tests"][2]["name"], "03");
    assert!(doc["tests"][2]["detail"].as_str().unwrap().contains('5'));
    assert_eq!(doc["limits"]["time_ms"], 2000, "the default for tests sent");

    // Numbers within a tolerance; the same output byte for byte is not the answer.
    let third = "print(1 / 3)\n";
    let tests = json!([{"input": "", "output": "0.333333\n"}]);
    let float = json!({"float": {"absolute": 1e-6}});
    let doc =
        api.judge(json!({"tests": tests, "checker": float, "language": "python", "code": third}));
    assert_eq!(doc["verdict"], "AC", "{}", cap(&doc.to_string()));
    let doc =
        api.judge(json!({"tests": tests, "checker": "exact", "language": "python", "code": third}));
    assert_eq!(doc["verdict"], "WA", "{}", cap(&doc.to_string()));

    // A program over its time.
    let doc = api.judge(
        json!({"tests": [{"input": "", "output": ""}], "language": "python",
        "code": "while True:\n    pass\n", "time_limit_ms": 500}),
    );
    assert_eq!(doc["verdict"], "TLE", "{}", cap(&doc.to_string()));
    assert_eq!(doc["score"], 0.0);
}

#[test]
fn a_function_and_a_testlib_checker_are_judged() {
    let dir = tempfile::tempdir().unwrap();
    let api = Api::start(dir.path(), &["--jobs", "2"]);
    let function = json!({"function": {"name": "addBoth", "params": ["a: int", "b: int[]"], "returns": "int"}});
    let code = "class Solution:\n    def addBoth(self, a: int, b: List[int]) -> int:\n        return a + sum(b)\n";
    let tests =
        json!([{"input": "1\n[2,3]\n", "output": "6"}, {"input": "0\n[]\n", "output": "1"}]);
    let doc =
        api.judge(json!({"tests": tests, "checker": function, "language": "python", "code": code}));
    assert_eq!(doc["verdict"], "WA", "{}", cap(&doc.to_string()));
    assert_eq!(doc["tests"][0]["verdict"], "AC");
    assert_eq!(doc["tests"][1]["verdict"], "WA");

    // A checker that accepts any number of the answer's parity, with the testlib-compatible
    // header the tests use, sent beside it.
    let checker = r#"#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long want = ans.readLong(), got = ouf.readLong();
    if ((want - got) % 2 != 0) quitf(_wa, "expected the parity of %lld, got %lld", want, got);
    quitf(_ok, "same parity");
}
"#;
    let header = source("tests/fixtures/polygon/testlib.h");
    let testlib = json!({"testlib": {"code": checker, "files": {"testlib.h": header}}});
    let tests = json!([{"input": "1 2\n", "output": "7"}, {"input": "1 1\n", "output": "3"}]);
    let doc = api
        .judge(json!({"tests": tests, "checker": testlib, "language": "python", "code": PY_SUM}));
    assert_eq!(
        doc["tests"][0]["verdict"],
        "AC",
        "{}",
        cap(&doc.to_string())
    );
    assert_eq!(doc["tests"][1]["verdict"], "WA");
    assert!(doc["tests"][1]["detail"]
        .as_str()
        .unwrap()
        .contains("expected the parity of 3, got 2"));
}

/// A program that answers at once on `fast` and after `seconds` of CPU time on `slow`.
fn slow_on(seconds: f64) -> String {
    format!(
        "import sys, time\nif sys.stdin.read().strip() == 'slow':\n    end = time.process_time() + {seconds}\n    while time.process_time() < end:\n        pass\nprint('ok')\n"
    )
}

#[test]
fn a_stream_tells_each_test_as_it_is_decided() {
    let dir = tempfile::tempdir().unwrap();
    let api = Api::start(dir.path(), &["--jobs", "1"]);
    let tests = json!([
        {"input": "fast", "output": "ok"},
        {"input": "slow", "output": "ok"},
        {"input": "fast", "output": "no"},
    ]);
    let body =
        json!({"tests": tests, "language": "python", "code": slow_on(1.5), "time_limit_ms": 5000});
    let started = Instant::now();
    let response = agent()
        .post(format!("{}/v1/judge?stream=1", api.base))
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let mut lines = Vec::new();
    let mut reader = BufReader::new(response.into_body().into_reader());
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        lines.push((
            started.elapsed(),
            serde_json::from_str::<Value>(&line).unwrap(),
        ));
    }
    let schemas: Vec<&str> = lines
        .iter()
        .map(|(_, l)| l["schema"].as_str().unwrap())
        .collect();
    assert_eq!(
        schemas,
        [
            "judge.api.test/1",
            "judge.api.test/1",
            "judge.api.test/1",
            "judge.api.judge/1"
        ]
    );
    let verdicts: Vec<&Value> = lines[..3].iter().map(|(_, l)| &l["verdict"]).collect();
    assert_eq!(verdicts, ["AC", "AC", "WA"]);
    assert_eq!(
        (lines[0].1["test"].as_u64(), lines[0].1["total"].as_u64()),
        (Some(1), Some(3))
    );
    // The first test's line came before the second test's 1.5 s of CPU time were spent.
    assert!(
        lines[1].0 - lines[0].0 > Duration::from_millis(1000),
        "{:?}",
        lines.iter().map(|l| l.0).collect::<Vec<_>>()
    );
    let answer = &lines[3].1;
    assert_eq!(answer["verdict"], "WA");
    assert_eq!(
        answer["tests"][0],
        lines[0]
            .1
            .as_object()
            .map(|l| {
                let mut l = l.clone();
                l.remove("schema");
                Value::Object(l)
            })
            .unwrap()
    );

    // A refusal before the judging starts is an answer of its own.
    let (status, doc) = api.post(
        "/v1/judge?stream=1",
        &json!({"problem": "none", "language": "python", "code": ""}),
    );
    assert_eq!(status, 404, "{doc}");
}

#[test]
fn a_streams_client_that_goes_away_stops_its_work() {
    let dir = tempfile::tempdir().unwrap();
    let api = Api::start(dir.path(), &["--jobs", "1"]);
    let slow = json!({"input": "slow", "output": "ok"});
    let body = json!({"tests": [{"input": "fast", "output": "ok"}, slow, slow, slow],
        "language": "python", "code": slow_on(20.0), "time_limit_ms": 25000})
    .to_string();
    let mut stream = TcpStream::connect(api.address()).unwrap();
    write!(
        stream,
        "POST /v1/judge?stream=1 HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        api.address(),
        body.len()
    )
    .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut seen = String::new();
    while !seen.contains("judge.api.test/1") {
        let mut line = String::new();
        assert!(reader.read_line(&mut line).unwrap() > 0, "{}", cap(&seen));
        seen += &line;
    }
    // The first test is told; the second runs its 20 s: then the client goes away.
    api.until_running();
    std::thread::sleep(Duration::from_millis(500));
    stream.shutdown(std::net::Shutdown::Both).unwrap();
    drop((stream, reader));
    let gone = Instant::now();
    while api.running() > 0.0 {
        assert!(
            gone.elapsed() < Duration::from_secs(10),
            "still running {:?} after the client went away",
            gone.elapsed()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let doc = api.judge(
        json!({"tests": [{"input": "2 3", "output": "5"}], "language": "python", "code": PY_SUM}),
    );
    assert_eq!(doc["verdict"], "AC", "the next request is served");
}

#[test]
fn a_batch_is_answered_in_order_or_refused_at_once() {
    let api = Api::shipped(&["--jobs", "1", "--queue", "2"]);
    let sum = |output: &str| json!({"tests": [{"input": "1 2", "output": output}], "language": "python", "code": PY_SUM});
    // Refused alone before it runs (no tests), and when judged (no such problem): in place.
    let empty = json!({"tests": [], "language": "python", "code": ""});
    let nowhere = json!({"problem": "nowhere", "language": "python", "code": ""});
    let batch = json!({"requests": [sum("3"), empty, sum("4"), nowhere]});
    let (status, doc) = api.post("/v1/batch", &batch);
    assert_eq!(status, 200, "{}", cap(&doc.to_string()));
    assert_eq!(doc["schema"], "judge.api.batch/1");
    let answers = doc["answers"].as_array().unwrap();
    assert_eq!(answers.len(), 4);
    assert_eq!(answers[0]["verdict"], "AC");
    assert_eq!(
        answers[1]["status"],
        400,
        "{}",
        cap(&answers[1].to_string())
    );
    assert_eq!(answers[2]["verdict"], "WA");
    assert_eq!(
        answers[3]["status"],
        404,
        "{}",
        cap(&answers[3].to_string())
    );
    assert!(answers[3]["message"].as_str().unwrap().contains("nowhere"));

    // One request holds the judge: a batch of 3 does not fit in the 2 places left, at once;
    // one of 4 never could.
    let holder = {
        let base = api.base.clone();
        let body = json!({"tests": [{"input": "slow", "output": "ok"}], "language": "python",
            "code": slow_on(6.0), "time_limit_ms": 10000});
        std::thread::spawn(move || {
            agent()
                .post(format!("{base}/v1/judge"))
                .header("Content-Type", "application/json")
                .send(body.to_string())
                .unwrap()
                .status()
                .as_u16()
        })
    };
    api.until_running();
    let three = json!({"requests": [sum("3"), sum("3"), sum("3")]});
    let asked = Instant::now();
    let (status, doc) = api.post("/v1/batch", &three);
    assert_eq!(status, 429, "{}", cap(&doc.to_string()));
    assert!(asked.elapsed() < Duration::from_secs(3), "at once");
    assert!(doc["message"].as_str().unwrap().contains("busy"));
    let four = json!({"requests": [sum("3"), sum("3"), sum("3"), sum("3")]});
    let (status, doc) = api.post("/v1/batch", &four);
    assert_eq!(status, 400, "{}", cap(&doc.to_string()));
    assert!(doc["message"].as_str().unwrap().contains("--queue"));
    // Two fit: they wait for the judge, then are answered.
    let two = json!({"requests": [sum("3"), sum("3")]});
    let (status, doc) = api.post("/v1/batch", &two);
    assert_eq!(status, 200, "{}", cap(&doc.to_string()));
    assert_eq!(holder.join().unwrap(), 200);
}

#[test]
fn a_workspace_problems_own_limits_over_the_caps_are_refused_and_lower_ones_judged() {
    // nqueens-ii's time limit is 4 s: over a cap of 2 s.
    let api = Api::shipped(&["--jobs", "1", "--max-time", "2s"]);
    let code = source("solutions/nqueens-ii/bitmask.rs");
    let asked = json!({"problem": "nqueens-ii", "language": "rust", "code": code});
    let (status, doc) = api.post("/v1/judge", &asked);
    assert_eq!(status, 400, "{}", cap(&doc.to_string()));
    let message = doc["message"].as_str().unwrap();
    assert!(
        message.contains("problem `nqueens-ii` is judged under its own limits")
            && message.contains("cap of 2 s"),
        "{message}"
    );
    let mut lower = asked.clone();
    lower["time_limit_ms"] = json!(1500);
    let doc = api.judge(lower);
    assert_eq!(doc["verdict"], "AC", "{}", cap(&doc.to_string()));
    assert_eq!(doc["limits"]["time_ms"], 1500);
}

#[test]
fn bad_requests_are_refused_with_the_reason() {
    let api = Api::shipped(&["--jobs", "1", "--max-time", "5s"]);
    let tests = json!([{"input": "1 2", "output": "3"}]);
    for (body, status, says) in [
        (
            json!({"problem": "nowhere", "language": "python", "code": ""}),
            404,
            "nowhere",
        ),
        (
            json!({"tests": [], "language": "python", "code": ""}),
            400,
            "empty",
        ),
        (json!({"language": "python", "code": ""}), 400, "`problem`"),
        (
            json!({"tests": tests, "checker": "fuzzy", "language": "python", "code": ""}),
            400,
            "fuzzy",
        ),
        (
            json!({"tests": tests, "checker": {"function": {"name": "f", "params": ["a: integer"], "returns": "int"}},
            "language": "python", "code": ""}),
            400,
            "integer",
        ),
        (
            json!({"tests": tests, "language": "brainfudge", "code": ""}),
            400,
            "brainfudge",
        ),
        (
            json!({"tests": tests, "language": "python", "code": "", "time_limit_ms": 60000}),
            400,
            "--max-time",
        ),
        (
            json!({"problem": "nqueens", "checker": "tokens", "language": "python", "code": ""}),
            400,
            "own",
        ),
        (
            json!({"tests": tests, "language": "python", "code": "", "tset": 1}),
            400,
            "tset",
        ),
    ] {
        let (got, doc) = api.post("/v1/judge", &body);
        let message = doc["message"].as_str().unwrap_or_default();
        assert_eq!(got, status, "{body}: {}", cap(&doc.to_string()));
        assert!(message.contains(says), "{says}: {}", cap(message));
    }
    let (status, doc) = api.post("/v1/batch", &json!({"requests": []}));
    assert_eq!(status, 400, "{doc}");
}

#[test]
fn with_no_token_only_json_under_this_services_name_is_served_at_every_door() {
    let dir = tempfile::tempdir().unwrap();
    let api = Api::start(dir.path(), &["--jobs", "1"]);
    let address = api.address();
    let body = json!({"code": "print(1)", "language": "python"}).to_string();
    for path in ["/run_code", "/api/v2/execute", "/v1/judge", "/v1/batch"] {
        for kind in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
        ] {
            let head = format!("POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: {kind}");
            let (status, answer) = raw(address, &head, &body);
            assert_eq!(status, 415, "{path} {kind}: {}", cap(&answer));
            assert!(answer.contains("application/json"), "{}", cap(&answer));
        }
        let head = format!("POST {path} HTTP/1.1\r\nHost: {address}");
        assert_eq!(
            raw(address, &head, &body).0,
            415,
            "{path} with no Content-Type"
        );
        let port = address.rsplit_once(':').unwrap().1;
        let rebound = format!("POST {path} HTTP/1.1\r\nHost: attacker.example:{port}\r\nContent-Type: application/json");
        let (status, answer) = raw(address, &rebound, &body);
        assert_eq!(status, 403, "{path}: {}", cap(&answer));
        assert!(answer.contains("attacker.example"), "{}", cap(&answer));
    }
    assert_eq!(api.running(), 0.0, "nothing ran");
    // (Listing the runtimes runs a judge's job: what is asked here is only that it is served.)
    for path in ["/api/v2/runtimes", "/health", "/metrics"] {
        let port = address.rsplit_once(':').unwrap().1;
        let rebound = format!("GET {path} HTTP/1.1\r\nHost: attacker.example:{port}");
        assert_eq!(raw(address, &rebound, "").0, 403, "{path}");
        let own = format!("GET {path} HTTP/1.1\r\nHost: localhost:{port}");
        assert_eq!(raw(address, &own, "").0, 200, "{path}");
    }
}

/// The JSON bodies of the guide's `curl ... -d '{...}'` examples of `/v1/judge`, with whether
/// each asks for a stream.
fn guide_examples() -> Vec<(bool, Value)> {
    let page = source("docs/src/api.md");
    let mut examples = Vec::new();
    let mut rest = page.as_str();
    while let Some(at) = rest.find("curl ") {
        rest = &rest[at..];
        let command = &rest[..rest.find("\n```").unwrap()];
        rest = &rest[command.len()..];
        let Some(body) = command.split_once("-d '").map(|(_, b)| b) else {
            continue;
        };
        let body = &body[..body.rfind('\'').unwrap()];
        let doc = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {}", cap(body)));
        examples.push((command.contains("stream=1"), doc));
    }
    examples
}

#[test]
fn the_guides_examples_are_answered_as_it_says() {
    let examples = guide_examples();
    assert_eq!(examples.len(), 2, "the guide's curl examples with a body");
    let api = Api::shipped(&["--jobs", "1"]);
    for (stream, body) in examples {
        crate::schemas::assert_valid_as("judge.api.request/1", &body);
        let path = if stream {
            "/v1/judge?stream=1"
        } else {
            "/v1/judge"
        };
        let mut response = agent()
            .post(format!("{}{path}", api.base))
            .header("Content-Type", "application/json")
            .send(body.to_string())
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let text = response.body_mut().read_to_string().unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let answer = lines.last().unwrap();
        crate::schemas::assert_valid_as("judge.api.judge/1", answer);
        for line in &lines[..lines.len() - 1] {
            crate::schemas::assert_valid_as("judge.api.test/1", line);
        }
        // As the guide shows: the first example passes, the streamed one passes one of two.
        let expected = if stream { ("WA", 1, 2) } else { ("AC", 2, 2) };
        assert_eq!(
            (
                answer["verdict"].as_str().unwrap(),
                answer["passed"].as_u64().unwrap(),
                answer["total"].as_u64().unwrap()
            ),
            expected
        );
        assert_eq!(lines.len(), if stream { 3 } else { 1 });
    }
    // The guide's first example, as jq makes it.
    let code = source("solutions/nqueens-ii/cpp-bitmask.cpp");
    let doc = api.judge(json!({"problem": "nqueens-ii", "language": "cpp", "code": code}));
    crate::schemas::assert_valid_as("judge.api.judge/1", &doc);
    assert_eq!(doc["verdict"], "AC");
    let batch = json!({"requests": [{"problem": "nowhere", "language": "python", "code": ""}]});
    crate::schemas::assert_valid_as("judge.api.batch.request/1", &batch);
    let (_, doc) = api.post("/v1/batch", &batch);
    crate::schemas::assert_valid_as("judge.api.batch/1", &doc);
}
