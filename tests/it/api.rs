//! `judge api`, the execution service: SandboxFusion's `/run_code` and Piston's `/api/v2/...`
//! answered as those services answer, a source built once across requests, the caps, the
//! token, a refusal of web pages, 429 with `Retry-After` past the queue, `/health` and
//! `/metrics`; through a real HTTP client (ureq) against a real server, and through
//! SandboxFusion's own client from PyPI (pinned, its wheel's sha256 checked).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{first_address, Running, Test};

/// A running `judge api --port 0 ARGS...` (in a folder given, or with no workspace: a bare
/// temporary folder), stopped as Ctrl-C stops it when dropped.
pub(crate) struct Api {
    server: Option<Running>,
    pub(crate) base: String,
    _dir: Option<tempfile::TempDir>,
}

impl Api {
    pub(crate) fn start(args: &[&str]) -> Api {
        let dir = tempfile::tempdir().unwrap();
        let mut api = Api::start_at(dir.path(), args);
        api._dir = Some(dir);
        api
    }

    /// In `dir`, which outlives the service.
    pub(crate) fn start_at(dir: &Path, args: &[&str]) -> Api {
        let mut server = Test::at(dir)
            .args(["api", "--port", "0"])
            .args(args)
            .expect_exit(130)
            .spawn();
        let base = first_address(&mut server);
        Api {
            server: Some(server),
            base,
            _dir: None,
        }
    }

    /// `POST path` with `body` and extra `headers`: status, `Retry-After`, JSON.
    pub(crate) fn post(
        &self,
        path: &str,
        body: &Value,
        headers: &[(&str, &str)],
    ) -> (u16, Option<String>, Value) {
        let mut request = agent()
            .post(format!("{}{path}", self.base))
            .header("Content-Type", "application/json");
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        let mut response = request.send(body.to_string()).unwrap();
        let retry = response
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_string());
        let text = response.body_mut().read_to_string().unwrap();
        let doc = serde_json::from_str(&text).unwrap_or_else(|e| {
            let shown: String = text.chars().take(400).collect();
            panic!("{e}: {shown}")
        });
        (response.status().as_u16(), retry, doc)
    }

    fn run_code(&self, body: Value) -> Value {
        let (status, _, doc) = self.post("/run_code", &body, &[]);
        assert_eq!(status, 200, "{doc}");
        doc
    }

    pub(crate) fn get(&self, path: &str) -> (u16, String) {
        let mut response = agent().get(format!("{}{path}", self.base)).call().unwrap();
        let text = response.body_mut().read_to_string().unwrap();
        (response.status().as_u16(), text)
    }
}

impl Drop for Api {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            server.ctrl_c(Duration::from_secs(10));
        }
    }
}

pub(crate) fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

const SUM_CPP: &str =
    "#include <cstdio>\nint main(){long long a,b;scanf(\"%lld %lld\",&a,&b);printf(\"%lld\\n\",a+b);}\n";

