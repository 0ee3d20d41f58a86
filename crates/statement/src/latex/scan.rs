//! Plain passes over a statement's text: comments taken out, a list's items split, blank
//! runs trimmed, a table cell's rules taken out.

use super::model::Inline;

/// The text with `%` comments taken out (an escaped `\%` stays).
pub(super) fn strip_comments(source: &str) -> String {
    source
        .lines()
        .map(|line| {
            let mut prev = ' ';
            for (i, c) in line.char_indices() {
                if c == '%' && prev != '\\' {
                    return &line[..i];
                }
                prev = c;
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The items of a list's body, split at each `\item` of its own level.
pub(super) fn split_items(body: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut current: Option<String> = None;
    let mut rest = body;
    while !rest.is_empty() {
        if rest.starts_with("\\begin{") {
            depth += 1;
        } else if rest.starts_with("\\end{") {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && rest.starts_with("\\item") {
            if let Some(c) = current.take() {
                items.push(c);
            }
            current = Some(String::new());
            rest = &rest["\\item".len()..];
            continue;
        }
        let c = rest.chars().next().expect("not empty");
        if let Some(cur) = current.as_mut() {
            cur.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    items.extend(current);
    items
}

pub(super) fn strip_cline(cell: &str) -> String {
    let mut s = cell.to_string();
    while let Some(at) = s.find("\\cline") {
        let end = s[at..].find('}').map_or(s.len(), |e| at + e + 1);
        s.replace_range(at..end, "");
    }
    s.trim().to_string()
}

/// Leading and trailing blank text taken off a run.
pub(super) fn trim(runs: &mut Vec<Inline>) {
    while matches!(runs.first(), Some(Inline::Text(t)) if t.trim().is_empty()) {
        runs.remove(0);
    }
    while matches!(runs.last(), Some(Inline::Text(t)) if t.trim().is_empty()) {
        runs.pop();
    }
    if let Some(Inline::Text(t)) = runs.first_mut() {
        *t = t.trim_start().to_string();
    }
    if let Some(Inline::Text(t)) = runs.last_mut() {
        *t = t.trim_end().to_string();
    }
}
