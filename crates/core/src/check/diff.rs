//! The diff of a wrong answer: answer against output from their first difference, bounded in lines and width.

use crate::text::escape;

/// Lines of context around the first difference, shown in the diff.
const CONTEXT: usize = 2;
/// The widest line shown; longer lines are cut around their first difference.
const WIDTH: usize = 100;

/// A short unified diff of answer against output, starting just before their first
/// differing line, at most `max_lines` lines long (and a last `…` when it is cut). `None` when
/// the lines are identical.
///
/// Each run of differing lines shows both sides: the answer's lines (`-`) numbered as lines of
/// the answer, then the output's (`+`) numbered as lines of the output, each side given half of
/// what is left when both are long, so that a long case never shows only one of them. A line
/// both share is numbered once where its numbers agree, and `answer→output` where they do not
/// (after a line that only one side has).
pub fn diff(expected: &[u8], received: &[u8], max_lines: usize) -> Option<String> {
    let exp: Vec<&[u8]> = split_lines(expected);
    let got: Vec<&[u8]> = split_lines(received);
    let first = exp
        .iter()
        .zip(&got)
        .position(|(a, b)| a != b)
        .unwrap_or(exp.len().min(got.len()));
    if first == exp.len() && first == got.len() {
        return None;
    }
    let from = first.saturating_sub(CONTEXT);
    // Only a window is diffed: outputs can be millions of lines long.
    let window = max_lines * 2;
    let exp_w = &exp[from..(from + window).min(exp.len())];
    let got_w = &got[from..(from + window).min(got.len())];
    let column = first_column(exp.get(first).copied(), got.get(first).copied());
    let show = |line: &[u8]| escape(&excerpt(line, column));
    let exp_s: Vec<String> = exp_w.iter().map(|l| show(l)).collect();
    let got_s: Vec<String> = got_w.iter().map(|l| show(l)).collect();
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &exp_s, &got_s);
    let changes: Vec<(similar::ChangeTag, String)> = ops
        .iter()
        .flat_map(|op| op.iter_changes(&exp_s, &got_s))
        .map(|c| (c.tag(), c.value()))
        .collect();
    let mut out = vec![format!("  first difference at line {}", first + 1)];
    let mut budget = max_lines;
    let (mut ln_e, mut ln_g) = (from, from);
    let mut i = 0;
    while i < changes.len() && budget > 0 {
        if changes[i].0 == similar::ChangeTag::Equal {
            ln_e += 1;
            ln_g += 1;
            let number = match ln_e == ln_g {
                true => ln_e.to_string(),
                false => format!("{ln_e}→{ln_g}"),
            };
            out.push(format!("  {number:>5} │ {}", changes[i].1));
            budget -= 1;
            i += 1;
            continue;
        }
        let (mut removed, mut added) = (Vec::new(), Vec::new());
        while let Some((tag, text)) = changes.get(i).filter(|c| c.0 != similar::ChangeTag::Equal) {
            match tag {
                similar::ChangeTag::Delete => {
                    ln_e += 1;
                    removed.push(format!("- {ln_e:>5} │ {text}"));
                }
                _ => {
                    ln_g += 1;
                    added.push(format!("+ {ln_g:>5} │ {text}"));
                }
            }
            i += 1;
        }
        // Half of what is left for each side, and to one what the other does not use.
        let shown_removed = removed
            .len()
            .min((budget / 2).max(budget.saturating_sub(added.len())));
        let shown_added = added.len().min(budget - shown_removed);
        out.extend(side(removed, shown_removed, '-'));
        out.extend(side(added, shown_added, '+'));
        budget -= shown_removed + shown_added;
    }
    if i < changes.len() {
        out.push("  …".to_string());
    }
    let missing_newline = |d: &[u8]| !d.is_empty() && !d.ends_with(b"\n");
    if missing_newline(received) != missing_newline(expected) {
        out.push(format!(
            "  (the {} has no newline at the end)",
            if missing_newline(received) {
                "output"
            } else {
                "answer"
            }
        ));
    }
    Some(out.join("\n"))
}

/// The first `shown` lines of one side of a run of differences; when that is not all of them,
/// the last shown is `…` under the side's mark.
fn side(mut lines: Vec<String>, shown: usize, mark: char) -> Vec<String> {
    if shown < lines.len() {
        lines.truncate(shown.saturating_sub(1));
        if shown > 0 {
            lines.push(format!("{mark}     …"));
        }
    }
    lines
}

fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    if data.is_empty() {
        return Vec::new();
    }
    let data = data.strip_suffix(b"\n").unwrap_or(data);
    data.split(|&b| b == b'\n').collect()
}

fn first_column(a: Option<&[u8]>, b: Option<&[u8]>) -> usize {
    match (a, b) {
        (Some(a), Some(b)) => a
            .iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len())),
        _ => 0,
    }
}

/// Cuts a long line to a window around `column`.
fn excerpt(line: &[u8], column: usize) -> Vec<u8> {
    if line.len() <= WIDTH {
        return line.to_vec();
    }
    let start = column.saturating_sub(WIDTH / 3).min(line.len() - WIDTH);
    let mut out = Vec::new();
    if start > 0 {
        out.extend_from_slice("…".as_bytes());
    }
    out.extend_from_slice(&line[start..start + WIDTH]);
    if start + WIDTH < line.len() {
        out.extend_from_slice(format!("… ({} bytes)", line.len()).as_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_starts_at_the_first_difference_and_is_bounded() {
        let exp: String = (1..=100).map(|i| format!("{i}\n")).collect();
        let got = exp.replace("50\n", "fifty\n");
        let d = diff(exp.as_bytes(), got.as_bytes(), 20).unwrap();
        assert!(d.contains("first difference at line 50"), "{d}");
        assert!(d.contains("-    50 │ 50"), "{d}");
        assert!(d.contains("+    50 │ fifty"), "{d}");
        assert!(!d.contains("│ 10\n"), "{d}");
        assert!(d.lines().count() <= 22, "{d}");
        assert!(diff(b"1\n", b"1\n", 20).is_none());
    }

    #[test]
    fn diff_survives_long_lines_nul_and_missing_newline() {
        let exp = format!("{}\n", "a".repeat(200_000));
        let mut got = exp.clone().into_bytes();
        got[150_000] = 0;
        let d = diff(exp.as_bytes(), &got, 20).unwrap();
        assert!(d.contains("\\0"), "{d}");
        assert!(d.len() < 2000, "{}", d.len());
        // Lines alike but for the final newline: nothing to show as a diff (the checker's
        // message says it); beside a real difference, the missing newline is noted.
        assert_eq!(diff(b"1\n2\n", b"1\n2", 20), None);
        let d = diff(b"1\n2\n", b"1\n3", 20).unwrap();
        assert!(d.contains("(the output has no newline at the end)"), "{d}");
        let d = diff(b"1\n2", b"1\n3\n", 20).unwrap();
        assert!(d.contains("(the answer has no newline at the end)"), "{d}");
        let d = diff(b"", b"x\n", 20).unwrap();
        assert!(d.contains("+     1 │ x"), "{d}");
    }

    #[test]
    fn a_long_difference_shows_both_sides_each_numbered_by_its_own() {
        // Every line differs: half of the lines for the answer, half for the output.
        let exp: String = (1..=100).map(|i| format!("{i}\n")).collect();
        let got: String = (1..=100).map(|i| format!("x{i}\n")).collect();
        let d = diff(exp.as_bytes(), got.as_bytes(), 20).unwrap();
        let marked = |m: char| d.lines().filter(|l| l.starts_with(m)).count();
        assert_eq!((marked('-'), marked('+')), (10, 10), "{d}");
        assert!(d.contains("-     1 │ 1\n"), "{d}");
        assert!(d.contains("-     …\n"), "{d}");
        assert!(d.contains("+     1 │ x1\n"), "{d}");
        assert!(d.contains("+     9 │ x9\n"), "{d}");
        assert!(d.lines().count() <= 22, "{d}");
        // One side short: the other takes what it leaves.
        let d = diff(exp.as_bytes(), b"0\n", 20).unwrap();
        assert!(d.contains("+     1 │ 0"), "{d}");
        assert_eq!(d.lines().filter(|l| l.starts_with('-')).count(), 19, "{d}");
    }

    #[test]
    fn a_shared_line_after_an_extra_one_has_both_numbers() {
        let d = diff(b"a\nb\nc\nd\n", b"a\nb\nX\nc\nd\n", 20).unwrap();
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(
            lines,
            [
                "  first difference at line 3",
                "      1 │ a",
                "      2 │ b",
                "+     3 │ X",
                "    3→4 │ c",
                "    4→5 │ d",
            ],
            "{d}"
        );
    }
}
