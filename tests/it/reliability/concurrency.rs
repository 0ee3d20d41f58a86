//! Four judges, `judge serve` and `judge listen` at once on one workspace and one history, made
//! by them as they start, with `judge history` reading meanwhile and another process holding
//! the history's write lock for seconds now and then (as `sqlite3` in a terminal, or a backup,
//! does): every run is recorded exactly once, none says "database is locked", every problem sent
//! to the listener is written once.
//!
//! `JUDGE_CONCURRENT_RUNS=N` makes each judge run N times (and the server and the listener take
//! N submissions and N problems each).

use std::time::Duration;

use super::{count, intact};
use crate::common::serve::Serving;
use crate::listen::{listen, post_to};

/// Competitive Companion's JSON for a problem of its own (a URL and a name of its own).
fn problem(i: usize) -> String {
    format!(
        r#"{{"name":"P{i}","group":"Load","url":"https://example.com/p/{i}","interactive":false,"memoryLimit":64,"timeLimit":1000,"tests":[{{"input":"{i}\n","output":"{}\n"}}],"testType":"single","input":{{"type":"stdin"}},"output":{{"type":"stdout"}}}}"#,
        2 * i
    )
}

#[test]
fn judges_the_server_and_the_listener_at_once_lose_nothing() {
    let runs = count("JUDGE_CONCURRENT_RUNS", 6);
    let ws = crate::serve::workspace();
    let db = ws.path().join(".judge/history.db");
    // Compiled once: the judges then spend their time judging and recording.
    ws.judge()
        .args(["run", "ok", "--no-history"])
        .expect_exit(0)
        .run();
    let server = Serving::start(ws.path());
    let listener = listen(&ws, &[]);
    std::thread::scope(|s| {
        let judges: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    for _ in 0..runs {
                        ws.judge()
                            .args(["run", "ok"])
                            .expect_exit(0)
                            .stdout_has("submission #")
                            .stderr_lacks("warning")
                            .stderr_lacks("locked")
                            .run();
                    }
                })
            })
            .collect();
        let server = server.client();
        let submitted = s.spawn(move || {
            let mut submissions = Vec::new();
            for _ in 0..runs {
                let sent = server.post_form(
                    "/submit",
                    &[("token", &server.token), ("solution", "double/ok")],
                    &[],
                );
                assert_eq!(sent.status, 303, "{}", sent.body);
                let run = sent.header("location").unwrap().to_string();
                let (at, page) = server.wait_for_submission(&run);
                assert!(page.body.contains(">Accepted<"), "{}", page.body);
                submissions.push(at);
            }
            submissions
        });
        let url = listener.url.clone();
        let imported = s.spawn(move || {
            for i in 0..runs {
                let json = [("Content-Type", "application/json")];
                let (status, text) = post_to(&url, problem(i).as_bytes(), &json);
                assert_eq!(status, 200, "{text}");
            }
        });
        // Another process takes the write lock and keeps it two seconds, three times.
        let holder = s.spawn(|| {
            for _ in 0..3 {
                std::thread::sleep(Duration::from_millis(300));
                while !db.exists() {
                    std::thread::sleep(Duration::from_millis(10));
                }
                let mut conn = rusqlite::Connection::open(&db).unwrap();
                conn.busy_timeout(Duration::from_secs(30)).unwrap();
                let tx = conn
                    .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                    .unwrap();
                std::thread::sleep(Duration::from_secs(2));
                tx.commit().unwrap();
            }
        });
        let reader = s.spawn(|| {
            for _ in 0..runs {
                ws.judge()
                    .args(["history", "--json", "-n", "5"])
                    .expect_exit(0)
                    .run();
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        for j in judges {
            j.join().unwrap();
        }
        let mut submissions = submitted.join().unwrap();
        submissions.sort();
        submissions.dedup();
        assert_eq!(submissions.len(), runs, "each submission once");
        imported.join().unwrap();
        reader.join().unwrap();
        holder.join().unwrap();
    });
    assert_eq!(intact(&db) as usize, 4 * runs + runs);
    let ids = ws
        .judge()
        .args(["list", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let listed = ids.to_string();
    for i in 0..runs {
        assert!(listed.contains(&format!("\"p{i}\"")), "p{i}: {listed}");
    }
    server.stop();
}
