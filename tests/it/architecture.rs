//! The architecture test: the crates and their modules keep the order CONTRIBUTING.md gives.
//! Every `.rs` file of every crate is read for the paths it names (`crate::`, `super::`,
//! `self::`, a child module's, and `judge_xxx::` across crates), and the test fails, naming the
//! files, on an import circle between files of a crate (a parent module's re-exports followed
//! to the file that defines the name), on a module missing from the tables, and on an import
//! against a table's order.

mod graph;
mod source;
mod tests;

use std::collections::BTreeMap;
use std::path::Path;

use graph::Graph;

/// A crate as the test reads it: its name (`judge-core`) and its files under `src/`, by their
/// path there (`lib.rs`, `session/mod.rs`).
struct Crate {
    name: String,
    files: BTreeMap<String, String>,
}

/// What CONTRIBUTING.md says: the crates in order, and each crate's modules, row by row (the
/// modules of one row are peers).
#[derive(Debug, Default)]
struct Tables {
    crates: Vec<(String, String)>,
    modules: BTreeMap<String, Vec<Vec<String>>>,
}

/// The names in backticks in `cell`.
fn quoted(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The crate table (`| crate | holds | ... |`) and the module tables (under `### `name``).
fn tables(contributing: &str) -> Tables {
    let mut t = Tables::default();
    let mut section: Option<String> = None;
    let mut in_crates = false;
    for line in contributing.lines() {
        if line.starts_with('#') {
            section = line
                .strip_prefix("### ")
                .and_then(|h| quoted(h).into_iter().next());
            in_crates = false;
            continue;
        }
        if line.starts_with("| crate |") {
            in_crates = true;
            continue;
        }
        let Some(first) = line.strip_prefix('|').and_then(|l| l.split('|').next()) else {
            continue;
        };
        let names = quoted(first);
        if names.is_empty() {
            continue;
        }
        if in_crates {
            let dir = names.get(1).cloned().unwrap_or_default();
            t.crates.push((names[0].clone(), dir));
        } else if let Some(s) = &section {
            let row = names
                .into_iter()
                .map(|n| n.trim_end_matches('/').to_string())
                .collect();
            t.modules.entry(s.clone()).or_default().push(row);
        }
    }
    t
}

/// Every way `krates` break the rules `contributing` states, one line each.
fn problems(krates: &[Crate], contributing: &str) -> Vec<String> {
    let t = tables(contributing);
    let order = |name: &str| t.crates.iter().position(|(c, _)| c == name);
    let mut out = Vec::new();
    for k in krates {
        let Some(mine) = order(&k.name) else {
            out.push(format!("{}: not in CONTRIBUTING.md's crate table", k.name));
            continue;
        };
        let g = Graph::new(&k.files);
        let rows = t.modules.get(&k.name);
        let row_of =
            |m: &str| rows.and_then(|r| r.iter().position(|row| row.iter().any(|n| n == m)));
        let tops: std::collections::BTreeSet<String> =
            g.files().iter().map(|f| Graph::top(f)).collect();
        for top in &tops {
            if top != "lib.rs" && top != "main.rs" && row_of(top).is_none() {
                out.push(format!(
                    "{}: module `{top}` is missing from CONTRIBUTING.md's table of `{}`",
                    k.name, k.name
                ));
            }
        }
        let edges = g.edges();
        let files = g.files();
        for e in &edges {
            let (a, b) = (Graph::top(&e.from), Graph::top(&e.to));
            if let (Some(ra), Some(rb)) = (row_of(&a), row_of(&b)) {
                if rb > ra {
                    out.push(format!(
                        "{}: src/{} uses src/{} (`{}`), but `{b}` is below `{a}` in CONTRIBUTING.md's table",
                        k.name, e.from, e.to, e.via
                    ));
                }
            }
        }
        for circle in g.top_circles(&edges) {
            out.push(format!(
                "{}: the modules {} use each other",
                k.name,
                circle.join(", ")
            ));
        }
        for circle in g.circles(&edges) {
            let inside: Vec<String> = edges
                .iter()
                .filter(|e| circle.contains(&e.from) && circle.contains(&e.to))
                .map(|e| format!("src/{} -> src/{} (`{}`)", e.from, e.to, e.via))
                .collect();
            out.push(format!(
                "{}: an import circle: {}",
                k.name,
                inside.join(", ")
            ));
        }
        for (file, text) in &k.files {
            if !files.contains(file) {
                continue;
            }
            let code = source::without_tests(&source::blank(text));
            let toks = source::tokens(&code);
            for w in toks.windows(2) {
                if w[1] != "::" || !w[0].starts_with("judge_") {
                    continue;
                }
                let used = w[0].replace('_', "-");
                match order(&used) {
                    Some(o) if o < mine => {}
                    Some(_) => out.push(format!("{}: src/{file} uses `{used}`, which is not before it in CONTRIBUTING.md's crate table", k.name)),
                    None => {}
                }
            }
        }
    }
    out.dedup();
    out
}

/// The workspace's crates: the binary (`src/`) and each under `crates/`.
fn workspace(root: &Path) -> Vec<Crate> {
    let mut dirs = vec![root.to_path_buf()];
    let mut members: Vec<_> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    members.sort();
    dirs.extend(members);
    dirs.into_iter()
        .filter(|d| d.join("Cargo.toml").exists() && d.join("src").is_dir())
        .map(|dir| {
            let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
            let name = manifest
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|l| l.strip_suffix('"'))
                .expect("a package name")
                .to_string();
            let src = dir.join("src");
            let mut files = BTreeMap::new();
            for entry in walkdir(&src) {
                let rel = entry
                    .strip_prefix(&src)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.insert(rel, std::fs::read_to_string(&entry).unwrap());
            }
            Crate { name, files }
        })
        .collect()
}

fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walkdir(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out
}

#[test]
fn the_crates_and_their_modules_keep_contributings_order_with_no_circle() {
    let root = crate::common::repo();
    let contributing = std::fs::read_to_string(root.join("CONTRIBUTING.md")).unwrap();
    let problems = problems(&workspace(&root), &contributing);
    assert!(
        problems.is_empty(),
        "the architecture CONTRIBUTING.md states is not kept:\n{}",
        problems.join("\n")
    );
}
