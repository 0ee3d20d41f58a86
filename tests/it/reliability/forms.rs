//! The forms of `judge serve` fuzzed: bodies made of the forms' own fields and of anything else
//! (bad percent escapes, `&` and `=` out of place, names of no field, paths out of the
//! workspace, long values, the wrong content type), POSTed to `/submit`, `/compare` and
//! `/scale`, with and without the token. No answer is a 5xx, nothing is written but a pasted
//! solution in its problem's folder, and the server still serves at the end.
//!
//! `JUDGE_FUZZ_CASES=N` sends N forms (64 by default, a few seconds).

use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

use super::count;
use crate::common::serve::Serving;

/// A value a field may take: what the form offers, or anything.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("double".to_string()),
        Just("double/ok".to_string()),
        Just("ok".to_string()),
        Just("python".to_string()),
        Just("rust".to_string()),
        Just("../double".to_string()),
        Just("/etc/passwd".to_string()),
        Just("1 2 3".to_string()),
        Just("%zz%".to_string()),
        Just("%00".to_string()),
        "[a-z/._%&=+ -]{0,24}",
        "\\PC{0,64}",
        (1usize..4096).prop_map(|n| "x".repeat(n)),
    ]
}

/// A field's name: one of the forms', or another.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("token".to_string()),
        Just("problem".to_string()),
        Just("solution".to_string()),
        Just("code".to_string()),
        Just("language".to_string()),
        Just("sizes".to_string()),
        Just("input".to_string()),
        "[a-z%&=]{0,8}",
    ]
}

/// What is sent: where, with which content type, and the body.
#[derive(Debug, Clone)]
struct Post {
    path: &'static str,
    content_type: &'static str,
    body: String,
}

fn post(token: String) -> impl Strategy<Value = Post> {
    let path = prop_oneof![Just("/submit"), Just("/compare"), Just("/scale")];
    let content_type = prop_oneof![
        6 => Just("application/x-www-form-urlencoded"),
        1 => Just("application/json"),
        1 => Just("multipart/form-data; boundary=x"),
        1 => Just("text/plain"),
    ];
    // Half the forms name the problem there is, so that some are taken and judged.
    let fields = prop_oneof![
        proptest::collection::vec((name(), value()), 0..8),
        proptest::collection::vec((name(), value()), 0..4).prop_map(|mut f| {
            f.insert(0, ("problem".to_string(), "double".to_string()));
            f
        }),
    ];
    (path, content_type, fields, any::<bool>(), any::<bool>()).prop_map(
        move |(path, content_type, fields, with_token, escape)| {
            let mut pairs: Vec<String> = fields
                .iter()
                .map(|(k, v)| {
                    // Some bodies as a browser encodes them, some as they come.
                    if escape {
                        format!("{}={}", encode(k), encode(v))
                    } else {
                        format!("{k}={v}")
                    }
                })
                .collect();
            if with_token {
                pairs.insert(0, format!("token={token}"));
            }
            Post {
                path,
                content_type,
                body: pairs.join("&"),
            }
        },
    )
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            b' ' => "+".to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Every file under `dir` but the history and the judge's own folder, by path.
fn files(dir: &Path) -> Vec<String> {
    let mut all: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|p| !p.starts_with(".judge"))
        .collect();
    all.sort();
    all
}

#[test]
fn the_forms_of_judge_serve_take_any_body_without_a_5xx() {
    let ws = crate::serve::workspace();
    let server = Serving::start(ws.path());
    let before = files(ws.path());
    let mut runner = TestRunner::new(Config {
        cases: count("JUDGE_FUZZ_CASES", 64) as u32,
        rng_seed: RngSeed::Fixed(23),
        failure_persistence: None,
        ..Config::default()
    });
    let client = server.client();
    let statuses = std::cell::RefCell::new(std::collections::BTreeMap::<u16, usize>::new());
    runner
        .run(&post(client.token.clone()), |p| {
            let answer = client.send("POST", p.path, &[("Content-Type", p.content_type)], &p.body);
            *statuses.borrow_mut().entry(answer.status).or_default() += 1;
            prop_assert!(
                answer.status < 500,
                "{} {}: {}",
                answer.status,
                p.path,
                answer.body
            );
            Ok(())
        })
        .unwrap();
    println!("answers by status: {:?}", statuses.borrow());
    // Nothing but pasted solutions, each in its problem's folder.
    let after = files(ws.path());
    for new in after.iter().filter(|f| !before.contains(f)) {
        assert!(
            new.starts_with("solutions/double/pasted-"),
            "{new} was written"
        );
    }
    assert!(before.iter().all(|f| after.contains(f)), "a file is gone");
    assert_eq!(server.get("/status").status, 200);
    server.stop();
}
