//! Every link of the README and the guide that stays in the repository leads to a file that is
//! there, and its `#anchor` to a heading of that page: pages were split and moved, and a link
//! left behind would lead nowhere, in the book as on the repository's web pages.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use super::markdown_files;
use crate::common;

/// `](target)` of a link or an image, and `src="target"` of an `<img>`.
static TARGET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"\]\(([^)\s]+)\)|src="([^"]+)""#).unwrap());

/// An inline code span, whose text is never a link.
static CODE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"`+[^`]*`+").unwrap());

/// The lines of `text` outside fenced code blocks, with their numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// The anchor of a heading as mdBook and the repository's web pages make it: lower case, code
/// marks and punctuation dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            c if c.is_whitespace() => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings.
fn anchors(page: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(page).unwrap();
    prose(&text)
        .into_iter()
        .filter_map(|(_, line)| {
            let heading = line.trim_start_matches('#');
            (heading.len() < line.len() && heading.starts_with(' ')).then(|| anchor(heading))
        })
        .collect()
}

/// Where a link from `page` to `target` leads, or why it leads nowhere; `None` for a link out of
/// the repository.
fn follow(page: &Path, target: &str) -> Option<Result<(), String>> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
    let file: PathBuf = match file {
        "" => page.to_path_buf(),
        f => page.parent().unwrap().join(f),
    };
    if !file.exists() {
        return Some(Err(format!("no file {}", file.display())));
    }
    if fragment.is_empty() {
        return Some(Ok(()));
    }
    if file.extension().is_none_or(|e| e != "md") || !anchors(&file).contains(fragment) {
        return Some(Err(format!(
            "no heading `#{fragment}` in {}",
            file.display()
        )));
    }
    Some(Ok(()))
}

#[test]
fn every_link_leads_somewhere() {
    let root = common::repo();
    let mut broken = Vec::new();
    let mut followed = 0;
    for page in markdown_files() {
        let text = std::fs::read_to_string(&page).unwrap();
        let rel = page.strip_prefix(&root).unwrap().display().to_string();
        for (line, prose) in prose(&text) {
            let prose = CODE.replace_all(prose, "");
            for c in TARGET.captures_iter(&prose) {
                let target = c.get(1).or(c.get(2)).unwrap().as_str();
                match follow(&page, target) {
                    Some(Ok(())) => followed += 1,
                    Some(Err(e)) => broken.push(format!("{rel}:{line}: `{target}`: {e}")),
                    None => {}
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links that lead nowhere:\n{}",
        broken.join("\n")
    );
    // The README alone links to every page of the guide: a pattern that found none is wrong.
    assert!(followed > 50, "only {followed} links found");
}

#[test]
fn anchors_are_made_as_mdbook_makes_them() {
    assert_eq!(anchor(" `judge run SOLUTION`"), "judge-run-solution");
    assert_eq!(
        anchor(" Repeated timing: `--repeat N`"),
        "repeated-timing---repeat-n"
    );
    assert_eq!(anchor(" The judge's own speed"), "the-judges-own-speed");
    assert_eq!(
        anchor(" `judge.toml`: changing a language, adding one"),
        "judgetoml-changing-a-language-adding-one"
    );
}
