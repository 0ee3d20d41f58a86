//! A problem statement's text, apart from judging: a LaTeX statement read into blocks and runs
//! ([`latex`]), and TeX math read once and drawn as text ([`tex`]). Pure and with no dependency:
//! the report draws it on a terminal, the web as HTML.

pub mod latex;
pub mod tex;
