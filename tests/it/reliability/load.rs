//! The servers under load, on loopback, bounded in count and time.
//!
//! `judge serve`: submissions from many clients at once, each judged exactly once and shown,
//! no 5xx, its memory bounded, and event-stream clients connected throughout. `judge listen`:
//! POSTs of which a tenth are malformed, oversized or cut off half-way, each answered with the
//! right status, each good problem written once, the listener still serving at the end.
//!
//! The default suite runs a small round; the `#[ignore]`d tests are the guide's figures (200
//! submissions from 20 clients with 100 event streams; 1,000 POSTs):
//! `cargo test --release --test it reliability::load -- --ignored --nocapture`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::serve::{Client, Serving};
use crate::listen::{listen, post_to};

/// Request latencies, and how many requests over how long.
#[derive(Default)]
struct Timings {
    latencies: Vec<Duration>,
}

impl Timings {
    fn took(&mut self, d: Duration) {
        self.latencies.push(d);
    }

    fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort();
        let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
        sorted.get(i).copied().unwrap_or_default()
    }

    /// "N requests in S s: R/s, p50 X ms, p99 Y ms".
    fn summary(&self, over: Duration) -> String {
        format!(
            "{} requests in {:.1} s: {:.0} requests/s, p50 {:.1} ms, p99 {:.1} ms",
            self.latencies.len(),
            over.as_secs_f64(),
            self.latencies.len() as f64 / over.as_secs_f64(),
            self.percentile(0.5).as_secs_f64() * 1e3,
            self.percentile(0.99).as_secs_f64() * 1e3,
        )
    }
}

/// The peak resident memory of process `pid` so far (`VmHWM`), in MiB.
fn peak_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb / 1024.0
}

/// An event-stream client of the status page: counts the `changed` events it hears, and
/// whether the server closed it.
struct Follower {
    changed: Arc<Mutex<usize>>,
    closed: Arc<AtomicBool>,
}

fn follow(server: &Client, stop: Arc<AtomicBool>) -> Follower {
    let mut stream = server.connect();
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    write!(
        stream,
        "GET /events HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.host()
    )
    .unwrap();
    let (changed, closed) = (Arc::new(Mutex::new(0)), Arc::new(AtomicBool::new(false)));
    let (heard, ended) = (changed.clone(), closed.clone());
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        // The last bytes read, shorter than an event's name: none is counted twice.
        let mut tail: Vec<u8> = Vec::new();
        while !stop.load(Ordering::SeqCst) {
            match stream.read(&mut buf) {
                Ok(0) => {
                    ended.store(true, Ordering::SeqCst);
                    return;
                }
                Ok(n) => {
                    tail.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&tail);
                    *heard.lock().unwrap() += text.matches("event: changed").count();
                    tail = tail.split_off(tail.len().saturating_sub(13));
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(_) => {
                    ended.store(true, Ordering::SeqCst);
                    return;
                }
            }
        }
    });
    Follower { changed, closed }
}

/// The current resident memory of process `pid` (`VmRSS`), in MiB.
fn resident_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb / 1024.0
}

/// The workspace of the load: `serve`'s, with ten cases, and `noisy`, which fails every case
/// with 64 KiB on stderr (what a run keeps most of, case by case).
fn loaded_workspace() -> crate::common::Workspace {
    let ws = crate::serve::workspace();
    for i in 3..=10 {
        ws.write(&format!("testcases/double/{i}.in"), format!("{i}\n"));
        ws.write(&format!("testcases/double/{i}.out"), format!("{}\n", 2 * i));
    }
    ws.write(
        "solutions/double/noisy.rs",
        "fn main() { eprintln!(\"{}\", \"x\".repeat(64 << 10)); std::process::exit(1); }\n",
    );
    ws
}

