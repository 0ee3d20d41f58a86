//! LiveCodeBench's `code_generation_lite`: `question_id`, `public_test_cases` (a JSON string
//! of `[{input, output, testtype}]`), `private_test_cases` (the same, or base64 of zlib of a
//! pickled JSON string), `testtype` `stdin` or `functional`, `metadata` (a JSON string with
//! `func_name`) and `starter_code`, whose Python annotations give a functional problem's types.

use std::io::Read;
use std::time::Duration;

use base64::Engine;
use serde_json::Value;

use super::{
    id_of, json_field, with_tests, Compare, DataProblem, Programs, Signature, Spec, Test,
    DEFAULT_MEMORY,
};

/// Its harness gives each test 6 seconds (of wall-clock time; here of CPU time).
const TIME: Duration = Duration::from_secs(6);

pub(super) fn fits(record: &Value) -> bool {
    record.get("question_id").is_some()
        && (record.get("public_test_cases").is_some() || record.get("private_test_cases").is_some())
}

pub(super) fn problem(row: usize, record: &Value) -> DataProblem {
    DataProblem {
        id: id_of(record, &["question_id"], row),
        row,
        spec: spec(record),
        references: Vec::new(),
    }
}

fn spec(record: &Value) -> Result<Spec, String> {
    let mut all = cases(
        json_field(record, "public_test_cases")?,
        "public_test_cases",
    )?;
    all.extend(cases(private(record)?, "private_test_cases")?);
    let functional = all.iter().filter(|(_, kind)| kind == "functional").count();
    if functional != 0 && functional != all.len() {
        return Err("the problem mixes stdin and functional tests".into());
    }
    let function = if functional > 0 {
        Some(signature(record)?)
    } else {
        None
    };
    let compare = if function.is_some() {
        Compare::Json
    } else {
        Compare::Float {
            absolute: 0.0,
            any_case: false,
        }
    };
    let tests = all.into_iter().map(|(test, _)| test).collect();
    with_tests(tests, |tests| Spec {
        tests,
        time: TIME,
        memory_bytes: DEFAULT_MEMORY,
        compare,
        function,
        programs: Programs::default(),
    })
}

/// The private tests: JSON as the public ones, or base64 of zlib of a pickled JSON string.
fn private(record: &Value) -> Result<Option<Value>, String> {
    let Some(Value::String(text)) = record.get("private_test_cases") else {
        return json_field(record, "private_test_cases");
    };
    if text.trim().is_empty() || text.trim_start().starts_with('[') {
        return json_field(record, "private_test_cases");
    }
    let packed = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| format!("`private_test_cases` is neither JSON nor base64: {e}"))?;
    let mut pickled = Vec::new();
    flate2::read::ZlibDecoder::new(&packed[..])
        .read_to_end(&mut pickled)
        .map_err(|e| format!("`private_test_cases` is base64 but not zlib: {e}"))?;
    let json: String = serde_pickle::from_slice(&pickled, serde_pickle::DeOptions::new())
        .map_err(|e| format!("`private_test_cases` unpacked is not a pickled string: {e}"))?;
    serde_json::from_str(&json)
        .map(Some)
        .map_err(|e| format!("`private_test_cases` unpacked is not JSON: {e}"))
}

/// A list of `{input, output, testtype}`, each with its type.
fn cases(list: Option<Value>, field: &str) -> Result<Vec<(Test, String)>, String> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let items = list
        .as_array()
        .ok_or_else(|| format!("`{field}` is not a list"))?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let text = |key: &str| {
                item.get(key)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| format!("`{field}`[{i}] has no `{key}` text"))
            };
            let kind = item
                .get("testtype")
                .and_then(Value::as_str)
                .unwrap_or("stdin");
            if kind != "stdin" && kind != "functional" {
                return Err(format!(
                    "`{field}`[{i}] has the test type `{kind}` (stdin or functional)"
                ));
            }
            let test = Test {
                input: text("input")?,
                output: text("output")?,
            };
            Ok((test, kind.to_string()))
        })
        .collect()
}

/// The function of a functional problem: `metadata.func_name`, its types read from the
/// `starter_code`'s annotations.
fn signature(record: &Value) -> Result<Signature, String> {
    let name = json_field(record, "metadata")?
        .and_then(|m| {
            m.get("func_name")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .ok_or("a functional problem whose `metadata` names no `func_name`")?;
    let starter = record
        .get("starter_code")
        .and_then(Value::as_str)
        .ok_or("a functional problem with no `starter_code` to read its types from")?;
    from_starter(starter, &name)
}

/// `def NAME(self, a: List[int], k: int) -> int:` read into the judge's declaration.
pub(crate) fn from_starter(starter: &str, name: &str) -> Result<Signature, String> {
    let head = format!("def {name}(");
    let start = starter
        .find(&head)
        .ok_or_else(|| format!("the starter code defines no `{name}`"))?
        + head.len();
    let rest = &starter[start..];
    let close = closing(rest).ok_or("the starter code's parameter list is not closed")?;
    let params = split_top(&rest[..close])
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty() && *p != "self")
        .map(|p| {
            let (pname, ty) = p
                .split_once(':')
                .ok_or_else(|| format!("the parameter `{p}` has no type annotation"))?;
            let pname = pname.trim();
            let ty = ty.split('=').next().unwrap_or(ty);
            Ok(format!("{pname}: {}", type_of(ty.trim())?))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let after = &rest[close + 1..];
    let returns = after
        .trim_start()
        .strip_prefix("->")
        .and_then(|r| r.split(':').next())
        .ok_or_else(|| format!("`{name}` has no return annotation in the starter code"))?;
    Ok(Signature {
        name: name.to_string(),
        params,
        returns: type_of(returns.trim())?,
    })
}

/// The index of the `)` that closes the list `text` starts inside.
fn closing(text: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' | ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `text` split at the commas outside brackets.
fn split_top(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut from) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[from..]);
    parts
}

/// A Python annotation in the judge's types: `int`, `List[int]`, `Optional[TreeNode]`.
fn type_of(annotation: &str) -> Result<String, String> {
    let a = annotation.replace(' ', "");
    let inner = |prefix: &str| a.strip_prefix(prefix).and_then(|r| r.strip_suffix(']'));
    if let Some(item) = inner("List[").or_else(|| inner("list[")) {
        let item = type_of(item)?;
        return Ok(format!("{item}[]"));
    }
    if let Some(node) = inner("Optional[") {
        if node == "ListNode" || node == "TreeNode" {
            return Ok(node.to_string());
        }
    }
    Ok(match a.as_str() {
        "int" => "int",
        "float" => "double",
        "bool" => "bool",
        "str" => "string",
        "ListNode" | "TreeNode" => return Ok(a.clone()),
        _ => return Err(format!("the type `{annotation}` of the starter code has no counterpart among the judge's function types")),
    }
    .to_string())
}
