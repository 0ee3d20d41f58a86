//! A crate's files as a graph: each file's imports resolved to the file that defines what they
//! name, through `pub use` re-exports (a parent module's included), and the circles in it.

use std::collections::{BTreeMap, BTreeSet};

use super::source::{self, Binding, Module, Tok};

/// A module: where it is written, its parent, its children by name, and what its text holds.
struct Node {
    path: Vec<String>,
    file: String,
    parent: Option<usize>,
    children: BTreeMap<String, usize>,
    text: Module,
    /// The names its text defines (`fn x`, `struct X`, `macro_rules! x`, ...).
    defined: BTreeSet<String>,
}

/// Where a path leads: a module, an item in a file, or outside the crate.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Module(usize),
    Item(String),
    Outside,
}

/// One file's use of another, with the path that made it (for the failure's message).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Edge {
    pub(crate) from: String,
    pub(crate) to: String,
    pub(crate) via: String,
}

/// A crate's module tree, read from its files (paths relative to `src/`, `lib.rs` or `main.rs`
/// the root).
pub(crate) struct Graph {
    nodes: Vec<Node>,
}

const DEFINES: [&str; 10] = [
    "fn",
    "struct",
    "enum",
    "trait",
    "type",
    "const",
    "static",
    "union",
    "mod",
    "macro_rules",
];

impl Graph {
    pub(crate) fn new(files: &BTreeMap<String, String>) -> Graph {
        let mut g = Graph { nodes: Vec::new() };
        let root = ["lib.rs", "main.rs"]
            .into_iter()
            .find(|r| files.contains_key(*r));
        if let Some(root) = root {
            g.add(
                files,
                Vec::new(),
                root.to_string(),
                None,
                source::read(&files[root]),
            );
        }
        g
    }

    fn add(
        &mut self,
        files: &BTreeMap<String, String>,
        path: Vec<String>,
        file: String,
        parent: Option<usize>,
        mut text: Module,
    ) -> usize {
        let id = self.nodes.len();
        let declared = std::mem::take(&mut text.files);
        let inline = std::mem::take(&mut text.inline);
        let body = &text.body;
        let defined = body
            .windows(2)
            .filter(|w| DEFINES.contains(&w[0].as_str()))
            .map(|w| w[1].clone())
            .chain(
                body.windows(3)
                    .filter(|w| w[0] == "macro_rules" && w[1] == "!")
                    .map(|w| w[2].clone()),
            )
            .collect();
        self.nodes.push(Node {
            path: path.clone(),
            file: file.clone(),
            parent,
            children: BTreeMap::new(),
            text,
            defined,
        });
        // `a/mod.rs`, `lib.rs` and `main.rs` hold their children beside them; `a.rs` in `a/`.
        let dir = match file
            .strip_suffix("mod.rs")
            .or(file.strip_suffix("lib.rs"))
            .or(file.strip_suffix("main.rs"))
        {
            Some(d) => d.to_string(),
            None => format!("{}/", file.trim_end_matches(".rs")),
        };
        for name in declared {
            let own = format!("{dir}{name}.rs");
            let folder = format!("{dir}{name}/mod.rs");
            let Some(f) = [own, folder].into_iter().find(|f| files.contains_key(f)) else {
                continue;
            };
            let mut child_path = path.clone();
            child_path.push(name.clone());
            let child = self.add(
                files,
                child_path,
                f.clone(),
                Some(id),
                source::read(&files[&f]),
            );
            self.nodes[id].children.insert(name, child);
        }
        for (name, m) in inline {
            let mut child_path = path.clone();
            child_path.push(name.clone());
            let child = self.add(files, child_path, file.clone(), Some(id), m);
            self.nodes[id].children.insert(name, child);
        }
        id
    }

    /// Every file reached from the root by a module declaration outside the tests.
    pub(crate) fn files(&self) -> BTreeSet<String> {
        self.nodes.iter().map(|n| n.file.clone()).collect()
    }

