//! `judge serve` for scripts and editors: `POST /api/submit` with the token as a bearer,
//! `GET /api/runs/ID?wait=S` and `GET /api/submissions/ID`, through a real HTTP client (ureq)
//! against a real server; and pasted code, whose language is told from the code or taken from
//! the history, kept apart from the user's solutions.

use std::time::Duration;

use serde_json::{json, Value};

use crate::common::serve::Serving;
use crate::common::READ_N;

/// An HTTP client that reads every status as an answer.
pub(crate) fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// `POST /api/submit` with `body`, the token as a bearer when given: status and JSON.
pub(crate) fn submit(server: &Serving, token: Option<&str>, body: &Value) -> (u16, Value) {
    let mut request = agent()
        .post(format!("{}/api/submit", server.base()))
        .header("Content-Type", "application/json");
    if let Some(t) = token {
        request = request.header("Authorization", format!("Bearer {t}"));
    }
    let mut response = request.send(body.to_string()).unwrap();
    let text = response.body_mut().read_to_string().unwrap();
    let doc = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (response.status().as_u16(), doc)
}

/// `GET path`: status and JSON.
pub(crate) fn get(server: &Serving, path: &str) -> (u16, Value) {
    let mut response = agent()
        .get(format!("{}{path}", server.base()))
        .call()
        .unwrap();
    let text = response.body_mut().read_to_string().unwrap();
    let doc = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (response.status().as_u16(), doc)
}

/// Submits `body` and waits for its verdict: the run's JSON once recorded.
pub(crate) fn judged(server: &Serving, body: &Value) -> Value {
    let (status, sent) = submit(server, Some(&server.token), body);
    assert_eq!(status, 202, "{sent:#}");
    let (status, run) = get(
        server,
        &format!("{}?wait=120", sent["status"].as_str().unwrap()),
    );
    assert_eq!(status, 200, "{run:#}");
    assert_eq!(run["status"], "recorded", "{run:#}");
    run
}

#[test]
fn a_script_submits_waits_for_the_verdict_and_reads_the_report() {
    let ws = crate::serve::workspace();
    let server = Serving::start(ws.path());
    // A solution of the workspace, by name.
    let run = judged(&server, &json!({"problem": "double", "solution": "off"}));
    assert_eq!(run["verdict"], "WA", "{run:#}");
    assert_eq!(run["solution"], "off");
    assert_eq!(run["cases_judged"], 2, "{run:#}");
    let (status, doc) = get(&server, run["url"].as_str().unwrap());
    assert_eq!(status, 200, "{doc:#}");
    assert_eq!(doc["id"], run["submission"]);
    assert_eq!(doc["verdict"], "WA");
    assert_eq!(doc["language"], "rust");
    assert_eq!(doc["cases"][0]["verdict"], "WA", "{doc:#}");
    let diff = doc["report"]["cases"][0]["diff"].as_str().unwrap();
    assert!(diff.contains("- ") || diff.contains("-  "), "{diff}");

    // Pasted code with its language named.
    let code = format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n");
    let run = judged(
        &server,
        &json!({"problem": "double", "code": code, "language": "rust"}),
    );
    assert_eq!(run["verdict"], "AC", "{run:#}");

    // What is refused says why, as JSON.
    let (status, doc) = submit(
        &server,
        None,
        &json!({"problem": "double", "solution": "ok"}),
    );
    assert_eq!(status, 401, "{doc:#}");
    assert!(doc["error"]
        .as_str()
        .unwrap()
        .contains("Authorization: Bearer"));
    let (status, doc) = submit(
        &server,
        Some("0123456789abcdef0123456789abcdef"),
        &json!({"problem": "double", "solution": "ok"}),
    );
    assert_eq!(status, 401, "{doc:#}");
    let (status, doc) = submit(
        &server,
        Some(&server.token),
        &json!({"problem": "double", "solution": "nope"}),
    );
    assert_eq!(status, 400, "{doc:#}");
    assert_eq!(doc["error"], "problem `double` has no solution `nope`");
    let (status, _) = get(&server, "/api/runs/99");
    assert_eq!(status, 404);
    let (status, _) = get(&server, "/api/submissions/99");
    assert_eq!(status, 404);
    // A form is not the API's.
    let mut response = agent()
        .post(format!("{}/api/submit", server.base()))
        .header("Authorization", format!("Bearer {}", server.token))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .send("problem=double&solution=ok")
        .unwrap();
    assert_eq!(response.status().as_u16(), 415);
    let text = response.body_mut().read_to_string().unwrap();
    assert!(text.contains("as JSON"), "{text}");
    // Nothing refused was run: two submissions only.
    let (_, third) = get(&server, "/api/submissions/3");
    assert!(third["error"].is_string(), "{third:#}");
    server.stop();
}

