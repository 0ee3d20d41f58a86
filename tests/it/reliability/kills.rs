//! The judge killed outright (SIGKILL) at many moments of a command: while it judges and
//! records (as `judge run`, or as `judge serve`'s worker), while `judge import` writes, while
//! `judge new` and `judge new-problem` create files. After each kill the history is whole
//! (SQLite's `integrity_check`), every file is as it was or completely written, nothing the
//! judge started is left running, and the command run again finishes the work.
//!
//! The moments are spread over the command's whole length (measured first), each shifted by a
//! little deterministic jitter; `JUDGE_KILLS=N` makes N kills per command.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{intact, kills, Rng};
use crate::common::serve::Serving;
use crate::common::{procs, Test, Workspace};

const MARK: &str = "JUDGE_TEST_KILLED";

/// Starts `test` (marked, so what it starts can be found), kills it at `moments`' next moment
/// unless it ended first, and waits until nothing it started is alive.
fn kill_at(test: Test, moments: &mut Moments, mark: &str) {
    let started = Instant::now();
    let mut running = test.env(MARK, mark).spawn();
    std::thread::sleep(moments.next());
    let killed = running.is_running();
    if killed {
        running.kill();
    } else {
        running.wait(Duration::from_secs(60));
        moments.ended_after(started.elapsed());
    }
    none_left(mark);
}

