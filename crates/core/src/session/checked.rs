//! The checker's finding on one output, as a value the verdict reads: whether it judged, and what.

use crate::check::CheckOutcome;
use crate::verdict::{Check, CheckerFailed, Finding};

/// The checker's finding on one output.
#[derive(Debug, Clone)]
pub struct Checked {
    pub outcome: CheckOutcome,
    /// Answer against output, from the first difference, when rejected.
    pub diff: Option<String>,
    /// The output could not be checked: the judge's or the problem's fault (IE).
    pub internal_error: Option<CheckerFailed>,
    /// A score the checker gave (a Kattis output validator's `score.txt`).
    pub score: Option<f64>,
    /// What a Kattis output validator wrote in `judgemessage.txt`, whatever it decided.
    pub judge_message: Option<String>,
}

impl Checked {
    /// The checker could not decide: IE, never the solution's fault.
    pub fn failed(why: CheckerFailed) -> Checked {
        Checked {
            outcome: CheckOutcome::unexplained(),
            diff: None,
            internal_error: Some(why),
            score: None,
            judge_message: None,
        }
    }

    pub(in crate::session) fn judged(outcome: CheckOutcome) -> Checked {
        Checked {
            outcome,
            diff: None,
            internal_error: None,
            score: None,
            judge_message: None,
        }
    }
}

/// The verdict reads whether the checker judged, and what; or why it could not.
impl Finding for Checked {
    fn check(&self) -> Check {
        match &self.internal_error {
            Some(why) => Check::Failed(why.clone()),
            None => Check::Judged(self.outcome.clone()),
        }
    }
}
