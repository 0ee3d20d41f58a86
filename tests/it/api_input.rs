//! `judge api` given bad input and bad programs: a body that is not JSON, a missing field, a
//! negative limit, a file name that escapes the working folder, a body over the cap: each a 4xx
//! with a JSON reason, nothing run and nothing left behind. A program that floods its output or
//! sleeps is stopped by its limits; a client that goes away has its program stopped.

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{first_address, Running, Test};

struct Api {
    server: Option<Running>,
    base: String,
    dir: tempfile::TempDir,
}

impl Api {
    fn start(args: &[&str]) -> Api {
        let dir = tempfile::tempdir().unwrap();
        let mut server = Test::at(dir.path())
            .args(["api", "--port", "0", "--jobs", "1"])
            .args(args)
            .expect_exit(130)
            .spawn();
        let base = first_address(&mut server);
        Api {
            server: Some(server),
            base,
            dir,
        }
    }

    /// `POST /run_code` with `body` as it is: the status and the JSON answer.
    fn post(&self, body: impl Into<Vec<u8>>) -> (u16, Value) {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        let mut response = agent
            .post(format!("{}/run_code", self.base))
            .header("Content-Type", "application/json")
            .send(&body.into()[..])
            .unwrap();
        let text = response.body_mut().read_to_string().unwrap();
        let doc = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        (response.status().as_u16(), doc)
    }

    /// `judge_api_running` of `/metrics`: programs running now.
    fn running(&self) -> f64 {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let text = agent
            .get(format!("{}/metrics", self.base))
            .call()
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("judge_api_running "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no judge_api_running in {text}"))
    }

    /// The files and folders the service's folder holds now, but the judge's own state.
    fn left(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != ".judge")
            .collect();
        names.sort();
        names
    }
}

impl Drop for Api {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            server.ctrl_c(Duration::from_secs(10));
        }
    }
}

fn refused(api: &Api, body: impl Into<Vec<u8>>, status: u16, says: &str) {
    let (got, doc) = api.post(body);
    assert_eq!(got, status, "{doc}");
    let message = doc["message"].as_str().unwrap_or_default();
    assert!(message.contains(says), "{doc}");
}

#[test]
fn bad_requests_are_refused_with_the_reason_and_nothing_runs_or_stays() {
    let api = Api::start(&[]);
    let print = "print(1)\n";
    refused(&api, "print(1)", 400, "not the JSON this route reads");
    refused(&api, json!({"language": "python"}).to_string(), 400, "code");
    refused(&api, json!({"code": print}).to_string(), 400, "language");
    refused(
        &api,
        json!({"code": print, "language": "python", "run_timeout": -1}).to_string(),
        400,
        "`run_timeout` is -1: give a positive number of seconds",
    );
    for name in ["../escaped.txt", "/tmp/escaped.txt", "a/../../escaped.txt"] {
        let files = json!({ name: "aGVsbG8=" });
        let body = json!({"code": print, "language": "python", "files": files});
        refused(&api, body.to_string(), 400, name);
    }
    assert!(!api
        .dir
        .path()
        .parent()
        .unwrap()
        .join("escaped.txt")
        .exists());
    // 64 MiB is the cap: refused before it is read whole.
    let big = json!({"code": "#".repeat(65 << 20), "language": "python"}).to_string();
    refused(&api, big, 413, "over 64 MiB");
    assert_eq!(api.left(), Vec::<String>::new());
    assert_eq!(api.running(), 0.0);
    // And the service still runs code.
    let (status, doc) = api.post(json!({"code": print, "language": "python"}).to_string());
    assert_eq!(
        (status, doc["run_result"]["stdout"].as_str()),
        (200, Some("1\n")),
        "{doc}"
    );
}

#[test]
fn a_program_that_floods_or_sleeps_is_stopped_by_its_limits() {
    let api = Api::start(&["--output-limit", "1MiB"]);
    let flood = json!({"code": "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n", "language": "python", "run_timeout": 10});
    let (status, doc) = api.post(flood.to_string());
    let stdout = doc["run_result"]["stdout"]
        .as_str()
        .unwrap_or_default()
        .len();
    let message = doc["message"].as_str().unwrap_or_default();
    // Its output stopped at the limit: a failure that says so, with 1 MiB kept (and the one
    // byte past it that showed the limit crossed).
    assert_eq!(
        (status, doc["status"].as_str()),
        (200, Some("Failed")),
        "{message}"
    );
    assert!(message.contains("OLE"), "{message}");
    assert!(stdout <= (1 << 20) + 1, "{stdout} bytes of output kept");
    let started = Instant::now();
    let sleep =
        json!({"code": "import time\ntime.sleep(100)\n", "language": "python", "run_timeout": 1});
    let (status, doc) = api.post(sleep.to_string());
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["run_result"]["status"], "TimeLimitExceeded", "{doc}");
    assert!(started.elapsed() < Duration::from_secs(30), "{doc}");
}

#[test]
fn a_client_that_goes_away_has_its_program_stopped() {
    let api = Api::start(&[]);
    let body = json!({"code": "while True:\n    pass\n", "language": "python", "run_timeout": 25})
        .to_string();
    let address = api.base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "POST /run_code HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // Running: then the client goes away.
    let started = Instant::now();
    while api.running() < 1.0 {
        assert!(started.elapsed() < Duration::from_secs(30), "never ran");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    stream.shutdown(std::net::Shutdown::Both).unwrap();
    drop(stream);
    let gone = Instant::now();
    while api.running() > 0.0 {
        // Its 25 s of CPU time would keep it running: stopped, it is over in a moment.
        assert!(
            gone.elapsed() < Duration::from_secs(10),
            "still running {:?} after the client went away",
            gone.elapsed()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The next client is served at once.
    let (status, doc) = api.post(json!({"code": "print(2)\n", "language": "python"}).to_string());
    assert_eq!(
        (status, doc["run_result"]["stdout"].as_str()),
        (200, Some("2\n")),
        "{doc}"
    );
}