    /// The top module a file is in: `a` for `a.rs`, `a/mod.rs` and `a/b.rs`; the root file's own name.
    pub(crate) fn top(file: &str) -> String {
        match file.split_once('/') {
            Some((dir, _)) => dir.to_string(),
            None if file == "lib.rs" || file == "main.rs" => file.to_string(),
            None => file.trim_end_matches(".rs").to_string(),
        }
    }

    fn defines(&self, node: usize, name: &str) -> bool {
        self.nodes[node].defined.contains(name)
    }

    fn binding(&self, node: usize, name: &str) -> Option<&Binding> {
        self.nodes[node]
            .text
            .bindings
            .iter()
            .find(|b| !b.glob && b.alias == name)
    }

    /// Whether `name` is in scope in `node` by its own text (not through the crate's root).
    fn knows(&self, node: usize, name: &str) -> bool {
        self.nodes[node].children.contains_key(name)
            || self.binding(node, name).is_some()
            || self.defines(node, name)
    }

    /// A path as written in `node`: `crate::`, `self::`, `super::`, or a name in scope there.
    fn resolve(&self, node: usize, path: &[String], fuel: u32) -> Target {
        let Some(first) = path.first() else {
            return Target::Module(node);
        };
        match first.as_str() {
            "crate" => self.walk(0, &path[1..], fuel),
            "self" | "super" => self.walk(node, path, fuel),
            name if self.knows(node, name) => self.walk(node, path, fuel),
            _ => Target::Outside,
        }
    }

    /// `path` looked up inside module `node`, one segment after another.
    fn walk(&self, node: usize, path: &[String], fuel: u32) -> Target {
        if fuel == 0 {
            return Target::Item(self.nodes[node].file.clone());
        }
        let Some((first, rest)) = path.split_first() else {
            return Target::Module(node);
        };
        let n = &self.nodes[node];
        match first.as_str() {
            "self" => return self.walk(node, rest, fuel),
            "super" => return self.walk(n.parent.unwrap_or(0), rest, fuel),
            _ => {}
        }
        if let Some(&child) = n.children.get(first) {
            return self.walk(child, rest, fuel);
        }
        if let Some(b) = self.binding(node, first) {
            let full: Vec<String> = b.path.iter().chain(rest).cloned().collect();
            return self.resolve(node, &full, fuel - 1);
        }
        if !self.defines(node, first) {
            for g in n.text.bindings.iter().filter(|b| b.glob) {
                if let Target::Module(m) = self.resolve(node, &g.path, fuel - 1) {
                    if self.knows(m, first) {
                        return self.walk(m, path, fuel - 1);
                    }
                }
            }
        }
        Target::Item(n.file.clone())
    }

    /// The file a path leads to, or the module file for a path that ends at a module.
    fn file_of(&self, t: Target) -> Option<String> {
        match t {
            Target::Item(f) => Some(f),
            Target::Module(m) => Some(self.nodes[m].file.clone()),
            Target::Outside => None,
        }
    }

    /// Every file's uses of other files of the crate.
    pub(crate) fn edges(&self) -> BTreeSet<Edge> {
        let mut out = BTreeSet::new();
        for (id, n) in self.nodes.iter().enumerate() {
            let mut add = |t: Target, via: String| {
                if let Some(to) = self.file_of(t) {
                    if to != n.file {
                        out.insert(Edge {
                            from: n.file.clone(),
                            to,
                            via,
                        });
                    }
                }
            };
            let body = &n.text.body;
            for b in &n.text.bindings {
                let named = b.alias == "_" || body.contains(&b.alias);
                if b.glob {
                    add(
                        self.resolve(id, &b.path, 16),
                        format!("{}::*", b.path.join("::")),
                    );
                } else if named || !b.public {
                    // A module brought in by name is followed where its items are named (below).
                    match self.resolve(id, &b.path, 16) {
                        Target::Module(_) if named => {}
                        t => add(t, b.path.join("::")),
                    }
                }
            }
            for path in paths(body) {
                if path.len() > 1
                    && (path[0] == "crate"
                        || path[0] == "self"
                        || path[0] == "super"
                        || self.knows(id, &path[0]))
                {
                    add(self.resolve(id, &path, 16), path.join("::"));
                }
            }
        }
        out
    }

