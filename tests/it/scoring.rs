//! Scoring packages verified: what a partially accepted submission is told in the words of the
//! scoring rules, and a package's own graders (`grading: custom`, `graders/`) grading its
//! groups as the legacy format runs them. The fixtures (`tests/fixtures/packages/subtasks`,
//! `halves`) were written from the format's text.

use crate::formats::{solution, Fixture};

/// A partially accepted submission that times out on the second subtask is told its score and
/// that cases hit the time limit, never that it is "accepted" with a case at 200% of the limit.
#[test]
fn a_partial_score_with_a_timeout_is_said_in_the_words_of_the_scoring_rules() {
    let f = Fixture::new("subtasks");
    let out = f
        .judge()
        .args(["verify", "subtasks", "--time-limit", "1s"])
        .expect_exit(0)
        .run();
    let text = &out.stdout;
    assert!(
        text.contains(
            "partially_accepted/small_only.py: scored 40 of 100; 1 case hit the time limit"
        ),
        "{text}"
    );
    assert!(!text.contains("% of the time limit"), "{text}");
    assert!(!text.contains("accepted, but"), "{text}");
}

/// The secret group's grader accepts it when half of its cases are, with 10 points for each
/// accepted case: the default grader would call the half-right submission WA.
#[test]
fn a_custom_grader_grades_its_groups() {
    let f = Fixture::new("halves");
    let (v, stderr) = f.verified(0);
    assert!(!stderr.contains("custom grader"), "{stderr}");
    let half = solution(&v, "partially_accepted/even_only.py");
    assert_eq!(half["verdict"], "AC", "{half:#}");
    assert_eq!(half["score"], 20.0, "{half:#}");
    assert_eq!(half["matches_expected"], true, "{half:#}");
    let full = solution(&v, "accepted/double.py");
    assert_eq!(
        (&full["verdict"], &full["score"]),
        (&"AC".into(), &40.0.into()),
        "{full:#}"
    );
    let wrong = solution(&v, "wrong_answer/triple.py");
    assert_eq!(wrong["verdict"], "WA", "{wrong:#}");
}

/// A grader that fails (here: it prints nothing) is the judge's error, named with the grader.
#[test]
fn a_grader_that_fails_is_an_internal_error() {
    let f = Fixture::new("halves");
    f.edit("graders/half.py", |_| {
        "import sys\nsys.stdin.read()\n".into()
    });
    let out = f
        .judge()
        .args([
            "run",
            "halves/submissions/accepted/double.py",
            "--time-limit",
            "1s",
        ])
        .expect_exit(2)
        .run();
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(all.contains("IE"), "{all}");
    assert!(all.contains("half.py"), "{all}");
}
