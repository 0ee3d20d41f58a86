//! What a job needs, gathered where work is handed out: the problem's files (a workspace's
//! problem with its cases and `judge.toml`, or a package without its submissions) and the
//! solution's source, as a manifest of content hashes. A worker rebuilds the same tree.

use std::path::{Path, PathBuf};

use futures_util::StreamExt;

use judge_core::model::SourceDigest;
use judge_core::workspace::{Problem, Solution, TestCase, Workspace};

use crate::error::Error;
use crate::wire::{hash, Entry, Manifest, ProblemRef};

/// Files put in the store at once, the first time a bundle is submitted.
const PUTS_AT_ONCE: usize = 16;

/// Where a package sits in its bundle.
pub const PACKAGE_DIR: &str = "package";
/// Where the solution sits in its bundle.
pub const SOLUTION_DIR: &str = "solution";

/// A bundle made here: its manifest, the files to put in the store, and where in it the problem
/// and the solution are.
pub struct Bundle {
    pub manifest: Manifest,
    /// Each file's contents, by hash.
    pub contents: Vec<(String, Vec<u8>)>,
    /// The problem's files in one object, when it has many (`manifest.pack` is its hash).
    pub pack: Option<Pack>,
    pub problem: ProblemRef,
    pub solution: String,
    /// The entry point the solution's package names for it (`entrypoint`).
    pub entry: Option<String>,
    /// The solution's file as it was read into the bundle: what the workers compile, so what
    /// the history records.
    pub source: Option<SourceDigest>,
}

/// A problem's files in one object, and the hashes of the files it holds.
pub struct Pack {
    pub bytes: Vec<u8>,
    pub hashes: std::collections::BTreeSet<String>,
}

impl Bundle {
    /// The bundle of `solution` of `problem`, judged on `cases`.
    pub fn of(
        ws: &Workspace,
        problem: &Problem,
        solution: &Solution,
        cases: &[TestCase],
    ) -> Result<Bundle, Error> {
        let mut bundle = Bundle {
            manifest: Manifest::default(),
            contents: Vec::new(),
            pack: None,
            problem: ProblemRef::Workspace {
                id: problem.id.clone(),
            },
            solution: String::new(),
            entry: problem.terms.entrypoints.get(&solution.path).cloned(),
            source: None,
        };
        if ws.package(&problem.id).is_some() {
            bundle.problem = ProblemRef::Package {
                dir: PACKAGE_DIR.into(),
            };
            // Its submissions are judged one by one, each its own bundle's solution.
            bundle.add_tree(&problem.dir, PACKAGE_DIR, &|rel| {
                !rel.starts_with("submissions")
            })?;
        } else {
            let config = ws.root.join("judge.toml");
            if config.is_file() {
                bundle.add_file(&config, "judge.toml")?;
            }
            let listed = format!("testcases/{}", problem.id);
            let folder = ws.root.join(&listed);
            if folder.is_dir() {
                bundle.add_tree(&problem.dir, &format!("problems/{}", problem.id), &|_| true)?;
                bundle.add_tree(&folder, &listed, &|_| true)?;
            } else {
                // A problem made outside the workspace's folders (an evaluation's, in the
                // build cache) brings its cases along: each goes where a worker's workspace
                // reads a problem's cases, and only there (not twice, once in its folder).
                let case_files: std::collections::HashSet<PathBuf> = cases
                    .iter()
                    .flat_map(|c| [c.input.clone(), c.answer.clone()])
                    .collect();
                let dir = problem.dir.clone();
                bundle.add_tree(&dir, &format!("problems/{}", problem.id), &|rel| {
                    !case_files.contains(&dir.join(rel))
                })?;
                bundle.add_cases(cases, &listed)?;
            }
        }
        // The problem's files, the same for every solution of it: packed once.
        if bundle.contents.len() >= crate::files::PACK_FROM {
            let bytes = crate::files::pack(&bundle.contents);
            bundle.manifest.pack = Some(hash(&bytes));
            let hashes = bundle.contents.iter().map(|(h, _)| h.clone()).collect();
            for entry in bundle.manifest.files.values_mut() {
                entry.packed = true;
            }
            bundle.pack = Some(Pack { bytes, hashes });
        }
        let name = solution
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("solution");
        bundle.solution = format!("{SOLUTION_DIR}/{name}");
        let at = bundle.solution.clone();
        bundle.add_file(&solution.path, &at)?;
        bundle.source = bundle.contents.last().map(|(_, b)| SourceDigest::of(b));
        Ok(bundle)
    }

