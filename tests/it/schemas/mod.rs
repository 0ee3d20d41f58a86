//! The machine-readable documents pinned: the JSON Schemas the guide publishes are what the types
//! generate (`INSTA_UPDATE=always` writes them again, a change of shape made on purpose), and each
//! document of a real run of the judge on the shipped problem says its `schema`, is valid
//! against that schema, and matches its snapshot with times, memory, paths and dates redacted.

mod check;
mod wire;

use std::path::PathBuf;

use judge_core::schema::{Document, Format};
use serde_json::Value;

use crate::common::{repo, shipped, Test, Workspace};

/// Every document the judge writes, as the guide lists them.
fn formats() -> Vec<Format> {
    use judge_core::{batch, compare, model, scale, stress, validate, verify};
    use judge_history as history;
    let mut all = vec![
        Format::one::<model::SolutionReport>("`judge run --json`"),
        Format::list::<verify::Verification>("`judge verify --json`"),
        Format::one::<compare::MatrixJson>("`judge compare --json`"),
        Format::one::<batch::Outcome>("`judge batch`, a line of the results file"),
        Format::list::<history::Entry>("`judge history --json`"),
        Format::one::<validate::Validation>("`judge validate --json`"),
        Format::one::<stress::StressReport>("`judge stress --json`"),
        Format::one::<scale::ScaleReport>("`judge scale --json`"),
        Format::one::<judge_packages::generate::Generated>("`judge generate --json`"),
        Format::one::<judge_eval::summary::Summary>("`judge eval --json`"),
        Format::one::<judge_eval::results::SampleResult>(
            "`judge eval --out`, a line of the results file",
        ),
    ];
    all.extend(judge_cluster::wire::formats());
    all.extend(judge_ops::judge::formats());
    all
}

fn published() -> PathBuf {
    repo().join("docs/src/schemas")
}

