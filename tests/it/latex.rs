//! LaTeX statements, as packages have them: `judge show` writes the subset the format asks of
//! judging systems as text, `judge serve` as HTML with KaTeX served by the judge itself;
//! samples where `\nextsample` and `\remainingsamples` put them, `\constant`, illustrations
//! served beside the statement, and what is outside the subset shown as its source.

use crate::common::serve::Serving;
use crate::formats::Fixture;

const STATEMENT: &str = r"\problemname{Triangle Numbers}
% A comment the reader never sees.
Given $n \le \constant{max_n}$, print $1 + 2 + \dots + n$, \emph{exactly} --- no more.

\begin{Input}
One line with the integer $n$.
\end{Input}

\begin{Output}
\begin{itemize}
\item the sum;
\item nothing else.
\end{itemize}
\end{Output}

\nextsample
\illustration{0.4}{dots.png}{Three rows of dots}

\begin{tikzpicture}\draw (0,0) -- (1,1);\end{tikzpicture}

\remainingsamples
";

/// The triangle fixture with its statement in LaTeX, an image beside it, and a second sample.
fn package() -> Fixture {
    let f = Fixture::new("triangle");
    std::fs::remove_file(f.path().join("statement/problem.en.md")).unwrap();
    f.edit("statement/problem.en.tex", |_| STATEMENT.into());
    f.edit("statement/dots.png", |_| "\u{89}PNG not really".into());
    f.edit("data/sample/2.in", |_| "4\n".into());
    f.edit("data/sample/2.ans", |_| "10\n".into());
    f
}

#[test]
fn judge_show_writes_a_latex_statement_as_text_with_its_samples_in_place() {
    let f = package();
    let out = f.judge().args(["show", "triangle"]).expect_exit(0).run();
    let text = &out.stdout;
    for shown in [
        "Given n ≤ 100, print 1 + 2 + … + n, exactly — no more.",
        "Input",
        "One line with the integer n.",
        "• the sum;",
        "sample sample/1",
        "[figure: ",
        "dots.png — Three rows of dots]",
        "\\begin{tikzpicture}\\draw (0,0) -- (1,1);\\end{tikzpicture}",
        "sample sample/2",
    ] {
        assert!(text.contains(shown), "{shown:?} in:\n{text}");
    }
    assert!(!text.contains("comment"), "{text}");
    // Sample 1 where \nextsample is, the figure after it, sample 2 at \remainingsamples, and
    // no list of the samples again after the statement.
    let at = |s: &str| text.find(s).unwrap();
    assert!(at("sample sample/1") < at("[figure: ") && at("[figure: ") < at("sample sample/2"));
    assert!(!text.contains("Samples"), "{text}");
}

#[test]
fn judge_serve_draws_a_latex_statement_as_html_with_katex_of_its_own() {
    let f = package();
    let server = Serving::start_as(f.judge(), &["triangle"]);
    let page = server.get("/problems/triangle");
    assert_eq!(page.status, 200, "{}", page.body);
    let body = &page.body;
    for shown in [
        "<span class=\"tex\" data-tex=\"n \\le 100\">n ≤ 100</span>",
        "<em>exactly</em> — no more.",
        "<h2>Input</h2>",
        "<li><p>the sum;</p>",
        "<h4>Input sample/1</h4>",
        "<figure class=\"illustration\" style=\"width: 40%\"><img src=\"/problems/triangle/statement/dots.png\"",
        "<pre class=\"tex-source\">\\begin{tikzpicture}",
        "<h4>Input sample/2</h4>",
        "<script src=\"/static/katex/katex.min.js\" defer></script>",
    ] {
        assert!(body.contains(shown), "{shown:?} in:\n{body}");
    }
    assert!(!body.contains("<h2>Samples</h2>"), "{body}");
    // KaTeX and its fonts from the judge itself, never from the network.
    assert!(!body.contains("https://"), "{body}");
    for (file, kind) in [
        ("/static/katex/katex.min.js", "text/javascript"),
        ("/static/katex/katex.min.css", "text/css"),
        ("/static/math.js", "text/javascript"),
    ] {
        let a = server.get(file);
        assert_eq!(a.status, 200, "{file}");
        assert!(
            a.header("content-type").unwrap().starts_with(kind),
            "{file}"
        );
    }
    let css = server.get("/static/katex/katex.min.css").body;
    let font = css
        .split("url(")
        .nth(1)
        .and_then(|u| u.split(')').next())
        .unwrap()
        .trim_matches(['"', '\'']);
    assert!(
        font.starts_with("fonts/") && font.ends_with(".woff2"),
        "{font}"
    );
    // (HEAD: a font is not text.)
    let a = server.send("HEAD", &format!("/static/katex/{font}"), &[], "");
    assert_eq!(a.status, 200, "{font}");
    assert_eq!(a.header("content-type"), Some("font/woff2"));
    // The statement's image, and nothing else of the package's.
    let img = server.get("/problems/triangle/statement/dots.png");
    assert_eq!(img.status, 200);
    assert_eq!(img.header("content-type"), Some("image/png"));
    // LaTeX may name it without its extension.
    let img = server.get("/problems/triangle/statement/dots");
    assert_eq!(img.status, 200);
    assert_eq!(img.header("content-type"), Some("image/png"));
    assert_eq!(
        server
            .get("/problems/triangle/statement/problem.en.tex")
            .status,
        404
    );
    assert_eq!(
        server
            .get("/problems/triangle/statement/..%2Fproblem.yaml")
            .status,
        404
    );
}

#[test]
fn a_markdown_statement_places_its_samples_where_it_says_too() {
    let f = Fixture::new("triangle");
    f.edit("statement/problem.en.md", |t| {
        t + "\n{{nextsample}}\n\nBetween the samples, n is at most {{max_n}}.\n\n{{remainingsamples}}\n"
    });
    f.edit("data/sample/2.in", |_| "4\n".into());
    f.edit("data/sample/2.ans", |_| "10\n".into());
    let text = f
        .judge()
        .args(["show", "triangle"])
        .expect_exit(0)
        .run()
        .stdout;
    let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s:?} in:\n{text}"));
    assert!(at("sample sample/1") < at("Between the samples, n is at most 100."));
    assert!(at("Between the samples") < at("sample sample/2"));
    assert!(!text.contains("{{"), "{text}");
    assert!(!text.contains("Samples"), "{text}");

    let server = Serving::start_as(f.judge(), &["triangle"]);
    let body = server.get("/problems/triangle").body;
    let at = |s: &str| body.find(s).unwrap_or_else(|| panic!("{s:?} in:\n{body}"));
    assert!(at("<h4>Input sample/1</h4>") < at("Between the samples, n is at most 100."));
    assert!(at("Between the samples") < at("<h4>Input sample/2</h4>"));
    assert!(!body.contains("{{"), "{body}");
    assert!(!body.contains("<h2>Samples</h2>"), "{body}");
}
