//! The history against a real database file: recording, reading back, upgrading.

use super::*;

fn sub(solution: &str, verdict: Verdict, ms: u64) -> NewSubmission {
    NewSubmission {
        problem: "p".into(),
        solution: solution.into(),
        path: format!("solutions/p/{solution}.rs"),
        language: "rust".into(),
        source_hash: "abc".into(),
        code_length: 321,
        verdict,
        passed: 2,
        total: 3,
        max_time: Duration::from_millis(ms),
        max_memory_bytes: 2 << 20,
        time_limit: Duration::from_secs(1),
        compiler: "rustc 1.95.0".into(),
        cases: vec![
            case("1", Verdict::Ac, 1, 1 << 20),
            case("2", verdict, ms, 2 << 20),
        ],
        report: Some(format!("{{\"solution\": \"{solution}\"}}")),
        partial: None,
        key: None,
        below_max_score: false,
    }
}

fn case(name: &str, verdict: Verdict, ms: u64, memory_bytes: u64) -> NewCase {
    NewCase {
        name: name.into(),
        verdict,
        cpu: Duration::from_millis(ms),
        memory_bytes,
        worker: None,
        attempt: None,
    }
}

#[test]
fn an_ac_short_of_the_most_it_could_score_is_not_the_solution_s() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(&dir.path().join("history.db")).unwrap();
    let half = |ms| NewSubmission {
        below_max_score: true,
        ..sub("c", Verdict::Ac, ms)
    };
    let r = h.record(&half(30)).unwrap();
    assert!(!r.first_ac && r.new_best_over_ms.is_none(), "{r:?}");
    let r = h.record(&half(20)).unwrap();
    assert!(!r.first_ac && r.new_best_over_ms.is_none(), "{r:?}");
    // Nor does it count as an earlier one.
    let r = h.record(&sub("c", Verdict::Ac, 25)).unwrap();
    assert!(r.first_ac && r.new_best_over_ms.is_none(), "{r:?}");
    let best = h.best(&Filter::default()).unwrap();
    assert_eq!(best.iter().map(Entry::id).collect::<Vec<_>>(), [3]);
}

/// The submission an entry holds; a panic when it could not be read.
fn read(e: &Entry) -> &Submission {
    e.submission()
        .unwrap_or_else(|| panic!("unreadable: {e:?}"))
}

#[test]
fn first_ac_and_new_best_times() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(&dir.path().join("sub/history.db")).unwrap();
    assert_eq!(h.version().unwrap(), MIGRATIONS.len() as i64);
    let r = h.record(&sub("a", Verdict::Wa, 10)).unwrap();
    assert!(!r.first_ac && r.new_best_over_ms.is_none());
    let r = h.record(&sub("a", Verdict::Ac, 50)).unwrap();
    assert!(r.first_ac && r.new_best_over_ms.is_none());
    let r = h.record(&sub("a", Verdict::Ac, 60)).unwrap();
    assert!(!r.first_ac && r.new_best_over_ms.is_none());
    let r = h.record(&sub("a", Verdict::Ac, 40)).unwrap();
    assert_eq!(r.new_best_over_ms, Some(50));
    let r = h.record(&sub("b", Verdict::Ac, 90)).unwrap();
    assert!(r.first_ac, "first AC is per solution");

    let all = h.list(&Filter::default()).unwrap();
    assert_eq!(
        all.iter().map(Entry::id).collect::<Vec<_>>(),
        [5, 4, 3, 2, 1]
    );
    let only_a = h
        .list(&Filter {
            solution: Some("a".into()),
            limit: Some(2),
            ..Filter::default()
        })
        .unwrap();
    assert_eq!(only_a.iter().map(Entry::id).collect::<Vec<_>>(), [4, 3]);
    let best = h.best(&Filter::default()).unwrap();
    assert_eq!(
        best.iter()
            .map(|e| (read(e).solution.as_str(), read(e).max_time_ms))
            .collect::<Vec<_>>(),
        [("a", 40), ("b", 90)]
    );
    let mut one = h
        .list(&Filter {
            limit: Some(1),
            ..Filter::default()
        })
        .unwrap();
    h.load_cases(&mut one).unwrap();
    assert_eq!(read(&one[0]).cases.len(), 2);
    assert_eq!(read(&one[0]).cases[1].time_ms, 90);
    assert_eq!(h.latest_id().unwrap(), 5);
    let third = h.get(3).unwrap().unwrap();
    assert_eq!(
        (read(&third).max_time_ms, read(&third).cases.len()),
        (60, 2)
    );
    assert!(h.get(6).unwrap().is_none());
    assert_eq!(
        h.report(5).unwrap().as_deref(),
        Some("{\"solution\": \"b\"}")
    );
}

