//! Where a problem's statement is: the workspace's `statement.md`, or a package's own
//! statement folder (Kattis' `problem_statement/` or `statement/`, Polygon's `statements/`).

use std::path::{Path, PathBuf};

use super::Problem;

/// The Markdown files read as the statement, first found first: the workspace's, then a
/// Kattis package's English one.
const MARKDOWN: &[&str] = &[
    "statement.md",
    "statement/problem.en.md",
    "problem_statement/problem.en.md",
    "statement/problem.md",
    "problem_statement/problem.md",
];

/// Folders where a package keeps statements in formats the judge does not render (LaTeX, HTML).
const FOLDERS: &[&str] = &["problem_statement", "statement", "statements"];

/// A problem's statement as the judge can show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Statement {
    /// Markdown, the judge renders it.
    Markdown {
        path: PathBuf,
        text: String,
    },
    /// Only in another format, in this folder.
    Elsewhere(PathBuf),
    None,
}

impl Problem {
    /// The problem's statement: Markdown where there is some, else where the package keeps it.
    pub fn statement(&self) -> Statement {
        find(&self.dir)
    }
}

/// The statement's Markdown without its opening `# Title` line when that is the problem's
/// title: a page that shows the title above the statement would show it twice.
pub fn without_title<'a>(text: &'a str, title: &str) -> &'a str {
    let trimmed = text.trim_start();
    let (first, rest) = trimmed.split_once('\n').unwrap_or((trimmed, ""));
    match first.strip_prefix("# ") {
        Some(heading) if heading.trim().eq_ignore_ascii_case(title.trim()) => rest,
        _ => text,
    }
}

/// Whether the statement shows examples of its own: a heading that opens with "Example",
/// "Examples", "Sample" or "Samples" ("## Sample input" too). A page then does not repeat the
/// samples beneath it.
pub fn has_examples(text: &str) -> bool {
    let mut in_code = false;
    text.lines().any(|line| {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        }
        let heading = line.trim_start_matches('#');
        let first = heading.split_whitespace().next().unwrap_or("");
        !in_code
            && line.starts_with('#')
            && heading.starts_with(' ')
            && ["example", "examples", "sample", "samples"]
                .iter()
                .any(|w| first.eq_ignore_ascii_case(w))
    })
}

fn find(dir: &Path) -> Statement {
    for name in MARKDOWN {
        let path = dir.join(name);
        if let Ok(text) = std::fs::read_to_string(&path) {
            return Statement::Markdown { path, text };
        }
    }
    FOLDERS
        .iter()
        .map(|f| dir.join(f))
        .find(|p| p.is_dir())
        .map_or(Statement::None, Statement::Elsewhere)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_first_then_a_package_folder() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(find(dir.path()), Statement::None);
        std::fs::create_dir(dir.path().join("problem_statement")).unwrap();
        std::fs::write(dir.path().join("problem_statement/problem.en.tex"), "x").unwrap();
        assert_eq!(
            find(dir.path()),
            Statement::Elsewhere(dir.path().join("problem_statement"))
        );
        std::fs::write(dir.path().join("problem_statement/problem.en.md"), "# A").unwrap();
        assert!(matches!(find(dir.path()), Statement::Markdown { text, .. } if text == "# A"));
        std::fs::write(dir.path().join("statement.md"), "# B").unwrap();
        assert!(matches!(find(dir.path()), Statement::Markdown { text, .. } if text == "# B"));
    }

    #[test]
    fn the_title_is_taken_off_only_when_it_is_the_problems() {
        assert_eq!(
            without_title("# N-Queens II\n\nPlace", "N-Queens II"),
            "\nPlace"
        );
        assert_eq!(without_title("\n# double\nx", "Double"), "x");
        assert_eq!(without_title("# Another\nx", "Double"), "# Another\nx");
        assert_eq!(without_title("Text first\n", "Double"), "Text first\n");
    }

    #[test]
    fn examples_are_told_by_their_heading() {
        assert!(has_examples("# T\n\n## Examples\n\nInput:\n"));
        assert!(has_examples("## Sample input 1\n"));
        assert!(has_examples("### example\n"));
        assert!(!has_examples("# T\n\n## Input\n\nAn example: 4\n"));
        assert!(!has_examples("```\n# Examples\n```\n"));
        assert!(!has_examples("#Examples\n"));
    }
}
