//! `judge serve` over HTTP: a real server process, requests as a browser or another page would
//! send them (forged `Host`, no token, a foreign `Origin`), bad submissions, clients that hang
//! up, and runs from the terminal showing up. The browser itself: `serve_browser.rs`.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use crate::common::serve::Serving;
use crate::common::{Workspace, READ_N};

/// The doubling problem with a right (`ok`) and a wrong (`off`) solution, two cases and a
/// statement.
pub(crate) fn workspace() -> Workspace {
    let ws = crate::history::workspace();
    ws.write("testcases/double/2.in", "5\n");
    ws.write("testcases/double/2.out", "10\n");
    ws.write(
        "problems/double/statement.md",
        "# Double\n\nPrint $2n$ for $1 \\le n \\le 10^9$.\n",
    );
    ws
}

#[test]
fn forged_requests_are_refused_and_run_nothing() {
    let ws = workspace();
    let server = Serving::start(ws.path());
    let evil = format!("evil.example:{}", server.port);

    let rebound = server.send("GET", "/status", &[("Host", &evil)], "");
    assert_eq!(rebound.status, 403, "{}", rebound.body);
    assert!(
        rebound.body.contains("is not this judge"),
        "{}",
        rebound.body
    );

    let submit = |fields: &[(&str, &str)], headers: &[(&str, &str)]| {
        server.post_form("/submit", fields, headers)
    };
    let code = format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}");
    let paste = [
        ("problem", "double"),
        ("language", "rust"),
        ("code", code.as_str()),
    ];
    let no_token = submit(&paste, &[]);
    assert_eq!(no_token.status, 403, "{}", no_token.body);
    assert!(no_token.body.contains("token"), "{}", no_token.body);

    let mut wrong = paste.to_vec();
    wrong.push(("token", "0123456789abcdef0123456789abcdef"));
    assert_eq!(submit(&wrong, &[]).status, 403);

    let mut right = paste.to_vec();
    right.push(("token", server.token.as_str()));
    let foreign_page = submit(&right, &[("Origin", "http://evil.example")]);
    assert_eq!(foreign_page.status, 403, "{}", foreign_page.body);
    let rebound_post = submit(&right, &[("Host", &evil)]);
    assert_eq!(rebound_post.status, 403);

    let status = server.get("/status");
    assert!(
        status.body.contains("No submissions yet"),
        "{}",
        status.body
    );
    assert!(
        !ws.path().join(".judge/pastes").exists(),
        "a refused paste is not saved"
    );
    // Without the token the submit page says how to get it, and its form cannot be sent.
    let form = server.get("/submit");
    assert!(form.body.contains("needs this server"), "{}", form.body);
    assert!(form.body.contains("disabled"));
}

#[test]
fn the_token_in_the_address_is_kept_in_a_strict_cookie() {
    let ws = workspace();
    let server = Serving::start(ws.path());
    let opened = server.get(&format!("/?token={}", server.token));
    assert_eq!(opened.status, 303);
    let cookie = opened.header("set-cookie").unwrap();
    assert!(cookie.contains(&server.token), "{cookie}");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
    let with_cookie = server.send(
        "GET",
        "/submit",
        &[("Cookie", &format!("judge_token={}", server.token))],
        "",
    );
    assert!(with_cookie.body.contains(&server.token));
    let guessed = server.get("/?token=guess");
    assert!(guessed.header("set-cookie").is_none());
}

