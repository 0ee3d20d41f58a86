//! Writing a workspace problem as a Kattis problem package (`judge export`): the problem, its
//! cases and its solutions read, then written in the version asked for.

use std::path::PathBuf;

use judge_core::workspace::Workspace;
use judge_packages::export::{Exported, Version};

use crate::Error;

/// What an export asks for.
#[derive(Debug, Clone)]
pub struct ExportOptions {
    /// The problem's id.
    pub problem: String,
    /// The package's folder.
    pub dir: PathBuf,
    /// Write into a folder that is not empty.
    pub force: bool,
    pub version: Version,
}

/// Exports the problem `options` names: what was written.
pub fn export(ws: &Workspace, options: &ExportOptions) -> Result<Exported, Error> {
    let problem = ws.problem(&options.problem)?;
    let cases = ws.testcases(&problem)?;
    let solutions = ws.solutions(&problem.id)?;
    Ok(judge_packages::export::kattis(
        ws,
        &problem,
        &cases,
        &solutions,
        &options.dir,
        options.force,
        options.version,
    )?)
}
