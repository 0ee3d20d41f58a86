//! Scoring packages verified: what a partially accepted submission is told in the words of the
//! scoring rules. The fixture (`tests/fixtures/packages/subtasks`) was written from the format's
//! text.

use crate::formats::Fixture;

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
