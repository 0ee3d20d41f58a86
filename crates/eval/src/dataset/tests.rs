use std::io::Write;

use base64::Engine;
use serde_json::json;

use super::*;

fn read_text(text: &str, format: Option<Format>) -> Result<Dataset, Error> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.jsonl");
    std::fs::write(&path, text).unwrap();
    read(&path, format)
}

fn line(v: serde_json::Value) -> String {
    format!("{v}\n")
}

#[test]
fn code_contests_is_told_from_its_fields_and_its_tests_are_all_three_lists() {
    let record = json!({
        "name": "1A. Sum",
        "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
        "private_tests": {"input": ["2 2\n"], "output": ["4\n"]},
        "generated_tests": {"input": [], "output": []},
        "time_limit": {"seconds": 1, "nanos": 500000000},
        "memory_limit_bytes": 67108864,
        "solutions": {"language": [2, 3], "solution": ["int main(){}", "print(1)"]},
        "incorrect_solutions": {"language": [1], "solution": ["print 1"]}
    });
    let set = read_text(&line(record), None).unwrap();
    assert_eq!(set.format, Format::CodeContests);
    let p = &set.problems[0];
    assert_eq!(p.id, "1A. Sum");
    let spec = p.spec.as_ref().unwrap();
    assert_eq!(spec.tests.len(), 2);
    assert_eq!(spec.time, Duration::from_millis(1500));
    assert_eq!(spec.memory_bytes, 64 << 20);
    assert_eq!(p.references.len(), 3);
    assert_eq!(p.references[0].language, Ok("cpp".into()));
    assert_eq!(p.references[1].language, Ok("python".into()));
    assert!(p.references[2]
        .language
        .as_ref()
        .unwrap_err()
        .contains("Python 2"));
    assert!(!p.references[2].correct);
}

#[test]
fn a_problem_with_no_tests_is_an_error_never_a_pass() {
    let record = json!({"name": "empty", "public_tests": {"input": [], "output": []}});
    let set = read_text(&line(record), None).unwrap();
    assert_eq!(
        set.problems[0].spec.as_ref().unwrap_err(),
        "the problem has no tests"
    );
}

#[test]
fn inputs_and_outputs_of_different_counts_are_the_problems_error() {
    let record = json!({"name": "x", "public_tests": {"input": ["1"], "output": []}});
    let set = read_text(&line(record), None).unwrap();
    assert!(set.problems[0]
        .spec
        .as_ref()
        .unwrap_err()
        .contains("1 inputs and 0 outputs"));
}

#[test]
fn apps_reads_its_json_string_and_tacos_limits() {
    let io = json!({"inputs": ["1\n", ["2", "3"]], "outputs": ["1\n", "5\n"]}).to_string();
    let record = json!({"problem_id": 17, "input_output": io, "time_limit": "1 second", "memory_limit": "64 megabytes", "solutions": json!(["print(1)"]).to_string()});
    let set = read_text(&line(record), None).unwrap();
    assert_eq!(set.format, Format::Apps);
    let p = &set.problems[0];
    assert_eq!(p.id, "17");
    let spec = p.spec.as_ref().unwrap();
    assert_eq!(spec.tests[1].input, "2\n3");
    assert_eq!(spec.time, Duration::from_secs(1));
    assert_eq!(spec.memory_bytes, 64 << 20);
    assert_eq!(p.references.len(), 1);
}

#[test]
fn an_undecodable_input_output_is_the_problems_error() {
    let record = json!({"problem_id": 1, "input_output": "{not json"});
    let set = read_text(&line(record), None).unwrap();
    assert!(set.problems[0]
        .spec
        .as_ref()
        .unwrap_err()
        .contains("does not decode"));
}

/// base64 of zlib of a pickled string, as LiveCodeBench packs its private tests.
fn packed(json: &str) -> String {
    let pickled = serde_pickle::to_vec(&json.to_string(), serde_pickle::SerOptions::new()).unwrap();
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&pickled).unwrap();
    base64::engine::general_purpose::STANDARD.encode(z.finish().unwrap())
}

#[test]
fn livecodebench_private_tests_are_unpacked() {
    let public = json!([{"input": "1\n", "output": "1\n", "testtype": "stdin"}]).to_string();
    let private =
        packed(&json!([{"input": "2\n", "output": "4\n", "testtype": "stdin"}]).to_string());
    let record = json!({"question_id": "abc301_a", "public_test_cases": public, "private_test_cases": private, "metadata": "{}", "starter_code": ""});
    let set = read_text(&line(record), None).unwrap();
    assert_eq!(set.format, Format::LiveCodeBench);
    let spec = set.problems[0].spec.as_ref().unwrap();
    assert_eq!(spec.tests.len(), 2);
    assert_eq!(spec.tests[1].output, "4\n");
    assert_eq!(spec.function, None);
}

