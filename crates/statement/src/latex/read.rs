//! Reading a LaTeX statement: commands, environments and groups, into blocks and runs.

use std::collections::BTreeMap;

use super::model::{Block, Document, Inline, Style};
use super::scan::{split_items, strip_cline, strip_comments, trim};

/// Reads `source`; `\constant{name}` becomes the value in `constants` (its source otherwise).
pub fn parse(source: &str, constants: &BTreeMap<String, String>) -> Document {
    let chars: Vec<char> = strip_comments(source).chars().collect();
    let mut p = Parser {
        s: &chars,
        i: 0,
        constants,
        title: None,
    };
    let blocks = p.blocks(None);
    Document {
        title: p.title,
        blocks,
    }
}

struct Parser<'a> {
    s: &'a [char],
    i: usize,
    constants: &'a BTreeMap<String, String>,
    title: Option<Vec<Inline>>,
}

/// Commands that only set the look of the page: read as nothing.
const IGNORED: &[&str] = &[
    "noindent",
    "medskip",
    "smallskip",
    "bigskip",
    "centering",
    "par",
    "tiny",
    "scriptsize",
    "small",
    "normalsize",
    "large",
    "Large",
    "LARGE",
    "huge",
    "Huge",
    "hline",
    "newpage",
    "clearpage",
    "vspace",
    "hspace",
    "label",
    "htmlPixelsInCm",
];

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn starts(&self, text: &str) -> bool {
        text.chars()
            .enumerate()
            .all(|(k, c)| self.s.get(self.i + k) == Some(&c))
    }

    /// Blocks until `\end{env}` (consumed) or the end.
    fn blocks(&mut self, env: Option<&str>) -> Vec<Block> {
        let mut out = Vec::new();
        let mut para: Vec<Inline> = Vec::new();
        let flush = |para: &mut Vec<Inline>, out: &mut Vec<Block>| {
            trim(para);
            if !para.is_empty() {
                out.push(Block::Paragraph(std::mem::take(para)));
            }
        };
        while let Some(c) = self.peek() {
            if c == '\n' && self.blank_line() {
                flush(&mut para, &mut out);
                continue;
            }
            if self.starts("\\end{") {
                let save = self.i;
                self.i += 4;
                let name = self.group_text();
                if Some(name.as_str()) == env {
                    break;
                }
                self.i = save;
                // An \end without its \begin: shown as written.
                para.push(Inline::Text(self.take_command_source()));
                continue;
            }
            if self.starts("$$") || self.starts("\\[") {
                flush(&mut para, &mut out);
                let (open, close) = if self.starts("$$") {
                    ("$$", "$$")
                } else {
                    ("\\[", "\\]")
                };
                self.i += open.len();
                let m = self.until(close);
                out.push(Block::DisplayMath(self.math(&m)));
                continue;
            }
            if c == '\\' {
                if let Some(block) = self.block_command() {
                    flush(&mut para, &mut out);
                    out.extend(block);
                    continue;
                }
            }
            if !self.inline(&mut para) {
                break;
            }
        }
        flush(&mut para, &mut out);
        out
    }

    /// A blank line (a paragraph break) at the cursor: consumed.
    fn blank_line(&mut self) -> bool {
        let mut j = self.i + 1;
        while self.s.get(j).is_some_and(|c| *c == ' ' || *c == '\t') {
            j += 1;
        }
        if self.s.get(j) == Some(&'\n') {
            self.i = j + 1;
            return true;
        }
        false
    }

    /// A command that makes blocks, consumed; None (nothing consumed) for an inline one.
    fn block_command(&mut self) -> Option<Vec<Block>> {
        let save = self.i;
        let name = self.command_name();
        let level = match name.as_str() {
            "section" => Some(2),
            "subsection" => Some(3),
            "subsubsection" => Some(4),
            _ => None,
        };
        if let Some(level) = level {
            self.star();
            let text = self.group_inlines();
            return Some(vec![Block::Heading(level, text)]);
        }
        match name.as_str() {
            "problemname" => {
                self.skip_space();
                if self.peek() == Some('{') {
                    let t = self.group_inlines();
                    if !t.is_empty() {
                        self.title = Some(t);
                    }
                }
                Some(Vec::new())
            }
            // Polygon's `\def\htmlPixelsInCm{...}` (how big an image is drawn), or any other
            // macro defined: the definition is not text.
            "def" => {
                self.skip_space();
                if self.peek() == Some('\\') {
                    self.command_name();
                }
                while self.peek() == Some('#') || self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.i += 1;
                }
                self.group_text();
                Some(Vec::new())
            }
            "caption" => {
                self.optional();
                let text = self.group_inlines();
                Some(vec![Block::Paragraph(vec![Inline::Styled(
                    Style::Italic,
                    text,
                )])])
            }
            "nextsample" | "remainingsamples" => Some(vec![Block::Samples {
                remaining: name == "remainingsamples",
            }]),
            "illustration" => {
                let width = self.group_text().trim().parse().ok();
                let file = self.group_text().trim().to_string();
                let caption = self.group_inlines();
                Some(vec![Block::Figure {
                    file,
                    width,
                    caption,
                }])
            }
            "epigraph" => {
                let text = self.group_inlines();
                let by = self.group_inlines();
                let mut blocks = vec![Block::Paragraph(text)];
                if !by.is_empty() {
                    let mut line = vec![Inline::Text("— ".into())];
                    line.extend(by);
                    blocks.push(Block::Paragraph(line));
                }
                Some(vec![Block::Quote(blocks)])
            }
            "begin" => {
                let env = self.group_text();
                Some(self.environment(&env))
            }
            _ => {
                self.i = save;
                None
            }
        }
    }

    /// What `\begin{env}` holds, up to its `\end{env}`.
    fn environment(&mut self, env: &str) -> Vec<Block> {
        let titled = |t: &str| Block::Heading(2, vec![Inline::Text(t.into())]);
        match env {
            "Input" | "Output" | "Interaction" => {
                let mut blocks = vec![titled(env)];
                blocks.extend(self.blocks(Some(env)));
                blocks
            }
            "itemize" | "enumerate" => {
                let inner = self.raw_until_end(env);
                let items = split_items(&inner)
                    .iter()
                    .map(|item| parse(item, self.constants).blocks)
                    .collect();
                vec![Block::List {
                    ordered: env == "enumerate",
                    items,
                }]
            }
            "verbatim" | "lstlisting" => {
                if env == "lstlisting" {
                    self.optional();
                }
                let text = self.raw_until_end(env);
                vec![Block::Verbatim(text.trim_matches('\n').to_string())]
            }
            "quote" | "quotation" => vec![Block::Quote(self.blocks(Some(env)))],
            "center" => vec![Block::Center(self.blocks(Some(env)))],
            "figure" | "wrapfigure" => {
                self.optional();
                if env == "wrapfigure" {
                    self.group_text();
                    self.group_text();
                }
                self.blocks(Some(env))
            }
            "tabular" => {
                self.group_text();
                let inner = self.raw_until_end(env);
                vec![Block::Table(table(&inner, self.constants))]
            }
            _ => {
                // Outside the subset: the whole environment as it was written.
                let inner = self.raw_until_end(env);
                vec![Block::Source(format!(
                    "\\begin{{{env}}}{inner}\\end{{{env}}}"
                ))]
            }
        }
    }

    /// The inline pieces at the cursor, added to `out`; false at the end.
    fn inline(&mut self, out: &mut Vec<Inline>) -> bool {
        let Some(c) = self.peek() else {
            return false;
        };
        if c == '{' {
            // A bare group: its runs as they are (`{\bf x}` is a styled run).
            out.extend(self.group_inlines());
            return true;
        }
        match (self.piece(c), out.last_mut()) {
            (Some(Inline::Text(t)), Some(Inline::Text(last))) => last.push_str(&t),
            (Some(i), _) => out.push(i),
            (None, _) => return false,
        }
        true
    }

    /// Math as written, with `\constant{name}` put in.
    fn math(&self, tex: &str) -> String {
        let mut out = tex.trim().to_string();
        for (name, value) in self.constants {
            out = out.replace(&format!("\\constant{{{name}}}"), value);
        }
        out
    }

    /// One inline piece, its first character `c`.
    fn piece(&mut self, c: char) -> Option<Inline> {
        let text = |s: &str| Some(Inline::Text(s.to_string()));
        for (written, shown) in [
            ("---", "—"),
            ("--", "–"),
            ("``", "“"),
            ("''", "”"),
            ("<<", "«"),
            (">>", "»"),
        ] {
            if self.starts(written) {
                self.i += written.len();
                return text(shown);
            }
        }
        self.i += 1;
        match c {
            '~' => text("\u{a0}"),
            '`' => text("‘"),
            '\'' => text("’"),
            '\n' => text(" "),
            '$' => {
                let m = self.until("$");
                Some(Inline::Math(self.math(&m)))
            }
            '}' => text(""),
            '\\' => {
                self.i -= 1;
                self.inline_command()
            }
            c => text(&c.to_string()),
        }
    }

    /// An inline command at the cursor.
    fn inline_command(&mut self) -> Option<Inline> {
        let start = self.i;
        self.i += 1;
        match self.peek() {
            Some(c) if !c.is_ascii_alphabetic() => {
                self.i += 1;
                return Some(match c {
                    '\\' => Inline::Break,
                    '(' => {
                        let m = self.until("\\)");
                        Inline::Math(self.math(&m))
                    }
                    ',' | ' ' => Inline::Text(" ".into()),
                    c => Inline::Text(c.to_string()),
                });
            }
            None => return Some(Inline::Text("\\".into())),
            _ => {}
        }
        self.i = start;
        let name = self.command_name();
        let styled = |style| match name.as_str() {
            "bf" | "it" | "tt" => None,
            _ => Some(style),
        };
        let style = match name.as_str() {
            "textbf" | "bf" => Some(Style::Bold),
            "textit" | "emph" | "it" => Some(Style::Italic),
            "texttt" | "tt" | "t" => Some(Style::Mono),
            "underline" => Some(Style::Underline),
            "sout" => Some(Style::Strike),
            "textsc" => Some(Style::SmallCaps),
            _ => None,
        };
        if let Some(style) = style {
            // `{\bf text}`: the rest of the group; `\textbf{text}`: its argument.
            return Some(match styled(style) {
                Some(style) => Inline::Styled(style, self.group_inlines()),
                None => Inline::Styled(style, self.rest_of_group()),
            });
        }
        match name.as_str() {
            "ldots" | "textellipsis" | "dots" => Some(Inline::Text("…".into())),
            "url" => {
                let url = self.group_text();
                Some(Inline::Link {
                    text: vec![Inline::Text(url.clone())],
                    url,
                })
            }
            "href" => {
                let url = self.group_text();
                let text = self.group_inlines();
                Some(Inline::Link { url, text })
            }
            "includegraphics" => {
                self.optional();
                Some(Inline::Image(self.group_text().trim().to_string()))
            }
            "constant" => {
                let key = self.group_text();
                Some(Inline::Text(match self.constants.get(key.trim()) {
                    Some(v) => v.clone(),
                    None => format!("\\constant{{{key}}}"),
                }))
            }
            "newline" | "linebreak" => Some(Inline::Break),
            "item" => Some(Inline::Text("• ".into())),
            n if IGNORED.contains(&n) => {
                if ["vspace", "hspace", "label"].contains(&n) {
                    self.star();
                    self.group_text();
                }
                Some(Inline::Text(String::new()))
            }
            _ => {
                // Outside the subset: as written, with its arguments.
                self.i = start;
                Some(Inline::Text(self.take_command_source()))
            }
        }
    }

    /// `\name` at the cursor: the name, consumed.
    fn command_name(&mut self) -> String {
        self.i += 1;
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.i += 1;
        }
        let name: String = self.s[start..self.i].iter().collect();
        name
    }

    /// `\name[...]{...}{...}` as written.
    fn take_command_source(&mut self) -> String {
        let start = self.i;
        self.command_name();
        while matches!(self.peek(), Some('{') | Some('[')) {
            let close = if self.peek() == Some('{') { '}' } else { ']' };
            self.balanced(close);
        }
        self.s[start..self.i].iter().collect()
    }

    fn star(&mut self) {
        if self.peek() == Some('*') {
            self.i += 1;
        }
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\n') {
            self.i += 1;
        }
    }

    /// An optional argument `[...]`, skipped.
    fn optional(&mut self) {
        self.skip_space();
        if self.peek() == Some('[') {
            self.balanced(']');
        }
    }

    /// From an opening bracket to its match, consumed; the text between.
    fn balanced(&mut self, close: char) -> String {
        let open = self.peek().unwrap_or('{');
        self.i += 1;
        let start = self.i;
        let mut depth = 1;
        while let Some(c) = self.peek() {
            if c == '\\' {
                self.i += 2;
                continue;
            }
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    let inner: String = self.s[start..self.i].iter().collect();
                    self.i += 1;
                    return inner;
                }
            }
            self.i += 1;
        }
        self.s[start..self.s.len()].iter().collect()
    }

    /// The next `{...}` argument's text as written (empty when there is none).
    fn group_text(&mut self) -> String {
        self.skip_space();
        if self.peek() != Some('{') {
            return String::new();
        }
        self.balanced('}')
    }

    /// The next `{...}` argument, read.
    fn group_inlines(&mut self) -> Vec<Inline> {
        let inner = self.group_text();
        inlines(&inner, self.constants)
    }

    /// What is left of the enclosing group (`{\bf this}`), read.
    fn rest_of_group(&mut self) -> Vec<Inline> {
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            if c == '}' || !self.inline(&mut out) {
                break;
            }
        }
        out
    }

    /// The text up to `close` (consumed), as written.
    fn until(&mut self, close: &str) -> String {
        let start = self.i;
        while self.i < self.s.len() && !self.starts(close) {
            if self.peek() == Some('\\') {
                self.i += 1;
            }
            self.i += 1;
        }
        let text: String = self.s[start..self.i.min(self.s.len())].iter().collect();
        self.i = (self.i + close.len()).min(self.s.len());
        text
    }

    /// Everything up to `\end{env}` (consumed), as written.
    fn raw_until_end(&mut self, env: &str) -> String {
        self.until(&format!("\\end{{{env}}}"))
    }
}

