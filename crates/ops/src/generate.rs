//! Making a Kattis package's data from its `generators/generators.yaml` (`judge generate`):
//! the package found, its settings programs built as a problem of its own, each case made again
//! only when what makes it changed.

use std::path::Path;

use judge_packages::generate::Generated;

use crate::{Error, Judges};

/// Generates the data of the package at `dir` (`shown`: the path as the user named it, for
/// messages) with this machine's judge (the generators are the jury's programs).
pub fn generate(judges: &mut dyn Judges, dir: &Path, shown: &Path) -> Result<Generated, Error> {
    if !dir.join("problem.yaml").is_file() {
        return Err(Error::NotAKattisPackage(shown.to_path_buf()));
    }
    let judge = judges.local()?;
    let dir = dir.canonicalize().map_err(Error::Path)?;
    let problem = judge_packages::generate::builder(&dir);
    Ok(judge_packages::generate::generate(judge, &dir, &problem)?)
}
