//! A problem's `statement.md` as HTML: CommonMark with tables, and `$...$` math written out
//! readably without a script (`\le` as ≤, `10^9` as 10<sup>9</sup>). Raw HTML in the statement is
//! shown as text: a statement imported from elsewhere never runs anything in the page.

use pulldown_cmark::{html, Event, Options, Parser};

use judge_core::text::markup;

/// TeX commands shown as their character.
const SYMBOLS: &[(&str, &str)] = &[
    ("\\le", "≤"),
    ("\\leq", "≤"),
    ("\\ge", "≥"),
    ("\\geq", "≥"),
    ("\\ne", "≠"),
    ("\\neq", "≠"),
    ("\\cdot", "·"),
    ("\\times", "×"),
    ("\\ldots", "…"),
    ("\\dots", "…"),
    ("\\cdots", "⋯"),
    ("\\sum", "∑"),
    ("\\prod", "∏"),
    ("\\infty", "∞"),
    ("\\in", "∈"),
    ("\\to", "→"),
    ("\\lfloor", "⌊"),
    ("\\rfloor", "⌋"),
    ("\\lceil", "⌈"),
    ("\\rceil", "⌉"),
    ("\\pm", "±"),
    ("\\oplus", "⊕"),
    ("\\mid", "∣"),
    ("\\sqrt", "√"),
    ("\\log", "log"),
    ("\\max", "max"),
    ("\\min", "min"),
    ("\\bmod", "mod"),
    ("\\mod", "mod"),
    ("\\,", " "),
    ("\\;", " "),
    ("\\quad", "  "),
];

/// The statement as HTML.
pub fn render(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_MATH | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::InlineMath(tex) => {
            Event::InlineHtml(format!("<span class=\"math\">{}</span>", math(&tex)).into())
        }
        Event::DisplayMath(tex) => {
            Event::Html(format!("<div class=\"math\">{}</div>", math(&tex)).into())
        }
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        other => other,
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

/// TeX as HTML: symbols replaced, `^` and `_` as super- and subscripts, braces dropped.
fn math(tex: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = tex.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let end = (i + 1..chars.len())
                    .find(|&j| !chars[j].is_ascii_alphabetic())
                    .unwrap_or(chars.len())
                    .max(i + 2)
                    .min(chars.len());
                let command: String = chars[i..end].iter().collect();
                match SYMBOLS.iter().find(|(k, _)| *k == command) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&markup(command.trim_start_matches('\\'))),
                }
                i = end;
            }
            '^' | '_' => {
                let (group, next) = group(&chars, i + 1);
                let tag = if c == '^' { "sup" } else { "sub" };
                out.push_str(&format!("<{tag}>{}</{tag}>", math(&group)));
                i = next;
            }
            '{' | '}' => i += 1,
            _ => {
                out.push_str(&markup(&c.to_string()));
                i += 1;
            }
        }
    }
    out
}

/// The argument of `^` or `_` at `start`: a braced group or one character (a command whole).
fn group(chars: &[char], start: usize) -> (String, usize) {
    match chars.get(start) {
        Some('{') => {
            let mut depth = 0;
            for (j, &c) in chars.iter().enumerate().skip(start) {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                if depth == 0 {
                    return (chars[start + 1..j].iter().collect(), j + 1);
                }
            }
            (chars[start + 1..].iter().collect(), chars.len())
        }
        Some('\\') => {
            let end = (start + 1..chars.len())
                .find(|&j| !chars[j].is_ascii_alphabetic())
                .unwrap_or(chars.len());
            (chars[start..end].iter().collect(), end)
        }
        Some(&c) => (c.to_string(), start + 1),
        None => (String::new(), start),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_is_written_out() {
        let html = render("Print $a + b$ where $-10^9 \\le a_i, b \\le 10^{18}$ and $x<y$.");
        assert!(
            html.contains(
                "<span class=\"math\">-10<sup>9</sup> ≤ a<sub>i</sub>, b ≤ 10<sup>18</sup></span>"
            ),
            "{html}"
        );
        assert!(html.contains("x&lt;y"), "{html}");
    }

    #[test]
    fn raw_html_is_text() {
        let html = render("hi <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
    }
}