/// `clients` clients submitting at once, `streams` event streams open throughout, in rounds of
/// `rounds[i]` submissions from each client. Every submission is judged once and shown, no
/// answer is a 5xx, and the server's memory after the last round is what it was after the one
/// before: the first rounds fill what it keeps (the last 64 runs whole) and its allocator's
/// pools; a server that kept every run would grow by each noisy run's 640 KiB of stderr.
fn serve_under_load(clients: usize, rounds: &[usize], streams: usize) {
    let ws = loaded_workspace();
    // Compiled once: the load is on the server and its judge, not the compiler.
    for (solution, code) in [("ok", 0), ("off", 1), ("noisy", 1)] {
        ws.judge()
            .args(["run", solution, "--no-history"])
            .expect_exit(code)
            .run();
    }
    let server = Serving::start(ws.path());
    let stop = Arc::new(AtomicBool::new(false));
    let followers: Vec<Follower> = (0..streams)
        .map(|_| follow(&server.client(), stop.clone()))
        .collect();
    let timings = Mutex::new(Timings::default());
    let started = Instant::now();
    let mut submissions = Vec::new();
    let mut resident = Vec::new();
    // The time the clients took to send and be answered, without the wait for the verdicts.
    let mut sending = Duration::ZERO;
    for (round, &count) in rounds.iter().enumerate() {
        let sent = Instant::now();
        let runs: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..clients)
                .map(|c| {
                    let (server, timings) = (server.client(), &timings);
                    s.spawn(move || {
                        let mut runs = Vec::new();
                        for i in 0..count {
                            let solution = ["double/ok", "double/off", "double/noisy"][(c + i) % 3];
                            let t = Instant::now();
                            let sent = server.post_form(
                                "/submit",
                                &[("token", &server.token), ("solution", solution)],
                                &[],
                            );
                            timings.lock().unwrap().took(t.elapsed());
                            assert_eq!(sent.status, 303, "{}", sent.body);
                            runs.push(sent.header("location").unwrap().to_string());
                            let t = Instant::now();
                            let status = server.get("/status");
                            timings.lock().unwrap().took(t.elapsed());
                            assert_eq!(status.status, 200, "{}", status.body);
                        }
                        runs
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        sending += sent.elapsed();
        for run in &runs {
            let (at, page) = server.wait_for_submission(run);
            assert_eq!(page.status, 200, "round {round}: {}", page.body);
            submissions.push(at);
        }
        resident.push(resident_mib(server.pid()));
    }
    let judged = started.elapsed();
    submissions.sort();
    submissions.dedup();
    let total = clients * rounds.iter().sum::<usize>();
    assert_eq!(submissions.len(), total, "each submission judged once");
    let history = ws
        .judge()
        .args(["history", "--json", "-n", "100000"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(history.as_array().unwrap().len(), total);
    let status = server.get("/status");
    assert_eq!(status.status, 200);
    let newest = history[0]["id"].as_i64().unwrap();
    for id in (newest - 99).max(1)..=newest {
        assert!(
            status.body.contains(&format!("\">{id}</a>")),
            "#{id} is not on the status page"
        );
    }
    stop.store(true, Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(300));
    for (i, f) in followers.iter().enumerate() {
        assert!(
            !f.closed.load(Ordering::SeqCst),
            "event stream {i} was closed"
        );
        assert!(
            *f.changed.lock().unwrap() > 0,
            "event stream {i} heard nothing"
        );
    }
    let peak = peak_mib(server.pid());
    let timings = timings.lock().unwrap();
    println!(
        "judge serve: {total} submissions from {clients} clients, {streams} event streams: {}; all judged in {:.1} s ({:.1} submissions/s); memory after each round {resident:.1?} MiB, peak {peak:.1} MiB",
        timings.summary(sending),
        judged.as_secs_f64(),
        total as f64 / judged.as_secs_f64(),
    );
    let [.., before, last] = resident[..] else {
        unreachable!("two rounds at least")
    };
    assert!(
        last < before + 8.0,
        "the server grew from {before:.1} MiB to {last:.1} MiB over the last round"
    );
    assert!(peak < 256.0, "the server grew to {peak:.0} MiB");
    server.stop();
}

#[test]
fn judge_serve_takes_submissions_from_many_clients_at_once() {
    serve_under_load(8, &[10, 10, 10], 20);
}

#[test]
#[ignore = "the guide's figures: three rounds of 200 submissions from 20 clients, 100 event streams (a minute)"]
fn judge_serve_takes_rounds_of_200_submissions_from_20_clients_with_100_event_streams() {
    serve_under_load(20, &[10, 10, 10], 100);
}

/// Competitive Companion's JSON of problem `i` (one of its own URL).
fn problem(i: usize) -> String {
    format!(
        r#"{{"name":"Load {i}","group":"Load","url":"https://example.com/load/{i}","interactive":false,"memoryLimit":64,"timeLimit":1000,"tests":[{{"input":"{i}\n","output":"{}\n"}}],"testType":"single","input":{{"type":"stdin"}},"output":{{"type":"stdout"}}}}"#,
        2 * i
    )
}

/// What the `i`-th request sends, and the status it must get (`None`: cut off half-way, so no
/// answer is heard).
enum Post {
    Good(usize),
    Malformed(Vec<u8>),
    Oversized,
    Cut,
}

/// Sends a body that claims `claimed` bytes and hangs up after `sent` of them.
fn cut_off(port: u16, body: &[u8]) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(&body[..body.len() / 2]).unwrap();
    // Half of it, then gone.
    drop(stream);
}

/// `posts` POSTs to one listener, a tenth of them bad, `distinct` problems among the good.
fn listen_under_load(posts: usize, distinct: usize, clients: usize) {
    let ws = crate::common::Workspace::new();
    let listener = listen(&ws, &[]);
    let mut good = 0;
    let plan: Vec<Post> = (0..posts)
        .map(|i| match (i % 10, i % 30) {
            (9, 9) => Post::Malformed(b"{\"name\":\"x\",\"tests\":[{\"input\":1".to_vec()),
            (9, 19) => Post::Oversized,
            (9, _) => Post::Cut,
            _ => {
                good += 1;
                Post::Good((good - 1) % distinct)
            }
        })
        .collect();
    let oversized = vec![b' '; (16 << 20) + 1];
    let timings = Mutex::new(Timings::default());
    let next = Mutex::new(0usize);
    let (url, port) = (listener.url.clone(), listener.port);
    let json = [("Content-Type", "application/json")];
    let send = |body: &[u8]| post_to(&url, body, &json);
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..clients {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(post) = plan.get(i) else { return };
                let t = Instant::now();
                match post {
                    Post::Good(p) => {
                        let (status, text) = send(problem(*p).as_bytes());
                        assert_eq!(status, 200, "{text}");
                    }
                    Post::Malformed(body) => {
                        let (status, text) = send(body);
                        assert_eq!(status, 400, "{text}");
                    }
                    Post::Oversized => {
                        let (status, text) = send(&oversized);
                        assert_eq!(status, 413, "{text}");
                    }
                    Post::Cut => cut_off(port, problem(i).as_bytes()),
                }
                timings.lock().unwrap().took(t.elapsed());
            });
        }
    });
    let over = started.elapsed();
    // Still serving.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .into();
    let hello = agent
        .get(&listener.url)
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    assert!(hello.contains("judge listen"), "{hello}");
    let peak = peak_mib(listener.listener.id());
    // Each good problem once: a folder with its one test.
    let problems: Vec<_> = std::fs::read_dir(ws.path().join("problems"))
        .unwrap()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert_eq!(problems.len(), distinct);
    for e in &problems {
        let tests = ws.path().join("testcases").join(e.file_name());
        let files = std::fs::read_dir(&tests).unwrap().count();
        assert_eq!(files, 2, "{}", tests.display());
    }
    let out = listener
        .listener
        .expect_exit(130)
        .ctrl_c(Duration::from_secs(10));
    let refused = |status: u16| {
        out.stderr
            .matches(&format!("refused a request ({status})"))
            .count()
    };
    let count = |f: fn(&Post) -> bool| plan.iter().filter(|p| f(p)).count();
    assert_eq!(
        refused(413),
        count(|p| matches!(p, Post::Oversized)),
        "{}",
        out.stderr
    );
    // A body cut off is refused as such (400), like a malformed one.
    assert_eq!(
        refused(400),
        count(|p| matches!(p, Post::Malformed(_) | Post::Cut)),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("(500)"), "{}", out.stderr);
    println!(
        "judge listen: {posts} POSTs from {clients} clients ({} bad), {distinct} problems: {}; peak memory {peak:.1} MiB",
        posts / 10,
        timings.lock().unwrap().summary(over)
    );
}

#[test]
fn judge_listen_answers_good_and_bad_posts_and_keeps_serving() {
    listen_under_load(100, 30, 4);
}

#[test]
#[ignore = "the guide's figures: 1,000 POSTs, a tenth of them bad (a minute)"]
fn judge_listen_takes_1000_posts_a_tenth_of_them_bad() {
    listen_under_load(1000, 300, 10);
}
