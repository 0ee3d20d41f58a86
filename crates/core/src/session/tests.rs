//! The engine's rules against the scripted executor (`crate::fixtures::scripted`): repeats, the
//! parallel scheduler, re-running alone, stopping early, an interactive case's verdict. No
//! process is started; the integration tests do that.

use std::time::Duration;

use super::*;
use crate::fixtures::scripted::Script;
use crate::verdict::StoppedBy;

struct Fixture {
    dir: tempfile::TempDir,
    problem: Problem,
    /// Every run plays its case's input (`crate::fixtures::scripted`).
    script: Script,
}

impl Fixture {
    /// A problem whose every answer is `42`, with a time limit of 1 s.
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("problems/p")).unwrap();
        let problem = crate::fixtures::problem("p", &dir.path().join("problems/p"));
        Fixture {
            dir,
            problem,
            script: Script::new(),
        }
    }

    /// Cases named `name` whose input is `script` (see [`Script`]).
    fn cases(&self, scripts: &[(&str, &str)]) -> Vec<TestCase> {
        scripts
            .iter()
            .map(|(name, script)| {
                let input = self.dir.path().join(format!("{name}.in"));
                let answer = self.dir.path().join(format!("{name}.out"));
                std::fs::write(&input, script).unwrap();
                std::fs::write(&answer, "42\n").unwrap();
                TestCase {
                    name: name.to_string(),
                    input,
                    answer,
                    ..TestCase::default()
                }
            })
            .collect()
    }

    fn judge(&self) -> Judge {
        self.script.judge(self.dir.path())
    }

    /// Judges the cases with a stand-in binary; the observer's record and the report.
    fn run(&self, cases: &[TestCase], options: &Options) -> (Vec<String>, SolutionReport) {
        let mut judge = self.judge();
        let solution = Solution {
            name: "s".into(),
            problem: "p".into(),
            path: self.dir.path().join("s.rs"),
        };
        let mut report = crate::fixtures::report("s", Vec::new());
        report.path = solution.path.clone();
        report.verdict = Verdict::Ce;
        report.compile.compiler = "scripted".into();
        report.limits = options.limits(&self.problem);
        (report.total, report.jobs) = (cases.len(), options.jobs);
        let mut seen = Record::default();
        let mut run = Run {
            problem: &self.problem,
            solution: &solution,
            cases,
            options,
            observer: &mut seen,
        };
        let program = Program::native(Path::new("/bin/scripted"));
        judge
            .judge_program(&mut run, &program, &mut report)
            .unwrap();
        (seen.0, report)
    }
}

/// What the observer heard: "start NAME" and "done NAME VERDICT".
#[derive(Default)]
struct Record(Vec<String>);

