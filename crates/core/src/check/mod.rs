//! Comparing a program's output with the answer: the built-in checker modes, the first difference, and a readable diff.
//!
//! Pure: bytes in, a finding out. A checker *program* is a process, run by the session.

mod diff;
pub mod feedback;
pub mod json;
pub mod kattis;

pub use diff::diff;
pub use json::Order;
pub use kattis::{FlagsError, KattisFlags};

use crate::text::quote;

/// How the built-in checker compares output with the answer (`checker` in problem.toml).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CheckerMode {
    /// Whitespace-separated tokens must match (what most judges do).
    #[default]
    Tokens,
    /// Bytes must match.
    Exact,
    /// Line by line; trailing whitespace of each line and trailing blank lines do not count.
    Lines,
    /// Tokens, with numbers compared within an absolute or relative tolerance.
    Float,
    /// One JSON value each, compared as values (`json.rs`): a function problem's default.
    Json,
}

impl CheckerMode {
    pub const ALL: [CheckerMode; 5] = [
        CheckerMode::Tokens,
        CheckerMode::Exact,
        CheckerMode::Lines,
        CheckerMode::Float,
        CheckerMode::Json,
    ];
}

impl std::fmt::Display for CheckerMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CheckerMode::Tokens => "tokens",
            CheckerMode::Exact => "exact",
            CheckerMode::Lines => "lines",
            CheckerMode::Float => "float",
            CheckerMode::Json => "json",
        })
    }
}

/// Settings of the built-in modes (flat keys of problem.toml).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompareOptions {
    /// Letters compare without regard to ASCII case (tokens, lines and float modes).
    pub case_insensitive: bool,
    /// Float mode: accepted when |output - answer| <= this ...
    pub float_absolute: f64,
    /// ... or when |output - answer| <= this x |answer|.
    pub float_relative: f64,
    /// Json mode: whether the top-level array's order counts (`order` in `[function]`).
    pub order: Order,
}

/// The tolerance of float mode when problem.toml names none.
pub const DEFAULT_FLOAT_TOLERANCE: f64 = 1e-6;

impl Default for CompareOptions {
    fn default() -> CompareOptions {
        CompareOptions {
            case_insensitive: false,
            float_absolute: DEFAULT_FLOAT_TOLERANCE,
            float_relative: DEFAULT_FLOAT_TOLERANCE,
            order: Order::AsGiven,
        }
    }
}

/// The checker's finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOutcome {
    pub accepted: bool,
    /// Where and how the output first differs (on rejection).
    pub message: Option<String>,
    /// A remark worth reading either way: "differs only in whitespace".
    pub hint: Option<String>,
}

impl CheckOutcome {
    pub fn accepted() -> CheckOutcome {
        CheckOutcome {
            accepted: true,
            message: None,
            hint: None,
        }
    }

    pub fn rejected(message: String) -> CheckOutcome {
        CheckOutcome {
            accepted: false,
            message: Some(message),
            hint: None,
        }
    }

    /// Rejected without a reason of the checker's own (the caller says why elsewhere).
    pub fn unexplained() -> CheckOutcome {
        CheckOutcome {
            accepted: false,
            message: None,
            hint: None,
        }
    }
}

/// Compares with the default options. See [`compare`].
pub fn check(mode: CheckerMode, expected: &[u8], received: &[u8]) -> CheckOutcome {
    compare(mode, &CompareOptions::default(), expected, received)
}

