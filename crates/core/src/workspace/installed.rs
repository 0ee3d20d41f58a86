//! Which languages this machine can build and run (`judge list --languages`): each language's
//! programs looked for on the path, and the version its toolchain gives.

use std::sync::Arc;

use super::Workspace;
use crate::compile::{BuildSettings, Cache, Toolchain, Toolchains};
use crate::lang::{builtin, Language};

/// Why a language's toolchain cannot be used on this machine, in a few words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotInstalled {
    /// A program not on PATH, and how to install it where known.
    #[error("needs `{program}`{}", install.as_ref().map(|how| format!(" ({how})")).unwrap_or_default())]
    Program {
        program: String,
        install: Option<String>,
    },
    /// Another reason: the first line of the judge's error.
    #[error("{0}")]
    Unusable(String),
}

/// A language and what this machine has of it.
#[derive(Debug, Clone)]
pub struct Installed {
    pub language: Arc<Language>,
    /// The toolchain's version line, or why it cannot be used (the program missing, with how
    /// to install it).
    pub toolchain: std::result::Result<String, NotInstalled>,
}

/// Every language the workspace knows (the judge's first ones, then the package format's table
/// by name, then those `judge.toml` adds), each with its toolchain found or not.
pub fn installed(workspace: &Workspace) -> Vec<Installed> {
    let cache = Cache::new(workspace.cache_dir());
    let tools = Toolchains::new(&workspace.root, cache.identities()).with_rustc(workspace.rustc());
    let settings = BuildSettings {
        rust: workspace.config.rust.clone(),
        ..BuildSettings::default()
    };
    let mut all: Vec<Arc<Language>> = workspace.config.languages.all().cloned().collect();
    let rank = |l: &Arc<Language>| {
        builtin::ORDER
            .iter()
            .position(|id| *id == l.id)
            .unwrap_or(usize::MAX)
    };
    all.sort_by(|a, b| {
        (rank(a), a.name.to_lowercase(), &a.id).cmp(&(rank(b), b.name.to_lowercase(), &b.id))
    });
    all.into_iter()
        .map(|language| {
            let toolchain = Toolchain::find(language.clone(), &tools, settings.clone())
                .map(|t| t.identity)
                .map_err(|e| match e {
                    crate::Error::MissingProgram {
                        program, install, ..
                    } => NotInstalled::Program { program, install },
                    other => NotInstalled::Unusable(
                        other.to_string().lines().next().unwrap_or_default().into(),
                    ),
                });
            Installed {
                language,
                toolchain,
            }
        })
        .collect()
}