#[test]
fn pasted_code_is_judged_in_the_language_it_is_in_and_kept_apart() {
    let ws = crate::serve::workspace();
    let server = Serving::start(ws.path());
    let solutions = crate::common::snapshot(&ws.path().join("solutions"));
    // No language named: Python, told from the code (the workspace's solutions are in Rust).
    let (status, sent) = submit(
        &server,
        Some(&server.token),
        &json!({"problem": "double", "code": "n = int(input())\nprint(2 * n)\n"}),
    );
    assert_eq!(status, 202, "{sent:#}");
    assert_eq!(sent["language"], "python", "{sent:#}");
    assert_eq!(sent["language_chosen"], "detected", "{sent:#}");
    let (_, run) = get(
        &server,
        &format!("{}?wait=120", sent["status"].as_str().unwrap()),
    );
    assert_eq!(run["verdict"], "AC", "{run:#}");
    assert!(ws.path().join(".judge/pastes/double/pasted-1.py").is_file());

    // Code that does not tell: the problem's last language in the history (Python, just now).
    let (_, sent) = submit(
        &server,
        Some(&server.token),
        &json!({"problem": "double", "code": "x = 1\n", "language": "auto"}),
    );
    assert_eq!(sent["language"], "python", "{sent:#}");
    assert_eq!(sent["language_chosen"], "last_used", "{sent:#}");

    // A paste that does not compile leaves nothing among the solutions, nor in any list.
    let run = judged(
        &server,
        &json!({"problem": "double", "code": "fn main() { let x: u32 = \"no\"; }\n"}),
    );
    assert_eq!(run["verdict"], "CE", "{run:#}");
    assert_eq!(
        crate::common::snapshot(&ws.path().join("solutions")),
        solutions,
        "solutions/ is as it was"
    );
    ws.judge()
        .arg("list")
        .stdout_lacks("pasted")
        .expect_exit(0)
        .run();
    let form = server.send(
        "GET",
        "/submit",
        &[("Cookie", &format!("judge_token={}", server.token))],
        "",
    );
    assert!(!form.body.contains("pasted-1"), "{}", form.body);
    // The submission's page still shows the source it judged.
    let (_, doc) = get(&server, run["url"].as_str().unwrap());
    let page = server.get(run["page"].as_str().unwrap());
    assert!(page.body.contains("let x: u32"), "{}", page.body);
    assert!(
        doc["path"]
            .as_str()
            .unwrap()
            .ends_with(".judge/pastes/double/pasted-3.rs"),
        "{doc:#}"
    );
    server.stop();
    // Pastes go with the history, not with the caches (a cache of its own: the shared one
    // is in use by the other tests).
    let cache = tempfile::tempdir().unwrap();
    ws.judge()
        .cache(cache.path())
        .arg("clean")
        .expect_exit(0)
        .run();
    assert!(ws.path().join(".judge/pastes/double/pasted-1.py").is_file());
    ws.judge()
        .cache(cache.path())
        .args(["clean", "--all"])
        .expect_exit(0)
        .run();
    assert!(!ws.path().join(".judge/pastes").exists());
}

#[test]
fn only_the_languages_this_machine_has_are_offered_and_taken() {
    let ws = crate::serve::workspace();
    // A language whose compiler is on no machine.
    ws.write(
        "judge.toml",
        "[language.zed]\nname = \"Zed\"\nextensions = [\"zed\"]\ncompile = \"zedc-not-installed {source} -o {binary}\"\nrun = \"{binary}\"\ninstall = \"https://zed.example\"\n",
    );
    let server = Serving::start(ws.path());
    let form = server.send(
        "GET",
        "/submit",
        &[("Cookie", &format!("judge_token={}", server.token))],
        "",
    );
    assert!(
        form.body.contains("<option value=\"python\""),
        "{}",
        form.body
    );
    assert!(!form.body.contains("Zed"), "{}", form.body);
    // Refused at once, with what to install; nothing kept.
    let (status, sent) = submit(
        &server,
        Some(&server.token),
        &json!({"problem": "double", "code": "twice\n", "language": "zed"}),
    );
    assert_eq!(status, 400, "{sent:#}");
    let why = sent["error"].as_str().unwrap();
    assert!(
        why.starts_with("Zed is not installed on this machine: it needs `zedc-not-installed`"),
        "{why}"
    );
    assert!(why.contains("https://zed.example"), "{why}");
    assert!(!ws.path().join(".judge/pastes").exists());
    server.stop();
}