/// Compares `received` (the program's output) with `expected` (the answer) under a built-in mode.
pub fn compare(
    mode: CheckerMode,
    options: &CompareOptions,
    expected: &[u8],
    received: &[u8],
) -> CheckOutcome {
    match mode {
        CheckerMode::Tokens => check_tokens(expected, received, options.case_insensitive, None),
        CheckerMode::Exact => check_exact(expected, received),
        CheckerMode::Lines => check_lines(expected, received, options.case_insensitive),
        CheckerMode::Float => check_tokens(
            expected,
            received,
            options.case_insensitive,
            Some((options.float_absolute, options.float_relative)),
        ),
        // The answers of a function problem are checked before judging: one that is not JSON
        // here is a checker of its own's answer, and its output is not accepted against it.
        CheckerMode::Json => json::compare(options, expected, received)
            .unwrap_or_else(|e| CheckOutcome::rejected(e.to_string())),
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// A token and where it starts (1-based line and column).
struct Token<'a> {
    text: &'a [u8],
    line: usize,
    column: usize,
}

fn tokens(data: &[u8]) -> impl Iterator<Item = Token<'_>> {
    let mut i = 0;
    let mut line = 1;
    let mut line_start = 0;
    std::iter::from_fn(move || {
        while i < data.len() && is_space(data[i]) {
            if data[i] == b'\n' {
                line += 1;
                line_start = i + 1;
            }
            i += 1;
        }
        if i == data.len() {
            return None;
        }
        let start = i;
        while i < data.len() && !is_space(data[i]) {
            i += 1;
        }
        Some(Token {
            text: &data[start..i],
            line,
            column: start - line_start + 1,
        })
    })
}