/// A database left at `version` by an earlier judge, with one accepted submission of
/// solution `old` (5 ms) and its case, written with only the columns that version had.
fn database_of_version(path: &std::path::Path, version: usize) {
    let conn = Connection::open(path).unwrap();
    super::version(&conn).unwrap();
    for m in &MIGRATIONS[..version] {
        conn.execute_batch(m).unwrap();
    }
    conn.execute(
        "INSERT INTO schema_version VALUES (?1)",
        params![version as i64],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO submissions (submitted_ms, problem, solution, path, source_hash, code_length,
           verdict, passed, total, max_time_ms, max_memory_kb, time_limit_ms, compiler)
         VALUES (0, 'p', 'old', 'old.rs', 'h', 1, 'AC', 1, 1, 5, 100, 1000, 'rustc')",
        [],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO cases (submission_id, position, name, verdict, time_ms, memory_kb)
         VALUES (1, 0, '01', 'AC', 5, 100)",
        [],
    )
    .unwrap();
}

#[test]
fn a_database_of_every_earlier_version_is_upgraded_in_place() {
    for version in 1..MIGRATIONS.len() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.db");
        database_of_version(&path, version);
        let mut h = History::open(&path).unwrap();
        assert_eq!(
            h.version().unwrap(),
            MIGRATIONS.len() as i64,
            "from {version}"
        );
        let index: i64 = h
            .conn
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE name = 'submissions_by_solution'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(index, 1, "from {version}");
        let r = h.record(&sub("old", Verdict::Ac, 3)).unwrap();
        assert_eq!(
            r.new_best_over_ms,
            Some(5),
            "the old rows are kept (from {version})"
        );
        let mut all = h.list(&Filter::default()).unwrap();
        h.load_cases(&mut all).unwrap();
        let old = read(all.last().unwrap());
        assert_eq!(old.language, "rust", "rows from before languages were Rust");
        assert_eq!(
            (old.partial.as_ref(), old.cases.len()),
            (None, 1),
            "from {version}"
        );
        assert_eq!(h.report(1).unwrap(), None, "from {version}");
    }
}

#[test]
fn an_internal_error_records_lists_and_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(&dir.path().join("history.db")).unwrap();
    h.record(&sub("checked", Verdict::Ie, 7)).unwrap();
    let mut all = h
        .list(&Filter {
            limit: Some(100_000),
            ..Filter::default()
        })
        .unwrap();
    h.load_cases(&mut all).unwrap();
    let s = read(&all[0]);
    assert_eq!((s.verdict, s.cases[1].verdict), (Verdict::Ie, Verdict::Ie));
}

#[test]
fn a_row_this_judge_cannot_read_is_listed_as_such_and_hides_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(&dir.path().join("history.db")).unwrap();
    for solution in ["a", "b", "c", "d"] {
        h.record(&sub(solution, Verdict::Ac, 5)).unwrap();
    }
    // What a newer judge might write: a verdict this one has no name for; a case of another
    // the same; a measure of the wrong type.
    h.conn
        .execute("UPDATE submissions SET verdict = 'PE' WHERE id = 2", [])
        .unwrap();
    h.conn
        .execute(
            "UPDATE cases SET verdict = 'XX' WHERE submission_id = 3 AND position = 1",
            [],
        )
        .unwrap();
    h.conn
        .execute(
            "UPDATE submissions SET max_time_ms = 'fast' WHERE id = 4",
            [],
        )
        .unwrap();
    let mut all = h.list(&Filter::default()).unwrap();
    h.load_cases(&mut all).unwrap();
    assert_eq!(all.iter().map(Entry::id).collect::<Vec<_>>(), [4, 3, 2, 1]);
    let why = |e: &Entry| match e {
        Entry::Unreadable(u) => u.unreadable.to_string(),
        Entry::Read(s) => panic!("#{} was read", s.id),
    };
    assert!(why(&all[0]).contains("max_time_ms"), "{}", why(&all[0]));
    assert!(
        why(&all[1]).starts_with("case 2: its verdict `XX`"),
        "{}",
        why(&all[1])
    );
    assert!(
        why(&all[2]).contains("`PE` is not one this judge knows"),
        "{}",
        why(&all[2])
    );
    assert_eq!(read(&all[3]).solution, "a");
    assert!(matches!(h.get(2).unwrap(), Some(Entry::Unreadable(_))));
    let json = serde_json::to_value(&all).unwrap();
    assert_eq!(json[2]["id"], 2);
    assert!(json[2]["unreadable"].as_str().unwrap().contains("`PE`"));
    // Recording goes on past such rows.
    assert!(
        h.record(&sub("a", Verdict::Ac, 4))
            .unwrap()
            .new_best_over_ms
            == Some(5)
    );
}

