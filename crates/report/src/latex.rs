//! A LaTeX statement in the terminal (`judge show`): headings in bold, lists, tables with
//! their columns lined up, verbatim indented, math as plain symbols (the core's TeX reading),
//! figures by their file, beside the statement, and the samples where `\nextsample` and
//! `\remainingsamples` put them. What the judge does not read is shown as it was written.

use std::path::Path;

use anstyle::Style;

use super::{dim, paint};
use judge_statement::latex::{Block, Document, Inline, Style as Look};
use judge_statement::tex;

/// Writes `doc` (its figures in `folder`); each sample it places is written by `sample`, by
/// its index. Returns how many samples it placed.
pub fn render(
    out: &mut String,
    doc: &Document,
    folder: &Path,
    samples: usize,
    sample: &mut dyn FnMut(&mut String, usize),
) -> usize {
    let mut placed = 0;
    blocks(
        out,
        &doc.blocks,
        "  ",
        folder,
        &mut |out: &mut String, remaining| {
            let upto = if remaining {
                samples
            } else {
                (placed + 1).min(samples)
            };
            while placed < upto {
                sample(out, placed);
                placed += 1;
            }
        },
    );
    placed
}

fn blocks(
    out: &mut String,
    list: &[Block],
    indent: &str,
    folder: &Path,
    samples: &mut dyn FnMut(&mut String, bool),
) {
    for (i, b) in list.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match b {
            Block::Heading(_, text) => {
                let line = runs(text);
                out.push_str(&format!(
                    "{indent}{}\n",
                    paint(Style::new().bold().underline(), &line)
                ));
            }
            Block::Paragraph(text) => {
                for line in runs(text).lines() {
                    out.push_str(&format!("{indent}{}\n", line.trim_start()));
                }
            }
            Block::List { ordered, items } => {
                for (n, item) in items.iter().enumerate() {
                    let mark = if *ordered {
                        format!("{}. ", n + 1)
                    } else {
                        "• ".to_string()
                    };
                    let mut inner = String::new();
                    blocks(&mut inner, item, "", folder, samples);
                    for (k, line) in inner.lines().enumerate() {
                        let lead = if k == 0 {
                            mark.clone()
                        } else {
                            " ".repeat(mark.chars().count())
                        };
                        out.push_str(&format!("{indent}{lead}{line}\n"));
                    }
                }
            }
            Block::Verbatim(text) => {
                for line in text.lines() {
                    out.push_str(&format!("{indent}    {line}\n"));
                }
            }
            Block::Quote(inner) | Block::Center(inner) => {
                let mut text = String::new();
                blocks(&mut text, inner, "", folder, samples);
                let bar = if matches!(b, Block::Quote(_)) {
                    "│ "
                } else {
                    "  "
                };
                for line in text.lines() {
                    out.push_str(&format!("{indent}{bar}{line}\n"));
                }
            }
            Block::Table(rows) => table(out, rows, indent),
            Block::Figure { file, caption, .. } => {
                let caption = runs(caption);
                out.push_str(&format!(
                    "{indent}{}\n",
                    dim(&format!(
                        "[figure: {}{}]",
                        folder.join(file).display(),
                        if caption.is_empty() {
                            String::new()
                        } else {
                            format!(" — {caption}")
                        }
                    ))
                ));
            }
            Block::DisplayMath(m) => out.push_str(&format!("{indent}    {}\n", tex::to_text(m))),
            Block::Samples { remaining } => samples(out, *remaining),
            Block::Source(s) => {
                for line in s.lines() {
                    out.push_str(&format!("{indent}{}\n", dim(line)));
                }
            }
        }
    }
}

/// A run of text as the terminal shows it.
pub fn runs(list: &[Inline]) -> String {
    let mut s = String::new();
    for i in list {
        match i {
            Inline::Text(t) => s.push_str(t),
            Inline::Math(m) => s.push_str(&tex::to_text(m)),
            Inline::Styled(look, inner) => {
                let text = runs(inner);
                let style = match look {
                    Look::Bold => Style::new().bold(),
                    Look::Italic => Style::new().italic(),
                    Look::Underline => Style::new().underline(),
                    Look::Strike => Style::new().strikethrough(),
                    Look::Mono | Look::SmallCaps => Style::new(),
                };
                s.push_str(&paint(style, &text));
            }
            Inline::Link { url, text } => {
                let text = runs(text);
                if text == *url || url.is_empty() {
                    s.push_str(&text);
                } else {
                    s.push_str(&format!("{text} ({url})"));
                }
            }
            Inline::Image(f) => s.push_str(&format!("[image: {f}]")),
            Inline::Break => s.push('\n'),
        }
    }
    s
}

/// A table with its columns lined up (a spanning cell takes its first column's width).
fn table(out: &mut String, rows: &[Vec<(usize, Vec<Inline>)>], indent: &str) {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|(_, c)| runs(c)).collect())
        .collect();
    let columns = cells.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|k| {
            cells
                .iter()
                .filter_map(|r| r.get(k))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in &cells {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(k, c)| format!("{c:<w$}", w = widths[k]))
            .collect();
        out.push_str(&format!("{indent}{}\n", line.join(" | ").trim_end()));
    }
}
