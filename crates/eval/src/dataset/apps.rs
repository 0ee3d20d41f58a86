//! APPS (`codeparrot/apps`) and TACO (`BAAI/TACO`): `problem_id` (TACO: `name`), `input_output`
//! a JSON string of `{inputs, outputs, fn_name?}`, `solutions` a JSON string of right
//! solutions in Python, and TACO's `time_limit` and `memory_limit` as words ("2 seconds",
//! "256 megabytes"). A call-based problem (`fn_name`) is a function problem: each input a list
//! of arguments, each output a one-element list of the value returned (unwrapped, as APPS' own
//! harness takes either), the types told by the tests' values (`calls` below).

use std::time::Duration;

use serde_json::Value;

use super::{
    id_of, json_field, test_text, with_tests, Compare, DataProblem, Programs, Reference, Signature,
    Spec, Test, DEFAULT_MEMORY,
};

/// APPS' own harness gives each test 4 seconds.
const DEFAULT_TIME: Duration = Duration::from_secs(4);

pub(super) fn fits(record: &Value) -> bool {
    record.get("input_output").is_some()
}

pub(super) fn problem(row: usize, record: &Value) -> DataProblem {
    let references = match json_field(record, "solutions") {
        Ok(Some(Value::Array(all))) => all
            .iter()
            .filter_map(Value::as_str)
            .map(|code| Reference {
                language: Ok("python".into()),
                code: code.to_string(),
                correct: true,
            })
            .collect(),
        _ => Vec::new(),
    };
    DataProblem {
        id: id_of(record, &["problem_id", "name", "id"], row),
        row,
        spec: spec(record),
        references,
    }
}

fn spec(record: &Value) -> Result<Spec, String> {
    let io = json_field(record, "input_output")?.ok_or("`input_output` is empty")?;
    let call = match io.get("fn_name") {
        Some(Value::String(name)) => Some(calls(record, &io, name)?),
        Some(Value::Null) | None => None,
        Some(_) => return Err("`fn_name` is not text".into()),
    };
    let list = |key: &str| -> Result<Vec<String>, String> {
        let items = io
            .get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| format!("`input_output` has no `{key}` list"))?;
        items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                test_text(v)
                    .ok_or_else(|| format!("`{key}`[{i}] is neither text nor a list of lines"))
            })
            .collect()
    };
    let ((inputs, outputs), function) = match call {
        Some((tests, signature)) => (tests, Some(signature)),
        None => ((list("inputs")?, list("outputs")?), None),
    };
    if inputs.len() != outputs.len() {
        return Err(format!(
            "`input_output` has {} inputs and {} outputs",
            inputs.len(),
            outputs.len()
        ));
    }
    let tests = inputs
        .into_iter()
        .zip(outputs)
        .map(|(input, output)| Test { input, output })
        .collect();
    let time = words(
        record,
        "time_limit",
        &[
            ("second", 1.0),
            ("sec", 1.0),
            ("s", 1.0),
            ("millisecond", 1e-3),
            ("ms", 1e-3),
        ],
    );
    let memory = words(
        record,
        "memory_limit",
        &[
            ("megabyte", 1048576.0),
            ("mb", 1048576.0),
            ("kilobyte", 1024.0),
            ("kb", 1024.0),
        ],
    );
    with_tests(tests, |tests| Spec {
        tests,
        time: time.map(Duration::from_secs_f64).unwrap_or(DEFAULT_TIME),
        memory_bytes: memory.map(|b| b as u64).unwrap_or(DEFAULT_MEMORY),
        compare: if function.is_some() {
            Compare::Json
        } else {
            Compare::Tokens
        },
        function,
        programs: Programs::default(),
    })
}

/// A limit written in words ("2 seconds", "256 megabytes"), in the base unit; `None` when
/// absent or not read (the default then applies).
fn words(record: &Value, field: &str, units: &[(&str, f64)]) -> Option<f64> {
    let text = record.get(field)?.as_str()?.trim().to_ascii_lowercase();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let unit = unit.trim();
    let scale = units.iter().find(|(u, _)| unit.starts_with(u))?.1;
    (number > 0.0).then_some(number * scale)
}

/// A call-based sample's source as the judge calls it: APPS' harness calls a module's function
/// (or `Solution`'s method when the code has that class), the judge's harness a method of
/// `class Solution`, so a function alone gets a class whose method calls it.
pub(crate) fn as_method(code: &str, f: &Signature) -> String {
    if code.lines().any(|l| l.starts_with("class Solution")) {
        return code.to_string();
    }
    let names: Vec<String> = (1..=f.params.len())
        .map(|i| format!("judge_arg{i}"))
        .collect();
    let args = names.join(", ");
    let comma = if names.is_empty() { "" } else { ", " };
    format!(
        "{}\n\n\nclass Solution:\n    def {name}(self{comma}{args}):\n        return {name}({args})\n",
        code.trim_end(),
        name = f.name,
    )
}

/// A problem's inputs and outputs, in the tests' order.
type Columns = (Vec<String>, Vec<String>);

