//! A `judge serve` process on a free port, and plain HTTP to it over a TCP socket (so a test
//! can send any `Host` or `Origin`, or hang up half-way).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use super::{Running, Test};

/// A running `judge serve`: stopped as Ctrl-C stops it when dropped. Its [`Client`]'s
/// requests are its own (`server.get(...)`).
pub(crate) struct Serving {
    /// `None` once stopped.
    server: Option<Running>,
    client: Client,
    /// Its `TMPDIR`: empty again once it has been stopped.
    tmp: tempfile::TempDir,
}

/// Requests to a `judge serve`, from any thread.
#[derive(Clone)]
pub(crate) struct Client {
    pub(crate) port: u16,
    pub(crate) token: String,
}

impl std::ops::Deref for Serving {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}

/// An answer: status, headers (as received) and body.
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) head: String,
    pub(crate) body: String,
}

impl Answer {
    /// A header's value (the first of that name).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

impl Serving {
    /// `judge serve --port 0` in `root`, once it printed its address.
    pub(crate) fn start(root: &Path) -> Serving {
        Serving::start_with(root, &[])
    }

    /// `judge serve --port 0 ARGS...`.
    pub(crate) fn start_with(root: &Path, args: &[&str]) -> Serving {
        Serving::start_marked(root, args, None)
    }

    /// `judge serve --port 0 ARGS...`, with `mark` (a variable and its value) in its
    /// environment and so in its runner's and its programs': how a test finds them all.
    pub(crate) fn start_marked(root: &Path, args: &[&str], mark: Option<(&str, &str)>) -> Serving {
        let mut test = Test::at(root);
        if let Some((key, value)) = mark {
            test = test.env(key, value);
        }
        Serving::start_as(test, args)
    }

    /// `judge serve --port 0 ARGS...` as `judge` is set up (its folder, its environment).
    pub(crate) fn start_as(judge: Test, args: &[&str]) -> Serving {
        let tmp = tempfile::tempdir().unwrap();
        let mut server = judge
            .env("TMPDIR", tmp.path())
            .args(["serve", "--port", "0"])
            .args(args)
            // A server ends only when it is stopped (Ctrl-C), or killed.
            .expect_exit(130)
            .spawn();
        let url = super::first_address(&mut server);
        let rest = url.strip_prefix("http://127.0.0.1:").unwrap();
        let (port, token) = rest.split_once("/?token=").unwrap();
        Serving {
            server: Some(server),
            client: Client {
                port: port.parse().unwrap(),
                token: token.to_string(),
            },
            tmp,
        }
    }

    /// Its client, to hand to other threads.
    pub(crate) fn client(&self) -> Client {
        self.client.clone()
    }

    /// Stops it as Ctrl-C does (SIGINT), so that it cleans up after itself, within 10 s: its
    /// stderr.
    pub(crate) fn stop(mut self) -> String {
        let out = self.server.take().unwrap().ctrl_c(Duration::from_secs(10));
        let left: Vec<_> = std::fs::read_dir(self.tmp.path()).unwrap().collect();
        assert!(
            left.is_empty(),
            "the server left temporary folders: {left:?}"
        );
        out.stderr
    }

    /// Kills it outright (SIGKILL), as the out-of-memory killer or `kill -9` does: nothing of
    /// it cleans up.
    pub(crate) fn kill(mut self) {
        self.server.take().unwrap().kill();
    }

    /// Whether the process is still running.
    pub(crate) fn alive(&mut self) -> bool {
        self.server.as_mut().unwrap().is_running()
    }

    /// The server's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.server.as_ref().unwrap().id()
    }
}

impl Client {
    /// `http://127.0.0.1:PORT`.
    pub(crate) fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// This server's address as a `Host` header.
    pub(crate) fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub(crate) fn get(&self, path: &str) -> Answer {
        self.send("GET", path, &[], "")
    }

    /// POSTs a form (its fields URL-encoded here).
    pub(crate) fn post_form(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        headers: &[(&str, &str)],
    ) -> Answer {
        let body = fields
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let mut all = vec![("Content-Type", "application/x-www-form-urlencoded")];
        all.extend_from_slice(headers);
        self.send("POST", path, &all, &body)
    }

    /// One request; `Host` is this server's unless `headers` give another.
    pub(crate) fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Answer {
        let mut stream = self.connect();
        let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            request.push_str(&format!("Host: {}\r\n", self.host()));
        }
        for (k, v) in headers {
            request.push_str(&format!("{k}: {v}\r\n"));
        }
        request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        stream.write_all(request.as_bytes()).unwrap();
        let mut raw = String::new();
        stream.read_to_string(&mut raw).unwrap();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head:?}"));
        Answer {
            status,
            head: head.to_string(),
            body: body.to_string(),
        }
    }

    /// A connection to the server, with a read timeout so a test never hangs.
    pub(crate) fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream
    }

    /// Follows a run's page until it sends to the submission's: that page.
    pub(crate) fn wait_for_submission(&self, run: &str) -> (String, Answer) {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let page = self.get(run);
            if page.status == 303 {
                let to = page.header("location").unwrap().to_string();
                assert!(to.starts_with("/submissions/"), "{to}");
                let answer = self.get(&to);
                return (to, answer);
            }
            assert_eq!(page.status, 200, "{}", page.body);
            assert!(
                Instant::now() < deadline,
                "the run did not end: {}",
                page.body
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Form URL encoding.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            b' ' => "+".into(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