#[test]
fn run_code_answers_in_sandbox_fusions_shapes() {
    let api = Api::start(&["--jobs", "2"]);
    let ok = api
        .run_code(json!({"code": "print(input()[::-1])", "language": "python", "stdin": "abc\n"}));
    assert_eq!(ok["status"], "Success", "{ok}");
    assert_eq!(ok["run_result"]["status"], "Finished");
    assert_eq!(ok["run_result"]["return_code"], 0);
    assert_eq!(ok["run_result"]["stdout"], "cba\n");
    assert!(
        ok["compile_result"].is_null(),
        "an interpreter has no compile stage: {ok}"
    );

    let ce = api.run_code(json!({"code": "int main(){ return }", "language": "cpp"}));
    assert_eq!(ce["status"], "Failed", "{ce}");
    assert_eq!(ce["compile_result"]["return_code"], 1);
    assert!(
        ce["compile_result"]["stderr"]
            .as_str()
            .unwrap()
            .contains("error"),
        "{ce}"
    );
    assert!(ce["run_result"].is_null(), "{ce}");

    let syntax = api.run_code(json!({"code": "print(1", "language": "python"}));
    assert_eq!(syntax["status"], "Failed", "{syntax}");
    assert_eq!(syntax["run_result"]["return_code"], 1);
    assert!(syntax["run_result"]["stderr"]
        .as_str()
        .unwrap()
        .contains("SyntaxError"));

    let crash =
        api.run_code(json!({"code": "import sys\nprint('x')\nsys.exit(3)", "language": "python"}));
    assert_eq!(crash["status"], "Failed", "{crash}");
    assert_eq!(crash["run_result"]["return_code"], 3);
    assert_eq!(crash["run_result"]["stdout"], "x\n");

    let slow =
        api.run_code(json!({"code": "while True: pass", "language": "python", "run_timeout": 1}));
    assert_eq!(slow["status"], "Failed", "{slow}");
    assert_eq!(slow["run_result"]["status"], "TimeLimitExceeded");
    // Stopped at its second of CPU time (or, on a machine too busy to give it that, at the
    // wall-clock cap), never let run on.
    let cpu = slow["run_result"]["cpu_time"].as_f64().unwrap();
    assert!(cpu < 3.0, "{slow}");

    let hungry = api.run_code(json!({
        "code": "x = bytearray(512 << 20)\nprint(len(x))", "language": "python", "memory_limit_MB": 64
    }));
    assert_eq!(hungry["status"], "Failed", "{hungry}");
    assert!(
        hungry["message"].as_str().unwrap().starts_with("MLE"),
        "{hungry}"
    );

    let files = api.run_code(json!({
        "code": "print(open('data/in.txt').read())\nopen('out.txt', 'w').write('made')",
        "language": "python",
        "files": {"data/in.txt": "aGVsbG8="},
        "fetch_files": ["out.txt", "never.txt"],
    }));
    assert_eq!(files["run_result"]["stdout"], "hello\n", "{files}");
    assert_eq!(files["files"], json!({"out.txt": "bWFkZQ=="}), "{files}");
}

#[test]
fn a_source_seen_before_is_not_built_again() {
    let api = Api::start(&["--jobs", "1"]);
    // A source no earlier test built, so that the first request builds it.
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let code = format!("// {nonce}\n{SUM_CPP}");
    let first = api.run_code(json!({"code": code, "language": "cpp", "stdin": "2 3"}));
    let again = api.run_code(json!({"code": code, "language": "cpp", "stdin": "40 2"}));
    assert_eq!(first["run_result"]["stdout"], "5\n", "{first}");
    assert_eq!(again["run_result"]["stdout"], "42\n", "{again}");
    let (status, metrics) = api.get("/metrics");
    assert_eq!(status, 200);
    assert!(
        metrics.contains("judge_api_builds_total{cached=\"false\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("judge_api_builds_total{cached=\"true\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("judge_api_requests_total{route=\"/run_code\",outcome=\"ok\"} 2"),
        "{metrics}"
    );
}

#[test]
fn languages_not_run_here_and_requests_over_the_caps_are_refused_with_the_reason() {
    let api = Api::start(&["--max-time", "20s", "--max-memory", "256MiB"]);
    let runner = api.run_code(json!({"code": "x", "language": "pytest"}));
    assert_eq!(runner["status"], "SandboxError", "{runner}");
    assert!(
        runner["message"].as_str().unwrap().contains("pytest"),
        "{runner}"
    );

    let (status, _, doc) = api.post(
        "/run_code",
        &json!({"code": "print(1)", "language": "python", "run_timeout": 60}),
        &[],
    );
    assert_eq!(status, 400, "{doc}");
    assert!(
        doc["message"]
            .as_str()
            .unwrap()
            .contains("cap of 20 s (judge api --max-time)"),
        "{doc}"
    );
    let (status, _, doc) = api.post(
        "/run_code",
        &json!({"code": "print(1)", "language": "python", "memory_limit_MB": 1024}),
        &[],
    );
    assert_eq!(status, 400, "{doc}");
    assert!(
        doc["message"].as_str().unwrap().contains("cap of 256 MiB"),
        "{doc}"
    );

    let (status, _, doc) = api.post("/run_code", &json!({"language": "python"}), &[]);
    assert_eq!(status, 400, "{doc}");
    assert!(doc["message"].as_str().unwrap().contains("code"), "{doc}");

    let page = [("Origin", "http://example.com")];
    let (status, _, _) = api.post(
        "/run_code",
        &json!({"code": "print(1)", "language": "python"}),
        &page,
    );
    assert_eq!(status, 403, "a web page may not run code here");
}

#[test]
fn with_a_token_every_request_carries_it() {
    let api = Api::start(&["--token", "s3cret"]);
    let body = json!({"code": "print(1)", "language": "python"});
    let (status, _, doc) = api.post("/run_code", &body, &[]);
    assert_eq!(status, 401, "{doc}");
    let (status, _, doc) = api.post("/run_code", &body, &[("Authorization", "Bearer wrong")]);
    assert_eq!(status, 401, "{doc}");
    let (status, _, doc) = api.post("/run_code", &body, &[("Authorization", "Bearer s3cret")]);
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["run_result"]["stdout"], "1\n");
}

#[test]
fn listening_beyond_this_machine_needs_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let out = Test::at(dir.path())
        .args(["api", "--port", "0", "--bind", "0.0.0.0"])
        .expect_exit(2)
        .run();
    assert!(
        out.stderr.contains("fix: give a token with --token TOKEN"),
        "{}",
        out.stderr
    );
}

