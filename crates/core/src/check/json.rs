//! The `json` checker: the output read as one JSON value and compared with the answer's, the
//! default of a function problem. Whitespace and the order of an object's keys do not count,
//! a number that is not an integer on either side is compared within the float tolerance, and
//! with `order = "any"` the top-level array is compared as a multiset.

use std::cmp::Ordering;

use serde_json::Value;

use super::{CheckOutcome, CompareOptions};
use crate::text::quote;

/// Whether the order of the returned array counts (`order` in `[function]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// As given: the arrays must match element by element.
    #[default]
    AsGiven,
    /// Any: the top-level array's elements may come in any order (arrays inside them as given).
    Any,
}

/// The longest text of a value quoted in a message.
const SHOWN: usize = 60;

/// An answer that is not one JSON value: the problem's fault, never the solution's.
#[derive(Debug, thiserror::Error)]
#[error("the answer is not one JSON value ({0})")]
pub struct AnswerNotJson(serde_json::Error);

/// Compares the program's output with the answer; `Err` when the answer itself is not JSON.
pub fn compare(
    options: &CompareOptions,
    expected: &[u8],
    received: &[u8],
) -> Result<CheckOutcome, AnswerNotJson> {
    let mut answer: Value = serde_json::from_slice(expected).map_err(AnswerNotJson)?;
    let mut output: Value = match serde_json::from_slice(received) {
        Ok(v) => v,
        Err(_) if received.iter().all(u8::is_ascii_whitespace) => {
            return Ok(CheckOutcome::rejected(
                "the output is empty; expected one JSON value".into(),
            ))
        }
        Err(e) => {
            return Ok(CheckOutcome::rejected(format!(
                "the output is not one JSON value ({e}): {}",
                quote(cut(received))
            )))
        }
    };
    if options.order == Order::Any {
        for v in [&mut answer, &mut output] {
            if let Value::Array(items) = v {
                items.sort_by(canonical);
            }
        }
    }
    let tolerance = (options.float_absolute, options.float_relative);
    Ok(
        match differ(&answer, &output, tolerance, &mut String::new()) {
            None => CheckOutcome::accepted(),
            Some(why) if options.order == Order::Any => {
                CheckOutcome::rejected(format!("{why} (the elements compared in sorted order)"))
            }
            Some(why) => CheckOutcome::rejected(why),
        },
    )
}

fn cut(bytes: &[u8]) -> &[u8] {
    let text = bytes.trim_ascii();
    &text[..text.len().min(SHOWN)]
}

/// Where and how `output` first differs from `answer`; `None` when they match.
fn differ(
    answer: &Value,
    output: &Value,
    tolerance: (f64, f64),
    at: &mut String,
) -> Option<String> {
    match (answer, output) {
        (Value::Number(a), Value::Number(o)) => {
            if numbers_match(a, o, tolerance) {
                return None;
            }
            here(at, format!("expected {a}, received {o}"))
        }
        (Value::Array(a), Value::Array(o)) => {
            for (i, (x, y)) in a.iter().zip(o).enumerate() {
                let len = at.len();
                at.push_str(&format!("[{i}]"));
                let why = differ(x, y, tolerance, at);
                at.truncate(len);
                if why.is_some() {
                    return why;
                }
            }
            (a.len() != o.len()).then(|| {
                here(
                    at,
                    format!("expected {} elements, received {}", a.len(), o.len()),
                )
            })?
        }
        (Value::Object(a), Value::Object(o)) => {
            for (key, x) in a {
                let len = at.len();
                at.push_str(&format!(".{key}"));
                let why = match o.get(key) {
                    Some(y) => differ(x, y, tolerance, at),
                    None => here(at, "missing".into()),
                };
                at.truncate(len);
                if why.is_some() {
                    return why;
                }
            }
            let extra = o.keys().find(|k| !a.contains_key(*k));
            extra.and_then(|k| here(at, format!("unexpected key \"{k}\"")))
        }
        (a, o) if a == o => None,
        (a, o) => here(at, format!("expected {}, received {}", shown(a), shown(o))),
    }
}

/// `what`, said of the place `at` inside the value (nothing for the whole value).
fn here(at: &str, what: String) -> Option<String> {
    match at {
        "" => Some(what),
        _ => Some(format!("at {at}: {what}")),
    }
}

fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(SHOWN) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}

