//! A problem's statement on its page: Markdown or LaTeX as HTML, with the samples where the
//! statement places them (`{{nextsample}}` and `{{remainingsamples}}` in Markdown,
//! `\nextsample` and `\remainingsamples` in LaTeX); the images beside a statement, and KaTeX,
//! served by the judge itself.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::{latex, markdown, pages, App};
use judge_core::text::markup;
use judge_core::workspace::{
    has_examples, statement_parts, without_title, Part, Problem, Statement,
};

/// The most of a sample shown on a problem's page.
const SAMPLE_BYTES: usize = 64 << 10;

#[derive(Serialize)]
pub(super) struct Sample {
    name: String,
    input: String,
    /// `None` for an interactive problem.
    output: Option<String>,
}

/// The problem's samples, each cut to what a page shows. An interactive problem's answer
/// files are the interactor's (what it checks against), never what the solution prints: only
/// the input is shown, as the interactor's.
pub(super) fn samples(app: &App, problem: &Problem) -> Vec<Sample> {
    let read = |p: &std::path::Path| {
        let bytes = std::fs::read(p).unwrap_or_default();
        String::from_utf8_lossy(&bytes[..bytes.len().min(SAMPLE_BYTES)]).into_owned()
    };
    let interactive = problem.interactor.is_some();
    app.ws
        .testcases_if_any(problem)
        .unwrap_or_default()
        .iter()
        .filter(|c| c.sample)
        .map(|c| Sample {
            name: c.name.clone(),
            input: read(&c.input),
            output: (!interactive).then(|| read(&c.answer)),
        })
        .collect()
}

/// The statement as HTML (none when the judge cannot show it), and whether it needs KaTeX;
/// the samples it placed are taken out of `samples`, and all of them when a Markdown statement
/// shows examples of its own. The page's heading is the title: a Markdown statement's own
/// `# Title` is not shown again.
pub(super) fn render(problem: &Problem, samples: &mut Vec<Sample>) -> (Option<String>, bool) {
    let shown = |s: &Sample| {
        let output = match &s.output {
            Some(o) => format!(
                "<div><h4>Output {n}</h4><pre>{o}</pre></div>\n",
                n = markup(&s.name),
                o = markup(o)
            ),
            None => String::new(),
        };
        format!(
            "<div class=\"sample\">\n<div><h4>Input {n}</h4><pre>{i}</pre></div>\n{output}</div>\n",
            n = markup(&s.name),
            i = markup(&s.input),
        )
    };
    let mut examples = false;
    let (html, placed, katex) = match problem.statement() {
        Statement::Markdown { text, .. } => {
            let mut html = String::new();
            let mut placed = 0;
            examples = has_examples(&text);
            for part in statement_parts(without_title(&text, &problem.title)) {
                match part {
                    Part::Text(t) => html.push_str(&markdown::render(t)),
                    Part::Samples { remaining } => {
                        let upto = if remaining {
                            samples.len()
                        } else {
                            (placed + 1).min(samples.len())
                        };
                        while placed < upto {
                            html.push_str(&shown(&samples[placed]));
                            placed += 1;
                        }
                    }
                }
            }
            (html, placed, false)
        }
        Statement::Latex { text, .. } => {
            let doc = judge_statement::latex::parse(&text, &problem.terms.constants);
            let images = format!("/problems/{}/statement/", urlencode(&problem.id));
            let (html, placed) =
                latex::render(&doc, &images, samples.len(), &|i| shown(&samples[i]));
            (html, placed, true)
        }
        Statement::Elsewhere(_) | Statement::None => return (None, false),
    };
    samples.drain(..placed);
    if examples {
        // The statement shows examples of its own: no second copy of them.
        samples.clear();
    }
    (Some(html), katex)
}

/// A file of a problem's statement folder (the images a statement shows): a plain name,
/// of an image's kind (PNG, JPEG, SVG, or a PDF, which LaTeX statements may use), in the
/// folder the statement is in.
pub(super) async fn file(
    State(app): State<Arc<App>>,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    let known = app.ws.problem_ids().unwrap_or_default();
    let Some(Ok(problem)) = known.contains(&id).then(|| app.ws.problem(&id)) else {
        return not_found(&format!("there is no problem `{id}`"));
    };
    let folder = match problem.statement() {
        Statement::Latex { path, .. } | Statement::Markdown { path, .. } => {
            path.parent().map(|p| p.to_path_buf())
        }
        Statement::Elsewhere(dir) => Some(dir),
        Statement::None => None,
    };
    let plain = !file.is_empty()
        && !file.starts_with('.')
        && file
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    let Some(folder) = folder.filter(|_| plain) else {
        return not_found(&format!("the statement of {id} has no image `{file}`"));
    };
    // LaTeX lets a figure name its file without the extension: the first image of that name.
    let file = if file.contains('.') {
        file
    } else {
        ["png", "jpg", "jpeg", "svg", "pdf"]
            .iter()
            .map(|e| format!("{file}.{e}"))
            .find(|f| folder.join(f).is_file())
            .unwrap_or(file)
    };
    let kind = match file.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()) {
        Some(e) if e == "png" => "image/png",
        Some(e) if e == "jpg" || e == "jpeg" => "image/jpeg",
        Some(e) if e == "svg" => "image/svg+xml",
        Some(e) if e == "pdf" => "application/pdf",
        _ => return not_found("a statement serves its images only"),
    };
    match std::fs::read(folder.join(&file)) {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, kind),
                // An SVG never runs a script here.
                (header::CONTENT_SECURITY_POLICY, "script-src 'none'"),
            ],
            bytes,
        )
            .into_response(),
        _ => not_found(&format!("the statement of {id} has no image `{file}`")),
    }
}

/// KaTeX's files, served by the judge itself.
pub(super) async fn katex(Path(file): Path<String>) -> Response {
    match latex::katex::FILES
        .iter()
        .find(|(name, _, _)| *name == file)
    {
        Some((_, kind, bytes)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "max-age=86400"),
            ],
            *bytes,
        )
            .into_response(),
        None => not_found(&format!("KaTeX has no file `{file}`")),
    }
}

/// A part of a URL's path: letters, digits, `.`, `_` and `-` as they are, the rest
/// percent-encoded.
fn urlencode(part: &str) -> String {
    part.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'_' | b'-' => (b as char).to_string(),
            b => format!("%{b:02X}"),
        })
        .collect()
}

fn not_found(message: &str) -> Response {
    pages::error(
        StatusCode::NOT_FOUND,
        "Not found",
        message,
        Some("/problems"),
    )
}