#[test]
fn a_partial_run_is_never_a_first_ac_nor_a_best() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(&dir.path().join("history.db")).unwrap();
    let samples = Partial {
        samples: true,
        cases: vec![],
        stopped_early: false,
        not_timed: 0,
        judged: 2,
        of: 15,
    };
    let mut partial = sub("q", Verdict::Ac, 1);
    partial.partial = Some(samples.clone());
    let r = h.record(&partial).unwrap();
    assert!(!r.first_ac && r.new_best_over_ms.is_none(), "{r:?}");
    assert!(h.best(&Filter::default()).unwrap().is_empty());
    let r = h.record(&sub("q", Verdict::Ac, 200)).unwrap();
    assert!(
        r.first_ac && r.new_best_over_ms.is_none(),
        "the full run is the first AC: {r:?}"
    );
    let r = h.record(&partial).unwrap();
    assert!(
        !r.first_ac && r.new_best_over_ms.is_none(),
        "a faster partial run is no best: {r:?}"
    );
    let best = h.best(&Filter::default()).unwrap();
    assert_eq!(best.iter().map(Entry::id).collect::<Vec<_>>(), [2]);
    let all = h.list(&Filter::default()).unwrap();
    assert_eq!(read(&all[0]).partial.as_ref(), Some(&samples));
    assert_eq!(read(&all[1]).partial, None);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn verdict() -> impl Strategy<Value = Verdict> {
        proptest::sample::select(Verdict::ALL.to_vec())
    }

    fn partial() -> impl Strategy<Value = Option<Partial>> {
        proptest::option::of(
            (
                any::<bool>(),
                proptest::collection::vec("[0-9a-z*?]{1,4}", 0..3),
                any::<bool>(),
                0usize..5,
                0usize..500,
                0usize..500,
            )
                .prop_map(|(samples, cases, stopped_early, not_timed, judged, of)| {
                    Partial {
                        samples,
                        cases,
                        stopped_early,
                        not_timed,
                        judged,
                        of,
                    }
                }),
        )
    }

    fn submission() -> impl Strategy<Value = NewSubmission> {
        (
            ("[a-z0-9-]{1,12}", "\\PC{0,16}", "[a-z]{1,8}", verdict()),
            (
                0usize..1000,
                0usize..1000,
                0u64..100_000,
                0u64..(1 << 40),
                1u64..100_000,
            ),
            proptest::collection::vec(
                (
                    ("\\PC{1,8}", verdict(), 0u64..100_000, 0u64..(1 << 40)),
                    (
                        proptest::option::of("\\PC{1,12}"),
                        proptest::option::of(1u64..20),
                    ),
                ),
                0..6,
            ),
            (
                proptest::option::of("\\PC{0,40}"),
                partial(),
                "\\PC{0,20}",
                proptest::option::of("[a-z0-9]{1,8}"),
            ),
        )
            .prop_map(
                |(
                    (problem, solution, language, verdict),
                    (passed, total, ms, memory, limit),
                    cases,
                    (report, partial, compiler, key),
                )| {
                    NewSubmission {
                        problem,
                        path: format!("solutions/{solution}"),
                        solution,
                        language,
                        source_hash: "h".into(),
                        code_length: memory % 100_000,
                        verdict,
                        passed,
                        total,
                        max_time: Duration::from_millis(ms),
                        max_memory_bytes: memory / 1024 * 1024,
                        time_limit: Duration::from_millis(limit),
                        compiler,
                        cases: cases
                            .into_iter()
                            .map(|((name, verdict, ms, m), (worker, attempt))| NewCase {
                                name,
                                verdict,
                                cpu: Duration::from_millis(ms),
                                memory_bytes: m / 1024 * 1024,
                                worker,
                                attempt,
                            })
                            .collect(),
                        report,
                        partial,
                        key,
                        below_max_score: false,
                    }
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Whatever the judge records (every verdict, every optional field) reads back as it was.
        #[test]
        fn what_is_recorded_reads_back(subs in proptest::collection::vec(submission(), 1..4)) {
            let dir = tempfile::tempdir().unwrap();
            let mut h = History::open(&dir.path().join("history.db")).unwrap();
            for s in &subs {
                let id = h.record(s).unwrap().id;
                let entry = h.get(id).unwrap().unwrap();
                let back = read(&entry);
                prop_assert_eq!(&back.problem, &s.problem);
                prop_assert_eq!(&back.solution, &s.solution);
                prop_assert_eq!(&back.path, &s.path);
                prop_assert_eq!(&back.language, &s.language);
                prop_assert_eq!(back.code_length, s.code_length);
                prop_assert_eq!(back.verdict, s.verdict);
                prop_assert_eq!((back.passed, back.total), (s.passed as u64, s.total as u64));
                prop_assert_eq!(back.max_time_ms, s.max_time.as_millis() as u64);
                prop_assert_eq!(back.max_memory_kb * 1024, s.max_memory_bytes);
                prop_assert_eq!(back.time_limit_ms, s.time_limit.as_millis() as u64);
                prop_assert_eq!(&back.compiler, &s.compiler);
                prop_assert_eq!(&back.partial, &s.partial);
                let cases: Vec<_> = back
                    .cases
                    .iter()
                    .map(|c| NewCase {
                        name: c.name.clone(),
                        verdict: c.verdict,
                        cpu: Duration::from_millis(c.time_ms),
                        memory_bytes: c.memory_kb * 1024,
                        worker: c.worker.clone(),
                        attempt: c.attempt,
                    })
                    .collect();
                prop_assert_eq!(&cases, &s.cases);
                prop_assert_eq!(h.report(id).unwrap(), s.report.clone());
            }
            // A key recorded again replaces its record: one per key, plus those with none.
            let keys: std::collections::BTreeSet<_> = subs.iter().filter_map(|s| s.key.clone()).collect();
            let listed = h.list(&Filter::default()).unwrap();
            prop_assert_eq!(listed.len(), subs.iter().filter(|s| s.key.is_none()).count() + keys.len());
            prop_assert!(listed.iter().all(|e| e.submission().is_some()));
        }
    }
}

#[test]
fn a_newer_or_corrupt_database_is_an_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    {
        let conn = Connection::open(&path).unwrap();
        version(&conn).unwrap();
        conn.execute("INSERT INTO schema_version VALUES (99)", [])
            .unwrap();
    }
    let err = History::open(&path).err().unwrap().to_string();
    assert!(err.contains("newer judge"), "{err}");
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, vec![b'x'; 8192]).unwrap();
    assert!(History::open(&junk).is_err());
}