/// The runs of `text` (no blocks).
fn inlines(text: &str, constants: &BTreeMap<String, String>) -> Vec<Inline> {
    let chars: Vec<char> = text.chars().collect();
    let mut p = Parser {
        s: &chars,
        i: 0,
        constants,
        title: None,
    };
    let mut out = Vec::new();
    while p.inline(&mut out) {}
    trim(&mut out);
    out
}

/// A tabular's rows (`\\`) and cells (`&`); `\multicolumn{n}{spec}{text}` spans n columns,
/// `\multirow{n}{width}{text}` is its text; rules (`\hline`, `\cline`) are not drawn.
fn table(body: &str, constants: &BTreeMap<String, String>) -> Vec<Vec<(usize, Vec<Inline>)>> {
    body.split("\\\\")
        .map(|row| {
            row.replace("\\hline", "")
                .split('&')
                .map(|cell| {
                    let cell = strip_cline(cell.trim());
                    // The format's text names `\multicol`; LaTeX's is `\multicolumn`.
                    let spanned = cell
                        .strip_prefix("\\multicolumn")
                        .or_else(|| cell.strip_prefix("\\multicol"));
                    if let Some(rest) = spanned {
                        let args = arguments(rest, 3);
                        let span = args[0].trim().parse().unwrap_or(1);
                        (span, inlines(&args[2], constants))
                    } else if let Some(rest) = cell.strip_prefix("\\multirow") {
                        let args = arguments(rest, 3);
                        (1, inlines(&args[2], constants))
                    } else {
                        (1, inlines(&cell, constants))
                    }
                })
                .collect::<Vec<_>>()
        })
        .filter(|row: &Vec<(usize, Vec<Inline>)>| row.iter().any(|(_, c)| !c.is_empty()))
        .collect()
}