/// `POST /api/verify` (with the token) for a problem: the answer, status and JSON.
fn start_verify(server: &Serving, token: Option<&str>, problem: &str) -> (u16, Value) {
    let mut request = agent()
        .post(format!("{}/api/verify", server.base()))
        .header("Content-Type", "application/json");
    if let Some(t) = token {
        request = request.header("Authorization", format!("Bearer {t}"));
    }
    let mut response = request
        .send(json!({ "problem": problem }).to_string())
        .unwrap();
    let text = response.body_mut().read_to_string().unwrap();
    let doc = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (response.status().as_u16(), doc)
}

/// Verifies `double` through the API and waits for the end: the answer's JSON.
fn verified_through_the_api(server: &Serving) -> Value {
    let (status, started) = start_verify(server, Some(&server.token), "double");
    assert_eq!(status, 202, "{started:#}");
    assert_eq!(started["page"], "/verify?problem=double", "{started:#}");
    let (status, doc) = get(
        server,
        &format!("{}?wait=120", started["status"].as_str().unwrap()),
    );
    assert_eq!(status, 200, "{doc:#}");
    assert_eq!(doc["status"], "verified", "{doc:#}");
    doc
}

#[test]
fn the_server_verifies_a_problem_as_judge_verify_does() {
    let ws = crate::serve::workspace();
    let toml = ws.path().join("problems/double/problem.toml");
    let expected = |off: &str| {
        let text = std::fs::read_to_string(&toml).unwrap();
        let text = text.split("\n[expected]").next().unwrap().to_string();
        std::fs::write(
            &toml,
            format!("{text}\n[expected]\nok = \"AC\"\noff = \"{off}\"\n"),
        )
        .unwrap();
    };
    expected("WA");
    let server = Serving::start(ws.path());
    let (status, refused) = start_verify(&server, None, "double");
    assert_eq!(status, 401, "{refused:#}");
    let (status, unknown) = start_verify(&server, Some(&server.token), "triple");
    assert_eq!(status, 404, "{unknown:#}");
    assert!(
        unknown["error"]
            .as_str()
            .unwrap()
            .contains("no problem `triple`"),
        "{unknown:#}"
    );
    let (status, none) = get(&server, "/api/verify/double");
    assert_eq!(status, 404, "{none:#}");

    let doc = verified_through_the_api(&server);
    assert_eq!(doc["ok"], true, "{doc:#}");
    assert_eq!(doc["internal_error"], false, "{doc:#}");
    let web = &doc["verification"];
    // The command line's verify of the same workspace decides the same.
    let cli = ws
        .judge()
        .args(["verify", "double", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let cli = &cli[0];
    assert_eq!(web["problem"], "double");
    assert_eq!(web["time_limit_ms"], cli["time_limit_ms"], "{web:#}");
    assert_eq!(web["margin_limit_ms"], cli["margin_limit_ms"], "{web:#}");
    let verdicts = |v: &Value| -> Vec<(String, String, bool)> {
        v["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["solution"].as_str().unwrap().to_string(),
                    s["verdict"].as_str().unwrap().to_string(),
                    s["matches_expected"].as_bool().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        verdicts(web),
        vec![
            ("off".into(), "WA".into(), true),
            ("ok".into(), "AC".into(), true)
        ],
        "{web:#}"
    );
    assert_eq!(verdicts(web), verdicts(cli));

    // An expectation the solution does not meet is a mismatch, on the server as on the
    // command line.
    expected("AC");
    let doc = verified_through_the_api(&server);
    assert_eq!(doc["ok"], false, "{doc:#}");
    let off = &doc["verification"]["solutions"][0];
    assert_eq!(off["solution"], "off", "{doc:#}");
    assert_eq!(off["matches_expected"], false, "{doc:#}");
    ws.judge()
        .args(["verify", "double"])
        .expect_exit(1)
        .stdout_has("off")
        .run();
}