/// The published schema of documents named `name` (`judge.run/1`).
fn schema_of(name: &str) -> Value {
    let format = formats().into_iter().find(|f| f.name == name).unwrap();
    let text = std::fs::read_to_string(published().join(format.file_name())).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `doc` is valid against the published schema `name` (`judge.api.request/1`: a document the
/// judge reads, which says nothing of its schema).
pub(crate) fn assert_valid_as(name: &str, doc: &Value) {
    let errors = check::errors(&schema_of(name), doc);
    assert!(errors.is_empty(), "{name}:\n{}", errors.join("\n"));
}

/// `doc` is valid against the published schema of `T`'s documents, and says it is one.
pub(crate) fn assert_valid<T: Document>(doc: &Value) {
    let list = doc.as_array().map(Vec::as_slice);
    for one in list.unwrap_or(std::slice::from_ref(doc)) {
        assert_eq!(one["schema"], T::SCHEMA, "{one:#}");
    }
    let errors = check::errors(&schema_of(T::SCHEMA), doc);
    assert!(
        errors.is_empty(),
        "{}:\n{}\n{doc:#}",
        T::SCHEMA,
        errors.join("\n")
    );
}

/// What differs from run to run or machine to machine, by the field's name: times, memory,
/// dates, absolute paths, the compiler's version and the sandbox this machine allows.
fn redact(v: &mut Value) {
    const MEASURED: &[&str] = &[
        "ms",
        "time_ms",
        "wall_ms",
        "min_ms",
        "median_ms",
        "runs_ms",
        "max_time_ms",
        "slowest_ms",
        "memory_kb",
        "max_memory_kb",
        "spread",
        "ratio",
        "cpu_us",
        "wall_us",
        // Which case is slowest, when every case takes a millisecond, is the machine's to say.
        "slowest_case",
        "elapsed_ms",
        "cpu_ms",
        "growth",
        "fit",
    ];
    match v {
        Value::Object(fields) => {
            // A worker's time scale is there only when its calibration differs from the
            // submitter's by more than the margin: on one busy machine, now and then.
            fields.remove("time_scale");
            for (k, x) in fields.iter_mut() {
                match k.as_str() {
                    k if MEASURED.contains(&k) && !x.is_null() => *x = "[measured]".into(),
                    "submitted" | "submitted_unix_ms" => *x = "[date]".into(),
                    "compiler" | "sandbox" | "cached" | "near_limit" => *x = "[machine]".into(),
                    "path" | "saved_output" | "attempt_path" if x.is_string() => {
                        *x = redact_path(x.as_str().unwrap()).into()
                    }
                    // Which accepted solution is fastest is the machine's to say.
                    "speed" if x.is_object() => *x = "[speeds]".into(),
                    "justified" if x.is_object() => {
                        x["solution"] = "[measured]".into();
                        x["case"] = "[measured]".into();
                        redact(x);
                    }
                    _ => redact(x),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact),
        _ => {}
    }
}

/// A path from the workspace on (`[ws]/solutions/nqueens/twice.rs`); one elsewhere (a
/// worker's cache) as `[path]`.
fn redact_path(p: &str) -> String {
    match p.find("/solutions/").or_else(|| p.find("/.judge/")) {
        _ if !p.starts_with('/') => p.to_string(),
        Some(i) => format!("[ws]{}", &p[i..]),
        None => "[path]".to_string(),
    }
}

fn snapshot(name: &str, mut doc: Value) {
    redact(&mut doc);
    insta::assert_json_snapshot!(name, doc);
}

#[test]
fn the_published_schemas_are_what_the_types_generate() {
    let update = std::env::var("INSTA_UPDATE").is_ok_and(|v| v == "always");
    let mut stale = Vec::new();
    let mut names = Vec::new();
    for f in formats() {
        let path = published().join(f.file_name());
        let generated = format!("{}\n", serde_json::to_string_pretty(&(f.schema)()).unwrap());
        names.push(f.file_name());
        if update {
            std::fs::create_dir_all(published()).unwrap();
            std::fs::write(&path, &generated).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(&generated) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "the published schemas differ from what the types generate: {stale:?}\n  fix: if the \
         change of shape is meant, raise the document's version and run the tests with \
         INSTA_UPDATE=always, then commit the schemas"
    );
    let mut files: Vec<String> = std::fs::read_dir(published())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    names.sort();
    assert_eq!(files, names, "a published schema no document has");
}

#[test]
fn every_document_names_a_format_and_version_of_its_own() {
    let names: Vec<&str> = formats().iter().map(|f| f.name).collect();
    let scheme = regex::Regex::new(r"^judge(\.[a-z]+)+/[1-9][0-9]*$").unwrap();
    for name in &names {
        assert!(scheme.is_match(name), "{name}");
        assert_eq!(names.iter().filter(|n| *n == name).count(), 1, "{name}");
    }
}

#[test]
fn a_run_document_says_its_schema_and_is_valid_against_it() {
    for (solution, exit) in [("nqueens/flags-boards", 0), ("nqueens/twice", 1)] {
        let out = Test::at(shipped())
            .args(["run", solution, "--json", "--no-history"])
            .expect_exit(exit)
            .run();
        assert!(
            out.stdout
                .starts_with("{\n  \"schema\": \"judge.run/1\",\n  \"problem\""),
            "the field comes first, the others as they were: {}",
            out.stdout
        );
        let doc = out.json();
        assert_valid::<judge_core::model::SolutionReport>(&doc);
        if exit == 1 {
            snapshot("run", doc);
        }
    }
}

#[test]
fn a_verify_document_says_its_schema_and_is_valid_against_it() {
    let doc = Test::at(shipped())
        .args(["verify", "nqueens", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_valid::<judge_core::verify::Verification>(&doc);
    snapshot("verify", doc);
}

#[test]
fn a_compare_document_says_its_schema_and_is_valid_against_it() {
    let doc = Test::at(shipped())
        .args(["compare", "nqueens", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_valid::<judge_core::compare::MatrixJson>(&doc);
    snapshot("compare", doc);
}

#[test]
fn validate_stress_and_scale_documents_say_their_schema_and_are_valid_against_them() {
    let judge = |args: &[&str]| {
        Test::at(shipped())
            .args(args)
            .arg("--json")
            .expect_exit(0)
            .run()
            .json()
    };
    let doc = judge(&["validate", "nqueens-ii"]);
    assert_valid::<judge_core::validate::Validation>(&doc);
    snapshot("validate", doc);
    let doc = judge(&[
        "stress",
        "flags",
        "--against",
        "bitmask",
        "--count",
        "5",
        "--seed",
        "100",
    ]);
    assert_valid::<judge_core::stress::StressReport>(&doc);
    snapshot("stress", doc);
    // Every figure of a scale is measured: its shape is checked, not its values.
    let doc = judge(&[
        "scale",
        "bitmask",
        "eightfold",
        "--sizes",
        "4,6",
        "--repeat",
        "1",
    ]);
    assert_valid::<judge_core::scale::ScaleReport>(&doc);
}

#[test]
fn a_generate_document_says_its_schema_and_is_valid_against_it() {
    // The shipped problems have no generators.yaml: a package of the format's fixtures has.
    let f = crate::formats::Fixture::new("forest");
    let doc = f
        .judge()
        .args(["generate", "forest", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_valid::<judge_packages::generate::Generated>(&doc);
    snapshot("generate", doc);
}

/// The shipped workspace copied, for commands that write its history or files beside it.
fn copy() -> Workspace {
    let ws = Workspace::new();
    crate::common::shipped::copy_into(ws.path());
    ws
}

#[test]
fn batch_results_and_the_history_say_their_schema_and_are_valid_against_it() {
    let ws = copy();
    let source = std::fs::read_to_string(ws.path().join("solutions/nqueens/twice.rs")).unwrap();
    let lines = [
        serde_json::json!({"id": "twice", "problem": "nqueens", "language": "rust", "source": source}),
        serde_json::json!({"id": "nowhere", "problem": "no-such", "language": "rust", "source": ""}),
    ];
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    ws.write("subs.jsonl", text.join("\n") + "\n");
    ws.judge()
        .args(["batch", "subs.jsonl"])
        .expect_exit(1)
        .run();
    let results = std::fs::read_to_string(ws.path().join("subs.results.jsonl")).unwrap();
    let results: Vec<Value> = results
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(results.len(), 2, "{results:#?}");
    for r in &results {
        assert_valid::<judge_core::batch::Outcome>(r);
    }
    assert_eq!(results[0]["report"]["schema"], "judge.run/1");
    snapshot("batch", Value::Array(results));

    ws.judge()
        .args(["run", "nqueens/flags-boards"])
        .expect_exit(0)
        .run();
    let doc = ws
        .judge()
        .args(["history", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc.as_array().unwrap().len(), 2, "{doc:#}");
    assert_valid::<judge_history::Entry>(&doc);
    snapshot("history", doc);
    // A batch run again reads its results back, these with the field; the one not judged is
    // tried again, and only it.
    ws.judge()
        .args(["batch", "subs.jsonl"])
        .expect_exit(1)
        .stderr_lacks("line 1 (twice)")
        .run();
}

#[test]
fn a_results_file_written_before_the_field_is_read_as_before() {
    let ws = copy();
    let source = std::fs::read_to_string(ws.path().join("solutions/nqueens/twice.rs")).unwrap();
    let line = serde_json::json!({"id": "old", "problem": "nqueens", "language": "rust", "source": source});
    ws.write("subs.jsonl", format!("{line}\n"));
    ws.judge()
        .args(["batch", "subs.jsonl"])
        .expect_exit(0)
        .run();
    // The results file as a judge before the field wrote it.
    let path = ws.path().join("subs.results.jsonl");
    let mut old: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let fields = old.as_object_mut().unwrap();
    fields.remove("schema");
    fields["report"].as_object_mut().unwrap().remove("schema");
    std::fs::write(&path, format!("{old}\n")).unwrap();
    ws.judge()
        .args(["batch", "subs.jsonl"])
        .expect_exit(0)
        .stderr_lacks("line 1 (old)")
        .run();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{old}\n"),
        "kept as it was"
    );
}

#[test]
fn eval_summaries_and_results_say_their_schema_and_are_valid_against_them() {
    let ws = Workspace::new();
    for name in ["contests.jsonl", "answers.jsonl", "untested.jsonl"] {
        let text = std::fs::read(repo().join("tests/fixtures/eval").join(name)).unwrap();
        ws.write(name, text);
    }
    let summary = ws
        .judge()
        .args([
            "eval",
            "contests.jsonl",
            "--samples",
            "answers.jsonl",
            "--extract",
        ])
        .args(["--k", "1,2", "--out", "out.jsonl", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_valid::<judge_eval::summary::Summary>(&summary);
    let lines = std::fs::read_to_string(ws.path().join("out.jsonl")).unwrap();
    for line in lines.lines() {
        assert_valid::<judge_eval::results::SampleResult>(&serde_json::from_str(line).unwrap());
    }
    // A problem not judged, and the data set's own solutions checked: the optional fields.
    let summary = ws
        .judge()
        .args(["eval", "untested.jsonl", "--json"])
        .expect_exit(3)
        .run()
        .json();
    assert!(summary["problems"][1]["error"].is_string(), "{summary:#}");
    assert_valid::<judge_eval::summary::Summary>(&summary);
}