impl Observer for Record {
    fn case_started(&mut self, case: &TestCase, _: usize, _: usize) {
        self.0.push(format!("start {}", case.name));
    }
    fn case_finished(&mut self, c: &CaseReport, _: &Limits) {
        self.0.push(format!("done {} {}", c.name, c.verdict));
    }
    fn case_not_timed(&mut self, c: &NotTimed, _: &Limits) {
        self.0
            .push(format!("not timed {} under {:?}", c.name, c.cap));
    }
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn repeats_report_the_median_and_the_largest_memory() {
    let f = Fixture::new();
    let cases = f.cases(&[("1", "100:42,300:42,200:42")]);
    let options = Options {
        repeat: 3,
        ..Options::default()
    };
    let (_, report) = f.run(&cases, &options);
    let c = &report.cases[0];
    assert_eq!(c.verdict, Verdict::Ac);
    assert_eq!(c.cpu, ms(200));
    let timing = c.timing.as_ref().unwrap();
    assert_eq!(timing.runs, [ms(100), ms(300), ms(200)]);
    assert!(!timing.verdict_changed);
    assert_eq!(report.verdict, Verdict::Ac);
}

#[test]
fn a_failing_repeat_stands_for_the_case() {
    let f = Fixture::new();
    let cases = f.cases(&[("1", "10:42,10:41,10:42")]);
    let options = Options {
        repeat: 3,
        ..Options::default()
    };
    let (_, report) = f.run(&cases, &options);
    let c = &report.cases[0];
    assert_eq!(c.verdict, Verdict::Wa);
    assert!(c.timing.as_ref().unwrap().verdict_changed);
    assert_eq!(
        c.hint.as_deref(),
        Some("verdict changed between repeats: AC, WA, AC")
    );
    assert!(c.saved_output.is_some(), "a failed run's output is kept");
    assert_eq!(report.verdict, Verdict::Wa);
}

#[test]
fn a_run_over_the_limit_ends_the_repeats() {
    let f = Fixture::new();
    let cases = f.cases(&[("1", "100:42,1500:42,100:42")]);
    let options = Options {
        repeat: 3,
        ..Options::default()
    };
    let (_, report) = f.run(&cases, &options);
    let c = &report.cases[0];
    assert_eq!(c.verdict, Verdict::Tle);
    assert_eq!(c.killed_by, Some(StoppedBy::CpuLimit));
    assert_eq!(c.timing.as_ref().unwrap().runs.len(), 2);
    assert_eq!(f.script.log().len(), 2, "no third run");
}

#[test]
fn each_case_runs_while_the_one_before_is_checked_and_keeps_its_own_output() {
    let f = Fixture::new();
    let cases = f.cases(&[
        ("1", "10:42"),
        ("2", "10:41"),
        ("3", "10:42"),
        ("4", "10:40"),
        ("5", "10:42"),
    ]);
    let (seen, report) = f.run(&cases, &Options::default());
    let verdicts: Vec<Verdict> = report.cases.iter().map(|c| c.verdict).collect();
    use Verdict::{Ac, Wa};
    assert_eq!(verdicts, [Ac, Wa, Ac, Wa, Ac]);
    assert_eq!(seen.len(), 10);
    // Each wrong answer's kept output is its own, not that of the case run after it.
    for (case, printed) in [(1, "41"), (3, "40")] {
        let kept = report.cases[case].saved_output.as_ref().unwrap();
        assert_eq!(
            std::fs::read_to_string(kept).unwrap(),
            format!("{printed}\n")
        );
    }
    let sent = f.script.sent();
    let names: Vec<&str> = sent.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["1", "2", "3", "4", "5"], "each case is sent once");
    let ahead: Vec<usize> = sent.iter().map(|(_, waiting)| *waiting).collect();
    if std::thread::available_parallelism().unwrap().get() > 1 {
        // The first case's output size is not known yet when the second is sent.
        assert_eq!(ahead, [0, 0, 1, 1, 1]);
    } else {
        assert_eq!(
            ahead, [0; 5],
            "one CPU: the judge's turn would take the program's"
        );
    }
}

#[test]
fn a_run_that_may_stop_early_sends_nothing_ahead() {
    let f = Fixture::new();
    let cases = f.cases(&[
        ("1", "10:42"),
        ("2", "10:42"),
        ("3", "10:41"),
        ("4", "10:42"),
    ]);
    let options = Options {
        stop_on_fail: true,
        ..Options::default()
    };
    let (_, report) = f.run(&cases, &options);
    assert_eq!(report.cases.len(), 3);
    let sent = f.script.sent();
    assert_eq!(
        sent.len(),
        3,
        "the case after the failure never ran: {sent:?}"
    );
    assert!(sent.iter().all(|(_, waiting)| *waiting == 0), "{sent:?}");
}

#[test]
fn parallel_cases_are_reported_in_order() {
    let f = Fixture::new();
    let cases = f.cases(&[
        ("1", "10:42"),
        ("2", "20:42"),
        ("3", "30:41"),
        ("4", "10:42"),
    ]);
    let options = Options {
        jobs: 2,
        ..Options::default()
    };
    let (seen, report) = f.run(&cases, &options);
    assert_eq!(
        seen,
        [
            "start 1",
            "done 1 AC",
            "start 2",
            "done 2 AC",
            "start 3",
            "done 3 WA",
            "start 4",
            "done 4 AC"
        ]
    );
    assert!(report.parallel && report.cases.iter().all(|c| c.parallel));
    assert_eq!(report.verdict, Verdict::Wa);
    assert_eq!(report.passed, 3);
}

