//! The N-Queens family as shipped: every reference solution gets the verdict its problem.toml expects,
//! and the N-Queens checker names the board that is wrong and why.

use crate::common::{shipped, Test, Workspace};

/// Each problem's solutions with their expected verdicts, as `judge list --json` reports them.
fn expectations(problem: &str) -> Vec<(String, String)> {
    let doc = Test::at(shipped())
        .args(["list", "--json"])
        .expect_exit(0)
        .run()
        .json();
    let p = doc
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == problem)
        .unwrap_or_else(|| panic!("no problem {problem}: {doc:#}"));
    p["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let name = s["name"].as_str().unwrap().to_string();
            let expected = s["expected"]
                .as_str()
                .unwrap_or_else(|| panic!("{problem}/{name} has no expected verdict"))
                .to_string();
            (name, expected)
        })
        .collect()
}

fn every_solution_gets_its_expected_verdict(problem: &str, at_least: usize) {
    let expected = expectations(problem);
    assert!(expected.len() >= at_least, "{expected:?}");
    for (name, verdict) in expected {
        // Which code depends on the verdict, where more than one is admitted ("AC or TLE"):
        // it is checked against the verdict it got, below.
        let out = Test::at(shipped())
            .args(["run", &format!("{problem}/{name}"), "--json"])
            .any_exit()
            .run();
        let doc = out.json();
        let admitted: Vec<&str> = verdict.split(" or ").collect();
        let got = doc["verdict"].as_str().unwrap();
        assert!(
            admitted.contains(&got),
            "{problem}/{name}: expected {verdict}, got {got}: {doc:#}"
        );
        assert_eq!(
            out.code,
            Some(if got == "AC" { 0 } else { 1 }),
            "{problem}/{name}"
        );
        // The run's verdict is its first failure's, and nothing failed for want of a checker.
        for case in doc["cases"].as_array().unwrap() {
            assert_ne!(case["verdict"], "IE", "{problem}/{name}: {case}");
        }
    }
}

/// OEIS A000170 and A002562 for n = 1..14: all placements, and those distinct under symmetry.
const ALL: [u64; 14] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];
const DISTINCT: [u64; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

fn case(problem: &str, n: usize, ext: &str) -> String {
    std::fs::read_to_string(shipped().join(format!("testcases/{problem}/{n:02}.{ext}"))).unwrap()
}

#[test]
fn the_answers_agree_with_oeis() {
    for n in 1..=10 {
        assert_eq!(case("nqueens", n, "in"), format!("{n}\n"));
        let answer = case("nqueens", n, "out");
        let count: u64 = answer.lines().next().unwrap().parse().unwrap();
        assert_eq!(count, ALL[n - 1], "n = {n}");
        // Every board is n lines, and a blank line separates two boards.
        let lines = answer.lines().count() as u64;
        assert_eq!(
            lines,
            1 + count * n as u64 + count.saturating_sub(1),
            "n = {n}"
        );
    }
    for n in 1..=14 {
        assert_eq!(case("nqueens-unique", n, "in"), format!("{n}\n"));
        assert_eq!(
            case("nqueens-unique", n, "out"),
            format!("{}\n", DISTINCT[n - 1])
        );
        assert_eq!(case("nqueens-ii", n, "out").trim(), ALL[n - 1].to_string());
    }
}

#[test]
fn list_shows_each_problems_checker() {
    Test::at(shipped())
        .arg("list")
        .expect_exit(0)
        .stdout_has("10 test cases (2 samples) · checker custom (checker.rs)")
        .stdout_has("nqueens-unique  N-Queens, Distinct Boards")
        .run();
}

#[test]
fn nqueens_solutions_get_their_expected_verdicts() {
    every_solution_gets_its_expected_verdict("nqueens", 5);
}

#[test]
fn nqueens_unique_solutions_get_their_expected_verdicts() {
    every_solution_gets_its_expected_verdict("nqueens-unique", 3);
}

#[test]
fn dividing_by_eight_fails_from_n_7_on() {
    let doc = Test::at(shipped())
        .args(["run", "nqueens-unique/total-over-8", "--json"])
        .expect_exit(1)
        .run()
        .json();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases[..6].iter().all(|c| c["verdict"] == "AC"), "{doc:#}");
    assert_eq!(cases[6]["verdict"], "WA");
    assert_eq!(
        cases[6]["detail"],
        "token 1 (line 1, column 1): expected `6`, received `5`"
    );
}

