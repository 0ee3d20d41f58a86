//! What the pages show, as data for the templates: verdicts in an online judge's words, times
//! and sizes formatted, a case's optional fields as sections, a diff with its first difference
//! marked. No HTML is written here but the marked diff's (escaped) lines.

use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use judge_core::text::markup;
use judge_core::units::{format_bytes, format_run_time};
use judge_core::verdict::Verdict;
use judge_history::{Entry, Submission};

/// A verdict as a status page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct VerdictView {
    pub code: &'static str,
    /// "Wrong answer on test 3", "Accepted", "Running on test 2".
    pub text: String,
    /// The badge's colour: `ac`, `fail`, `ce` (no test failed), `running`, `partial` (an AC of
    /// part of the cases).
    pub class: &'static str,
}

impl VerdictView {
    /// `failed`: the 1-based position of the first case that was not accepted.
    pub fn of(v: Verdict, failed: Option<usize>) -> VerdictView {
        let words = match v {
            Verdict::Ie => "internal error",
            v => v.meaning(),
        };
        let mut text = capitalised(words);
        if let (Some(n), false) = (failed, matches!(v, Verdict::Ac | Verdict::Ce)) {
            text.push_str(&format!(" on test {n}"));
        }
        VerdictView {
            code: v.code(),
            text,
            class: match v {
                Verdict::Ac => "ac",
                Verdict::Ce | Verdict::Ie => "ce",
                _ => "fail",
            },
        }
    }

    /// A recorded submission's verdict: a run of part of the cases says so, and its AC is not
    /// shown as the solution's.
    pub fn of_submission(s: &Submission) -> VerdictView {
        let mut view = VerdictView::of(s.verdict, first_failed(s));
        if let Some(p) = &s.partial {
            view.text
                .push_str(&format!(" (partial run: {})", p.describe()));
            if s.verdict == Verdict::Ac {
                view.class = "partial";
            }
        }
        view
    }

    /// A row the history cannot read.
    pub fn unreadable() -> VerdictView {
        VerdictView {
            code: "?",
            text: "Cannot be read".into(),
            class: "ce",
        }
    }

    /// A run not finished: compiling, or running its next case.
    pub fn running(next_case: Option<usize>) -> VerdictView {
        VerdictView {
            code: "…",
            text: match next_case {
                Some(n) => format!("Running on test {n}"),
                None => "In queue / compiling".into(),
            },
            class: "running",
        }
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// One row of the status table.
#[derive(Debug, Clone, Serialize)]
pub struct StatusRow {
    /// The submission's page (or the live run's).
    pub href: String,
    pub id: String,
    pub when: String,
    pub problem: String,
    pub solution: String,
    pub language: String,
    pub verdict: VerdictView,
    pub time: String,
    pub memory: String,
}

impl StatusRow {
    pub fn of(entry: &Entry) -> StatusRow {
        let s = match entry {
            Entry::Read(s) => s,
            Entry::Unreadable(u) => {
                return StatusRow {
                    href: format!("/submissions/{}", u.id),
                    id: u.id.to_string(),
                    when: String::new(),
                    problem: String::new(),
                    solution: String::new(),
                    language: String::new(),
                    verdict: VerdictView::unreadable(),
                    time: String::new(),
                    memory: String::new(),
                }
            }
        };
        let ce = s.verdict == Verdict::Ce;
        StatusRow {
            href: format!("/submissions/{}", s.id),
            id: s.id.to_string(),
            when: s.submitted.clone(),
            problem: s.problem.clone(),
            solution: s.solution.clone(),
            language: s.language.clone(),
            verdict: VerdictView::of_submission(s),
            time: if ce { "-".into() } else { s.time_text() },
            memory: if ce {
                "-".into()
            } else {
                format_bytes(s.max_memory_kb * 1024)
            },
        }
    }
}

/// The 1-based position of the first case of a submission that was not accepted.
pub fn first_failed(s: &Submission) -> Option<usize> {
    s.cases
        .iter()
        .position(|c| c.verdict != Verdict::Ac)
        .map(|i| i + 1)
}

/// A case of a run, from the report's JSON: the fields of its row, and each other field it has
/// as a section below the table.
#[derive(Debug, Clone, Serialize)]
pub struct CaseView {
    /// Its 1-based position: "test 3".
    pub number: usize,
    pub name: String,
    pub sample: bool,
    pub verdict: VerdictView,
    pub time: String,
    pub memory: String,
    pub sections: Vec<Section>,
}

/// One optional field of a case: its title and its text (`html` when already marked up).
#[derive(Debug, Clone, Serialize)]
pub struct Section {
    pub title: String,
    pub text: String,
    pub html: Option<String>,
}

/// Fields of a case shown in its row or not at all, never as a section.
const IN_ROW: &[&str] = &[
    "name",
    "sample",
    "verdict",
    "time_ms",
    "wall_ms",
    "memory_kb",
    "output_bytes",
    "parallel",
    "leftover_processes",
    "saved_output",
    "killed_by",
    "rerun",
    "timing",
    "score",
];

/// The titles of a case's sections, in the order shown. Any other field a case has (one the
/// report model gains later, an interactive run's transcript say) follows under its own name:
/// giving it a title here is all it needs.
const SECTIONS: &[(&str, &str)] = &[
    ("detail", "Verdict"),
    ("hint", "Note"),
    ("diff", "Expected vs received"),
    ("transcript", "Interaction"),
    ("input", "Input"),
    ("stderr", "Standard error"),
];

impl CaseView {
    /// The case at `index` of a report (its JSON), run under the time limit `limit`.
    pub fn of(index: usize, case: &Value, limit: Duration) -> CaseView {
        let text = |k: &str| {
            case.get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let number = |k: &str| case.get(k).and_then(Value::as_u64).unwrap_or(0);
        let verdict = text("verdict").parse().unwrap_or(Verdict::Ie);
        let mut sections: Vec<(usize, Section)> = case
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, v)| !IN_ROW.contains(&k.as_str()) && !v.is_null())
            .map(|(k, v)| {
                let known = SECTIONS.iter().position(|(key, _)| key == k);
                let body = match v {
                    Value::String(s) => s.clone(),
                    other => serde_json::to_string_pretty(other).unwrap_or_default(),
                };
                let section = Section {
                    title: known.map_or_else(|| k.replace('_', " "), |i| SECTIONS[i].1.into()),
                    html: (k == "diff").then(|| marked_diff(&body)),
                    text: body,
                };
                (known.unwrap_or(SECTIONS.len()), section)
            })
            .collect();
        sections.sort_by_key(|(order, _)| *order);
        CaseView {
            number: index + 1,
            name: text("name"),
            sample: case.get("sample").and_then(Value::as_bool).unwrap_or(false),
            verdict: VerdictView::of(verdict, None),
            time: format_run_time(
                Duration::from_millis(number("time_ms")),
                (verdict == Verdict::Tle).then_some(limit),
            ),
            memory: format_bytes(number("memory_kb") * 1024),
            sections: sections.into_iter().map(|(_, s)| s).collect(),
        }
    }
}

/// The judge's diff (`- N │ expected`, `+ N │ received` lines) as HTML lines: expected and
/// received coloured, and in the first pair of them, the text from the first differing
/// character marked.
pub fn marked_diff(diff: &str) -> String {
    let lines: Vec<&str> = diff.lines().collect();
    let first_expected = lines.iter().position(|l| l.starts_with('-'));
    let first_received = lines.iter().position(|l| l.starts_with('+'));
    let content = |l: &str| l.split_once('│').map_or("", |(_, c)| c).to_string();
    let column = match (first_expected, first_received) {
        (Some(e), Some(r)) => {
            let (a, b) = (content(lines[e]), content(lines[r]));
            Some(
                a.char_indices()
                    .zip(b.chars())
                    .find(|((_, x), y)| x != y)
                    .map_or(a.len().min(b.len()), |((i, _), _)| i),
            )
        }
        _ => None,
    };
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let class = match line.chars().next() {
            Some('-') => "expected",
            Some('+') => "received",
            _ => "same",
        };
        let body = match (
            column,
            Some(i) == first_expected || Some(i) == first_received,
        ) {
            (Some(col), true) => {
                let (head, body) = line.split_once('│').unwrap_or((line, ""));
                let cut = floor_char(body, col);
                format!(
                    "{}│{}<mark>{}</mark>",
                    markup(head),
                    markup(&body[..cut]),
                    markup(&body[cut..])
                )
            }
            _ => markup(line),
        };
        out.push_str(&format!("<span class=\"{class}\">{body}</span>\n"));
    }
    out
}