/// Waits until nothing marked `mark` is alive: the runner and its programs end when their
/// judge's pipe closes.
#[track_caller]
fn none_left(mark: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = procs::marked(MARK, mark);
        if left.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "processes of a killed judge still run: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How long the command `test` makes takes when nothing stops it: the shorter of two runs (the
/// first may find colder caches).
fn length(test: impl Fn() -> Test) -> Duration {
    (0..2)
        .map(|_| {
            let started = Instant::now();
            test().expect_exit(0).run();
            started.elapsed()
        })
        .min()
        .unwrap()
}

/// The moments of `n` kills over a command that takes `length`, the `i`-th in the `i`-th slice
/// of it (the last slices hold the last moments of writing), shifted within it by a little
/// deterministic jitter. A run that ends before its moment shortens the length: the machine is
/// less busy than when it was measured.
struct Moments {
    length: Duration,
    n: usize,
    i: usize,
    rng: Rng,
    killed: usize,
}

impl Moments {
    fn new(length: Duration, n: usize, seed: u64) -> Moments {
        Moments {
            length,
            n,
            i: 0,
            rng: Rng::new(seed),
            killed: 0,
        }
    }

    fn next(&mut self) -> Duration {
        let step = self.length / self.n as u32;
        let at = step * (self.i % self.n) as u32 + self.rng.below(step);
        self.i += 1;
        self.killed += 1;
        at
    }

    fn ended_after(&mut self, took: Duration) {
        self.killed -= 1;
        self.length = self.length.min(took);
    }
}

impl Moments {
    /// Most of the kills landed while the command ran (a run quicker than measured ends before
    /// a late kill).
    #[track_caller]
    fn most_killed(&self) {
        let (killed, n) = (self.killed, self.i);
        println!("{killed} of {n} killed");
        assert!(3 * killed >= n, "only {killed} of {n} were killed");
    }
}

#[test]
fn a_judge_killed_while_it_judges_or_records_leaves_the_history_whole() {
    let ws = crate::history::workspace();
    for i in 2..=6 {
        ws.write(&format!("testcases/double/{i}.in"), format!("{i}\n"));
        ws.write(&format!("testcases/double/{i}.out"), format!("{}\n", 2 * i));
    }
    let db = ws.path().join(".judge/history.db");
    let run = || ws.judge().args(["run", "ok"]);
    // Compiled first, so that the kills land on judging and recording.
    run().expect_exit(0).run();
    let n = kills();
    let mut moments = Moments::new(length(run), n, 7);
    let mut before = intact(&db);
    for i in 0..n {
        kill_at(run().expect_exit(0), &mut moments, &i.to_string());
        let now = intact(&db);
        assert!(
            now == before || now == before + 1,
            "{before} -> {now} submissions"
        );
        before = now;
        // Every row reads back: none is half there.
        let listed = ws
            .judge()
            .args(["history", "--json", "-n", "1000"])
            .expect_exit(0)
            .run()
            .json();
        let rows = listed.as_array().unwrap();
        assert_eq!(rows.len() as i64, now);
        assert!(rows.iter().all(|r| r["verdict"] == "AC"), "{listed:#}");
    }
    moments.most_killed();
    // And the next run records as ever.
    run().expect_exit(0).stdout_has("submission #").run();
    assert_eq!(intact(&db), before + 1);
}

#[test]
fn judge_serve_killed_while_it_judges_and_records_leaves_the_history_whole() {
    let ws = crate::serve::workspace();
    let db = ws.path().join(".judge/history.db");
    // Compiled, and the history made, first: the kills land on judging and recording.
    ws.judge().args(["run", "ok"]).expect_exit(0).run();
    let (n, queued) = (kills(), 6);
    let submit = |server: &Serving| {
        for _ in 0..queued {
            let sent = server.post_form(
                "/submit",
                &[("token", &server.token), ("solution", "double/ok")],
                &[],
            );
            assert_eq!(sent.status, 303, "{}", sent.body);
        }
    };
    // How long the server takes to judge and record them all, when nothing stops it.
    let mut length = {
        let before = intact(&db);
        let server = Serving::start(ws.path());
        let started = Instant::now();
        submit(&server);
        while intact(&db) < before + queued {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "never recorded"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        server.stop();
        started.elapsed()
    };
    let mut before = intact(&db);
    let mut rng = Rng::new(23);
    // Kills that stopped the server with some of its runs not yet recorded.
    let mut mid_way = 0;
    for i in 0..n {
        let mark = format!("serve-{i}");
        let server = Serving::start_marked(ws.path(), &[], Some((MARK, &mark)));
        let started = Instant::now();
        submit(&server);
        std::thread::sleep(rng.below(length).saturating_sub(started.elapsed()));
        server.kill();
        none_left(&mark);
        let now = intact(&db);
        assert!(
            (before..=before + queued).contains(&now),
            "{before} -> {now} submissions"
        );
        if now < before + queued {
            mid_way += 1;
        } else {
            // All recorded before the kill: the machine is quicker than when measured.
            length = length * 3 / 4;
        }
        before = now;
        let listed = ws
            .judge()
            .args(["history", "--json", "-n", "1000"])
            .expect_exit(0)
            .run()
            .json();
        let rows = listed.as_array().unwrap();
        assert_eq!(rows.len() as i64, now);
        assert!(rows.iter().all(|r| r["verdict"] == "AC"), "{listed:#}");
    }
    println!("{mid_way} of {n} kills stopped the server with runs not yet recorded");
    assert!(3 * mid_way >= n, "only {mid_way} of {n} kills were mid-way");
    // Started again, the server shows them all.
    let server = Serving::start(ws.path());
    let status = server.get("/status");
    assert_eq!(status.status, 200, "{}", status.body);
    assert!(
        status.body.contains(&format!("\">{before}</a>")),
        "#{before}"
    );
    server.stop();
}

/// An oj folder of `cases` tests of about `size` bytes each way (different for each `seed`).
fn big_tests(dir: &Path, cases: usize, size: usize, seed: u64) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut rng = Rng::new(seed);
    std::fs::create_dir_all(dir).unwrap();
    (1..=cases)
        .map(|i| {
            let (input, answer) = (rng.text(size), rng.text(size));
            std::fs::write(dir.join(format!("{i}.in")), &input).unwrap();
            std::fs::write(dir.join(format!("{i}.out")), &answer).unwrap();
            (input, answer)
        })
        .collect()
}

/// The visible files of `dir` by name, and the hidden ones a killed writer may leave.
fn files(dir: &Path) -> (Vec<(String, Vec<u8>)>, Vec<String>) {
    let (mut visible, mut hidden) = (Vec::new(), Vec::new());
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            hidden.push(name);
        } else if e.path().is_file() {
            visible.push((name, std::fs::read(e.path()).unwrap()));
        }
    }
    visible.sort();
    (visible, hidden)
}

/// Every visible file of a problem's tests is one of `whole` (complete), and the hidden ones are
/// only a writer's temporary files.
#[track_caller]
fn whole_or_absent(dir: &Path, whole: &BTreeSet<Vec<u8>>) {
    let (visible, hidden) = files(dir);
    for (name, bytes) in &visible {
        assert!(
            whole.contains(bytes),
            "{}/{name} is not a whole file ({} bytes)",
            dir.display(),
            bytes.len()
        );
    }
    for name in hidden {
        assert!(
            name == ".gitkeep" || name.ends_with(".tmp"),
            "{}/{name}",
            dir.display()
        );
    }
}

