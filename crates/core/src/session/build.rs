//! Building programs: the toolchain of a program's language (a package's Python on PyPy),
//! a problem's own programs with their header files, a submission with its package's included
//! files, and the cache.

use std::path::Path;
use std::sync::Arc;

use super::{Env, Judge, Options};
use crate::compile::{self, BuildSettings, Program, Source, Toolchain};
use crate::error::Result;
use crate::lang::Language;
use crate::model::CompileReport;
use crate::workspace::{PackagePrograms, Problem};
use judge_runner as run;

impl Env<'_> {
    /// The toolchain that builds `path` (in the language its extension says, or its folder's)
    /// with `settings`; a package's Python on PyPy.
    pub(super) fn toolchain(
        &self,
        path: &Path,
        settings: BuildSettings,
        rules: &PackagePrograms,
    ) -> Result<Toolchain> {
        let mut language = self.workspace.language_of(path)?;
        if rules.pypy && language.id == "python" {
            if let Some(pypy) = self.workspace.config.languages.get("pypy") {
                // PyPy claims no extension of its own (a workspace's `.py` stays on CPython):
                // here it takes Python's, so that its sources are found in a program.
                let mut on_pypy = (**pypy).clone();
                on_pypy.extensions = language.extensions.clone();
                language = std::sync::Arc::new(on_pypy);
            }
        }
        Toolchain::find(language, self.toolchains, settings)
    }

    /// Builds one of the problem's own programs (a checker, an interactor), with the header
    /// files beside it, as such programs are built: the problem's Rust settings, no extra
    /// checks, the default compile time.
    pub(super) fn build_helper(
        &self,
        executor: &mut dyn run::Executor,
        path: &Path,
        problem: &Problem,
    ) -> Result<(CompileReport, Option<Program>)> {
        let settings = BuildSettings {
            rust: self.workspace.config.rust.with(&problem.rust),
            checks: false,
            time_limit: compile::DEFAULT_COMPILE_TIME,
            memory_bytes: None,
        };
        let toolchain = self.toolchain(path, settings, &problem.package)?;
        self.build(executor, &Source::with_headers(path), &toolchain)
    }

    /// Builds `source` (or takes it from the cache): the report and, when it compiled, the program.
    pub(super) fn build(
        &self,
        executor: &mut dyn run::Executor,
        source: &Source,
        toolchain: &Toolchain,
    ) -> Result<(CompileReport, Option<Program>)> {
        let result = compile::compile(
            source,
            toolchain,
            self.cache,
            executor,
            &self.workspace.root,
        )?;
        let compiler = toolchain.identity.clone();
        Ok(match result {
            Ok(built) => (
                CompileReport {
                    cached: built.cached,
                    duration: built.duration,
                    compiler,
                    diagnostics: None,
                    source: built.source,
                },
                Some(built.program),
            ),
            Err(ce) => (
                CompileReport {
                    cached: ce.cached,
                    duration: ce.duration,
                    compiler,
                    diagnostics: Some(ce.diagnostics),
                    source: ce.source,
                },
                None,
            ),
        })
    }
}

impl Judge {
    /// Builds a program of `problem` (a solution, or with `helper` the problem's own checker or
    /// generator, which may include the header files beside it) in the language its extension
    /// says, or takes it from the cache.
    pub fn build(
        &mut self,
        path: &Path,
        problem: &Problem,
        options: &Options,
        helper: bool,
    ) -> Result<(CompileReport, Option<Program>)> {
        let (env, _) = self.parts();
        let settings = options.build_settings(problem, env.workspace);
        let toolchain = env.toolchain(path, settings, &problem.package)?;
        let what = match helper {
            true => BuildAs::Helper,
            false => BuildAs::Solution(problem),
        };
        self.build_with(path, &toolchain, what)
    }

    /// The toolchain of `language` as this machine has it (the workspace's build settings):
    /// its compiler's identity, or the error that says what to install.
    pub fn toolchain_of(&self, language: Arc<Language>) -> Result<Toolchain> {
        let settings = BuildSettings {
            rust: self.workspace.config.rust.clone(),
            checks: false,
            time_limit: compile::DEFAULT_COMPILE_TIME,
            memory_bytes: None,
        };
        Toolchain::find(language, &self.toolchains, settings)
    }

    /// Builds a program of several files: `source`, with its other files copied beside it (a
    /// package's generator), or takes it from the cache.
    pub fn build_source(
        &mut self,
        source: &Source,
        problem: &Problem,
        options: &Options,
    ) -> Result<(CompileReport, Option<Program>)> {
        let (env, slots) = self.parts();
        let settings = options.build_settings(problem, env.workspace);
        let toolchain = env.toolchain(&source.path, settings, &problem.package)?;
        env.build(slots[0].executor.as_mut(), source, &toolchain)
    }

    /// Builds `path` with a toolchain already found.
    pub(super) fn build_with(
        &mut self,
        path: &Path,
        toolchain: &Toolchain,
        what: BuildAs<'_>,
    ) -> Result<(CompileReport, Option<Program>)> {
        let source = match what {
            BuildAs::Helper => Source::with_headers(path),
            BuildAs::Solution(problem) => {
                let mut source = Source::alone(path);
                source.entry = problem.terms.entrypoints.get(path).cloned();
                source.function = problem.function.as_ref().map(|f| f.signature.clone());
                included(source, &problem.package, toolchain)
            }
        };
        let (env, slots) = self.parts();
        env.build(slots[0].executor.as_mut(), &source, toolchain)
    }
}

/// What a build is for: a helper of the problem's (with the headers beside it), or a solution
/// of the problem (with its package's included files).
pub(super) enum BuildAs<'a> {
    Helper,
    Solution(&'a Problem),
}

/// A submission with its package's included files: `include/default/`, then the language's
/// own folder over it (`include/cpp/`), each over the submission's files, as the format says.
fn included(source: Source, rules: &PackagePrograms, toolchain: &Toolchain) -> Source {
    let Some(include) = &rules.include else {
        return source;
    };
    ["default", toolchain.language.code.as_str()]
        .iter()
        .map(|d| include.join(d))
        .filter(|d| d.is_dir())
        .fold(source, |s, d| s.with_files_of(&d))
}
