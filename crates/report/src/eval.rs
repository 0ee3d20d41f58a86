//! `judge eval`'s page: a row per problem (samples, right, pass@k, or the error), then the
//! mean pass@k, the data set's own solutions checked when they were judged, and the problems
//! that could not be judged, and another run set beside this one (`--against`).

use std::fmt::Write as _;

use judge_eval::against::Against;
use judge_eval::progress::Progress;
use judge_eval::results::SampleResult;
use judge_eval::summary::Summary;

use crate::{alarm, bold, dim, paint, verdict_style};

/// A sample's line as it is judged: `[3/40] two-sum #2  WA 3/10`.
pub fn sample_line(index: usize, todo: usize, r: &SampleResult) -> String {
    let what = match r.verdict {
        Some(v) => format!(
            "{} {}/{}",
            paint(verdict_style(v), v.code()),
            r.passed,
            r.total
        ),
        None => format!("not run: {}", r.reason.as_deref().unwrap_or("")),
    };
    format!("[{}/{todo}] {} #{}  {what}", index + 1, r.problem, r.sample)
}

/// The progress line: `progress: 40/200 done · pass@1 0.425 · 3.2 samples/s · 0:50 left`
/// (at the end, without the time left).
pub fn progress_line(p: &Progress) -> String {
    let pass1 = p
        .pass1()
        .map_or("pass@1 -".into(), |v| format!("pass@1 {v:.3}"));
    let left = match (p.finished(), p.eta()) {
        (true, _) => String::new(),
        (false, Some(eta)) => format!(" · {} left", clock(eta.as_secs())),
        (false, None) => " · time left not known yet".to_string(),
    };
    format!(
        "progress: {}/{} done · {pass1} · {:.1} samples/s{left}",
        p.judged(),
        p.todo(),
        p.rate()
    )
}

/// `m:ss`, or `h:mm:ss` from an hour.
fn clock(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// What Ctrl-C leaves: the samples kept in the results file, and how to go on.
pub fn interrupted_line(kept: usize, total: usize, out: Option<&str>) -> String {
    match out {
        Some(file) => format!(
            "interrupted: {kept} of {total} samples have their result in {file}; run the same command again to judge the other {}",
            total.saturating_sub(kept)
        ),
        None => "interrupted: without --out no result was kept; give --out FILE to keep each sample's result as it is judged".into(),
    }
}

/// The summary as text.
pub fn render(s: &Summary) -> String {
    let mut out = String::new();
    let ks: Vec<&String> = s.pass_at_k_problems.keys().collect();
    let width = s
        .problems
        .iter()
        .map(|p| p.id.chars().count())
        .max()
        .unwrap_or(7)
        .max(7);
    let _ = write!(
        out,
        "{}",
        bold(&format!(
            "{:<width$}  {:>5}  {:>5}  {:>5}",
            "problem", "tests", "n", "c"
        ))
    );
    for k in &ks {
        let _ = write!(out, "  {}", bold(&format!("{:>8}", format!("pass@{k}"))));
    }
    out.push('\n');
    for p in &s.problems {
        // With --max-tests: the tests run of the problem's tests in all.
        let tests = match p.tests_total {
            Some(all) => format!("{}/{all}", p.tests),
            None => p.tests.to_string(),
        };
        let _ = write!(out, "{:<width$}  {tests:>5}  {:>5}  {:>5}", p.id, p.n, p.c);
        match &p.error {
            Some(why) => {
                let _ = write!(out, "  {}", alarm(&format!("not judged: {why}")));
            }
            None => {
                for k in &ks {
                    let cell = p
                        .pass_at_k
                        .get(*k)
                        .map_or("-".into(), |v| format!("{v:.3}"));
                    let _ = write!(out, "  {cell:>8}");
                }
                if p.not_counted > 0 {
                    let _ = write!(
                        out,
                        "  {}",
                        dim(&format!("{} not counted (IE or not run)", p.not_counted))
                    );
                }
            }
        }
        out.push('\n');
    }
    let judged = s.problems.iter().filter(|p| p.error.is_none()).count();
    for k in &ks {
        let over = s.pass_at_k_problems[*k];
        match s.pass_at_k.get(*k) {
            Some(mean) if over == judged => {
                let _ = writeln!(out, "pass@{k}  {mean:.4}  over {}", problems(over));
            }
            Some(mean) => {
                let _ = writeln!(out, "pass@{k}  {mean:.4}  over {over} of {judged} problems (the others have fewer than {k} samples)");
            }
            None => {
                let _ = writeln!(out, "pass@{k}  -  no problem has {k} samples");
            }
        }
    }
    if let Some(v) = &s.verification {
        let _ = writeln!(
            out,
            "data set's solutions: {} of {} right ones passed, {} of {} wrong ones failed",
            v.correct_passed, v.correct, v.incorrect_failed, v.incorrect
        );
    }
    if let Some(a) = &s.against {
        against(&mut out, a);
    }
    if s.errors > 0 {
        let what = match s.errors {
            1 => "1 problem could not be judged: it is in no mean".to_string(),
            n => format!("{n} problems could not be judged: they are in no mean"),
        };
        let _ = writeln!(out, "{}", alarm(&what));
    }
    out
}

/// `--against`: the difference of pass@1, its interval, and the problems that flipped.
fn against(out: &mut String, a: &Against) {
    let (Some(this), Some(other), Some(d), Some([lo, hi])) =
        (a.this, a.other, a.difference, a.ci95)
    else {
        let _ = writeln!(out, "against {}: no problem judged by both runs", a.file);
        return;
    };
    let _ = writeln!(
        out,
        "against {}: pass@1 {this:.4} vs {other:.4} over {} judged by both",
        a.file,
        problems(a.problems)
    );
    let _ = writeln!(
        out,
        "difference {d:+.4}, 95% interval [{lo:+.4}, {hi:+.4}] (paired bootstrap over problems)"
    );
    for f in &a.flipped {
        let how = if f.this > f.other {
            "now solved"
        } else {
            "no longer solved"
        };
        let _ = writeln!(out, "  flipped: {} {how}", f.id);
    }
}

fn problems(n: usize) -> String {
    match n {
        1 => "1 problem".into(),
        n => format!("{n} problems"),
    }
}

#[cfg(test)]
mod tests {
    use super::clock;

    #[test]
    fn the_time_left_reads_as_a_clock() {
        assert_eq!(clock(5), "0:05");
        assert_eq!(clock(125), "2:05");
        assert_eq!(clock(3725), "1:02:05");
    }
}
