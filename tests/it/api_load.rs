//! `judge api` under a load bounded in count and time, on loopback: more clients at once than
//! its judges and queue hold. Overload is answered 429 with `Retry-After` at once, never a
//! time-out, a lost request or a crash; every request retried as asked is answered, and each
//! answer under load is the answer the same request gets alone.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{first_address, Test};

/// Clients at once, and requests each.
const CLIENTS: usize = 16;
const EACH: usize = 12;

/// The programs: Python and C++ sums, some sleeping a little (wall time, not CPU) so that the
/// clients' requests overlap, one failing with an exit status, one printing to stderr.
fn programs() -> Vec<(&'static str, String)> {
    vec![
        ("python", "import time\ntime.sleep(0.05)\na, b = map(int, input().split())\nprint(a + b)\n".into()),
        ("python", "a, b = map(int, input().split())\nprint(a * b)\n".into()),
        ("python", "import sys\na, b = map(int, input().split())\nsys.stderr.write(str(a - b))\nsys.exit(3)\n".into()),
        ("cpp", "#include <cstdio>\n#include <unistd.h>\nint main(){long long a,b;scanf(\"%lld %lld\",&a,&b);usleep(50000);printf(\"%lld\\n\",a+b);}\n".into()),
        ("cpp", "#include <cstdio>\nint main(){long long a,b;scanf(\"%lld %lld\",&a,&b);printf(\"%lld\\n\",a-b);}\n".into()),
    ]
}

/// The request of client `c`'s `i`th call.
fn request(c: usize, i: usize) -> Value {
    let programs = programs();
    let (language, code) = &programs[(c + i) % programs.len()];
    json!({"code": code, "language": language, "stdin": format!("{c} {i}\n"), "run_timeout": 10})
}

/// What of an answer must not depend on load: the statuses, the exit code and the output.
fn kept(doc: &Value) -> Value {
    let run = &doc["run_result"];
    json!({
        "status": doc["status"],
        "compile": doc["compile_result"]["status"],
        "run": run["status"],
        "return_code": run["return_code"],
        "stdout": run["stdout"],
        "stderr": run["stderr"],
    })
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        // Far beyond any answer's time: a request left hanging fails here, not by a time-out.
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// `POST /run_code`: the status, `Retry-After`, and the document.
fn call(agent: &ureq::Agent, base: &str, body: &Value) -> (u16, Option<u64>, Value) {
    let mut response = agent
        .post(format!("{base}/run_code"))
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .unwrap_or_else(|e| panic!("a request got no answer: {e}"));
    let retry = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok()?.parse().ok());
    let text = response.body_mut().read_to_string().unwrap();
    let doc = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (response.status().as_u16(), retry, doc)
}

#[test]
fn under_overload_every_request_is_answered_429_or_as_it_is_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Test::at(dir.path())
        .args(["api", "--port", "0", "--jobs", "2", "--queue", "4"])
        .expect_exit(130)
        .spawn();
    let base = first_address(&mut server);
    let first = agent();
    // Each request alone first (and each source built once).
    let mut alone = std::collections::HashMap::new();
    for c in 0..CLIENTS {
        for i in 0..EACH {
            let (status, _, doc) = call(&first, &base, &request(c, i));
            assert_eq!(status, 200, "{doc}");
            alone.insert((c, i), kept(&doc));
        }
    }
    let started = Instant::now();
    let under_load: Vec<(usize, usize, Value, usize, Duration)> = std::thread::scope(|s| {
        let clients: Vec<_> = (0..CLIENTS)
            .map(|c| {
                let base = &base;
                s.spawn(move || {
                    let agent = agent();
                    let mut answers = Vec::new();
                    for i in 0..EACH {
                        let mut refused = 0;
                        let mut slowest_refusal = Duration::ZERO;
                        loop {
                            let asked = Instant::now();
                            let (status, retry, doc) = call(&agent, base, &request(c, i));
                            if status == 429 {
                                refused += 1;
                                slowest_refusal = slowest_refusal.max(asked.elapsed());
                                assert!(refused < 100, "refused 100 times: {doc}");
                                assert_eq!(retry, Some(1), "{doc}");
                                assert!(doc["message"].as_str().unwrap().contains("busy"), "{doc}");
                                // As asked, shortened: the test stays short.
                                std::thread::sleep(Duration::from_millis(100));
                                continue;
                            }
                            assert_eq!(status, 200, "{doc}");
                            answers.push((c, i, kept(&doc), refused, slowest_refusal));
                            break;
                        }
                    }
                    answers
                })
            })
            .collect();
        clients
            .into_iter()
            .flat_map(|c| c.join().unwrap())
            .collect()
    });
    assert_eq!(under_load.len(), CLIENTS * EACH);
    for (c, i, answer, _, _) in &under_load {
        assert_eq!(answer, &alone[&(*c, *i)], "client {c}, call {i}");
    }
    let refusals: usize = under_load.iter().map(|a| a.3).sum();
    // 16 clients against 2 judges and 4 places in the queue: some were refused.
    assert!(refusals > 0, "no 429 in {} requests", under_load.len());
    // A refusal is said at once, never after a wait for a judge (a program here runs 50 ms).
    let slowest = under_load.iter().map(|a| a.4).max().unwrap();
    assert!(slowest < Duration::from_secs(5), "a 429 took {slowest:?}");
    assert!(started.elapsed() < Duration::from_secs(300));
    assert!(server.is_running(), "the service ended under load");
    let mut health = first.get(format!("{base}/health")).call().unwrap();
    let text = health.body_mut().read_to_string().unwrap();
    assert!(text.contains("\"ready\":true"), "{text}");
    server.ctrl_c(Duration::from_secs(10));
}
