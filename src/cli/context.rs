//! The parsed command line made one resolved value, handed to every command: the workspace with
//! the packages the command names mounted, the folder the user is in, where the history is, and
//! how programs run. Nothing is set process-wide.

use std::path::{Path, PathBuf};

use anyhow::Result;

use judge_core::session::{Judge, Judging, Settings};

use super::cluster::ClusterArgs;
use super::settings::Resolved;
use judge_core::workspace::Workspace;

pub(crate) struct Context {
    pub(crate) ws: Workspace,
    /// The folder the judge was started in: paths the user typed are read from here.
    pub(crate) cwd: PathBuf,
    /// `--root`, as given (a command that prints a command line passes it on).
    pub(crate) root: Option<PathBuf>,
    /// The submission history: the `history` setting.
    pub(crate) history: PathBuf,
    /// How programs run: `--no-sandbox`, `--no-transcript`.
    pub(crate) settings: Settings,
    /// Every setting as resolved, with where it came from.
    pub(crate) resolved: Resolved,
    /// The packages mounted, by the path the user named each with: their problems' ids.
    mounted: Vec<(PathBuf, String)>,
}

impl Context {
    /// The context of the workspace `ws` (its build cache where the settings put it).
    pub(crate) fn new(
        ws: Workspace,
        cwd: PathBuf,
        root: Option<PathBuf>,
        resolved: Resolved,
    ) -> Context {
        Context {
            ws: ws
                .with_cache(resolved.cache.value.clone())
                .with_rustc(resolved.rustc()),
            cwd,
            root,
            history: resolved.history.value.clone(),
            settings: resolved.run_settings(),
            resolved,
            mounted: Vec::new(),
        }
    }

    /// Loads the package at `path` and mounts it in the workspace, saying what it holds that
    /// the judge leaves aside. Returns its problem's id.
    pub(crate) fn mount(&mut self, path: &Path) -> Result<String, judge_packages::Error> {
        let unpacked = judge_core::paths::cache::packages(&self.ws.cache_dir());
        let package = judge_packages::package::load(path, &self.ws.config.languages, &unpacked)?;
        for w in &package.warnings {
            anstream::eprintln!("warning: {}: {w}", package.problem.id);
        }
        let id = self.ws.mount(package.mounted());
        self.mounted.push((path.to_path_buf(), id.clone()));
        Ok(id)
    }

    /// A problem as the user named it: a package's path is its mounted problem's id; any
    /// other name is an id already.
    pub(crate) fn problem_id<'a>(&'a self, named: &'a str) -> &'a str {
        let path = self.cwd.join(named);
        self.mounted
            .iter()
            .find(|(p, _)| *p == path)
            .map_or(named, |(_, id)| id.as_str())
    }

    /// A judge of this workspace, running programs as the settings say.
    pub(crate) fn judge(&self) -> Result<Judge> {
        Ok(Judge::new(self.ws.clone(), self.settings)?)
    }

    /// What judges whole solutions: the workers of the cluster `cluster` names (or judge.toml's
    /// `[cluster]`), else this machine.
    pub(crate) fn judging(&self, cluster: &ClusterArgs) -> Result<Box<dyn Judging>> {
        self.judging_in(self.ws.clone(), cluster)
    }

    /// What judges whole solutions of `ws` (this workspace with other languages: `judge
    /// eval --profile`), as [`Context::judging`] chooses.
    pub(crate) fn judging_in(
        &self,
        ws: Workspace,
        cluster: &ClusterArgs,
    ) -> Result<Box<dyn Judging>> {
        Ok(match self.cluster(cluster) {
            Some(config) => Box::new(judge_cluster::dispatch::Remote {
                cluster: judge_cluster::dispatch::Cluster::connect(&config, &self.memo_dir())?,
                workspace: ws,
            }),
            None => Box::new(Judge::new(ws, self.settings)?),
        })
    }

    /// Where what is measured of this machine is remembered: the build cache's folder of
    /// compiler identities (wherever the `cache` setting puts the cache).
    pub(crate) fn memo_dir(&self) -> std::path::PathBuf {
        judge_core::paths::cache::identities(&self.ws.cache_dir())
    }

    /// The cluster named by `cluster`'s flags, or by the settings below them (the
    /// environment, judge.toml, the user's config file).
    pub(crate) fn cluster(&self, cluster: &ClusterArgs) -> Option<judge_cluster::nats::Config> {
        self.resolved.sources.cluster(cluster, &self.cwd).config()
    }
}