#[test]
fn piston_lists_the_runtimes_here_and_executes_as_piston_does() {
    let api = Api::start(&[]);
    let (status, text) = api.get("/api/v2/runtimes");
    assert_eq!(status, 200, "{text}");
    let runtimes: Value = serde_json::from_str(&text).unwrap();
    let cpp = runtimes
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["language"] == "cpp")
        .unwrap_or_else(|| panic!("g++ is installed: {text}"));
    assert!(cpp["aliases"].as_array().unwrap().contains(&json!("c++")));
    let version = cpp["version"].as_str().unwrap().to_string();
    assert!(
        version.chars().next().unwrap().is_ascii_digit(),
        "{version}"
    );

    let program = "#include <iostream>\nint main(int c, char** v){ std::string s; std::cin >> s; std::cout << s << v[1] << std::endl; return 3; }";
    let body = json!({
        "language": "c++", "version": version,
        "files": [{"name": "prog.cpp", "content": program}],
        "stdin": "abc", "args": ["!"],
    });
    let (status, _, doc) = api.post("/api/v2/execute", &body, &[]);
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["language"], "cpp");
    assert_eq!(doc["run"]["stdout"], "abc!\n", "{doc}");
    assert_eq!(doc["run"]["code"], 3);
    assert!(doc["run"]["signal"].is_null());
    assert_eq!(doc["compile"]["code"], 0, "{doc}");

    let old =
        json!({"language": "python", "version": "2.7.18", "files": [{"content": "print(1)"}]});
    let (status, _, doc) = api.post("/api/v2/execute", &old, &[]);
    assert_eq!(status, 400, "{doc}");
    assert_eq!(doc["message"], "python-2.7.18 runtime is unknown");
}

#[test]
fn past_the_queue_the_answer_is_429_at_once_with_retry_after() {
    let api = Api::start(&["--jobs", "1", "--queue", "1"]);
    let base = api.base.clone();
    let slow = json!({"code": "while True: pass", "language": "python", "run_timeout": 1});
    let answers: Vec<(u16, Option<String>, Duration)> = std::thread::scope(|s| {
        let calls: Vec<_> = (0..4)
            .map(|_| {
                let (base, slow) = (base.clone(), slow.clone());
                s.spawn(move || {
                    let started = Instant::now();
                    let response = agent()
                        .post(format!("{base}/run_code"))
                        .header("Content-Type", "application/json")
                        .send(slow.to_string())
                        .unwrap();
                    let retry = response
                        .headers()
                        .get("retry-after")
                        .map(|v| v.to_str().unwrap().to_string());
                    (response.status().as_u16(), retry, started.elapsed())
                })
            })
            .collect();
        calls.into_iter().map(|c| c.join().unwrap()).collect()
    });
    let refused: Vec<_> = answers.iter().filter(|a| a.0 == 429).collect();
    let judged: Vec<_> = answers.iter().filter(|a| a.0 == 200).collect();
    assert_eq!((refused.len(), judged.len()), (2, 2), "{answers:?}");
    assert!(
        refused.iter().all(|a| a.1.as_deref() == Some("1")),
        "{answers:?}"
    );
    // Refused at once: before the first admitted program could even use its second of CPU.
    let slowest_refusal = refused.iter().map(|a| a.2).max().unwrap();
    let fastest_answer = judged.iter().map(|a| a.2).min().unwrap();
    assert!(slowest_refusal < fastest_answer, "{answers:?}");
    let (status, health) = api.get("/health");
    assert_eq!(status, 200, "{health}");
    assert!(health.contains("\"ready\":true"), "{health}");
}

