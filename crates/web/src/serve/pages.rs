//! The templates (compiled into the binary, no build step) and rendering them: HTML is escaped
//! by default, and only the statement and the marked diff, made safe where they are built, are
//! marked `safe`.

use std::sync::{Arc, OnceLock};

use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use minijinja::Environment;
use serde::Serialize;

const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("templates/base.html")),
    ("macros.html", include_str!("templates/macros.html")),
    ("case_row.html", include_str!("templates/case_row.html")),
    ("verdict.html", include_str!("templates/verdict.html")),
    ("status.html", include_str!("templates/status.html")),
    ("problems.html", include_str!("templates/problems.html")),
    ("problem.html", include_str!("templates/problem.html")),
    ("submission.html", include_str!("templates/submission.html")),
    ("submit.html", include_str!("templates/submit.html")),
    ("run.html", include_str!("templates/run.html")),
    ("error.html", include_str!("templates/error.html")),
    ("task.html", include_str!("templates/task.html")),
    ("matrix.html", include_str!("templates/matrix.html")),
    (
        "scale_result.html",
        include_str!("templates/scale_result.html"),
    ),
    (
        "verify_result.html",
        include_str!("templates/verify_result.html"),
    ),
];

/// The stylesheet and the script, served as they are.
pub const STYLE: &str = include_str!("templates/style.css");
pub const SCRIPT: &str = include_str!("templates/live.js");
/// Draws each formula of a statement with KaTeX, over its readable text.
pub const MATH: &str = include_str!("templates/math.js");

/// A template's context: `ctx! { title => "Status", rows }` (a bare name is a variable of
/// that name), each value serialized.
macro_rules! ctx {
    ($($key:ident $(=> $value:expr)?),* $(,)?) => {{
        let mut map = serde_json::Map::new();
        $(
            map.insert(
                stringify!($key).to_string(),
                serde_json::to_value($crate::serve::pages::ctx!(@value $key $(, $value)?)).unwrap_or_default(),
            );
        )*
        serde_json::Value::Object(map)
    }};
    (@value $key:ident) => { &$key };
    (@value $key:ident, $value:expr) => { &$value };
}
pub(crate) use ctx;

fn environment() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        for (name, source) in TEMPLATES {
            env.add_template(name, source)
                .unwrap_or_else(|e| panic!("template {name}: {e}"));
        }
        env
    })
}

/// A template that could not be rendered: its name, and the template engine's error with
/// where in the template it lies.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{name}: {source:#}")]
pub struct RenderError {
    pub name: String,
    /// Shared: a task that failed keeps its error in a state that is cloned for each look.
    pub source: Arc<minijinja::Error>,
}

/// A template rendered with `context`; a template's mistake is the error's text.
pub fn render(name: &str, context: impl Serialize) -> Result<String, RenderError> {
    environment()
        .get_template(name)
        .and_then(|t| t.render(minijinja::value::Serde(context)))
        .map_err(|source| RenderError {
            name: name.to_string(),
            source: Arc::new(source),
        })
}

/// A whole page, or the page of the template's error.
pub fn page(status: StatusCode, name: &str, context: impl Serialize) -> Response {
    match render(name, context) {
        Ok(html) => (status, Html(html)).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// A page that says what went wrong, and where to go back to.
pub fn error(status: StatusCode, title: &str, message: &str, back: Option<&str>) -> Response {
    page(
        status,
        "error.html",
        ctx! { title, message, back, nav => "" },
    )
}

/// A static file.
pub fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_compiles() {
        for (name, _) in TEMPLATES {
            environment().get_template(name).unwrap();
        }
    }

    #[test]
    fn text_is_escaped() {
        let html = render(
            "error.html",
            ctx! { title => "x", message => "<script>alert(1)</script>" },
        )
        .unwrap();
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn a_template_not_rendered_is_named_with_the_engines_error() {
        let e = render("nope.html", ctx! { title => "x" }).unwrap_err();
        assert_eq!(e.name, "nope.html");
        assert!(
            e.to_string().starts_with("nope.html: template not found"),
            "{e}"
        );
        assert_eq!(e.to_string(), format!("nope.html: {:#}", e.source));
    }
}