fn floor_char(s: &str, i: usize) -> usize {
    (0..=i.min(s.len()))
        .rev()
        .find(|&j| s.is_char_boundary(j))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_difference_is_marked() {
        let diff = "  first difference at line 2\n      1 │ 1\n-     2 │ 10<20\n+     2 │ 10<21\n";
        let html = marked_diff(diff);
        assert!(
            html.contains("<span class=\"expected\">-     2 │ 10&lt;2<mark>0</mark></span>"),
            "{html}"
        );
        assert!(html.contains("<span class=\"received\">+     2 │ 10&lt;2<mark>1</mark></span>"));
        assert!(html.contains("<span class=\"same\">      1 │ 1</span>"));
    }

    #[test]
    fn a_long_case_shows_expected_and_received_lines() {
        let expected: String = (1..=100).map(|i| format!("{i}\n")).collect();
        let received: String = (1..=100).map(|i| format!("x{i}\n")).collect();
        let diff = judge_core::check::diff(expected.as_bytes(), received.as_bytes(), 20).unwrap();
        let html = marked_diff(&diff);
        assert!(
            html.contains("<span class=\"expected\">-     1 │ "),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"received\">+     1 │ "),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"received\">+     2 │ x2</span>"),
            "{html}"
        );
    }

    #[test]
    fn every_optional_field_of_a_case_is_a_section() {
        let case = serde_json::json!({
            "name": "2", "sample": false, "verdict": "WA", "time_ms": 3, "memory_kb": 2048,
            "detail": "token 1: expected `2`", "diff": "-  1 │ 2\n+  1 │ 3", "stderr": null,
            "transcript": "> 1\n< 2", "parallel": false
        });
        let view = CaseView::of(1, &case, Duration::from_secs(1));
        let titles: Vec<&str> = view.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Verdict", "Expected vs received", "Interaction"]);
        assert_eq!((view.number, view.verdict.code), (2, "WA"));
        assert_eq!(view.memory, "2 MiB");
    }

    #[test]
    fn verdicts_read_as_on_an_online_judge() {
        assert_eq!(
            VerdictView::of(Verdict::Wa, Some(3)).text,
            "Wrong answer on test 3"
        );
        assert_eq!(VerdictView::of(Verdict::Ac, None).text, "Accepted");
        assert_eq!(
            VerdictView::of(Verdict::Ce, Some(1)).text,
            "Compilation error"
        );
    }
}
