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