#[test]
fn parallel_slots_send_their_next_case_ahead_too() {
    let f = Fixture::new();
    let scripts: Vec<(String, String)> = (1..=8)
        .map(|i| {
            (
                i.to_string(),
                format!("10:{}", if i % 3 == 0 { 40 + i } else { 42 }),
            )
        })
        .collect();
    let scripts: Vec<(&str, &str)> = scripts.iter().map(|(n, s)| (&n[..], &s[..])).collect();
    let cases = f.cases(&scripts);
    let options = Options {
        jobs: 2,
        ..Options::default()
    };
    let (_, report) = f.run(&cases, &options);
    for (i, c) in report.cases.iter().enumerate() {
        let i = i + 1;
        assert_eq!(c.name, i.to_string());
        if i % 3 == 0 {
            assert_eq!(c.verdict, Verdict::Wa, "case {i}");
            let kept = std::fs::read_to_string(c.saved_output.as_ref().unwrap()).unwrap();
            assert_eq!(
                kept,
                format!("{}\n", 40 + i),
                "case {i} keeps its own output"
            );
        } else {
            assert_eq!(c.verdict, Verdict::Ac, "case {i}");
        }
    }
    let sent = f.script.sent();
    let mut names: Vec<usize> = sent.iter().map(|(n, _)| n.parse().unwrap()).collect();
    names.sort();
    assert_eq!(names, (1..=8).collect::<Vec<_>>(), "each case is sent once");
    let ahead = sent.iter().filter(|(_, waiting)| *waiting == 1).count();
    if std::thread::available_parallelism().unwrap().get() > 1 {
        assert!(ahead >= 4, "{sent:?}");
    } else {
        assert_eq!(ahead, 0, "{sent:?}");
    }
}

#[test]
fn cases_whose_time_decides_are_rerun_alone() {
    let f = Fixture::new();
    // 900 ms in parallel is within 20% of the 1 s limit: re-run alone, where it takes 300 ms.
    // 1.5 s in parallel is over it: re-run alone, and still over. 700 ms is safe: kept.
    let cases = f.cases(&[
        ("near", "900:42,300:42"),
        ("over", "1500:42,1500:42"),
        ("safe", "700:42"),
    ]);
    let options = Options {
        jobs: 2,
        ..Options::default()
    };
    let (_, report) = f.run(&cases, &options);
    let [near, over, safe] = &report.cases[..] else {
        panic!("three cases")
    };
    assert_eq!(near.verdict, Verdict::Ac);
    assert_eq!(near.cpu, ms(300));
    assert_eq!(
        near.rerun,
        Some(crate::model::Rerun {
            verdict: Verdict::Ac,
            cpu: ms(900)
        })
    );
    assert!(!near.parallel, "the time shown was measured alone");
    assert_eq!(over.verdict, Verdict::Tle);
    assert_eq!(over.rerun.map(|r| r.verdict), Some(Verdict::Tle));
    assert_eq!(safe.rerun, None);
    assert!(safe.parallel);
    // Each re-run happens after every parallel run is over.
    let log = f.script.log();
    assert_eq!(log.len(), 5);
    assert_eq!(&log[3..], ["near", "over"]);
}

#[test]
fn stop_on_fail_ends_the_report_at_the_first_failure() {
    let f = Fixture::new();
    let cases = f.cases(&[
        ("1", "10:42"),
        ("2", "10:41"),
        ("3", "10:42"),
        ("4", "10:42"),
    ]);
    for jobs in [1, 2] {
        let options = Options {
            jobs,
            stop_on_fail: true,
            ..Options::default()
        };
        let (seen, report) = f.run(&cases, &options);
        let names: Vec<&str> = report.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["1", "2"], "jobs {jobs}");
        assert_eq!(seen.last().map(String::as_str), Some("done 2 WA"));
        assert_eq!(report.total, 4);
    }
}

#[test]
fn skip_after_tle_waits_for_the_rerun_alone() {
    let f = Fixture::new();
    // In parallel case 1 looks over the limit, but alone it passes: the run goes on.
    let cases = f.cases(&[("1", "1500:42,200:42"), ("2", "10:42"), ("3", "10:42")]);
    let options = Options {
        jobs: 2,
        after_tle: AfterTle::Skip,
        ..Options::default()
    };
    let (_, report) = f.run(&cases, &options);
    assert_eq!(report.cases.len(), 3);
    assert_eq!(report.verdict, Verdict::Ac);
}

