//! What checker and validator programs write besides their exit code: their message
//! (`judgemessage.txt`, stderr, stdout), a Kattis validator's `score.txt`, testlib's points.
//! Whatever they wrote: a message of bounded size, and a score that is a finite number or none.

use proptest::prelude::*;

use crate::harness::{config, kept, mutants, watch};
use judge_core::check::feedback;
use judge_core::text;

fn messages() -> Vec<Vec<u8>> {
    [
        "wrong answer 1st numbers differ - expected: '42', found: '41'\n",
        "points 12.5 partial\n",
        "ok 3 numbers\n",
        "Expected 7 but got 8 on line 3\nsecond line\n",
        "0.75\n",
        "1e-9",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect()
}

const TOKENS: &[&str] = &[
    "points ",
    "nan",
    "1e999",
    "\u{1b}[31m",
    "\r",
    "\u{7f}",
    "\n\n\n\n",
];

proptest! {
    #![proptest_config(config())]

    #[test]
    fn checker_feedback(input in mutants(messages(), TOKENS)) {
        let _watched = watch("a checker's feedback", &kept("feedback"), &input);
        if let Some(message) = text::message(&input) {
            // Shown under a case: a dozen lines of at most a few hundred characters.
            prop_assert!(message.lines().count() <= 13, "{}", message);
            prop_assert!(message.lines().all(|l| l.chars().count() <= 1300), "{}", message);
            prop_assert!(!message.contains('\u{1b}'), "{}", message);
            if let Some(p) = feedback::points(&message) {
                prop_assert!(p.is_finite());
            }
        }
        if let Some(s) = feedback::score(&input) {
            prop_assert!(s.is_finite());
        }
    }

    /// `score.txt` holds a number as any program may print one.
    #[test]
    fn score_file(text in "[ \n]{0,2}[-+]?([0-9]{0,4}(\\.[0-9]{0,6})?([eE][-+]?[0-9]{1,4})?|nan|NaN|inf|infinity|Infinity)[ \n]{0,2}") {
        let _watched = watch("score.txt", &kept("score"), text.as_bytes());
        if let Some(s) = feedback::score(text.as_bytes()) {
            prop_assert!(s.is_finite(), "{:?} read as {}", text, s);
        }
        if let Some(p) = feedback::points(&format!("points {text}")) {
            prop_assert!(p.is_finite(), "{:?} read as {}", text, p);
        }
    }
}
