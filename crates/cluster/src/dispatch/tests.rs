//! The dispatcher's notes and rules, without a server.

use super::*;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_idle_note_says_which_worker_left_the_list() {
    let quiet = Duration::from_secs(40);
    let first = idle_note(None, &names(&["a"]), quiet).unwrap();
    assert!(first.contains("the workers (a) are busy"), "{first}");
    // Nothing changed, or a worker came: nothing more to say.
    assert_eq!(idle_note(Some(&names(&["a"])), &names(&["a"]), quiet), None);
    assert_eq!(
        idle_note(Some(&names(&["a"])), &names(&["a", "b"]), quiet),
        None
    );
    let gone = idle_note(Some(&names(&["a"])), &[], quiet).unwrap();
    assert!(gone.contains("worker a is no longer registered"), "{gone}");
    assert!(gone.contains("no worker is running now"), "{gone}");
    let one_left = idle_note(Some(&names(&["a", "b"])), &names(&["b"]), quiet).unwrap();
    assert!(one_left.contains("the workers left (b)"), "{one_left}");
}

/// A package's terms hold through the cluster as on this machine: a language it does not allow
/// and a source over its code limit are refused before any job is handed out, with the
/// reason a local run gives.
#[test]
fn the_packages_terms_refuse_a_submission_before_it_is_handed_out() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "pkg/problem.yaml",
        "problem_format_version: 2025-09\nname: Terms\nuuid: 0b6f1c2e-7a3d-4e59-9c11-5d2a8e4f7b21\nlanguages: [python3]\nlimits:\n  code: 1\n",
    );
    write("pkg/data/secret/1.in", "1\n");
    write("pkg/data/secret/1.ans", "2\n");
    write(
        "pkg/submissions/accepted/a.c",
        "int main(void) { return 0; }\n",
    );
    write("pkg/submissions/accepted/long.py", &"# long\n".repeat(300));
    write(
        "pkg/submissions/accepted/ok.py",
        "print(2 * int(input()))\n",
    );
    let mut ws = Workspace::loose(dir.path());
    let package = judge_packages::package::load(
        &dir.path().join("pkg"),
        &ws.config.languages,
        &dir.path().join("unpacked"),
    )
    .unwrap();
    let id = ws.mount(package.mounted());
    let problem = ws.problem(&id).unwrap();
    let cases = ws.testcases(&problem).unwrap();
    let options = Options::default();
    let of = |file: &str| {
        let path = dir.path().join("pkg/submissions/accepted").join(file);
        let solution = Solution {
            name: format!("accepted/{}", file.split('.').next().unwrap()),
            problem: id.clone(),
            path: path.canonicalize().unwrap(),
        };
        report_of(&ws, &problem, &solution, &cases, &options)
    };
    let why = |file: &str| match of(file) {
        Err(Error::Core(judge_core::Error::Refused { why, .. })) => why,
        other => panic!("{file}: {other:?}"),
    };
    assert_eq!(
        why("a.c"),
        "the package allows only python3 (its `languages`), and this is c"
    );
    assert!(
        why("long.py").contains("over the package's code limit of 1 KiB (limits.code)"),
        "{}",
        why("long.py")
    );
    let report = of("ok.py").unwrap();
    assert_eq!((report.language.as_str(), report.total), ("python", 1));
}
