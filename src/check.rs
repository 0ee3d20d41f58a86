//! Comparing a program's output with the answer: the checker modes, the first difference, and a readable diff.

use serde::{Deserialize, Serialize};

/// How output is compared with the answer (`checker` in problem.toml).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckerMode {
    /// Whitespace-separated tokens must match (what most judges do).
    #[default]
    Tokens,
    /// Bytes must match.
    Exact,
}

impl std::fmt::Display for CheckerMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CheckerMode::Tokens => "tokens",
            CheckerMode::Exact => "exact",
        })
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

pub fn check(mode: CheckerMode, expected: &[u8], received: &[u8]) -> CheckOutcome {
    match mode {
        CheckerMode::Tokens => check_tokens(expected, received),
        CheckerMode::Exact => check_exact(expected, received),
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

fn check_tokens(expected: &[u8], received: &[u8]) -> CheckOutcome {
    let mut exp = tokens(expected);
    let mut got = tokens(received);
    let mut index = 0;
    loop {
        index += 1;
        match (exp.next(), got.next()) {
            (None, None) => {
                let hint = (expected != received)
                    .then(|| "the output differs from the answer only in whitespace".to_string());
                return CheckOutcome {
                    accepted: true,
                    message: None,
                    hint,
                };
            }
            (Some(e), Some(g)) if e.text == g.text => continue,
            (Some(e), Some(g)) => {
                return reject(
                    format!(
                        "token {index} (line {}, column {}): expected {}, received {}",
                        g.line,
                        g.column,
                        quote(e.text),
                        quote(g.text)
                    ),
                    case_hint(expected, received),
                )
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
    let hint = if check_tokens(expected, received).accepted {
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

/// Shows bytes safely: `42`, with control bytes, NUL and invalid UTF-8 escaped; long text cut.
pub fn quote(data: &[u8]) -> String {
    const MAX: usize = 60;
    let cut = data.len() > MAX;
    let mut s = escape(&data[..data.len().min(MAX)]);
    if cut {
        s.push('…');
    }
    format!("`{s}`")
}

/// Escapes what a terminal would hide or mangle. Valid UTF-8 stays as it is.
pub fn escape(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len());
    for chunk in data.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\0' => out.push_str("\\0"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                '\n' => out.push_str("\\n"),
                c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Lines of context around the first difference, shown in the diff.
const CONTEXT: usize = 2;
/// The widest line shown; longer lines are cut around their first difference.
const WIDTH: usize = 100;

/// A short unified diff of answer against output, starting just before their first
/// differing line, at most `max_lines` lines long. `None` when the lines are identical.
pub fn diff(expected: &[u8], received: &[u8], max_lines: usize) -> Option<String> {
    let exp: Vec<&[u8]> = split_lines(expected);
    let got: Vec<&[u8]> = split_lines(received);
    let first = exp
        .iter()
        .zip(&got)
        .position(|(a, b)| a != b)
        .unwrap_or(exp.len().min(got.len()));
    if first == exp.len() && first == got.len() {
        return None;
    }
    let from = first.saturating_sub(CONTEXT);
    // Only a window is diffed: outputs can be millions of lines long.
    let window = max_lines * 2;
    let exp_w = &exp[from..(from + window).min(exp.len())];
    let got_w = &got[from..(from + window).min(got.len())];
    let column = first_column(exp.get(first).copied(), got.get(first).copied());
    let show = |line: &[u8]| escape(&excerpt(line, column));
    let exp_s: Vec<String> = exp_w.iter().map(|l| show(l)).collect();
    let got_s: Vec<String> = got_w.iter().map(|l| show(l)).collect();
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &exp_s, &got_s);
    let mut out = vec![format!("  first difference at line {}", first + 1)];
    let (mut ln_e, mut ln_g) = (from, from);
    'outer: for op in ops {
        for change in op.iter_changes(&exp_s, &got_s) {
            if out.len() > max_lines {
                out.push("  …".to_string());
                break 'outer;
            }
            let (mark, number) = match change.tag() {
                similar::ChangeTag::Equal => {
                    ln_e += 1;
                    ln_g += 1;
                    (' ', ln_g)
                }
                similar::ChangeTag::Delete => {
                    ln_e += 1;
                    ('-', ln_e)
                }
                similar::ChangeTag::Insert => {
                    ln_g += 1;
                    ('+', ln_g)
                }
            };
            out.push(format!("{mark} {number:>5} │ {}", change.value()));
        }
    }
    let missing_newline = |d: &[u8]| !d.is_empty() && !d.ends_with(b"\n");
    if missing_newline(received) != missing_newline(expected) {
        out.push(format!(
            "  (the {} has no newline at the end)",
            if missing_newline(received) {
                "output"
            } else {
                "answer"
            }
        ));
    }
    Some(out.join("\n"))
}

fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    if data.is_empty() {
        return Vec::new();
    }
    let data = data.strip_suffix(b"\n").unwrap_or(data);
    data.split(|&b| b == b'\n').collect()
}

fn first_column(a: Option<&[u8]>, b: Option<&[u8]>) -> usize {
    match (a, b) {
        (Some(a), Some(b)) => a
            .iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len())),
        _ => 0,
    }
}

/// Cuts a long line to a window around `column`.
fn excerpt(line: &[u8], column: usize) -> Vec<u8> {
    if line.len() <= WIDTH {
        return line.to_vec();
    }
    let start = column.saturating_sub(WIDTH / 3).min(line.len() - WIDTH);
    let mut out = Vec::new();
    if start > 0 {
        out.extend_from_slice("…".as_bytes());
    }
    out.extend_from_slice(&line[start..start + WIDTH]);
    if start + WIDTH < line.len() {
        out.extend_from_slice(format!("… ({} bytes)", line.len()).as_bytes());
    }
    out
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

    #[test]
    fn diff_starts_at_the_first_difference_and_is_bounded() {
        let exp: String = (1..=100).map(|i| format!("{i}\n")).collect();
        let got = exp.replace("50\n", "fifty\n");
        let d = diff(exp.as_bytes(), got.as_bytes(), 20).unwrap();
        assert!(d.contains("first difference at line 50"), "{d}");
        assert!(d.contains("-    50 │ 50"), "{d}");
        assert!(d.contains("+    50 │ fifty"), "{d}");
        assert!(!d.contains("│ 10\n"), "{d}");
        assert!(d.lines().count() <= 22, "{d}");
        assert!(diff(b"1\n", b"1\n", 20).is_none());
    }

    #[test]
    fn diff_survives_long_lines_nul_and_missing_newline() {
        let exp = format!("{}\n", "a".repeat(200_000));
        let mut got = exp.clone().into_bytes();
        got[150_000] = 0;
        let d = diff(exp.as_bytes(), &got, 20).unwrap();
        assert!(d.contains("\\0"), "{d}");
        assert!(d.len() < 2000, "{}", d.len());
        let d = diff(b"1\n2\n", b"1\n2", 20);
        assert!(d.is_none() || d.unwrap().contains("no newline"));
        let d = diff(b"", b"x\n", 20).unwrap();
        assert!(d.contains("+     1 │ x"), "{d}");
    }
}