#[test]
fn judge_import_killed_while_it_writes_leaves_every_file_whole() {
    let source = tempfile::tempdir().unwrap();
    let tests = source.path().join("big/test");
    let cases = big_tests(&tests, 6, 3 << 20, 11);
    let whole: BTreeSet<Vec<u8>> = cases
        .iter()
        .flat_map(|(i, a)| [i.clone(), a.clone()])
        .chain([b"1\n".to_vec()])
        .collect();
    // A workspace where `big` has one test already: the import merges into it.
    let fresh = || {
        let ws = Workspace::new();
        ws.problem(
            "big",
            "title = \"Big\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n",
            &[("0", "1\n", "1\n")],
        );
        ws
    };
    let import = |ws: &Workspace| ws.judge().args(["import", "--name", "big"]).arg(&tests);
    // Kept until measured: a workspace goes with its folder.
    let measured = std::cell::RefCell::new(Vec::new());
    let full = length(|| {
        let ws = fresh();
        let test = import(&ws);
        measured.borrow_mut().push(ws);
        test
    });
    drop(measured);
    let n = kills();
    let mut moments = Moments::new(full, n, 13);
    for i in 0..n {
        let ws = fresh();
        kill_at(import(&ws).expect_exit(0), &mut moments, &i.to_string());
        let dir = ws.path().join("testcases/big");
        whole_or_absent(&dir, &whole);
        // The import again finishes what was stopped: every test once, each with its answer.
        import(&ws).expect_exit(0).run();
        let (visible, _) = files(&dir);
        assert_eq!(
            visible.len(),
            2 * (cases.len() + 1),
            "{:?}",
            names(&visible)
        );
        for (input, answer) in &cases {
            let with_input: Vec<_> = visible.iter().filter(|(_, b)| b == input).collect();
            assert_eq!(with_input.len(), 1);
            let stem = with_input[0].0.strip_suffix(".in").unwrap();
            let out = visible.iter().find(|(n, _)| *n == format!("{stem}.out"));
            assert_eq!(out.map(|(_, b)| b), Some(answer), "{stem}");
        }
        ws.judge().args(["list"]).expect_exit(0).run();
    }
    moments.most_killed();
}

fn names(files: &[(String, Vec<u8>)]) -> Vec<&str> {
    files.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn judge_new_problem_and_judge_new_killed_leave_nothing_half_made() {
    let n = kills();
    let made = {
        let ws = Workspace::new();
        let full = length(|| {
            let _ = std::fs::remove_dir_all(ws.path().join("problems/fresh"));
            ws.judge().args(["new-problem", "fresh"])
        });
        let problem = snapshot_of(&ws.path().join("problems/fresh"));
        let full_new = length(|| {
            let _ = std::fs::remove_dir_all(ws.path().join("solutions/fresh"));
            ws.judge().args(["new", "attempt", "--problem", "fresh"])
        });
        let attempt = std::fs::read(ws.path().join("solutions/fresh/attempt.rs")).unwrap();
        (full, problem, full_new, attempt)
    };
    let (full, problem, full_new, attempt) = made;
    let (mut problems, mut attempts) = (Moments::new(full, n, 17), Moments::new(full_new, n, 19));
    for i in 0..n {
        let ws = Workspace::new();
        kill_at(
            ws.judge().args(["new-problem", "fresh"]).expect_exit(0),
            &mut problems,
            &i.to_string(),
        );
        let dir = ws.path().join("problems/fresh");
        if dir.exists() {
            let there = snapshot_of(&dir);
            assert!(
                there == problem,
                "a half-made problem: {:?}",
                listing(&there)
            );
        } else {
            // Stopped before it was placed: asking again makes it.
            ws.judge()
                .args(["new-problem", "fresh"])
                .expect_exit(0)
                .run();
        }
        let hidden: Vec<PathBuf> = std::fs::read_dir(ws.path().join("problems"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.'))
            .collect();
        assert!(
            hidden.iter().all(|p| p
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".new-problem-")),
            "{hidden:?}"
        );
        ws.judge().args(["list"]).expect_exit(0).run();

        let new = ws
            .judge()
            .args(["new", "attempt", "--problem", "fresh"])
            .expect_exit(0);
        kill_at(new, &mut attempts, &format!("new-{i}"));
        let path = ws.path().join("solutions/fresh/attempt.rs");
        if let Ok(bytes) = std::fs::read(&path) {
            assert_eq!(bytes, attempt, "a half-written attempt");
        }
        let (_, hidden) = files(&ws.path().join("solutions/fresh"));
        // `.gitkeep`: new-problem made the folder, so that git keeps it.
        assert!(
            hidden
                .iter()
                .all(|h| h.ends_with(".tmp") || h.ends_with(".gitkeep")),
            "{hidden:?}"
        );
    }
    problems.most_killed();
    attempts.most_killed();
}

/// Each file's name and size.
fn listing(files: &[(String, Vec<u8>)]) -> Vec<(&str, usize)> {
    files.iter().map(|(n, b)| (n.as_str(), b.len())).collect()
}

/// The files of a folder by name (hidden ones left out), with their bytes.
fn snapshot_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files(dir).0
}