#[test]
fn a_functional_problem_takes_its_types_from_the_starter_code() {
    let public =
        json!([{"input": "[1,2]\n3", "output": "[0,1]", "testtype": "functional"}]).to_string();
    let starter = "class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n        ";
    let record = json!({"question_id": "1", "public_test_cases": public, "private_test_cases": "", "metadata": "{\"func_name\": \"twoSum\"}", "starter_code": starter});
    let set = read_text(&line(record), None).unwrap();
    let spec = set.problems[0].spec.as_ref().unwrap();
    assert_eq!(spec.compare, Compare::Json);
    let f = spec.function.as_ref().unwrap();
    assert_eq!(f.params, ["nums: int[]", "target: int"]);
    assert_eq!(f.returns, "int[]");
}

#[test]
fn starter_types_nest_and_unknown_ones_are_named() {
    let s = lcb::from_starter(
        "def f(self, g: List[List[str]], t: Optional[TreeNode], x: float = 0.5) -> bool:",
        "f",
    )
    .unwrap();
    assert_eq!(s.params, ["g: string[][]", "t: TreeNode", "x: double"]);
    let e = lcb::from_starter("def f(self, d: Dict[int, int]) -> int:", "f").unwrap_err();
    assert!(e.contains("Dict[int, int]"), "{e}");
}

#[test]
fn unpacked_private_tests_that_are_not_a_pickle_are_the_problems_error() {
    let junk = base64::engine::general_purpose::STANDARD.encode(b"not zlib at all");
    let record = json!({"question_id": "q", "public_test_cases": "[]", "private_test_cases": junk});
    let set = read_text(&line(record), None).unwrap();
    assert!(set.problems[0]
        .spec
        .as_ref()
        .unwrap_err()
        .contains("not zlib"));
}

#[test]
fn a_gzipped_json_array_is_read_too() {
    let records = json!([{"name": "a", "public_tests": {"input": ["1"], "output": ["1"]}}, {"name": "a", "public_tests": {"input": ["1"], "output": ["1"]}}]);
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(records.to_string().as_bytes()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.json.gz");
    std::fs::write(&path, z.finish().unwrap()).unwrap();
    let set = read(&path, None).unwrap();
    assert_eq!(set.problems.len(), 2);
    assert!(set.problems[1]
        .spec
        .as_ref()
        .unwrap_err()
        .contains("row 1 too"));
}

#[test]
fn unknown_fields_are_an_error_naming_them_and_the_fix() {
    let e = read_text("{\"title\": \"x\"}\n", None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("set.jsonl:1") && e.contains("title") && e.contains("--format"),
        "{e}"
    );
    let e = read_text("{\"title\": \n", None).unwrap_err().to_string();
    assert!(e.contains("not JSON") && e.contains("fix:"), "{e}");
}

#[test]
fn codeforces_problems_bring_their_checker_and_files_and_what_cannot_run_is_an_error() {
    let tests = json!([{"input": "1\n", "output": "1\n"}]);
    let plain = json!({"id": "1/A", "official_tests": tests, "official_tests_complete": true, "time_limit": 1.5, "memory_limit": 64.0, "input_mode": "stdio"});
    let checked = json!({"id": "1/B", "official_tests": tests, "generated_checker": "print(1)", "input_mode": "file"});
    let partial = json!({"id": "1/C", "official_tests": tests, "official_tests_complete": false});
    let interactive =
        json!({"id": "1/D", "official_tests": tests, "interaction_format": "ask ? x"});
    let empty = json!({"id": "1/E", "official_tests": []});
    let text = [plain, checked, partial, interactive, empty]
        .map(line)
        .concat();
    let set = read_text(&text, None).unwrap();
    assert_eq!(set.format, Format::Codeforces);
    let spec = set.problems[0].spec.as_ref().unwrap();
    assert_eq!(
        (spec.time, spec.memory_bytes),
        (Duration::from_millis(1500), 64 << 20)
    );
    let checked = &set.problems[1].spec.as_ref().unwrap().programs;
    assert_eq!(checked.checker, Some(Program::OpenR1("print(1)".into())));
    assert_eq!(
        checked.files,
        Some(("input.txt".to_string(), "output.txt".to_string()))
    );
    assert!(set.problems[2]
        .spec
        .as_ref()
        .unwrap_err()
        .contains("official_tests_complete"));
    assert!(set.problems[3]
        .spec
        .as_ref()
        .unwrap_err()
        .contains("no `interactor`"));
    assert_eq!(
        set.problems[4].spec.as_ref().unwrap_err(),
        "the problem has no tests"
    );
}
