//! What `judge validate` prints: a line per validator (valid inputs, skipped, failed), under it
//! each input it rejected with its message, and the conclusion.

use std::fmt::Write;

use super::{alarm, bold, dim, paint, verdict_style};
use judge_core::text;
use judge_core::validate::{CaseChecked, Checks, Status, Validation, ValidatorReport};
use judge_core::verdict::Verdict;

/// Lines of a validator's message shown under the input it rejected.
const MESSAGE_LINES: usize = 4;

/// The cases that test the validators, each as it must be or not, with what was said.
pub fn render_cases(cases: &[CaseChecked]) -> String {
    let mut out = String::new();
    if cases.is_empty() {
        return out;
    }
    let good = cases.iter().filter(|c| c.ok).count();
    let _ = writeln!(
        out,
        "\n  {}",
        bold(&format!(
            "cases that test the validators: {good}/{} as they must be",
            cases.len()
        ))
    );
    let width = cases.iter().map(|c| c.case.len()).max().unwrap_or(0);
    for c in cases {
        let line = format!("  {:<width$}  {}", c.case, c.said);
        let _ = writeln!(
            out,
            "{}",
            if c.ok {
                dim(&line)
            } else {
                alarm(&format!("{line} (MISMATCH)"))
            }
        );
    }
    out
}

pub fn render(v: &Validation) -> String {
    let mut out = String::new();
    let of = |c: Checks| v.validators.iter().filter(|r| r.checks == c).count();
    let mut head = format!(
        "{} · {}",
        plural(v.inputs, "input"),
        plural(of(Checks::Inputs), "input validator")
    );
    if of(Checks::Answers) > 0 {
        head.push_str(&format!(
            " · {}",
            plural(of(Checks::Answers), "answer validator")
        ));
    }
    let _ = writeln!(out, "{}  {}\n", bold(&v.problem), dim(&head));
    if v.validators.is_empty() {
        let _ = writeln!(
            out,
            "  the problem has no input validator: nothing says which inputs are valid"
        );
        return out;
    }
    let width = v.validators.iter().map(|r| r.name.len()).max().unwrap_or(0);
    for r in &v.validators {
        validator(&mut out, r, width);
    }
    out.push_str(&render_cases(&v.validator_cases));
    let _ = writeln!(out);
    let _ = writeln!(out, "  {}", conclusion(v));
    out
}

fn plural(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

/// A validator's line, and under it each input it rejected with its message.
fn validator(out: &mut String, r: &ValidatorReport, width: usize) {
    let of = match r.checks {
        Checks::Inputs => "",
        Checks::Answers => " answers",
    };
    let what = match &r.status {
        Status::Ran if r.invalid.is_empty() => paint(
            verdict_style(Verdict::Ac),
            &format!("{}/{}{of} valid", r.checked, r.checked),
        ),
        Status::Ran => alarm(&format!("{} of {}{of} invalid", r.invalid.len(), r.checked)),
        Status::Skipped(why) => dim(&format!("skipped: {why}")),
        Status::Unsupported(why) => dim(&format!("not run: {why}")),
        Status::Failed(why) => paint(verdict_style(Verdict::Ie), &format!("IE: {why}")),
    };
    let _ = writeln!(out, "  {:<width$}  {what}", r.name);
    for bad in &r.invalid {
        let message = bad
            .message
            .as_deref()
            .map(|m| text::first_lines(m, MESSAGE_LINES))
            .unwrap_or_else(|| "(no message)".into());
        let mut lines = message.lines();
        let _ = writeln!(
            out,
            "      {}  exit {}: {}",
            bad.case,
            bad.exit_code,
            lines.next().unwrap_or("")
        );
        for line in lines {
            let _ = writeln!(out, "      {:<w$}  {line}", "", w = bad.case.len());
        }
    }
}

/// The last line: the validators that failed, the cases testing them not as they must be, the
/// files rejected, or every input valid.
fn conclusion(v: &Validation) -> String {
    let invalid: usize = v.validators.iter().map(|r| r.invalid.len()).sum();
    let rejected_by = |c: Checks| {
        v.validators
            .iter()
            .any(|r| r.checks == c && !r.invalid.is_empty())
    };
    let rejected = match (rejected_by(Checks::Inputs), rejected_by(Checks::Answers)) {
        (true, true) => "file",
        (false, true) => "answer",
        _ => "input",
    };
    let failed: Vec<&str> = v
        .validators
        .iter()
        .filter(|r| matches!(r.status, Status::Failed(_)))
        .map(|r| r.name.as_str())
        .collect();
    let ran = v
        .validators
        .iter()
        .filter(|r| r.status == Status::Ran)
        .count();
    let mismatched = v.validator_cases.iter().filter(|c| !c.ok).count();
    if !failed.is_empty() {
        alarm(&format!("IE: {} failed", failed.join(", ")))
    } else if mismatched > 0 {
        alarm(&format!(
            "{} testing the validators not as it must be",
            plural(mismatched, "case")
        ))
    } else if invalid > 0 {
        alarm(&format!("{} rejected", plural(invalid, rejected)))
    } else if ran == 0 {
        "no validator could run here: nothing was checked".into()
    } else {
        format!("every input valid ({} ran)", plural(ran, "validator"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::validate::Rejection;

    fn validation(statuses: &[(Checks, Status, usize)]) -> Validation {
        Validation {
            problem: "sum".into(),
            inputs: 3,
            validators: statuses
                .iter()
                .enumerate()
                .map(|(i, (checks, status, invalid))| ValidatorReport {
                    name: format!("v{i}"),
                    checks: *checks,
                    status: status.clone(),
                    checked: 3,
                    invalid: (0..*invalid)
                        .map(|k| Rejection {
                            case: format!("0{k}"),
                            exit_code: 43,
                            message: (k == 0).then(|| "n out of range\nline 2".into()),
                        })
                        .collect(),
                })
                .collect(),
            validator_cases: Vec::new(),
        }
    }

    #[test]
    fn the_conclusion_says_the_worst_first() {
        let plain = |v: Validation| anstream::adapter::strip_str(&conclusion(&v)).to_string();
        let ran = |invalid| (Checks::Inputs, Status::Ran, invalid);
        let failed = (Checks::Inputs, Status::Failed("no binary".into()), 0);
        assert_eq!(
            plain(validation(&[ran(2), failed.clone()])),
            "IE: v1 failed"
        );
        assert_eq!(plain(validation(&[ran(2)])), "2 inputs rejected");
        let answers = (Checks::Answers, Status::Ran, 1);
        assert_eq!(plain(validation(&[ran(1), answers])), "2 files rejected");
        let skipped = (Checks::Inputs, Status::Skipped("no java".into()), 0);
        assert_eq!(
            plain(validation(&[skipped])),
            "no validator could run here: nothing was checked"
        );
        assert_eq!(
            plain(validation(&[ran(0), ran(0)])),
            "every input valid (2 validators ran)"
        );
    }
}
