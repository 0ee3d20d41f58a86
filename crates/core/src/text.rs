//! Bytes made safe to show: escaping, quoting, cutting a long text to a few lines; and the glob
//! that names match. A leaf.
//!
//! Programs print anything (NUL bytes, invalid UTF-8, megabytes on one line); every piece of their
//! output that reaches a terminal, a report or a JSON document goes through here first.

/// A glob over a name (a case's, a file's): `*` matches any run of characters, `?` any one character; everything else matches itself.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    // Where the last `*` was, and how much of the text it has swallowed so far.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Text made safe inside HTML or SVG markup: its special characters as entities.
pub fn markup(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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

/// Text safe for a terminal, line by line, cut after `max` bytes with a note saying how much more there is.
pub fn printable(data: &[u8], max: usize) -> String {
    let shown = &data[..data.len().min(max)];
    let body = shown
        .strip_suffix(b"\n")
        .unwrap_or(shown)
        .split(|&b| b == b'\n')
        .map(escape)
        .collect::<Vec<_>>()
        .join("\n");
    if data.len() > max {
        format!("{body}…\n({} more bytes)", data.len() - max)
    } else {
        body
    }
}

/// Lines of a program's stderr shown for a failed run.
const STDERR_TAIL_LINES: usize = 12;

/// The end of a program's stderr, escaped; `None` when it wrote nothing but whitespace.
pub fn stderr_tail(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .trim_end()
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return None;
    }
    let from = lines.len().saturating_sub(STDERR_TAIL_LINES);
    Some(
        lines[from..]
            .iter()
            .map(|l| escape(l.as_bytes()))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Lines of a judge program's message (a checker's, a validator's) shown.
const MESSAGE_LINES: usize = 12;
/// The widest line of such a message shown (in characters).
const MESSAGE_WIDTH: usize = 300;

/// A judge program's message: its text, trimmed, escaped, at most a few lines of bounded width.
/// `None` when blank.
pub fn message(data: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(data);
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let escaped: Vec<String> = text
        .lines()
        .map(|l| {
            let l = l.trim_end();
            match l.char_indices().nth(MESSAGE_WIDTH) {
                Some((cut, _)) => format!("{}…", escape(&l.as_bytes()[..cut])),
                None => escape(l.as_bytes()),
            }
        })
        .collect();
    Some(first_lines(&escaped.join("\n"), MESSAGE_LINES))
}

/// At most `n` lines of `text`, saying how many were left out.
pub fn first_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    if lines.len() <= n {
        return lines.join("\n");
    }
    format!(
        "{}\n… ({} more lines)",
        lines[..n].join("\n"),
        lines.len() - n
    )
}

/// Compiler diagnostics as a judge program's failure shows them: plain text, a few lines.
pub fn diagnostics_excerpt(diagnostics: &str) -> String {
    first_lines(
        &anstream::adapter::strip_str(diagnostics).to_string(),
        MESSAGE_LINES,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_a_terminal_would_hide() {
        assert_eq!(escape(b"a\0b\tc\r\n\x07"), "a\\0b\\tc\\r\\n\\x07");
        assert_eq!(escape(b"\xff\xfeok"), "\\xff\\xfeok");
        assert_eq!(escape("é".as_bytes()), "é");
        assert_eq!(quote(&[b'x'; 61]), format!("`{}…`", "x".repeat(60)));
    }

    #[test]
    fn long_texts_are_cut_and_say_so() {
        assert_eq!(printable(b"1\n2\n", 100), "1\n2");
        assert_eq!(printable(b"123456", 3), "123…\n(3 more bytes)");
        let many: String = (1..=20).map(|i| format!("{i}\n")).collect();
        assert_eq!(
            stderr_tail(many.as_bytes()).unwrap().lines().next(),
            Some("9")
        );
        assert_eq!(stderr_tail(b"  \n"), None);
        assert_eq!(first_lines("a\nb\nc\n", 2), "a\nb\n… (1 more lines)");
        assert_eq!(message(b"  \n "), None);
        assert_eq!(
            message(&[b'y'; 400]).unwrap().chars().count(),
            MESSAGE_WIDTH + 1
        );
    }
}