/// Two integers are equal or not; a number that is not an integer on either side (a
/// `double`) is within the absolute or the relative tolerance, as the float checker says.
fn numbers_match(a: &serde_json::Number, o: &serde_json::Number, (abs, rel): (f64, f64)) -> bool {
    if a.is_f64() || o.is_f64() {
        let (x, y) = (
            a.as_f64().unwrap_or(f64::NAN),
            o.as_f64().unwrap_or(f64::NAN),
        );
        return super::close_enough(x, y, abs, rel);
    }
    a == o
}

/// A total order of JSON values, numbers by their value, that puts equal values side by side:
/// a multiset is compared as its sorted elements.
fn canonical(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Null => 0,
            Value::Bool(_) => 1,
            Value::Number(_) => 2,
            Value::String(_) => 3,
            Value::Array(_) => 4,
            Value::Object(_) => 5,
        }
    }
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x.total_cmp(&y)
        }
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => x
            .iter()
            .zip(y)
            .map(|(p, q)| canonical(p, q))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| x.len().cmp(&y.len())),
        // Keys are kept sorted, so equal objects have equal texts.
        (Value::Object(_), Value::Object(_)) => a.to_string().cmp(&b.to_string()),
        _ => rank(a).cmp(&rank(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(order: Order) -> CompareOptions {
        CompareOptions {
            order,
            ..CompareOptions::default()
        }
    }

    fn judge(order: Order, answer: &str, output: &str) -> CheckOutcome {
        compare(&options(order), answer.as_bytes(), output.as_bytes()).unwrap()
    }

    fn message(order: Order, answer: &str, output: &str) -> String {
        let outcome = judge(order, answer, output);
        assert!(!outcome.accepted, "{answer} vs {output}");
        outcome.message.unwrap()
    }

    #[test]
    fn whitespace_and_key_order_do_not_count() {
        assert!(judge(Order::AsGiven, "[1,2,3]\n", " [ 1, 2,\n3 ] ").accepted);
        assert!(
            judge(
                Order::AsGiven,
                "{\"a\":1,\"b\":[true]}",
                "{\"b\":[true],\"a\":1}"
            )
            .accepted
        );
        assert!(judge(Order::AsGiven, "\"a\"", "\"a\"").accepted);
        assert_eq!(
            message(Order::AsGiven, "[1,2,3]", "[1,3,2]"),
            "at [1]: expected 2, received 3"
        );
        assert_eq!(
            message(Order::AsGiven, "[[1],[2]]", "[[1],[2,5]]"),
            "at [1]: expected 1 elements, received 2"
        );
        assert_eq!(
            message(Order::AsGiven, "true", "false"),
            "expected true, received false"
        );
        assert_eq!(message(Order::AsGiven, "{\"a\":1}", "{}"), "at .a: missing");
    }

    #[test]
    fn doubles_are_within_the_tolerance_and_integers_exact() {
        assert!(judge(Order::AsGiven, "[2.5,1.0]", "[2.5000001,1]").accepted);
        assert!(!judge(Order::AsGiven, "2.5", "2.6").accepted);
        assert!(judge(Order::AsGiven, "2", "2.0000000001").accepted);
        assert_eq!(message(Order::AsGiven, "7", "8"), "expected 7, received 8");
        assert!(judge(Order::AsGiven, "9007199254740993", "9007199254740993").accepted);
        assert!(!judge(Order::AsGiven, "9007199254740993", "9007199254740992").accepted);
    }

    #[test]
    fn any_order_is_a_multiset_of_the_top_level() {
        assert!(judge(Order::Any, "[[1,2],[3]]", "[[3],[1,2]]").accepted);
        assert!(!judge(Order::Any, "[[1,2],[3]]", "[[3],[2,1]]").accepted);
        assert!(!judge(Order::Any, "[1,1,2]", "[1,2,2]").accepted);
        assert!(judge(Order::Any, "[0.1,0.2]", "[0.2000000001,0.1]").accepted);
        assert!(message(Order::Any, "[1,2]", "[1]")
            .ends_with("(the elements compared in sorted order)"));
    }

    #[test]
    fn output_that_is_not_json_is_wrong_and_an_answer_that_is_not_is_the_problems() {
        assert_eq!(
            message(Order::AsGiven, "1", "  \n"),
            "the output is empty; expected one JSON value"
        );
        assert!(
            message(Order::AsGiven, "[1,2]", "1 2").starts_with("the output is not one JSON value")
        );
        assert!(message(Order::AsGiven, "[1,2]", "[1,2")
            .starts_with("the output is not one JSON value"));
        let e = compare(&options(Order::AsGiven), b"[1,", b"[1]").unwrap_err();
        let inner = serde_json::from_slice::<Value>(b"[1,").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("the answer is not one JSON value ({inner})")
        );
    }
}
