//! SandboxFusion's `/submit` on `judge api`: a data set's record sent with a model's answer,
//! judged on every test as `judge eval` judges it and answered in SandboxFusion's shapes; the
//! refusals before anything runs; and SandboxFusion's own client calling it.

use serde_json::{json, Value};

use crate::api::{sandbox_fusion_client, with_fusion_client, Api};

/// A code_contests record: the sum of two numbers, its answer a float within 1e-5.
fn halves() -> Value {
    json!({
        "name": "halves",
        "public_tests": {"input": ["1 2\n"], "output": ["1.5\n"]},
        "private_tests": {"input": ["3 4\n", "10 1\n"], "output": ["3.5\n", "5.5\n"]},
        "generated_tests": {"input": [], "output": []},
        "time_limit": {"seconds": 2, "nanos": 0},
        "memory_limit_bytes": 268435456
    })
}

fn submit(api: &Api, completion: &str, language: &str, record: Value) -> (u16, Value) {
    let body = json!({
        "dataset": "code_contests",
        "id": "halves",
        "completion": completion,
        "config": {"language": language, "provided_data": record},
    });
    let (status, _, doc) = api.post("/submit", &body, &[]);
    (status, doc)
}

fn verdicts(doc: &Value) -> Vec<String> {
    doc["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            t["test_info"]["verdict"]
                .as_str()
                .unwrap_or("?")
                .to_string()
        })
        .collect()
}

#[test]
fn an_answer_is_judged_on_every_test_of_its_record() {
    let api = Api::start(&["--jobs", "2"]);
    let right = "Here it is:\n```python\na, b = map(int, input().split())\nprint((a + b) / 2 + 1e-7)\n```\n";
    let (status, doc) = submit(&api, right, "python", halves());
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["accepted"], true, "{doc}");
    assert_eq!(doc["id"], "halves");
    assert_eq!(doc["extracted_type"], "fenced");
    assert!(doc["extracted_code"]
        .as_str()
        .unwrap()
        .starts_with("a, b ="));
    assert_eq!(verdicts(&doc), ["AC", "AC", "AC"], "{doc}");
    assert_eq!(doc["tests"][0]["passed"], true);
    assert_eq!(doc["tests"][0]["exec_info"]["status"], "Success");
    assert_eq!(doc["tests"][0]["exec_info"]["run_result"]["return_code"], 0);
    assert_eq!(doc["extra"]["passed"], 3);

    // Beyond the tolerance, on every test: each run well, each answer wrong.
    let wrong = "```python\na, b = map(int, input().split())\nprint((a + b) / 2 + 1e-3)\n```";
    let (_, doc) = submit(&api, wrong, "python", halves());
    assert_eq!(doc["accepted"], false, "{doc}");
    assert_eq!(verdicts(&doc), ["WA", "WA", "WA"], "{doc}");
    assert_eq!(doc["tests"][1]["passed"], false);
    assert_eq!(doc["tests"][1]["exec_info"]["status"], "Success");
    assert_eq!(doc["extra"]["verdict"], "WA");

    // The answer with no fenced block is the code; one test crashes.
    let crash = "a, b = map(int, input().split())\nassert a != 10\nprint((a + b) / 2)\n";
    let (_, doc) = submit(&api, crash, "python", halves());
    assert!(doc["extracted_type"].is_null(), "{doc}");
    assert_eq!(verdicts(&doc), ["AC", "AC", "RE"], "{doc}");
    assert_eq!(doc["tests"][2]["exec_info"]["status"], "Failed");
    assert_eq!(doc["tests"][2]["exec_info"]["run_result"]["return_code"], 1);

    let ce = "```cpp\nint main() { return }\n```";
    let (_, doc) = submit(&api, ce, "cpp", halves());
    assert_eq!(doc["accepted"], false, "{doc}");
    assert_eq!(verdicts(&doc), ["CE", "CE", "CE"], "{doc}");
    let compiled = &doc["tests"][0]["exec_info"]["compile_result"];
    assert_eq!(compiled["return_code"], 1, "{doc}");
    assert!(compiled["stderr"].as_str().unwrap().contains("error"));

    let slow = json!({
        "dataset": "code_contests", "id": "halves", "completion": "while True: pass",
        "config": {"language": "python", "run_timeout": 1, "provided_data": halves()},
    });
    let (_, _, doc) = api.post("/submit", &slow, &[]);
    assert_eq!(verdicts(&doc), ["TLE", "TLE", "TLE"], "{doc}");
    assert_eq!(
        doc["tests"][0]["exec_info"]["run_result"]["status"],
        "TimeLimitExceeded"
    );
    assert_eq!(doc["extra"]["time_limit_ms"], 1000);

    // Fenced blocks, none in the answer's language: no code, a rejected answer.
    let (_, doc) = submit(&api, "```java\nx\n```\n```go\ny\n```", "python", halves());
    assert_eq!(doc["accepted"], false, "{doc}");
    assert_eq!(doc["extracted_type"], "empty");
    assert_eq!(doc["tests"], json!([]));
    assert!(doc["extra"]["reason"]
        .as_str()
        .unwrap()
        .contains("none tagged"));
}