#[test]
fn a_bad_submission_gets_a_clear_error_page() {
    let ws = workspace();
    let server = Serving::start(ws.path());
    let token = server.token.clone();
    let cases: &[(&[(&str, &str)], &str)] = &[
        (
            &[("problem", "nope"), ("solution", "nope/ok")],
            "there is no problem `nope`",
        ),
        (&[("problem", "double")], "choose a solution, or paste code"),
        (
            &[("problem", "double"), ("solution", "double/missing")],
            "problem `double` has no solution `missing`",
        ),
        (
            &[
                ("problem", "double"),
                ("code", "x"),
                ("language", "whitespace"),
            ],
            "the judge knows no language `whitespace`",
        ),
        (
            &[
                ("problem", "double"),
                ("code", "x"),
                ("solution", "double/ok"),
            ],
            "either a solution or pasted code",
        ),
    ];
    for (fields, says) in cases {
        let mut fields = fields.to_vec();
        fields.push(("token", token.as_str()));
        let answer = server.post_form("/submit", &fields, &[]);
        assert_eq!(answer.status, 400, "{fields:?}: {}", answer.body);
        assert!(
            answer.body.contains(&says.replace('`', "&#96;")) || answer.body.contains(says),
            "{fields:?}: {}",
            answer.body
        );
    }
    let not_a_form = server.send(
        "POST",
        "/submit",
        &[("Content-Type", "application/json")],
        "{\"problem\": \"double\"}",
    );
    assert_eq!(not_a_form.status, 400);
    assert!(
        not_a_form.body.contains("it is not a form"),
        "{}",
        not_a_form.body
    );
    assert_eq!(server.get("/submissions/99").status, 404);
    assert_eq!(server.get("/problems/nope").status, 404);
    assert_eq!(server.get("/runs/7").status, 404);
}

