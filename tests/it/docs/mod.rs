//! The examples of the README and of the guide (`docs/src/`), run: every ```` ```console ````
//! block that runs the judge is played against the built binary, so that the documentation
//! cannot drift from the program. Also: every link between the pages leads somewhere (`links`).
//!
//! A block's `$ judge ...` lines run in order, each in the page's workspace, and what each
//! prints (stdout and stderr, as a terminal shows them) must be the text under it, and its exit
//! status 0. Times, sizes, dates, rates, compiler versions and whether a build came from the
//! cache are set aside on both sides (`redact`); so are the warning lines that only a slow or
//! busy machine prints (a case within 10% of the time limit, a wide spread over repeated runs
//! and compare's `~` mark for it, an accepted solution using over half of its limit), so that an
//! example does not fail because the machine was loaded; and so is the spacing that aligns
//! columns. A line `...` stands for any lines, `[..]` for any part of a line (snapbox's
//! wildcards).
//!
//! The blocks of one page share one throw-away copy of the repository's workspace (what a fresh
//! clone has: `problems/`, `solutions/`, `testcases/`), made at the page's first tested block,
//! in page order: a block may build on the ones before it, as a reader would. What a block
//! needs that is not a command it shows goes in HTML comments right above its fence (a reader
//! of the page does not see them):
//!
//! - `<!-- test: STEP; STEP... -->`, the steps done before the block's commands:
//!   - `write PATH from FIXTURE`: the repository's file or folder FIXTURE (under
//!     `tests/fixtures/`) copied to PATH in the workspace (`.` for its root), over what is there;
//!   - `append PATH from FIXTURE`: FIXTURE's text added at the end of the workspace's PATH;
//!   - `parquet PATH from FIXTURE`: FIXTURE, a JSON Lines file, written as the Parquet file PATH
//!     (`common::parquet`: the repository keeps no binary fixture);
//!   - `remove PATH`: a file of the workspace removed;
//!   - `run judge ARGS`: the judge run for what it leaves (submissions in the history), its
//!     output not compared;
//!   - `fresh`: a new copy of the workspace from here on (an empty history, say);
//!   - `without PROGRAM`: the block's commands run with a PATH on which PROGRAM is not found
//!     (to show what the judge says of a missing compiler on a machine that has it);
//!   - `exit N`: the exit status of each of the block's commands (0 without it).
//! - `<!-- not tested: REASON -->`: the block is not played, for the reason given: it needs a
//!   browser, the network or files only the reader has, it measures for minutes, or what it
//!   prints depends on the machine (a verdict that is "AC or TLE", an order by speed between
//!   near-equals).
//!
//! A block that is neither marked nor made only of plain `judge` commands (no shell: `cd`,
//! `&&`, `~`) fails, as does a block with no command at all: every `console` block is played or
//! says why not.

mod links;
mod page;
mod play;
mod redact;

use crate::common;

/// One test per page, so that pages play side by side; `PAGES` lists them all.
macro_rules! pages {
    ($($test:ident: $path:literal,)*) => {
        /// Every page with a `console` block.
        const PAGES: &[&str] = &[$($path),*];
        $(
            #[test]
            fn $test() {
                check($path);
            }
        )*
    };
}

pages! {
    readme: "README.md",
    tour: "docs/src/tour.md",
    comparing: "docs/src/comparing.md",
    import: "docs/src/import.md",
    serve: "docs/src/serve.md",
    workspace: "docs/src/workspace.md",
    settings: "docs/src/settings.md",
    languages: "docs/src/languages.md",
    checkers: "docs/src/checkers.md",
    functions: "docs/src/functions.md",
    interactive: "docs/src/interactive.md",
    packages: "docs/src/packages.md",
    format: "docs/src/format.md",
    format_statements: "docs/src/format/statements.md",
    cluster: "docs/src/cluster.md",
    eval: "docs/src/eval.md",
    measuring: "docs/src/measuring.md",
    speed: "docs/src/speed.md",
    reliability: "docs/src/reliability.md",
}

/// Plays the page at `path` (from the repository's root) and fails with everything that differs.
fn check(path: &str) {
    let text = std::fs::read_to_string(common::repo().join(path)).unwrap();
    let failures = play::page(path, &text);
    assert!(
        failures.is_empty(),
        "{} example(s) of {path} differ from the program:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The README and every page of the guide.
fn markdown_files() -> Vec<std::path::PathBuf> {
    let root = common::repo();
    let mut files = vec![root.join("README.md")];
    for entry in walkdir::WalkDir::new(root.join("docs/src")).sort_by_file_name() {
        let path = entry.unwrap().into_path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    files
}

#[test]
fn every_page_with_examples_is_played() {
    let root = common::repo();
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let rel = file.strip_prefix(&root).unwrap().to_str().unwrap();
        let no_examples = page::blocks(&text)
            .unwrap_or_else(|e| panic!("{rel}: {e}"))
            .is_empty();
        assert!(
            no_examples || PAGES.contains(&rel),
            "{rel} has console blocks: add it to `pages!` in tests/it/docs/mod.rs"
        );
    }
}

#[test]
fn a_wrong_example_fails() {
    let right = "```console\n$ judge list\n...\nnqueens-ii  N-Queens II\n  time 4 s · memory 256 MiB · output 64 MiB · 14 test cases (2 samples) · checker tokens\n...\n```\n";
    assert_eq!(play::page("right.md", right), Vec::<String>::new());

    let wrong_limit = right.replace("time 4 s", "time 3 s");
    let failures = play::page("wrong.md", &wrong_limit);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].starts_with("`judge list` at wrong.md:2: the output differs"),
        "{}",
        failures[0]
    );

    let wrong_exit = format!("<!-- test: exit 1 -->\n{right}");
    let failures = play::page("exit.md", &wrong_exit);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].contains("exit status Some(0), the example's is 1"));

    let unmarked = "```console\n$ judge init practice && cd practice\n```\n";
    let failures = play::page("shell.md", unmarked);
    assert!(failures[0].contains("not tested"), "{failures:?}");
}