#[test]
fn a_key_judged_again_replaces_its_record_and_keeps_its_cases_worker() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = History::open(&dir.path().join("history.db")).unwrap();
    let mut first = sub("a", Verdict::Wa, 10);
    first.key = Some("line-1".into());
    first.cases[1].worker = Some("w1".into());
    first.cases[1].attempt = Some(1);
    h.record(&first).unwrap();
    h.record(&sub("b", Verdict::Ac, 5)).unwrap();
    let mut again = sub("a", Verdict::Ac, 12);
    again.key = Some("line-1".into());
    again.cases[1].worker = Some("w2".into());
    again.cases[1].attempt = Some(2);
    let r = h.record(&again).unwrap();
    assert!(r.first_ac, "the record it replaced was no AC");
    let mut all = h.list(&Filter::default()).unwrap();
    h.load_cases(&mut all).unwrap();
    assert_eq!(all.len(), 2);
    let a: Vec<_> = all.iter().map(read).filter(|s| s.solution == "a").collect();
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].verdict, Verdict::Ac);
    assert_eq!(a[0].cases[1].worker.as_deref(), Some("w2"));
    assert_eq!(a[0].cases[1].attempt, Some(2));
    assert_eq!(
        a[0].cases.len(),
        2,
        "the replaced record's cases went with it"
    );
    let cases: i64 = h
        .conn
        .query_row("SELECT COUNT(*) FROM cases", [], |r| r.get(0))
        .unwrap();
    assert_eq!(cases, 4);
}