#[test]
fn after_a_tle_the_cases_run_under_a_shorter_cap_and_those_that_do_not_finish_are_not_timed() {
    let f = Fixture::new();
    // The limit is 1 s: the cap after a TLE is 500 ms.
    let cases = f.cases(&[
        ("1", "10:42"),
        ("2", "2000:42"),
        ("3", "700:42"),
        ("4", "300:41"),
        ("5", "10:42"),
    ]);
    let options = Options {
        after_tle: AfterTle::ShorterCap,
        ..Options::default()
    };
    let (seen, report) = f.run(&cases, &options);
    let got: Vec<(&str, Verdict)> = report
        .cases
        .iter()
        .map(|c| (c.name.as_str(), c.verdict))
        .collect();
    // Case 4 finished within the cap: its WA is a verdict under the whole limit too.
    assert_eq!(
        got,
        [
            ("1", Verdict::Ac),
            ("2", Verdict::Tle),
            ("4", Verdict::Wa),
            ("5", Verdict::Ac)
        ]
    );
    // Case 3 would pass under 1 s, but did not finish within 500 ms: no verdict at all.
    assert_eq!(report.not_timed.len(), 1);
    assert_eq!(
        (report.not_timed[0].name.as_str(), report.not_timed[0].cap),
        ("3", ms(500))
    );
    assert!(
        seen.contains(&"not timed 3 under 500ms".to_string()),
        "{seen:?}"
    );
    assert_eq!(report.verdict, Verdict::Tle, "the first failure's, as ever");
    let partial = report
        .partial
        .expect("a run with a case not timed is partial");
    assert_eq!((partial.not_timed, partial.judged, partial.of), (1, 4, 5));
    assert_eq!(partial.describe(), "1 not timed after a TLE, 4 of 5 cases");

    // The whole limit, as comparing and verifying need: every case its verdict.
    let (_, whole) = f.run(&cases, &Options::default());
    assert_eq!(whole.cases.len(), 5);
    assert_eq!(whole.cases[2].verdict, Verdict::Ac);
    assert!(whole.not_timed.is_empty() && whole.partial.is_none());
}

#[test]
fn a_limit_of_half_a_second_or_less_has_no_shorter_cap() {
    assert_eq!(shorter_cap(ms(4000)), Some(ms(1000)));
    assert_eq!(shorter_cap(ms(1000)), Some(ms(500)));
    assert_eq!(shorter_cap(ms(600)), Some(ms(500)));
    assert_eq!(shorter_cap(ms(500)), None);
    assert_eq!(shorter_cap(ms(100)), None);
}

#[test]
fn an_interactive_case_gets_the_verdict_its_interactor_and_the_order_give() {
    let mut f = Fixture::new();
    // The judge's own replay: an interactor with nothing to build.
    f.problem = f.problem.replaying();
    let cases = f.cases(&[
        ("accepted", "0|42|late|"),
        ("rejected-first", "101|43|first|said 3 to 1"),
        ("crashed-first", "101|43|late|no answer"),
        ("broken-pipe", "pipe|43|late|gone"),
        ("interactor-failed", "0|7|late|"),
    ]);
    let (_, report) = f.run(&cases, &Options::default());
    let got: Vec<(String, String)> = report
        .cases
        .iter()
        .map(|c| {
            let words = c.reason.as_ref().map(ToString::to_string);
            (c.verdict.to_string(), words.unwrap_or_default())
        })
        .collect();
    let verdicts: Vec<&str> = got.iter().map(|(v, _)| v.as_str()).collect();
    assert_eq!(verdicts, ["AC", "WA", "RE", "WA", "IE"], "{got:?}");
    assert!(got[1].1.contains("said 3 to 1"), "{got:?}");
    assert!(got[3].1.contains("gone"), "{got:?}");
    assert!(got[4].1.contains("exit code 7"), "{got:?}");
    // The report keeps the reason as decided, typed, not only its sentence.
    let reasons: Vec<_> = report.cases.iter().map(|c| c.reason.clone()).collect();
    assert_eq!(reasons[0], None);
    assert_eq!(
        reasons[1],
        Some(Reason::WrongAnswer(Some("said 3 to 1".into())))
    );
    assert_eq!(reasons[2], Some(Reason::ExitCode(101)));
    assert!(
        matches!(&reasons[4], Some(Reason::Interactor(why)) if why.contains("exit code 7")),
        "{reasons:?}"
    );
}