#[test]
fn the_wrong_nqueens_solutions_fail_for_the_right_reason() {
    let run = |name: &str| {
        Test::at(shipped())
            .args(["run", &format!("nqueens/{name}"), "--json"])
            .expect_exit(1)
            .run()
            .json()
    };
    let doc = run("twice");
    let eight = &doc["cases"][7];
    assert_eq!(eight["verdict"], "WA");
    assert!(
        eight["detail"]
            .as_str()
            .unwrap()
            .starts_with("board 93 (line 830) repeats board 92 (line 821)"),
        "{eight}"
    );
    let doc = run("missing-one");
    let eight = &doc["cases"][7];
    assert!(
        eight["detail"]
            .as_str()
            .unwrap()
            .starts_with("the output lists 91 of its 92 boards; missing, for one: board 92 of the answer, queens in columns 8 4 1 3 6 2 7 5"),
        "{eight}"
    );
    // No board, no fault: n = 2 and 3 have none, and both get them right.
    for doc in [run("twice"), run("missing-one")] {
        assert_eq!(doc["cases"][1]["verdict"], "AC");
        assert_eq!(doc["cases"][2]["verdict"], "AC");
    }
}

/// A workspace with the shipped N-Queens problem (its checker included) and the case n = 4.
fn nqueens_of_four() -> Workspace {
    let ws = Workspace::new();
    for file in ["problem.toml", "checker.rs"] {
        ws.write(
            &format!("problems/nqueens/{file}"),
            std::fs::read(shipped().join("problems/nqueens").join(file)).unwrap(),
        );
    }
    for file in ["02.in", "02.out", "04.in", "04.out"] {
        ws.write(
            &format!("testcases/nqueens/{file}"),
            std::fs::read(shipped().join("testcases/nqueens").join(file)).unwrap(),
        );
    }
    ws
}

#[test]
fn the_nqueens_checker_says_which_board_is_wrong_and_why() {
    let ws = nqueens_of_four();
    let a = ".Q..\n...Q\nQ...\n..Q.\n";
    let b = "..Q.\nQ...\n...Q\n.Q..\n";
    let cases: Vec<(String, &str, &str)> = vec![
        // Any order, CRLF, trailing spaces and extra blank lines are fine.
        (format!("2\n{b}\n{a}"), "AC", ""),
        (format!("2\r\n{}\r\n\r\n\r\n{}", b.replace('\n', "  \r\n"), a), "AC", ""),
        (format!("3\n{a}\n{b}"), "WA", "the output says 3 boards, the answer has 2"),
        (
            format!("2\n{a}\nQ...\n..Q.\n.Q..\n...Q\n"),
            "WA",
            "board 2 (line 7): the queens of row 2 (column 3) and row 3 (column 2) attack each other along a diagonal",
        ),
        (
            format!("2\n{a}\n..Q.\nQ...\n..Q.\n.Q..\n"),
            "WA",
            "board 2 (line 7): the queens of row 1 (column 3) and row 3 (column 3) attack each other along a column",
        ),
        (format!("2\n{}\n{b}", a.replace("Q...", "q...")), "WA", "board 1, row 3 (line 4): `q` is neither `.` nor `Q`"),
        (format!("2\n{}\n{b}", a.replace("...Q", "...Q.")), "WA", "board 1, row 2 (line 3) has 5 squares, expected 4"),
        (format!("2\n{}\n{b}", a.replace("...Q", "..QQ")), "WA", "board 1, row 2 (line 3) has 2 queens, expected one"),
        (format!("2\n{a}{b}"), "WA", "board 1 (line 2) has 8 rows, expected 4"),
        (format!("2\n{a}\n{a}"), "WA", "board 2 (line 7) repeats board 1 (line 2): queens in columns 2 4 1 3 (rows 1 to 4)"),
        (
            format!("2\n{a}"),
            "WA",
            "the output lists 1 of its 2 boards; missing, for one: board 2 of the answer, queens in columns 3 1 4 2 (rows 1 to 4)",
        ),
        (format!("2\n{a}\n{b}\n{a}"), "WA", "board 3 (line 12) repeats board 1 (line 2)"),
        (
            format!("two\n{a}\n{b}"),
            "WA",
            "presentation error: line 1 of the output should be the number of boards, not `two`",
        ),
        (String::new(), "WA", "presentation error: the output is empty"),
    ];
    for (i, (output, verdict, detail)) in cases.iter().enumerate() {
        let path = ws.write(
            &format!("attempt{i}.rs"),
            format!("use std::io::Read;\nfn main() {{ let mut n = String::new(); std::io::stdin().read_to_string(&mut n).unwrap(); print!(\"{{}}\", if n.trim() == \"2\" {{ \"0\\n\" }} else {{ {output:?} }}); }}\n"),
        );
        let doc = ws
            .judge()
            .args(["run", path.to_str().unwrap(), "--json"])
            .expect_exit(if *verdict == "AC" { 0 } else { 1 })
            .run()
            .json();
        assert_eq!(doc["cases"][0]["verdict"], "AC", "n = 2: {doc:#}");
        let case = &doc["cases"][1];
        assert_eq!(case["verdict"], *verdict, "{output:?}: {doc:#}");
        let got = case["detail"].as_str().unwrap_or("");
        assert!(got.starts_with(detail), "{output:?}: {got}");
    }
}
