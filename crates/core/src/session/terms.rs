//! A package's terms that decide whether a submission is judged at all: a language it does
//! not allow, a source over its code limit. Such a submission is refused with the reason,
//! never judged on other terms.

use crate::error::{Error, Result};
use crate::workspace::{Problem, Solution};

/// A submission a package's terms exclude is refused with the reason, never judged on other
/// terms: a language the package does not allow, a source over its code limit. Whatever
/// judges (this machine, or a cluster's workers) asks it before anything is built.
pub fn refuse(problem: &Problem, solution: &Solution, language: &str) -> Result<()> {
    let refused = |why: String, fix: &str| Error::Refused {
        solution: solution.name.clone(),
        why,
        fix: fix.to_string(),
    };
    if let Some(why) = problem.terms.refuses_language(language) {
        return Err(refused(why, "write the solution in one of those languages"));
    }
    if let Some(limit) = problem.terms.code_bytes {
        let size = std::fs::metadata(&solution.path).map_or(0, |m| m.len());
        if size > limit {
            return Err(refused(
                format!(
                    "its source is {} bytes, over the package's code limit of {} KiB (limits.code)",
                    size,
                    limit >> 10
                ),
                "make the source smaller",
            ));
        }
    }
    Ok(())
}
