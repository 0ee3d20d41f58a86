//! The architecture test's own tests: small crates in memory, each breaking one rule (or seeming
//! to), and what the test says of them.

use std::collections::BTreeMap;

use super::source::{self, Binding};
use super::{problems, Crate};

/// Two crates, `judge-one` before `judge-two`; `judge-one`'s modules in three rows.
const CONTRIBUTING: &str = "\
# Working on it

| crate | holds | the rule it keeps |
|---|---|---|
| `judge-one` (`crates/one`) | the first | uses nothing |
| `judge-two` (`crates/two`) | the second | uses the first |

### `judge-one`

| module | owns |
|---|---|
| `leaf` | a leaf |
| `a`, `b`, `workspace/`, `expect` | peers |
| `top` | the last |

### `judge-two`

| module | owns |
|---|---|
| `lib.rs` | all of it |
";

fn krate(name: &str, files: &[(&str, &str)]) -> Crate {
    Crate {
        name: name.into(),
        files: files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect::<BTreeMap<_, _>>(),
    }
}

fn one(files: &[(&str, &str)]) -> Vec<String> {
    problems(&[krate("judge-one", files)], CONTRIBUTING)
}

#[test]
fn a_circle_between_two_files_is_named() {
    let found = one(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::Two;\npub struct One(Two);\n"),
        (
            "b.rs",
            "pub struct Two;\nfn f() -> crate::a::One { todo!() }\n",
        ),
    ]);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found[0].contains("the modules a, b use each other"),
        "{found:#?}"
    );
    assert!(found[1].contains("an import circle: src/a.rs -> src/b.rs (`crate::b::Two`), src/b.rs -> src/a.rs (`crate::a::One`)"), "{found:#?}");
}

#[test]
fn a_circle_through_a_parent_modules_re_exports_is_followed_to_the_files() {
    // expect.rs names `crate::workspace::glob`, which workspace/mod.rs only passes on from
    // cases.rs; cases.rs uses `super::Problem`, problem.rs's; problem.rs uses expect's `Rule`.
    let found = one(&[
        ("lib.rs", "mod expect;\nmod workspace;\n"),
        ("expect.rs", "pub struct Rule;\nfn m(p: &str) -> bool { crate::workspace::glob(p) }\n"),
        ("workspace/mod.rs", "mod cases;\nmod problem;\npub use cases::glob;\npub use problem::Problem;\n"),
        ("workspace/cases.rs", "use super::Problem;\npub fn glob(p: &str) -> bool { let _: Option<Problem> = None; true }\n"),
        ("workspace/problem.rs", "pub struct Problem { rules: Vec<crate::expect::Rule> }\n"),
    ]);
    let circle = found
        .iter()
        .find(|p| p.contains("an import circle"))
        .expect("a circle");
    for file in [
        "src/expect.rs",
        "src/workspace/cases.rs",
        "src/workspace/problem.rs",
    ] {
        assert!(circle.contains(file), "{file} not in {circle}");
    }
    assert!(
        !circle.contains("src/workspace/mod.rs ->"),
        "mod.rs only passes names on: {circle}"
    );
}

#[test]
fn a_parent_assembling_its_children_and_a_name_passed_on_are_no_circle() {
    let found = one(&[
        ("lib.rs", "mod a;\nmod b;\nmod leaf;\npub use a::Shared;\n"),
        (
            "a/mod.rs",
            "mod part;\nuse part::make;\npub struct Shared;\npub fn build() { make(); }\n",
        ),
        (
            "a/part.rs",
            "use super::Shared;\npub fn make() -> Shared { Shared }\n",
        ),
        (
            "b.rs",
            "pub fn f() -> crate::a::Shared { crate::a::build(); todo!() }\n",
        ),
        ("leaf.rs", "pub fn g() {}\n"),
    ]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn paths_in_comments_strings_and_tests_are_not_imports() {
    let found = one(&[
        ("lib.rs", "mod leaf;\nmod top;\n"),
        (
            "leaf.rs",
            "// crate::top::x\n/* crate::top::y */\npub fn f() -> &'static str { \"crate::top::z\" }\n\
             pub fn c() -> char { '\\'' }\n\
             #[cfg(test)]\nmod tests {\n    use crate::top::helper;\n}\n",
        ),
        ("top.rs", "pub fn helper() { crate::leaf::f(); }\n"),
    ]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn a_module_missing_from_the_table_is_named() {
    let found = one(&[
        ("lib.rs", "mod leaf;\nmod stray;\n"),
        ("leaf.rs", ""),
        ("stray.rs", ""),
    ]);
    assert_eq!(
        found,
        ["judge-one: module `stray` is missing from CONTRIBUTING.md's table of `judge-one`"]
    );
}

#[test]
fn a_module_using_one_below_it_in_the_table_is_named() {
    let found = one(&[
        ("lib.rs", "mod leaf;\nmod top;\n"),
        (
            "leaf.rs",
            "use crate::top::helper;\npub fn f() { helper() }\n",
        ),
        ("top.rs", "pub fn helper() {}\n"),
    ]);
    assert_eq!(
        found,
        ["judge-one: src/leaf.rs uses src/top.rs (`crate::top::helper`), but `top` is below `leaf` in CONTRIBUTING.md's table"]
    );
}

#[test]
fn a_crate_using_one_not_before_it_is_named() {
    let first = krate(
        "judge-one",
        &[
            ("lib.rs", "mod leaf;\n"),
            ("leaf.rs", "fn f() { judge_two::g() }\n"),
        ],
    );
    let second = krate(
        "judge-two",
        &[("lib.rs", "pub fn g() { judge_one::f() }\n")],
    );
    let found = problems(&[first, second], CONTRIBUTING);
    assert_eq!(
        found,
        ["judge-one: src/leaf.rs uses `judge-two`, which is not before it in CONTRIBUTING.md's crate table"]
    );
    let stray = krate("judge-three", &[("lib.rs", "")]);
    assert_eq!(
        problems(&[stray], CONTRIBUTING),
        ["judge-three: not in CONTRIBUTING.md's crate table"]
    );
}

#[test]
fn use_trees_are_read_whole() {
    let m = source::read("pub(crate) use a::{b, c::{self, d as e}, f::*};\nuse super::g as _;\n");
    let b = |path: &[&str], alias: &str, glob: bool, public: bool| Binding {
        path: path.iter().map(|s| s.to_string()).collect(),
        alias: alias.into(),
        glob,
        public,
    };
    assert_eq!(
        m.bindings,
        [
            b(&["a", "b"], "b", false, true),
            b(&["a", "c"], "c", false, true),
            b(&["a", "c", "d"], "e", false, true),
            b(&["a", "f"], "*", true, true),
            b(&["super", "g"], "_", false, false),
        ]
    );
}
