//! `judge generate`: a package's data made by its generators.yaml (the format's generators
//! document), each case made again only when what makes it changed; `judge verify` says what
//! is missing or older than its generators. The fixture `forest` was written from that text.

use crate::formats::Fixture;

fn read(f: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(f.path().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn statuses(doc: &serde_json::Value) -> Vec<(String, String)> {
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn status_of(doc: &serde_json::Value, case: &str) -> String {
    statuses(doc)
        .into_iter()
        .find(|(n, _)| n == case)
        .unwrap_or_else(|| panic!("no {case}: {doc:#}"))
        .1
}

#[test]
fn generate_makes_the_data_then_only_what_changed() {
    let f = Fixture::new("forest");
    // Before: verify names the missing case, what makes it, and the fix.
    let out = f.judge().args(["verify", "forest"]).expect_exit(2).run();
    assert!(
        out.stderr
            .contains("data/secret/1-small.in is missing: generators.yaml makes it `gen.py 5 "),
        "{}",
        out.stderr
    );
    assert!(out
        .stderr
        .contains("fix: make it with judge generate forest"));

    let doc = f
        .judge()
        .args(["generate", "forest", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(status_of(&doc, "sample/1"), "kept");
    for case in [
        "secret/3-path",
        "secret/4-written",
        "secret/6-inline",
        "secret/1",
    ] {
        assert_eq!(status_of(&doc, case), "new", "{case}");
    }
    // The generator's own .in and .ans (its stdout is not the input when it writes one).
    assert_eq!(read(&f, "data/secret/4-written.in"), "4\n10 20 30 40\n");
    assert_eq!(read(&f, "data/secret/4-written.ans"), "100\n");
    // A copied case takes its siblings; the solution answers the others, the sample too.
    assert_eq!(read(&f, "data/secret/5-copied.ans"), "6000000\n");
    assert_eq!(read(&f, "data/secret/6-inline.in"), "2\n40 2\n");
    assert_eq!(read(&f, "data/secret/6-inline.ans"), "42\n");
    assert_eq!(read(&f, "data/sample/1.ans"), "6\n");
    // An include, a generator of two files, a settings file.
    assert_eq!(read(&f, "data/secret/1.in"), read(&f, "data/sample/1.in"));
    assert!(read(&f, "data/secret/3-path.in").starts_with("6\n"));
    assert!(read(&f, "data/secret/testdata.yaml").contains("case_sensitive"));

    // Again: nothing changed, nothing is made.
    let doc = f
        .judge()
        .args(["generate", "forest", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert!(
        statuses(&doc)
            .iter()
            .all(|(n, s)| s == "cached" || n == "sample/1"),
        "{doc:#}"
    );
    f.judge().args(["verify", "forest"]).expect_exit(0).run();

    // A file of the two-file generator changes: verify says so, and only its case is made.
    f.edit("generators/lib.py", |t| t + "# touched\n");
    let out = f.judge().args(["verify", "forest"]).expect_exit(0).run();
    assert!(
        out.stderr
            .contains("data/secret/3-path is older than what makes it (`tree 6 "),
        "{}",
        out.stderr
    );
    // The generator's output changes too: that case differs.
    f.edit("generators/gen.py", |t| {
        t.replace("randint(-1000, 1000)", "randint(0, 9)")
    });
    let doc = f
        .judge()
        .args(["generate", "forest", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(status_of(&doc, "secret/3-path"), "same");
    assert_eq!(status_of(&doc, "secret/1-small"), "changed");
    assert_eq!(status_of(&doc, "secret/5-copied"), "cached");
}

#[test]
fn a_generator_that_fails_is_named_with_its_case() {
    let f = Fixture::new("forest");
    f.edit("generators/tree.py", |t| {
        t.replace("print(n)", "print(n, 1 / 0)")
    });
    let out = f.judge().args(["generate", "forest"]).expect_exit(2).run();
    assert!(
        out.stderr.contains(
            "forest/generators/generators.yaml (case secret/3-path): the generator `tree 6 "
        ) && out.stderr.contains("failed: RE"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("ZeroDivisionError"), "{}", out.stderr);
}

#[test]
fn seeds_follow_the_command_and_the_salt() {
    let (a, b) = (Fixture::new("forest"), Fixture::new("forest"));
    for f in [&a, &b] {
        f.judge().args(["generate", "forest"]).expect_exit(0).run();
    }
    let small = "data/secret/1-small.in";
    assert_eq!(read(&a, small), read(&b, small));
    assert_ne!(read(&a, small), read(&a, "data/secret/2-small.in"));
    b.edit("generators/generators.yaml", |t| {
        t + "random_salt: pepper\n"
    });
    let doc = b
        .judge()
        .args(["generate", "forest", "--json"])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(status_of(&doc, "secret/1-small"), "changed");
    assert_ne!(read(&a, small), read(&b, small));
}

/// Writes `generators.yaml` of the fixture `forest` anew, with `args.py A B` (the input
/// `2\nA B\n`) beside its generators.
fn forest_with(yaml: &str) -> Fixture {
    let f = Fixture::new("forest");
    f.edit("generators/generators.yaml", |_| yaml.to_string());
    f.edit("generators/args.py", |_| {
        "import sys\nprint(2)\nprint(sys.argv[1], sys.argv[2])\n".to_string()
    });
    f
}

#[test]
fn includes_are_made_after_what_they_include_and_name_cases_or_folders() {
    // `a` and `b` sort before `c`, whose case they include; `a` includes the folder `sample`
    // too; the copies in `a` and `b` do not make `late` name several cases. `d` lists a case
    // under a null key.
    let f = forest_with(
        "solution: /submissions/accepted/sum.py\n\
         data:\n  sample:\n    data:\n      '1':\n  secret:\n    data:\n\
         \x20     a:\n        include: [late, sample]\n\
         \x20     b:\n        include: [late]\n\
         \x20     c:\n        data:\n          late: args.py 4 {seed}\n\
         \x20     d:\n        data:\n          - ~: args.py 6 {seed}\n",
    );
    f.judge().args(["generate", "forest"]).expect_exit(0).run();
    let late = read(&f, "data/secret/c/late.in");
    assert!(late.starts_with("2\n4 "), "{late}");
    assert_eq!(read(&f, "data/secret/a/late.in"), late);
    assert_eq!(read(&f, "data/secret/b/late.in"), late);
    assert_eq!(read(&f, "data/secret/a/1.in"), read(&f, "data/sample/1.in"));
    assert_eq!(read(&f, "data/secret/a/1.ans"), "6\n");
    // A null key in a list (YAML 1.2 allows one) is the number alone.
    assert!(read(&f, "data/secret/d/1.in").starts_with("2\n6 "));
}

#[test]
fn count_out_yaml_seeds_and_numbers_are_the_reference_generators() {
    // Numbers run through the whole document (11 cases: two digits); a counted case gets
    // one number per copy and `-N` after its name; the seed hashes the salt, `:N` from the
    // second copy on, and the command as written (its spaces kept).
    let f = forest_with(
        "solution: /submissions/accepted/sum.py\n\
         data:\n  sample:\n    data:\n      '1':\n  secret:\n    data:\n\
         \x20     - many:\n          generate: args.py {count} {seed}\n          count: 8\n\
         \x20     - spaced: args.py  7   {seed}\n\
         \x20     - answered:\n          in: \"2\\n3 4\\n\"\n          out: \"7\\n\"\n\
         \x20         yaml:\n            args: [x]\n\
         \x20     - grp:\n          data:\n            - deep: args.py 9 {seed}\n",
    );
    f.judge().args(["generate", "forest"]).expect_exit(0).run();
    assert_eq!(read(&f, "data/secret/01-many-1.in"), "2\n1 197853542\n");
    assert_eq!(read(&f, "data/secret/01-many-1.ans"), "197853543\n");
    assert_eq!(read(&f, "data/secret/02-many-2.in"), "2\n2 1482263651\n");
    assert!(f.path().join("data/secret/08-many-8.in").is_file());
    assert_eq!(read(&f, "data/secret/09-spaced.in"), "2\n7 1440181015\n");
    assert_eq!(read(&f, "data/secret/10-answered.out"), "7\n");
    assert_eq!(read(&f, "data/secret/10-answered.ans"), "7\n");
    assert!(
        read(&f, "data/secret/10-answered.yaml").contains("args:"),
        "the case's yaml: is its .yaml"
    );
    assert!(read(&f, "data/secret/1-grp/11-deep.in").starts_with("2\n9 "));
}