/// SandboxFusion's client wheel from PyPI, pinned by its sha256, and where it was installed
/// with its dependencies (once per build folder).
const FUSION_VERSION: &str = "0.3.7";
const FUSION_SHA256: &str = "2457f91c7273973d85426b5eca2111402e7b0ecf0bf6689477e64bb1bc1bdec0";

pub(crate) fn sandbox_fusion_client() -> PathBuf {
    let home =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("sandbox-fusion-{FUSION_VERSION}"));
    std::fs::create_dir_all(&home).unwrap();
    let lock = std::fs::File::create(home.join("lock")).unwrap();
    lock.lock().unwrap();
    let site = home.join("site");
    if home.join("installed").is_file() {
        return site;
    }
    let _guard = Test::guard();
    let pip = |args: &[&str], at: &Path| {
        let out = Command::new("python3")
            .args(["-m", "pip"])
            .args(args)
            .arg(at)
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "pip {args:?} failed (needs the network): {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let spec = format!("sandbox-fusion=={FUSION_VERSION}");
    pip(&["download", "--no-deps", &spec, "-d"], &home);
    let wheel = home.join(format!("sandbox_fusion-{FUSION_VERSION}-py3-none-any.whl"));
    let out = Command::new("sha256sum").arg(&wheel).output().unwrap();
    let sum = String::from_utf8_lossy(&out.stdout);
    assert!(
        sum.starts_with(FUSION_SHA256),
        "{} is not the pinned release: {sum}",
        wheel.display()
    );
    let wheel = wheel.to_str().unwrap().to_string();
    pip(
        &[
            "install",
            "--quiet",
            "--disable-pip-version-check",
            &wheel,
            "--target",
        ],
        &site,
    );
    std::fs::write(home.join("installed"), FUSION_VERSION).unwrap();
    site
}

/// What the Python `script` prints, run with SandboxFusion's client installed at `site`; a
/// script that fails fails the test with its output.
pub(crate) fn with_fusion_client(site: &Path, script: &str) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .env("PYTHONPATH", site)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn sandbox_fusions_own_client_runs_code_here() {
    let site = sandbox_fusion_client();
    let api = Api::start(&["--jobs", "2"]);
    let script = format!(
        r#"
from sandbox_fusion import run_code, RunCodeRequest, set_endpoint, summary_run_code_result, SummaryMapping
set_endpoint("{base}")
m = SummaryMapping(CompileFailed="CE", RunTimeout="TLE", RunFailed="RE")
r = run_code(RunCodeRequest(code="print(sum(map(int, input().split())))", language="python", stdin="2 3\n"))
print("python", summary_run_code_result(r, m), repr(r.run_result.stdout))
r = run_code(RunCodeRequest(code={cpp:?}, language="cpp", stdin="40 2"))
print("cpp", summary_run_code_result(r, m), repr(r.run_result.stdout))
r = run_code(RunCodeRequest(code="int main() {{ return }}", language="cpp"))
print("ce", summary_run_code_result(r, m))
r = run_code(RunCodeRequest(code="while True: pass", language="python", run_timeout=1))
print("tle", summary_run_code_result(r, m))
r = run_code(RunCodeRequest(code="import sys; sys.exit(2)", language="python"))
print("re", summary_run_code_result(r, m), r.run_result.return_code)
try:
    run_code(RunCodeRequest(code="x", language="pytest"), max_attempts=1)
except Exception as e:
    print("error", "test runners" in str(e))
"#,
        base = api.base,
        cpp = SUM_CPP,
    );
    let stdout = with_fusion_client(&site, &script);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "python RunStatus.Success '5\\n'",
            "cpp RunStatus.Success '42\\n'",
            "ce CE",
            "tle TLE",
            "re RE 2",
            "error True",
        ],
        "{stdout}"
    );
}
