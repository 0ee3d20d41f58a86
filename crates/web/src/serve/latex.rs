//! A LaTeX statement as HTML: the subset the package format asks judging systems to show,
//! read by `judge-statement` ([`judge_statement::latex`]). Math is left to KaTeX, served by the judge
//! itself: each formula is written out readably first (`judge-statement`'s TeX reading), with its
//! source beside it for KaTeX to draw over it. What the judge does not read is shown as its
//! source. Every piece of text is escaped: a statement never runs anything in the page.

use judge_core::text::markup;
use judge_statement::latex::{Block, Document, Inline, Style};
use judge_statement::tex;

/// The KaTeX release and its files (fetched and checked by build.rs).
pub mod katex {
    include!(concat!(env!("OUT_DIR"), "/katex.rs"));
}

/// `doc` as HTML; its figures are served under `images` (`/problems/ID/statement/`); each
/// sample it places is written by `sample`, by its index. Returns the HTML and how many
/// samples it placed.
pub fn render(
    doc: &Document,
    images: &str,
    samples: usize,
    sample: &dyn Fn(usize) -> String,
) -> (String, usize) {
    let mut out = String::new();
    let mut placed = 0;
    blocks(
        &mut out,
        &doc.blocks,
        images,
        &mut |out: &mut String, remaining| {
            let upto = if remaining {
                samples
            } else {
                (placed + 1).min(samples)
            };
            while placed < upto {
                out.push_str(&sample(placed));
                placed += 1;
            }
        },
    );
    (out, placed)
}

fn blocks(
    out: &mut String,
    list: &[Block],
    images: &str,
    samples: &mut dyn FnMut(&mut String, bool),
) {
    for b in list {
        match b {
            Block::Heading(level, text) => {
                let level = level.clamp(&2, &4);
                out.push_str(&format!("<h{level}>{}</h{level}>\n", runs(text, images)));
            }
            Block::Paragraph(text) => out.push_str(&format!("<p>{}</p>\n", runs(text, images))),
            Block::List { ordered, items } => {
                let tag = if *ordered { "ol" } else { "ul" };
                out.push_str(&format!("<{tag}>\n"));
                for item in items {
                    out.push_str("<li>");
                    blocks(out, item, images, samples);
                    out.push_str("</li>\n");
                }
                out.push_str(&format!("</{tag}>\n"));
            }
            Block::Verbatim(text) => out.push_str(&format!("<pre>{}</pre>\n", markup(text))),
            Block::Quote(inner) => {
                out.push_str("<blockquote>\n");
                blocks(out, inner, images, samples);
                out.push_str("</blockquote>\n");
            }
            Block::Center(inner) => {
                out.push_str("<div class=\"center\">\n");
                blocks(out, inner, images, samples);
                out.push_str("</div>\n");
            }
            Block::Table(rows) => {
                out.push_str("<div class=\"scroll\"><table class=\"tex\">\n");
                for row in rows {
                    out.push_str("<tr>");
                    for (span, cell) in row {
                        let span = if *span > 1 {
                            format!(" colspan=\"{span}\"")
                        } else {
                            String::new()
                        };
                        out.push_str(&format!("<td{span}>{}</td>", runs(cell, images)));
                    }
                    out.push_str("</tr>\n");
                }
                out.push_str("</table></div>\n");
            }
            Block::Figure {
                file,
                width,
                caption,
            } => {
                let style = width
                    .filter(|w| *w > 0.0 && *w <= 1.0)
                    .map(|w| format!(" style=\"width: {:.0}%\"", w * 100.0))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "<figure class=\"illustration\"{style}>{}<figcaption>{}</figcaption></figure>\n",
                    image(file, images, ""),
                    runs(caption, images)
                ));
            }
            Block::DisplayMath(m) => {
                out.push_str(&format!("<div class=\"math\">{}</div>\n", math(m)))
            }
            Block::Samples { remaining } => samples(out, *remaining),
            Block::Source(s) => {
                out.push_str(&format!("<pre class=\"tex-source\">{}</pre>\n", markup(s)))
            }
        }
    }
}

