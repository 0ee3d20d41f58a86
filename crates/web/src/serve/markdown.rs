//! A problem's `statement.md` as HTML: CommonMark with tables, and `$...$` math written out
//! readably without a script (`\le` as ≤, `10^9` as 10<sup>9</sup>). Raw HTML in the statement is
//! shown as text: a statement imported from elsewhere never runs anything in the page.

use pulldown_cmark::{html, Event, Options, Parser};

use judge_core::text::markup;
use judge_statement::tex::{self, Math};

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

/// TeX as HTML: read as [`tex`] reads it, `^` and `_` as super- and subscripts.
fn math(source: &str) -> String {
    fn write(pieces: &[Math], out: &mut String) {
        for p in pieces {
            match p {
                Math::Text(t) => out.push_str(&markup(t)),
                Math::Sup(inner) | Math::Sub(inner) => {
                    let tag = if matches!(p, Math::Sup(_)) {
                        "sup"
                    } else {
                        "sub"
                    };
                    out.push_str(&format!("<{tag}>"));
                    write(inner, out);
                    out.push_str(&format!("</{tag}>"));
                }
            }
        }
    }
    let mut out = String::new();
    write(&tex::parse(source), &mut out);
    out
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
        let html = render("$\\left( a \\right) \\neg b, \\cdots, c \\le d \\leq e$");
        assert!(
            html.contains("<span class=\"math\">( a ) ¬ b, ⋯, c ≤ d ≤ e</span>"),
            "{html}"
        );
    }

    #[test]
    fn raw_html_is_text() {
        let html = render("hi <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
    }
}
