//! Function problems (LeetCode's form): a problem that declares a function, `[function]` in
//! problem.toml, judged by calling a solution's method through a harness the judge writes.
//!
//! [`signature`] is the declaration: its types, its parameters, and their names in each
//! language; [`value`] checks one JSON value against a type (a test's input lines and its
//! answer); [`harness`] writes, for each language, the program that reads the arguments,
//! calls the solution's function and prints what it returns.

pub mod harness;
pub mod signature;
pub mod value;

pub use harness::FnLanguage;
pub use signature::{Param, Signature, SignatureError, Type};

use crate::check::Order;

/// A problem's declared function: `[function]` in problem.toml.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    pub signature: Signature,
    /// Whether the order of the returned array counts (the json checker's).
    pub order: Order,
}

/// Where a test's file fails its function's types: the 1-based line, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseMismatch {
    pub line: usize,
    pub message: String,
    pub fix: String,
}

/// Checks a test's input against the signature: one line per parameter, each a JSON value of
/// the parameter's type.
pub fn check_input(signature: &Signature, text: &str) -> Result<(), CaseMismatch> {
    let lines: Vec<&str> = text.lines().collect();
    let count = lines.len()
        - lines
            .iter()
            .rev()
            .take_while(|l| l.trim().is_empty())
            .count();
    let params = &signature.params;
    if count != params.len() {
        let names: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        return Err(CaseMismatch {
            line: count.min(params.len()) + 1,
            message: format!(
                "{count} line{} where {} declares {} parameter{} ({})",
                if count == 1 { "" } else { "s" },
                signature.name,
                params.len(),
                if params.len() == 1 { "" } else { "s" },
                names.join(", ")
            ),
            fix: "write one JSON value per parameter, one per line, in the declared order".into(),
        });
    }
    for (i, (line, param)) in lines.iter().zip(params).enumerate() {
        value::read(line, &param.ty).map_err(|e| CaseMismatch {
            line: i + 1,
            message: format!(
                "expected a JSON value of type {} for parameter `{}`, found `{}`: {e}",
                param.ty,
                param.name,
                line.trim()
            ),
            fix: "write the parameter as JSON, one per line".into(),
        })?;
    }
    Ok(())
}

/// Checks a test's answer: one JSON value of the return type.
pub fn check_answer(signature: &Signature, text: &str) -> Result<(), CaseMismatch> {
    value::read(text, &signature.returns)
        .map(drop)
        .map_err(|e| CaseMismatch {
            line: 1,
            message: format!(
                "expected a JSON value of type {} (what {} returns), found `{}`: {e}",
                signature.returns,
                signature.name,
                first_line(text)
            ),
            fix: "write the return value as one JSON value".into(),
        })
}

fn first_line(text: &str) -> &str {
    let line = text.trim().lines().next().unwrap_or("");
    match line.char_indices().nth(60) {
        Some((i, _)) => &line[..i],
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_sum() -> Signature {
        let params = ["nums: int[]".to_string(), "target: int".to_string()];
        Signature::parse("twoSum", &params, "int[]").unwrap()
    }

    #[test]
    fn an_input_is_one_line_per_parameter() {
        assert_eq!(check_input(&two_sum(), "[2,7,11,15]\n9\n"), Ok(()));
        assert_eq!(check_input(&two_sum(), "[2,7]\n9\n\n"), Ok(()));
        let short = check_input(&two_sum(), "[2,7]\n").unwrap_err();
        assert_eq!(short.line, 2);
        assert_eq!(
            short.message,
            "1 line where twoSum declares 2 parameters (nums: int[], target: int)"
        );
        let bad = check_input(&two_sum(), "[1,2\n9\n").unwrap_err();
        assert_eq!(bad.line, 1);
        assert!(bad
            .message
            .starts_with("expected a JSON value of type int[] for parameter `nums`, found `[1,2`"));
        assert_eq!(bad.fix, "write the parameter as JSON, one per line");
        let wrong = check_input(&two_sum(), "[1,2]\n\"9\"\n").unwrap_err();
        assert_eq!(wrong.line, 2);
    }

    #[test]
    fn an_answer_is_one_value_of_the_return_type() {
        assert_eq!(check_answer(&two_sum(), "[0, 1]\n"), Ok(()));
        let e = check_answer(&two_sum(), "0 1\n").unwrap_err();
        assert!(
            e.message.starts_with(
                "expected a JSON value of type int[] (what twoSum returns), found `0 1`"
            ),
            "{}",
            e.message
        );
    }
}