#[test]
fn a_submission_shows_its_failed_cases_diff_and_pasted_code_is_saved() {
    let ws = workspace();
    let server = Serving::start(ws.path());
    let code = format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2 + 1); }}\n");
    let sent = server.post_form(
        "/submit",
        &[
            ("token", &server.token),
            ("problem", "double"),
            ("language", "rust"),
            ("code", &code),
        ],
        &[],
    );
    assert_eq!(sent.status, 303, "{}", sent.body);
    let run = sent.header("location").unwrap().to_string();
    let (at, page) = server.wait_for_submission(&run);
    assert_eq!(at, "/submissions/1");
    assert!(
        page.body.contains("Wrong answer on test 1"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("<mark>2</mark>"),
        "the first difference is marked: {}",
        page.body
    );
    assert!(page.body.contains("pasted-1"));
    // Kept with the submissions, never among the user's solutions.
    assert_eq!(
        std::fs::read_to_string(ws.path().join(".judge/pastes/double/pasted-1.rs")).unwrap(),
        code
    );
    assert!(!ws.path().join("solutions/double/pasted-1.rs").exists());
    assert!(
        page.body
            .replace("&#x2f;", "/")
            .contains("judge new NAME --problem double --from .judge/pastes/double/pasted-1.rs"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("<pre class=\"source\">use std::io::Read;"),
        "{}",
        page.body
    );
    std::fs::write(
        ws.path().join(".judge/pastes/double/pasted-1.rs"),
        "// edited\n",
    )
    .unwrap();
    let edited = server.get(&at);
    assert!(
        edited
            .body
            .contains("Not shown: the file has changed since."),
        "{}",
        edited.body
    );

    let right = server.post_form(
        "/submit",
        &[("token", &server.token), ("solution", "double/ok")],
        &[],
    );
    let (_, page) = server.wait_for_submission(right.header("location").unwrap());
    assert!(page.body.contains(">Accepted<"), "{}", page.body);

    // The terminal sees the same history.
    let listed = ws.judge().args(["history"]).expect_exit(0).run().stdout;
    assert!(
        listed.contains("pasted-1") && listed.contains("ok"),
        "{listed}"
    );
    // Ctrl-C ends it, and its scratch folders go with it.
    server.stop();
}

#[test]
fn runs_from_the_terminal_reach_the_status_page_live() {
    let ws = workspace();
    let server = Serving::start(ws.path());
    let mut events = server.connect();
    write!(
        events,
        "GET /events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
        server.host()
    )
    .unwrap();
    let mut head = [0u8; 512];
    let n = events.read(&mut head).unwrap();
    assert!(String::from_utf8_lossy(&head[..n]).contains("text/event-stream"));

    ws.judge().args(["run", "off"]).expect_exit(1).run();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut heard = String::new();
    while !heard.contains("event: changed") {
        assert!(
            Instant::now() < deadline,
            "no event after a terminal run: {heard:?}"
        );
        let mut buf = [0u8; 256];
        let n = events.read(&mut buf).unwrap();
        heard.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    let status = server.get("/status?problem=double");
    assert!(
        status.body.contains("Wrong answer on test 1"),
        "{}",
        status.body
    );
    let page = server.get("/submissions/1");
    assert!(page.body.contains("Expected vs received"), "{}", page.body);
    let filtered = server.get("/status?solution=ok");
    assert!(
        filtered.body.contains("No submissions yet"),
        "{}",
        filtered.body
    );
}

#[test]
fn the_server_survives_clients_that_hang_up() {
    let ws = workspace();
    let mut server = Serving::start(ws.path());
    // An event stream left half-read.
    for _ in 0..3 {
        let mut events = server.connect();
        write!(
            events,
            "GET /events HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.host()
        )
        .unwrap();
        let mut buf = [0u8; 64];
        let _ = events.read(&mut buf).unwrap();
    }
    // A body promised and never sent.
    let mut cut = server.connect();
    write!(
        cut,
        "POST /submit HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntoken=",
        server.host()
    )
    .unwrap();
    drop(cut);
    // A run followed, then dropped while it is judged.
    let sent = server.post_form(
        "/submit",
        &[("token", &server.token), ("solution", "double/ok")],
        &[],
    );
    let run = sent.header("location").unwrap().to_string();
    let mut follow = server.connect();
    write!(
        follow,
        "GET {run}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.host()
    )
    .unwrap();
    let mut buf = [0u8; 64];
    let _ = follow.read(&mut buf).unwrap();
    drop(follow);

    let (_, page) = server.wait_for_submission(&run);
    assert!(page.body.contains(">Accepted<"), "{}", page.body);
    assert_eq!(server.get("/problems").status, 200);
    assert!(server.alive());
}

#[test]
fn the_problem_pages_show_limits_statement_and_samples() {
    let ws = workspace();
    ws.write("problems/double/problem.toml", "title = \"Double\"\ntime_limit = \"2s\"\nmemory_limit = \"64MiB\"\nsamples = [\"1\"]\n\n[expected]\nok = \"AC\"\noff = \"WA\"\n");
    let server = Serving::start(ws.path());
    let list = server.get("/problems");
    for shown in [
        "Double",
        "2 s",
        "64 MiB",
        "2 <small>(1 sample)",
        ">ok</a> <small>AC</small>",
    ] {
        assert!(list.body.contains(shown), "{shown}: {}", list.body);
    }
    let page = server.get("/problems/double");
    assert!(
        page.body.contains("1 ≤ n ≤ 10<sup>9</sup>"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("<h4>Input 1</h4><pre>21\n</pre>"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("<td>off</td><td>WA</td>"),
        "{}",
        page.body
    );
}

/// Polls a task's page until its result is there: the page.
fn wait_for_task(server: &Serving, page: &str, done: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let answer = server.get(page);
        assert_eq!(answer.status, 200, "{}", answer.body);
        if answer.body.contains(done) || answer.body.contains("id=\"failed\"") {
            return answer.body;
        }
        assert!(
            Instant::now() < deadline,
            "{page} did not finish: {}",
            answer.body
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_verify_runs_from_its_page_with_the_token_only() {
    let ws = workspace();
    let toml = ws.path().join("problems/double/problem.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        format!("{text}\n[expected]\nok = \"AC\"\noff = \"AC\"\n"),
    )
    .unwrap();
    let server = Serving::start(ws.path());
    // The problem's page leads to it.
    let problem = server.get("/problems/double");
    assert_eq!(problem.status, 200, "{}", problem.body);
    assert!(
        problem
            .body
            .contains("<a href=\"/verify?problem=double\">Verify</a>"),
        "{}",
        problem.body
    );
    let page = server.get("/verify");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Verify the solutions"), "{}", page.body);
    let refused = server.post_form("/verify", &[("problem", "double")], &[]);
    assert_eq!(refused.status, 403);
    let started = server.post_form(
        "/verify",
        &[("token", &server.token), ("problem", "double")],
        &[],
    );
    assert_eq!(started.status, 303, "{}", started.body);
    let page = wait_for_task(&server, "/verify?problem=double", "id=\"verified\"");
    assert!(
        page.contains("Not every solution got its expected verdict"),
        "{page}"
    );
    // `off` is expected AC but prints a wrong answer: its row is the mismatch.
    let row = page
        .lines()
        .find(|l| l.contains("<td>off</td>"))
        .unwrap_or_else(|| panic!("{page}"));
    assert!(row.contains("class=\"contradicts\""), "{row}");
    assert!(
        row.contains("Wrong answer") && row.contains("mismatch"),
        "{row}"
    );
    let ok = page
        .lines()
        .find(|l| l.contains("<td>ok</td>"))
        .unwrap_or_else(|| panic!("{page}"));
    assert!(
        ok.contains("Accepted") && ok.contains("<td>ok</td></tr>"),
        "{ok}"
    );
}

#[test]
fn compare_and_scale_run_from_the_page_with_the_token_only() {
    let ws = workspace();
    let server = Serving::start(ws.path());
    let refused = server.post_form("/compare", &[("problem", "double")], &[]);
    assert_eq!(refused.status, 403);
    let started = server.post_form(
        "/compare",
        &[("token", &server.token), ("problem", "double")],
        &[],
    );
    assert_eq!(started.status, 303, "{}", started.body);
    let page = wait_for_task(&server, "/compare?problem=double", "Relative speed");
    assert!(page.contains("<table class=\"matrix\">"), "{page}");
    assert!(
        page.contains("<th>off</th>") && page.contains("<th>ok</th>"),
        "{page}"
    );
    assert!(page.contains("is the fastest"), "{page}");

    let bad = server.post_form(
        "/scale",
        &[
            ("token", &server.token),
            ("problem", "double"),
            ("sizes", "ten"),
        ],
        &[],
    );
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("the sizes"), "{}", bad.body);
    let started = server.post_form(
        "/scale",
        &[
            ("token", &server.token),
            ("problem", "double"),
            ("sizes", "1,10,100"),
            ("input", "{n}\\n"),
        ],
        &[],
    );
    assert_eq!(started.status, 303, "{}", started.body);
    let page = wait_for_task(&server, "/scale?problem=double", "<svg");
    assert!(page.contains("Best fit"), "{page}");
    assert!(
        server.get("/status").body.contains("No submissions yet"),
        "comparisons are not submissions"
    );
}

#[test]
fn a_compile_error_and_a_crash_show_the_compiler_and_stderr() {
    let ws = workspace();
    let server = Serving::start(ws.path());
    let paste = |code: &str| {
        let sent = server.post_form(
            "/submit",
            &[
                ("token", &server.token),
                ("problem", "double"),
                ("language", "rust"),
                ("code", code),
            ],
            &[],
        );
        assert_eq!(sent.status, 303, "{}", sent.body);
        server
            .wait_for_submission(sent.header("location").unwrap())
            .1
    };
    let page = paste("fn main() { let x: u32 = \"not a number\"; }\n");
    assert!(page.body.contains("Compilation error"), "{}", page.body);
    assert!(page.body.contains("<h2>Compilation</h2>"), "{}", page.body);
    assert!(page.body.contains("mismatched types"), "{}", page.body);
    let page = paste("fn main() { eprintln!(\"gave up at line 7\"); std::process::exit(3); }\n");
    assert!(
        page.body.contains("Runtime error on test 1"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("<h4>Standard error</h4>"),
        "{}",
        page.body
    );
    assert!(page.body.contains("gave up at line 7"), "{}", page.body);
}

#[test]
fn a_runs_events_give_each_case_then_the_submission() {
    let ws = workspace();
    let server = Serving::start(ws.path());
    let sent = server.post_form(
        "/submit",
        &[("token", &server.token), ("solution", "double/off")],
        &[],
    );
    let run = sent.header("location").unwrap().to_string();
    let mut events = server.connect();
    write!(
        events,
        "GET {run}/events HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.host()
    )
    .unwrap();
    let mut heard = String::new();
    events.read_to_string(&mut heard).unwrap();
    let case_1 = heard.find("\"id\":\"case-1\"").expect(&heard);
    let case_2 = heard.find("\"id\":\"case-2\"").expect(&heard);
    let end = heard.find("event: end").expect(&heard);
    assert!(case_1 < case_2 && case_2 < end, "{heard}");
    assert!(heard.contains("Wrong answer"), "{heard}");
    assert!(heard.contains("{\"href\":\"/submissions/1\"}"), "{heard}");
}

#[test]
fn bind_beyond_loopback_warns_and_still_checks_the_host() {
    let ws = workspace();
    let server = Serving::start_with(ws.path(), &["--bind", "0.0.0.0"]);
    let port = server.port;
    // Any address of the machine, as a literal: no DNS name can be rebound to it.
    let by_address = server.send(
        "GET",
        "/status",
        &[("Host", &format!("10.1.2.3:{port}"))],
        "",
    );
    assert_eq!(by_address.status, 200);
    let by_name = server.send(
        "GET",
        "/status",
        &[("Host", &format!("judge.example:{port}"))],
        "",
    );
    assert_eq!(by_name.status, 403);
    let err = server.stop();
    assert!(
        err.contains("warning: listening on 0.0.0.0, beyond this machine"),
        "{err}"
    );
}

/// The web page's submit with function solutions (LeetCode's form): pasted as LeetCode's editor
/// gives them, their language told from the code, judged through the harness and recorded in
/// the history as any paste.
#[test]
fn pasted_function_solutions_are_judged_and_recorded() {
    let ws = Workspace::new();
    ws.problem(
        "add",
        "title = \"Add\"\ntime_limit = \"5s\"\nmemory_limit = \"256MiB\"\n\n[function]\nname = \"add\"\nparams = [\"a: int\", \"b: int\"]\nreturns = \"int\"\n",
        &[("1", "2\n3\n", "5\n"), ("2", "-4\n4\n", "0\n")],
    );
    let server = Serving::start(ws.path());
    let paste = |code: &str| {
        let sent = server.post_form(
            "/submit",
            &[("token", &server.token), ("problem", "add"), ("code", code)],
            &[],
        );
        assert_eq!(sent.status, 303, "{}", sent.body);
        server
            .wait_for_submission(sent.header("location").unwrap())
            .1
            .body
    };
    let python =
        "class Solution:\n    def add(self, a: int, b: int) -> int:\n        return a + b\n";
    let page = paste(python);
    assert!(page.contains(">Accepted<"), "{page}");
    let cpp = "class Solution {\npublic:\n    int add(int a, int b) {\n        return a + b;\n    }\n};\n";
    let page = paste(cpp);
    assert!(page.contains(">Accepted<"), "{page}");
    let page = paste(&python.replace("a + b", "str(a + b)"));
    assert!(page.contains("Wrong answer on test 1"), "{page}");
    assert!(
        page.contains("returned a str where int was declared"),
        "{page}"
    );
    server.stop();

    let doc = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let runs: Vec<(&str, &str)> = doc
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["solution"].as_str().unwrap(),
                r["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        runs,
        [("pasted-3", "WA"), ("pasted-2", "AC"), ("pasted-1", "AC")]
    );
    assert!(ws.path().join(".judge/pastes/add/pasted-2.cpp").is_file());
    assert!(ws.path().join(".judge/pastes/add/pasted-1.py").is_file());
}