/// The tests (inputs, outputs) of a call-based problem in the judge's function form, one JSON
/// value a line per argument and the value returned, and the function's declaration: its
/// parameters named as the starter code names them (else `arg1`...), each type the one every
/// test's value of it fits (APPS gives none).
fn calls(record: &Value, io: &Value, name: &str) -> Result<(Columns, Signature), String> {
    let items = |key: &str| -> Result<&Vec<Value>, String> {
        io.get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| format!("`input_output` has no `{key}` list"))
    };
    let (inputs, outputs) = (items("inputs")?, items("outputs")?);
    let arguments: Vec<&Vec<Value>> = inputs
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_array()
                .ok_or_else(|| format!("`inputs`[{i}] is not a list of arguments"))
        })
        .collect::<Result<_, _>>()?;
    let count = arguments.first().map_or(0, |a| a.len());
    if let Some(i) = arguments.iter().position(|a| a.len() != count) {
        return Err(format!(
            "`inputs`[{i}] has {} arguments where `inputs`[0] has {count}",
            arguments[i].len()
        ));
    }
    // APPS' harness takes the value returned for right when it equals the output or, the
    // output being a list, its first element: its outputs are the value in a one-element list.
    let unwrap = outputs
        .iter()
        .all(|o| o.as_array().is_some_and(|a| a.len() == 1));
    let returned: Vec<&Value> = outputs
        .iter()
        .map(|o| match o {
            Value::Array(a) if unwrap => &a[0],
            o => o,
        })
        .collect();
    let names = parameter_names(record, name, count);
    let params = (0..count)
        .map(|p| {
            let ty = fitting(arguments.iter().map(|a| &a[p]))
                .map_err(|why| format!("the argument `{}` of `{name}`: {why}", names[p]))?;
            Ok(format!("{}: {ty}", names[p]))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let returns = fitting(returned.iter().copied())
        .map_err(|why| format!("the value `{name}` returns: {why}"))?;
    let line = |v: &Value| serde_json::to_string(v).unwrap_or_default();
    let ins = arguments
        .iter()
        .map(|a| a.iter().map(|v| line(v) + "\n").collect())
        .collect();
    let outs = returned.iter().map(|v| line(v) + "\n").collect();
    let signature = Signature {
        name: name.to_string(),
        params,
        returns,
    };
    Ok(((ins, outs), signature))
}

/// The names of the parameters of `def NAME(...)` in the starter code, when it has `count`;
/// else `arg1`... (names the judge's languages all take).
fn parameter_names(record: &Value, name: &str, count: usize) -> Vec<String> {
    let starter = record
        .get("starter_code")
        .and_then(Value::as_str)
        .unwrap_or("");
    let head = format!("def {name}(");
    let listed: Option<Vec<String>> = starter.find(&head).and_then(|at| {
        let rest = &starter[at + head.len()..];
        let list = &rest[..rest.find(')')?];
        let names: Vec<String> = list
            .split(',')
            .map(|p| p.split([':', '=']).next().unwrap_or("").trim().to_string())
            .filter(|p| !p.is_empty() && p != "self")
            .collect();
        let plain = names.iter().all(|n| {
            n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !n.starts_with(|c: char| c.is_ascii_digit())
        });
        (plain && names.len() == count).then_some(names)
    });
    listed.unwrap_or_else(|| (1..=count).map(|i| format!("arg{i}")).collect())
}

/// The judge's type that every value fits: `int` (or `long` past 32 bits), `double` once a
/// value is not an integer, `bool`, `string`, and arrays of them; an error for anything else.
fn fitting<'a>(values: impl Iterator<Item = &'a Value>) -> Result<String, String> {
    let mut found = Shape::Unknown;
    for v in values {
        found = found.join(Shape::of(v)?)?;
    }
    found.name()
}

/// A value's type as far as the values seen tell it.
#[derive(Debug, Clone, PartialEq)]
enum Shape {
    /// Nothing seen yet, or only empty arrays' elements.
    Unknown,
    Int,
    Long,
    Double,
    Bool,
    String,
    Array(Box<Shape>),
}

impl Shape {
    fn of(v: &Value) -> Result<Shape, String> {
        Ok(match v {
            Value::Bool(_) => Shape::Bool,
            Value::String(_) => Shape::String,
            Value::Number(n) => match n.as_i64() {
                Some(i) if i32::try_from(i).is_ok() => Shape::Int,
                Some(_) => Shape::Long,
                None if n.is_u64() => return Err(format!("{n} is past 64 bits")),
                None => Shape::Double,
            },
            Value::Array(items) => {
                let mut item = Shape::Unknown;
                for i in items {
                    item = item.join(Shape::of(i)?)?;
                }
                Shape::Array(Box::new(item))
            }
            Value::Null => return Err("a null, which no type of the judge's holds".into()),
            Value::Object(_) => return Err("an object, which no type of the judge's holds".into()),
        })
    }

    fn join(self, other: Shape) -> Result<Shape, String> {
        use Shape::*;
        Ok(match (self, other) {
            (Unknown, s) | (s, Unknown) => s,
            (a, b) if a == b => a,
            (Int, Long) | (Long, Int) => Long,
            (Int | Long | Double, Int | Long | Double) => Double,
            (Array(a), Array(b)) => Array(Box::new(a.join(*b)?)),
            (a, b) => return Err(format!("its values are of two types ({a:?} and {b:?})")),
        })
    }

    fn name(&self) -> Result<String, String> {
        Ok(match self {
            // Only empty arrays: any element type reads them.
            Shape::Unknown | Shape::Int => "int".into(),
            Shape::Long => "long".into(),
            Shape::Double => "double".into(),
            Shape::Bool => "bool".into(),
            Shape::String => "string".into(),
            Shape::Array(item) => format!("{}[]", item.name()?),
        })
    }
}
