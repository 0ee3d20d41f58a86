//! A LaTeX statement as read: blocks, and runs of text in them.

/// A block of the statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Heading(u8, Vec<Inline>),
    Paragraph(Vec<Inline>),
    List {
        ordered: bool,
        items: Vec<Vec<Block>>,
    },
    Verbatim(String),
    Quote(Vec<Block>),
    Center(Vec<Block>),
    /// Rows of cells, each cell with the columns it spans.
    Table(Vec<Vec<(usize, Vec<Inline>)>>),
    /// `\illustration{width}{file}{caption}`, `\includegraphics` in a figure: a file of the
    /// statement's folder.
    Figure {
        file: String,
        width: Option<f64>,
        caption: Vec<Inline>,
    },
    DisplayMath(String),
    /// `\nextsample` (false) or `\remainingsamples` (true): the samples go here.
    Samples {
        remaining: bool,
    },
    /// What the judge does not read, as it was written.
    Source(String),
}

/// A run of text in a block.
#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    Text(String),
    Styled(Style, Vec<Inline>),
    Math(String),
    Link { url: String, text: Vec<Inline> },
    Image(String),
    Break,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Bold,
    Italic,
    Mono,
    Underline,
    Strike,
    SmallCaps,
}

/// A statement, read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    /// `\problemname{...}`, when it gives one.
    pub title: Option<Vec<Inline>>,
    pub blocks: Vec<Block>,
}

/// Text of a run, without its styles (math as its source).
pub fn plain(i: &Inline) -> String {
    match i {
        Inline::Text(t) => t.clone(),
        Inline::Styled(_, inner) | Inline::Link { text: inner, .. } => {
            inner.iter().map(plain).collect()
        }
        Inline::Math(m) => m.clone(),
        Inline::Image(f) => f.clone(),
        Inline::Break => "\n".into(),
    }
}
