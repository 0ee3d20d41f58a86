//! A LaTeX statement read into blocks and runs of text: the subset the problem package format
//! asks judging systems to show (sections, `Input`/`Output`/`Interaction`, lists, verbatim,
//! quotes, `center`, tables, figures and illustrations, font styles, links, math, quotes and
//! dashes, `\nextsample`, `\remainingsamples`, `\constant`). Math is kept as its TeX source for
//! the caller to draw (as text with [`crate::tex`], or by KaTeX). What is outside the subset is
//! kept as its source, never an error: a statement always shows.

mod model;
mod read;
mod scan;

pub use model::{plain, Block, Document, Inline, Style};
pub use read::parse;