    /// The module path of the module a file holds (`a/b.rs` and `a/b/mod.rs`: `a::b`).
    fn module_of(&self, file: &str) -> &[String] {
        self.nodes
            .iter()
            .find(|n| n.file == file)
            .map_or(&[], |n| &n.path)
    }

    /// The files that use each other, circle by circle. A file's use of the modules it declares
    /// (a parent assembling its children) is no circle with their use of it: a folder module is
    /// one unit to the rest of the crate, and [`Graph::top_circles`] sees circles between those.
    pub(crate) fn circles(&self, edges: &BTreeSet<Edge>) -> Vec<Vec<String>> {
        let edges: Vec<(String, String)> = edges
            .iter()
            .filter(|e| {
                let (from, to) = (self.module_of(&e.from), self.module_of(&e.to));
                !(to.len() > from.len() && to.starts_with(from))
            })
            .map(|e| (e.from.clone(), e.to.clone()))
            .collect();
        strongly_connected(self.files().into_iter().collect(), &edges)
    }

    /// The top modules (`a` for `a.rs` and everything in `a/`) that use each other.
    pub(crate) fn top_circles(&self, edges: &BTreeSet<Edge>) -> Vec<Vec<String>> {
        let tops: BTreeSet<String> = self.files().iter().map(|f| Graph::top(f)).collect();
        let edges: Vec<(String, String)> = edges
            .iter()
            .filter(|e| !self.module_of(&e.from).is_empty())
            .map(|e| (Graph::top(&e.from), Graph::top(&e.to)))
            .filter(|(a, b)| a != b)
            .collect();
        strongly_connected(tops.into_iter().collect(), &edges)
    }
}

/// The groups of `names` that reach each other by `edges` (Tarjan's strongly connected
/// components), each sorted, those of one name left out.
fn strongly_connected(names: Vec<String>, edges: &[(String, String)]) -> Vec<Vec<String>> {
    let index_of: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, f)| (f.as_str(), i))
        .collect();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
    for (a, b) in edges {
        if let (Some(&a), Some(&b)) = (index_of.get(a.as_str()), index_of.get(b.as_str())) {
            next[a].push(b);
        }
    }
    let n = names.len();
    let mut t = Tarjan {
        next,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on: vec![false; n],
        count: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            t.visit(v);
        }
    }
    let mut out: Vec<Vec<String>> = t
        .found
        .into_iter()
        .map(|c| {
            let mut c: Vec<String> = c.into_iter().map(|i| names[i].clone()).collect();
            c.sort();
            c
        })
        .collect();
    out.sort();
    out
}

/// Every path in `body` (`a::b::c`), from its first segment.
fn paths(body: &[Tok]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < body.len() {
        let starts = k == 0 || body[k - 1] != "::";
        if starts && body.get(k + 1).is_some_and(|t| t == "::") && is_name(&body[k]) {
            let mut path = vec![body[k].clone()];
            let mut j = k + 1;
            while body.get(j).is_some_and(|t| t == "::")
                && body.get(j + 1).is_some_and(|t| is_name(t))
            {
                path.push(body[j + 1].clone());
                j += 2;
            }
            out.push(path);
            k = j;
        } else {
            k += 1;
        }
    }
    out
}

fn is_name(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

struct Tarjan {
    next: Vec<Vec<usize>>,
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    stack: Vec<usize>,
    on: Vec<bool>,
    count: usize,
    found: Vec<Vec<usize>>,
}

impl Tarjan {
    fn visit(&mut self, v: usize) {
        self.index[v] = Some(self.count);
        self.low[v] = self.count;
        self.count += 1;
        self.stack.push(v);
        self.on[v] = true;
        for w in self.next[v].clone() {
            match self.index[w] {
                None => {
                    self.visit(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(i) if self.on[w] => self.low[v] = self.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(self.low[v]) == self.index[v] {
            let mut circle = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on[w] = false;
                circle.push(w);
                if w == v {
                    break;
                }
            }
            if circle.len() > 1 {
                self.found.push(circle);
            }
        }
    }
}