    /// The workspace problems `ids` of `ws` with no solution (the service's calls through the
    /// cluster name them, with the code in the call): `judge.toml`, each `problems/ID/` and its
    /// `testcases/ID/`, as the workspace holds them. A problem the workspace mounted from a
    /// package, or one whose folder lies elsewhere, is refused with the reason.
    pub fn of_problems(ws: &Workspace, ids: &[String]) -> Result<Bundle, Error> {
        let mut bundle = Bundle {
            manifest: Manifest::default(),
            contents: Vec::new(),
            pack: None,
            problem: ProblemRef::Workspace { id: String::new() },
            solution: String::new(),
            entry: None,
            source: None,
        };
        let config = ws.root.join("judge.toml");
        if config.is_file() {
            bundle.add_file(&config, "judge.toml")?;
        }
        for id in ids {
            let folder = ws.problems_dir().join(id);
            if ws.package(id).is_some() || !folder.join("problem.toml").is_file() {
                return Err(Error::Nats(format!(
                    "problem `{id}` is not a problem of the workspace's problems/ folder, which is what the cluster's workers are sent"
                )));
            }
            bundle.add_tree(&folder, &format!("problems/{id}"), &|_| true)?;
            let listed = format!("testcases/{id}");
            let cases = ws.root.join(&listed);
            if cases.is_dir() {
                bundle.add_tree(&cases, &listed, &|_| true)?;
            }
        }
        Ok(bundle)
    }

    /// Puts the bundle's files in the store, unless it has them: the manifest's hash.
    pub async fn put(&self, nats: &crate::nats::Nats) -> Result<String, Error> {
        let listed =
            serde_json::to_vec(&judge_core::schema::tagged(&self.manifest)).expect("plain data");
        let manifest = crate::wire::hash(&listed);
        // The manifest goes in last: when the store has it, it has every file it names, and
        // a submission judged again asks one question instead of one per file.
        if nats.files.info(&manifest).await.is_ok() {
            return Ok(manifest);
        }
        // A packed problem's files go in as its pack; the others (the solution) one by one.
        if let Some(pack) = &self.pack {
            crate::files::put(nats, &pack.bytes).await?;
        }
        let packed = |h: &String| self.pack.as_ref().is_some_and(|p| p.hashes.contains(h));
        let unique: std::collections::BTreeMap<&String, &Vec<u8>> = self
            .contents
            .iter()
            .filter(|(h, _)| !packed(h))
            .map(|(h, b)| (h, b))
            .collect();
        // Made first, not by a closure of the stream: the stream's future stays `Send` for any
        // runtime it is spawned on (the service's front spawns it).
        let puts: Vec<_> = unique
            .into_values()
            .map(|bytes| crate::files::put(nats, bytes))
            .collect();
        futures_util::stream::iter(puts)
            .buffer_unordered(PUTS_AT_ONCE)
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        crate::files::put(nats, &listed).await?;
        Ok(manifest)
    }

    /// Every file under `dir` whose path relative to it `keep` admits, under `prefix`.
    fn add_tree(
        &mut self,
        dir: &Path,
        prefix: &str,
        keep: &dyn Fn(&Path) -> bool,
    ) -> Result<(), Error> {
        for entry in walkdir::WalkDir::new(dir)
            .follow_links(true)
            .sort_by_file_name()
        {
            let entry = entry.map_err(|e| Error::Nats(format!("{}: {e}", dir.display())))?;
            if !entry.file_type().is_file() {
                continue;
            }
            let rel = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            if !keep(rel) {
                continue;
            }
            let name = format!("{prefix}/{}", slashed(rel));
            self.add_file(entry.path(), &name)?;
        }
        Ok(())
    }

    /// Each of `cases` as `NAME.in` and `NAME.ans` under `prefix`: a folder of cases as a
    /// workspace lists them.
    fn add_cases(&mut self, cases: &[TestCase], prefix: &str) -> Result<(), Error> {
        for case in cases {
            self.add_file(&case.input, &format!("{prefix}/{}.in", case.name))?;
            self.add_file(&case.answer, &format!("{prefix}/{}.ans", case.name))?;
        }
        Ok(())
    }

    fn add_file(&mut self, path: &Path, name: &str) -> Result<(), Error> {
        use std::os::unix::fs::PermissionsExt;
        let bytes = std::fs::read(path)
            .map_err(|e| Error::Nats(format!("cannot read {}: {e}", path.display())))?;
        let executable = std::fs::metadata(path)
            .map(|m| m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false);
        let h = hash(&bytes);
        self.manifest.files.insert(
            name.to_string(),
            Entry {
                hash: h.clone(),
                executable,
                packed: false,
            },
        );
        self.contents.push((h, bytes));
        Ok(())
    }
}

fn slashed(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The problem of a bundle made on a worker, as its workspace: (the workspace, the problem's id).
pub fn open(
    bundle: &Path,
    problem: &ProblemRef,
    state: &Path,
) -> Result<(Workspace, String), Error> {
    match problem {
        ProblemRef::Workspace { id } => {
            let ws = Workspace::at(bundle)?.with_state(state);
            Ok((ws, id.clone()))
        }
        ProblemRef::Package { dir } => {
            let mut ws = Workspace::loose(bundle).with_state(state);
            let unpacked = judge_core::paths::cache::packages(&ws.cache_dir());
            let package =
                judge_packages::package::load(&bundle.join(dir), &ws.config.languages, &unpacked)?;
            let id = ws.mount(package.mounted());
            Ok((ws, id))
        }
    }
}

/// Where the solution of a bundle is on a worker.
pub fn solution_path(bundle: &Path, solution: &str) -> PathBuf {
    bundle.join(solution)
}