/// The first `n` `{...}` arguments of `text` (empty where there are fewer).
fn arguments(text: &str, n: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let empty = BTreeMap::new();
    let mut p = Parser {
        s: &chars,
        i: 0,
        constants: &empty,
        title: None,
    };
    (0..n).map(|_| p.group_text()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::latex::plain;

    fn read(s: &str) -> Document {
        let c = BTreeMap::from([("max_n".to_string(), "100".to_string())]);
        parse(s, &c)
    }

    #[test]
    fn sections_styles_math_and_constants() {
        let d = read("\\problemname{Sum}\n% a comment\nGiven $n \\le \\constant{max_n}$, \\textbf{print} it--now.\n\n\\begin{Input}\nOne line.\n\\end{Input}\n");
        assert_eq!(d.title, Some(vec![Inline::Text("Sum".into())]));
        let Block::Paragraph(p) = &d.blocks[0] else {
            panic!("{d:?}")
        };
        assert!(p.contains(&Inline::Math("n \\le 100".into())), "{p:?}");
        assert!(p.contains(&Inline::Styled(
            Style::Bold,
            vec![Inline::Text("print".into())]
        )));
        assert!(
            matches!(p.last(), Some(Inline::Text(t)) if t == " it–now."),
            "{p:?}"
        );
        assert_eq!(
            d.blocks[1],
            Block::Heading(2, vec![Inline::Text("Input".into())])
        );
    }

    #[test]
    fn lists_tables_samples_figures_and_what_is_outside_the_subset() {
        let d = read("\\begin{itemize}\\item one \\item two\\end{itemize}\n\n\\begin{tabular}{|c|c|}\\hline a & b \\\\ \\multicolumn{2}{c}{wide}\\\\\\end{tabular}\n\n\\nextsample\n\\illustration{0.3}{tree.png}{A tree}\n\n\\begin{tikzpicture}\\draw (0,0);\\end{tikzpicture}\n\n\\weird{x} text");
        let Block::List {
            items,
            ordered: false,
        } = &d.blocks[0]
        else {
            panic!("{d:?}")
        };
        assert_eq!(items.len(), 2);
        let Block::Table(rows) = &d.blocks[1] else {
            panic!("{d:?}")
        };
        assert_eq!(rows[1][0].0, 2);
        assert_eq!(d.blocks[2], Block::Samples { remaining: false });
        assert!(
            matches!(&d.blocks[3], Block::Figure { file, width: Some(w), .. } if file == "tree.png" && *w == 0.3)
        );
        assert!(matches!(&d.blocks[4], Block::Source(s) if s.contains("\\draw (0,0);")));
        let Block::Paragraph(p) = &d.blocks[5] else {
            panic!("{d:?}")
        };
        assert_eq!(plain(&p[0]), "\\weird{x} text");
    }

    #[test]
    fn polygon_s_image_scale_a_caption_and_multicol() {
        let d = read("\\def\\htmlPixelsInCm{50}\\begin{figure}[h]\\includegraphics[width=3cm]{a.png}\\caption{A tree}\\end{figure}\n\n\\begin{tabular}{cc}\\multicol{2}{c}{both}\\end{tabular}");
        assert!(!format!("{d:?}").contains("50"), "{d:?}");
        let Block::Paragraph(p) = &d.blocks[0] else {
            panic!("{d:?}")
        };
        assert_eq!(p, &vec![Inline::Image("a.png".into())]);
        assert_eq!(
            d.blocks[1],
            Block::Paragraph(vec![Inline::Styled(
                Style::Italic,
                vec![Inline::Text("A tree".into())]
            )])
        );
        assert!(
            matches!(&d.blocks[2], Block::Table(rows) if rows[0][0].0 == 2),
            "{d:?}"
        );
    }

    /// Whatever it is given, reading ends, and never panics: pieces of LaTeX, cut and joined
    /// at random (a fixed generator, so a failure is the same each run).
    #[test]
    fn any_text_is_read_to_the_end() {
        const PIECES: &[&str] = &[
            "\\begin{",
            "\\end{",
            "itemize}",
            "tabular}",
            "Input}",
            "tikz}",
            "{",
            "}",
            "[",
            "]",
            "$",
            "$$",
            "\\[",
            "\\]",
            "\\(",
            "\\)",
            "\\item",
            "&",
            "\\\\",
            "\\",
            "%",
            "\n\n",
            "\\textbf",
            "{\\bf ",
            "\\href{",
            "\\illustration{",
            "\\constant{max_n}",
            "\\def",
            "\\multicolumn{",
            "\\verb",
            "--",
            "``",
            "'",
            "é",
            "x",
            " ",
            "\\nextsample",
        ];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..(state % 24) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push_str(PIECES[(state % PIECES.len() as u64) as usize]);
            }
            let _ = read(&text);
        }
    }
}