/// A number in float mode: decimal notation with an optional exponent (`-2`, `0.5`, `.5`,
/// `1e-7`, `1E+300`). `nan`, `inf` and hexadecimal are text, compared as such.
fn number(token: &[u8]) -> Option<f64> {
    let digits = |t: &[u8]| t.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut t = token
        .strip_prefix(b"+")
        .or(token.strip_prefix(b"-"))
        .unwrap_or(token);
    let whole = digits(t);
    t = &t[whole..];
    let mut fraction = 0;
    if let Some(rest) = t.strip_prefix(b".") {
        fraction = digits(rest);
        t = &rest[fraction..];
    }
    if whole + fraction == 0 {
        return None;
    }
    if let Some(rest) = t.strip_prefix(b"e").or(t.strip_prefix(b"E")) {
        let rest = rest
            .strip_prefix(b"+")
            .or(rest.strip_prefix(b"-"))
            .unwrap_or(rest);
        let exponent = digits(rest);
        if exponent == 0 {
            return None;
        }
        t = &rest[exponent..];
    }
    if !t.is_empty() {
        return None;
    }
    // Overflow gives an infinity, which only the same infinity equals.
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// Kattis' rule: the output's number is accepted when it is within the absolute tolerance
/// of the answer's, or within the relative tolerance times the answer's magnitude.
fn close_enough(answer: f64, output: f64, absolute: f64, relative: f64) -> bool {
    if answer == output {
        return true;
    }
    // inf - (-inf) is inf, and inf <= rel x inf would hold: infinities only equal themselves.
    if !answer.is_finite() || !output.is_finite() {
        return false;
    }
    let difference = (answer - output).abs();
    difference <= absolute || difference <= relative * answer.abs()
}

/// `None` when the tokens match; otherwise a remark to add to the message (maybe empty).
fn token_mismatch(
    expected: &[u8],
    received: &[u8],
    case_insensitive: bool,
    float: Option<(f64, f64)>,
) -> Option<String> {
    if expected == received || case_insensitive && expected.eq_ignore_ascii_case(received) {
        return None;
    }
    let Some((absolute, relative)) = float else {
        return Some(String::new());
    };
    let Some(answer) = number(expected) else {
        return Some(String::new());
    };
    match number(received) {
        None => Some(" (a number was expected)".to_string()),
        Some(output) if close_enough(answer, output, absolute, relative) => None,
        Some(output) => Some(format!(
            " (difference {:.2e}: over the absolute tolerance {absolute:e} and over the relative tolerance {relative:e} x {:.2e})",
            (answer - output).abs(),
            answer.abs()
        )),
    }
}

fn check_tokens(
    expected: &[u8],
    received: &[u8],
    case_insensitive: bool,
    float: Option<(f64, f64)>,
) -> CheckOutcome {
    let mut exp = tokens(expected);
    let mut got = tokens(received);
    let mut index = 0;
    // Every pair byte-equal so far: only then is "only in whitespace" true.
    let mut identical = true;
    loop {
        index += 1;
        match (exp.next(), got.next()) {
            (None, None) => {
                let hint = (identical && expected != received)
                    .then(|| "the output differs from the answer only in whitespace".to_string());
                return CheckOutcome {
                    accepted: true,
                    message: None,
                    hint,
                };
            }
            (Some(e), Some(g)) => {
                let Some(remark) = token_mismatch(e.text, g.text, case_insensitive, float) else {
                    identical &= e.text == g.text;
                    continue;
                };
                return reject(
                    format!(
                        "token {index} (line {}, column {}): expected {}, received {}{remark}",
                        g.line,
                        g.column,
                        quote(e.text),
                        quote(g.text)
                    ),
                    (!case_insensitive && float.is_none())
                        .then(|| case_hint(expected, received))
                        .flatten(),
                );
            }
            (Some(e), None) => {
                return reject(
                    format!(
                        "the output ends after {} token{}; expected {} next",
                        index - 1,
                        plural(index - 1),
                        quote(e.text)
                    ),
                    None,
                )
            }
            (None, Some(g)) => {
                return reject(
                    format!(
                        "extra output at line {}, column {}: {} (the answer has {} token{})",
                        g.line,
                        g.column,
                        quote(g.text),
                        index - 1,
                        plural(index - 1)
                    ),
                    None,
                )
            }
        }
    }
}

/// The lines that count in lines mode: trailing whitespace (`\r` included) cut from each,
/// trailing blank lines dropped.
fn significant_lines(data: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = data
        .split(|&b| b == b'\n')
        .map(|line| {
            let end = line
                .iter()
                .rposition(|&b| !is_space(b))
                .map_or(0, |p| p + 1);
            &line[..end]
        })
        .collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

fn check_lines(expected: &[u8], received: &[u8], case_insensitive: bool) -> CheckOutcome {
    let exp = significant_lines(expected);
    let got = significant_lines(received);
    let same = |a: &[u8], b: &[u8]| a == b || case_insensitive && a.eq_ignore_ascii_case(b);
    let hint_for_rejection = || {
        if check_tokens(expected, received, case_insensitive, None).accepted {
            Some("the output differs from the answer only in whitespace (this problem compares lines)".to_string())
        } else if case_insensitive {
            None
        } else {
            case_hint(expected, received)
        }
    };
    for (i, (e, g)) in exp.iter().zip(&got).enumerate() {
        if same(e, g) {
            continue;
        }
        let column = e
            .iter()
            .zip(g.iter())
            .position(|(a, b)| !same(&[*a], &[*b]))
            .unwrap_or(e.len().min(g.len()))
            + 1;
        return reject(
            format!(
                "line {} (column {column}): expected {}, received {}",
                i + 1,
                quote(e),
                quote(g)
            ),
            hint_for_rejection(),
        );
    }
    if got.len() < exp.len() {
        return reject(
            format!(
                "the output ends after {} line{}; expected {} next",
                got.len(),
                plural(got.len()),
                quote(exp[got.len()])
            ),
            hint_for_rejection(),
        );
    }
    if got.len() > exp.len() {
        return reject(
            format!(
                "extra output at line {}: {} (the answer has {} line{})",
                exp.len() + 1,
                quote(got[exp.len()]),
                exp.len(),
                plural(exp.len())
            ),
            hint_for_rejection(),
        );
    }
    let identical = exp.iter().zip(&got).all(|(e, g)| e == g);
    CheckOutcome {
        accepted: true,
        message: None,
        hint: (identical && expected != received).then(|| {
            "the output differs from the answer only in trailing whitespace, line endings or trailing blank lines".to_string()
        }),
    }
}

fn check_exact(expected: &[u8], received: &[u8]) -> CheckOutcome {
    if expected == received {
        return CheckOutcome {
            accepted: true,
            message: None,
            hint: None,
        };
    }
    let at = expected
        .iter()
        .zip(received)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(received.len()));
    let line = received[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let column = at
        - received[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    let show = |data: &[u8]| match data.get(at) {
        Some(_) => quote(&data[at..(at + 12).min(data.len())]),
        None => "the end of the output".to_string(),
    };
    let hint = if check_tokens(expected, received, false, None).accepted {
        Some("the output differs from the answer only in whitespace (this problem compares bytes exactly)".to_string())
    } else {
        case_hint(expected, received)
    };
    reject(
        format!(
            "byte {} (line {line}, column {column}): expected {}, received {}",
            at + 1,
            show(expected),
            show(received)
        ),
        hint,
    )
}

fn case_hint(expected: &[u8], received: &[u8]) -> Option<String> {
    let mut exp = tokens(expected);
    let mut got = tokens(received);
    loop {
        match (exp.next(), got.next()) {
            (None, None) => {
                return Some("the output differs from the answer only in letter case".to_string())
            }
            (Some(e), Some(g)) if e.text.eq_ignore_ascii_case(g.text) => continue,
            _ => return None,
        }
    }
}

fn reject(message: String, hint: Option<String>) -> CheckOutcome {
    CheckOutcome {
        accepted: false,
        message: Some(message),
        hint,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_ignore_whitespace_and_say_so() {
        let r = check(CheckerMode::Tokens, b"2\n", b"2\n");
        assert!(r.accepted && r.hint.is_none());
        let r = check(CheckerMode::Tokens, b"1 2\n", b"  1\r\n2");
        assert!(r.accepted);
        assert!(r.hint.unwrap().contains("whitespace"));
        assert!(check(CheckerMode::Tokens, b"", b"\n \n").accepted);
    }

    #[test]
    fn tokens_report_the_first_difference() {
        let r = check(CheckerMode::Tokens, b"1 2\n3\n", b"1 2\n4\n");
        assert!(!r.accepted);
        assert_eq!(
            r.message.unwrap(),
            "token 3 (line 2, column 1): expected `3`, received `4`"
        );
        let r = check(CheckerMode::Tokens, b"1 2\n", b"1\n");
        assert!(r
            .message
            .unwrap()
            .contains("ends after 1 token; expected `2`"));
        let r = check(CheckerMode::Tokens, b"1\n", b"1 5\n");
        assert!(r
            .message
            .unwrap()
            .contains("extra output at line 1, column 3: `5`"));
        let r = check(CheckerMode::Tokens, b"", b"x");
        assert!(!r.accepted);
        let r = check(CheckerMode::Tokens, b"42\n", b"");
        assert!(r.message.unwrap().contains("ends after 0 tokens"));
    }

    #[test]
    fn tokens_are_bytes_nul_and_invalid_utf8_included() {
        let r = check(CheckerMode::Tokens, b"42\n", b"42\0\n");
        assert!(!r.accepted);
        assert!(r.message.unwrap().contains("`42\\0`"));
        let r = check(CheckerMode::Tokens, b"\xff\xfe\n", b"\xff\xfe");
        assert!(r.accepted);
        let r = check(CheckerMode::Tokens, b"\xff\n", b"\xfe\n");
        assert!(r.message.unwrap().contains("`\\xff`"));
    }

    #[test]
    fn exact_compares_bytes() {
        assert!(check(CheckerMode::Exact, b"42\n", b"42\n").accepted);
        let r = check(CheckerMode::Exact, b"42\n", b"42");
        assert!(!r.accepted);
        assert!(r
            .message
            .unwrap()
            .contains("expected `\\n`, received the end of the output"));
        assert!(r.hint.unwrap().contains("only in whitespace"));
        let r = check(CheckerMode::Exact, b"a\r\nb\n", b"a\nb\n");
        assert!(r.message.unwrap().contains("line 1, column 2"));
        assert!(check(CheckerMode::Exact, b"", b"").accepted);
    }

    #[test]
    fn letter_case_hint() {
        let r = check(CheckerMode::Tokens, b"YES\n", b"yes\n");
        assert!(!r.accepted);
        assert!(r.hint.unwrap().contains("letter case"));
    }

    fn with(mode: CheckerMode, options: CompareOptions, e: &[u8], r: &[u8]) -> CheckOutcome {
        compare(mode, &options, e, r)
    }

    /// The modes that compare text (json compares values: `json.rs` tests it).
    const ALL: [CheckerMode; 4] = [
        CheckerMode::Tokens,
        CheckerMode::Exact,
        CheckerMode::Lines,
        CheckerMode::Float,
    ];

    #[test]
    fn empty_answers_in_every_mode() {
        for mode in ALL {
            assert!(check(mode, b"", b"").accepted, "{mode}");
            assert!(!check(mode, b"", b"x\n").accepted, "{mode}");
            assert!(!check(mode, b"1\n", b"").accepted, "{mode}");
        }
        // Only exact mode minds an empty line where nothing was expected.
        assert!(check(CheckerMode::Tokens, b"", b"\n").accepted);
        assert!(check(CheckerMode::Lines, b"", b"\n  \n").accepted);
        assert!(check(CheckerMode::Float, b"", b"\n").accepted);
        assert!(!check(CheckerMode::Exact, b"", b"\n").accepted);
    }

    #[test]
    fn missing_final_newline_and_crlf() {
        for mode in [CheckerMode::Tokens, CheckerMode::Lines, CheckerMode::Float] {
            assert!(check(mode, b"1 2\n3\n", b"1 2\n3").accepted, "{mode}");
            assert!(check(mode, b"1 2\n3\n", b"1 2\r\n3\r\n").accepted, "{mode}");
        }
        assert!(!check(CheckerMode::Exact, b"1\n", b"1").accepted);
        assert!(!check(CheckerMode::Exact, b"1\n", b"1\r\n").accepted);
    }

    #[test]
    fn lines_ignore_only_trailing_whitespace_and_blank_lines() {
        let r = check(CheckerMode::Lines, b"a b\nc\n", b"a b  \t\nc\n\n\n");
        assert!(r.accepted);
        assert!(r.hint.unwrap().contains("trailing whitespace"));
        assert!(check(CheckerMode::Lines, b"a b\n", b"a b\n").hint.is_none());
        // Inner and leading spaces count, and so do line breaks.
        let r = check(CheckerMode::Lines, b"a b\nc\n", b"a  b\nc\n");
        assert!(!r.accepted);
        assert_eq!(
            r.message.unwrap(),
            "line 1 (column 3): expected `a b`, received `a  b`"
        );
        assert!(r.hint.unwrap().contains("only in whitespace"));
        assert!(!check(CheckerMode::Lines, b"a\n", b" a\n").accepted);
        let r = check(CheckerMode::Lines, b"a b\n", b"a\nb\n");
        assert!(!r.accepted);
        // Blank lines inside the output count too.
        assert!(!check(CheckerMode::Lines, b"a\nb\n", b"a\n\nb\n").accepted);
        let r = check(CheckerMode::Lines, b"a\nb\n", b"a\n");
        assert!(r
            .message
            .unwrap()
            .contains("ends after 1 line; expected `b`"));
        let r = check(CheckerMode::Lines, b"a\n", b"a\nb\n");
        assert!(r
            .message
            .unwrap()
            .contains("extra output at line 2: `b` (the answer has 1 line)"));
    }

    #[test]
    fn case_insensitive_token_modes() {
        let ci = CompareOptions {
            case_insensitive: true,
            ..CompareOptions::default()
        };
        for mode in [CheckerMode::Tokens, CheckerMode::Lines, CheckerMode::Float] {
            assert!(with(mode, ci, b"Yes\n", b"YES\n").accepted, "{mode}");
            assert!(!with(mode, ci, b"Yes\n", b"No\n").accepted, "{mode}");
            assert!(!check(mode, b"Yes\n", b"YES\n").accepted, "{mode}");
        }
        // ASCII letters only; other bytes compare as they are.
        assert!(!with(CheckerMode::Tokens, ci, "É".as_bytes(), "é".as_bytes()).accepted);
        assert!(with(CheckerMode::Tokens, ci, b"\xffA", b"\xffa").accepted);
    }

    fn tolerance(absolute: f64, relative: f64) -> CompareOptions {
        CompareOptions {
            case_insensitive: false,
            float_absolute: absolute,
            float_relative: relative,
            order: Order::AsGiven,
        }
    }

    #[test]
    fn floats_within_either_tolerance() {
        let f = |e: &str, r: &str, abs: f64, rel: f64| {
            with(
                CheckerMode::Float,
                tolerance(abs, rel),
                e.as_bytes(),
                r.as_bytes(),
            )
        };
        assert!(f("0", "1e-7", 1e-6, 0.0).accepted);
        assert!(f("0", "-1e-7", 1e-6, 1e-6).accepted);
        // Relative tolerance alone never accepts anything but 0 against 0.
        assert!(!f("0", "1e-7", 0.0, 1e-6).accepted);
        assert!(f("0", "0.000", 0.0, 0.0).accepted);
        assert!(f("1000000", "1000000.9", 1e-9, 1e-6).accepted);
        assert!(!f("1000000", "1000001.1", 1e-9, 1e-6).accepted);
        assert!(f("0.5", "5E-1", 0.0, 0.0).accepted);
        assert!(f("2", "+2.0", 0.0, 0.0).accepted);
        let r = f("0.5", "0.51", 1e-6, 1e-6);
        assert!(!r.accepted);
        let m = r.message.unwrap();
        assert!(m.contains("expected `0.5`, received `0.51`"), "{m}");
        assert!(m.contains("difference 1.00e-2"), "{m}");
        let r = f("0.5", "half", 1e-6, 1e-6);
        assert!(r.message.unwrap().contains("a number was expected"));
        // Words are compared as words; numbers among them by value.
        assert!(f("Case 1: 0.333333\n", "Case 1: 0.3333331\n", 1e-6, 0.0).accepted);
        assert!(!f("Case 1: 0.5\n", "case 1: 0.5\n", 1e-6, 0.0).accepted);
        // The default tolerance is 1e-6 both ways.
        assert!(check(CheckerMode::Float, b"3.14159265", b"3.141593").accepted);
        assert!(!check(CheckerMode::Float, b"3.14159265", b"3.1416").accepted);
    }

    #[test]
    fn floats_nan_infinity_and_huge_numbers() {
        let f = |e: &str, r: &str| check(CheckerMode::Float, e.as_bytes(), r.as_bytes());
        // nan and inf are words: equal only to the same word.
        assert!(f("nan", "nan").accepted);
        assert!(!f("nan", "NaN").accepted);
        assert!(!f("1", "nan").accepted);
        assert!(!f("nan", "1").accepted);
        assert!(!f("1", "inf").accepted);
        assert!(!f("0", "0x0").accepted);
        // Huge values: relative tolerance at 1e308, overflow to infinity on both sides.
        assert!(f("1e308", "1.0000001e308").accepted);
        assert!(!f("1e308", "1.001e308").accepted);
        assert!(f("1e400", "1e400").accepted);
        assert!(
            f("1e400", "2e400").accepted,
            "both overflow to the same infinity"
        );
        assert!(!f("1e400", "-1e400").accepted);
        assert!(!f("1e308", "1e400").accepted);
        assert!(!f("1.7e308", "-1.7e308").accepted);
        assert!(f("1e-400", "0").accepted);
        // Number-like text that is not a number.
        for word in ["1.2.3", "1e", "e5", ".", "-", "1e+", "--1", "1_000"] {
            assert!(number(word.as_bytes()).is_none(), "{word}");
        }
        for n in ["1", "-2", ".5", "5.", "1e-7", "1E+300", "+0.0"] {
            assert!(number(n.as_bytes()).is_some(), "{n}");
        }
    }

    #[test]
    fn non_utf8_in_every_mode() {
        for mode in ALL {
            assert!(
                check(mode, b"\xff\xfe 1\n", b"\xff\xfe 1\n").accepted,
                "{mode}"
            );
            let r = check(mode, b"\xff\n", b"\xfe\n");
            assert!(!r.accepted, "{mode}");
            assert!(r.message.unwrap().contains("\\xfe"), "{mode}");
        }
    }
}