#[test]
fn sandbox_fusions_own_records_are_read_and_the_one_with_the_id_is_taken() {
    let api = Api::start(&["--jobs", "1"]);
    let test = |i: &str, o: &str| json!({"input": {"stdin": i}, "output": {"stdout": o}});
    let rows = json!([
        {"id": 1, "test": [test("2\n", "4\n")]},
        {"id": 2, "test": serde_json::to_string(&json!([test("3\n", "9\n"), test("5\n", "25\n")])).unwrap()},
    ]);
    let body = json!({
        "dataset": "code_contests", "id": 2,
        "completion": "```python\nn = int(input())\nprint(n * n)\n```",
        "config": {"language": "python", "provided_data": rows},
    });
    let (status, _, doc) = api.post("/submit", &body, &[]);
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["id"], 2);
    assert_eq!(doc["accepted"], true, "{doc}");
    assert_eq!(verdicts(&doc), ["AC", "AC"]);
}

#[test]
fn a_request_that_cannot_be_judged_is_refused_before_anything_runs() {
    let api = Api::start(&["--jobs", "1", "--max-time", "5s"]);
    let refused = |body: Value, needle: &str| {
        let (status, _, doc) = api.post("/submit", &body, &[]);
        assert_eq!(status, 400, "{doc}");
        let message = doc["message"].as_str().unwrap();
        assert!(message.contains(needle), "{needle}: {message}");
    };
    let with = |config: Value| json!({"dataset": "code_contests", "id": "halves", "completion": "print(1)", "config": config});
    refused(
        with(json!({"language": "python"})),
        "send the problem's record",
    );
    refused(
        with(json!({"provided_data": halves()})),
        "config.language is missing",
    );
    refused(
        with(json!({"language": "pytest", "provided_data": halves()})),
        "test runners",
    );
    refused(
        with(
            json!({"language": "python", "custom_extract_logic": "submit_code_blocks([])", "provided_data": halves()}),
        ),
        "custom_extract_logic",
    );
    let mut empty = halves();
    empty["public_tests"] = json!({"input": [], "output": []});
    empty["private_tests"] = json!({"input": [], "output": []});
    refused(
        with(json!({"language": "python", "provided_data": empty})),
        "no tests",
    );
    refused(
        with(json!({"language": "python", "provided_data": {"prompt": "x"}})),
        "fields are not those of",
    );
    refused(
        with(json!({"language": "python", "run_timeout": 60, "provided_data": halves()})),
        "cap of 5 s",
    );
    let mut other = with(json!({"language": "python", "provided_data": [halves()]}));
    other["id"] = json!("other");
    refused(other, "no record with the id `other`");
    let (_, metrics) = api.get("/metrics");
    assert!(
        metrics.contains("route=\"/submit\",outcome=\"bad_request\""),
        "{}",
        &metrics[..metrics.len().min(400)]
    );
}

#[test]
fn sandbox_fusions_own_client_submits_here() {
    let site = sandbox_fusion_client();
    let api = Api::start(&["--jobs", "2"]);
    let script = format!(
        r#"
from sandbox_fusion import submit, SubmitRequest, TestConfig, set_dataset_endpoint
import json
set_dataset_endpoint("{base}")
record = json.loads({record:?})
for answer in ["```python\na, b = map(int, input().split())\nprint((a + b) / 2)\n```", "print(0)"]:
    r = submit(SubmitRequest(dataset="code_contests", id="halves", completion=answer,
                             config=TestConfig(language="python", provided_data=record)))
    print(r.accepted, [t.passed for t in r.tests], r.tests[0].exec_info.status.value)
"#,
        base = api.base,
        record = halves().to_string(),
    );
    let stdout = with_fusion_client(&site, &script);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "True [True, True, True] Success",
            "False [False, False, False] Success",
        ],
        "{stdout}"
    );
}