/// A run of text as HTML.
fn runs(list: &[Inline], images: &str) -> String {
    let mut s = String::new();
    for i in list {
        match i {
            Inline::Text(t) => s.push_str(&markup(t)),
            Inline::Math(m) => s.push_str(&format!("<span class=\"math\">{}</span>", math(m))),
            Inline::Styled(style, inner) => {
                let (open, close) = match style {
                    Style::Bold => ("<strong>", "</strong>"),
                    Style::Italic => ("<em>", "</em>"),
                    Style::Mono => ("<code>", "</code>"),
                    Style::Underline => ("<u>", "</u>"),
                    Style::Strike => ("<s>", "</s>"),
                    Style::SmallCaps => ("<span class=\"smallcaps\">", "</span>"),
                };
                s.push_str(&format!("{open}{}{close}", runs(inner, images)));
            }
            Inline::Link { url, text } => {
                // Only the web's own schemes: a statement never links to a script.
                let safe = url.starts_with("http://") || url.starts_with("https://");
                let text = runs(text, images);
                if safe {
                    s.push_str(&format!("<a href=\"{}\">{text}</a>", markup(url)));
                } else {
                    s.push_str(&text);
                }
            }
            Inline::Image(f) => s.push_str(&image(f, images, " class=\"inline\"")),
            Inline::Break => s.push_str("<br>"),
        }
    }
    s
}

/// An image of the statement's folder (`class` its attribute, if any); a PDF, which a browser
/// does not draw in a page, as a link to it.
fn image(file: &str, images: &str, class: &str) -> String {
    let (url, name) = (markup(&url_part(file)), markup(file));
    if file.to_ascii_lowercase().ends_with(".pdf") {
        format!("<a{class} href=\"{images}{url}\">{name}</a>")
    } else {
        format!("<img{class} src=\"{images}{url}\" alt=\"{name}\">")
    }
}

/// A formula: written out readably, and its source for KaTeX to draw it.
fn math(source: &str) -> String {
    format!(
        "<span class=\"tex\" data-tex=\"{}\">{}</span>",
        markup(source),
        markup(&tex::to_text(source))
    )
}

/// A file's name as a part of a URL: only the name, the characters a package allows.
fn url_part(file: &str) -> String {
    file.rsplit('/')
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_for_katex_text_escaped_and_samples_placed() {
        let doc = judge_statement::latex::parse(
            "Print $a<b$ and <script>.\n\n\\nextsample\n\\illustration{0.5}{tree.png}{A \\emph{tree}}\n\\remainingsamples",
            &Default::default(),
        );
        let (html, placed) = render(&doc, "/img/", 3, &|i| format!("<div>sample {i}</div>"));
        assert!(
            html.contains(
                "<span class=\"math\"><span class=\"tex\" data-tex=\"a&lt;b\">a&lt;b</span></span>"
            ),
            "{html}"
        );
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert_eq!(placed, 3);
        let first = html.find("sample 0").unwrap();
        let figure = html.find("<figure").unwrap();
        assert!(
            first < figure && figure < html.find("sample 1").unwrap(),
            "{html}"
        );
        assert!(
            html.contains("src=\"/img/tree.png\" alt=\"tree.png\"><figcaption>A <em>tree</em>"),
            "{html}"
        );
    }

    #[test]
    fn a_pdf_figure_is_a_link() {
        let doc =
            judge_statement::latex::parse("\\illustration{0.5}{plan.pdf}{}", &Default::default());
        let (html, _) = render(&doc, "/img/", 0, &|_| String::new());
        assert!(
            html.contains("<a href=\"/img/plan.pdf\">plan.pdf</a>"),
            "{html}"
        );
    }
}
