//! The case table of `judge run`: its header, one row per case with the details of a failure, and the summary line.

use std::io::Write;

use anstyle::{AnsiColor, Style};

use super::{alarm, dim, memory_cell, paint, time_cell, verdict_style, yellow};
use judge_core::model::{CaseReport, CompileReport, NotTimed, SolutionReport};
use judge_core::units::{format_bytes, format_duration, format_run_time};
use judge_core::verdict::{Limits, StoppedBy, Verdict};

/// Column widths of the case table (the case column grows with long names: a package's
/// `secret/subtask1/03`).
const W_CASE: usize = 10;
const W_VERDICT: usize = 7;
const W_NUM: usize = 11;

/// The lines above the table: what is judged, the limits it runs under, what isolates it.
pub fn header(out: &mut dyn Write, r: &SolutionReport, path: &str) {
    let _ = writeln!(
        out,
        "{}   {}",
        paint(
            Style::new().bold(),
            &format!("{} / {}", r.problem, r.solution)
        ),
        dim(path)
    );
    let time = match &r.time_rule {
        Some(applied) => format!(
            "{} = {} {} for {}",
            format_duration(r.limits.time),
            format_duration(applied.base),
            applied.rule,
            r.language_name
        ),
        None => format_duration(r.limits.time),
    };
    let _ = writeln!(
        out,
        "{}",
        dim(&format!(
            "limits: time {time} (wall cap {}) · memory {} · output {}",
            format_duration(r.limits.wall),
            format_bytes(r.limits.memory_bytes),
            format_bytes(r.limits.output_bytes)
        ))
    );
    let _ = writeln!(out, "{}", dim(&format!("sandbox: {}", r.sandbox)));
    if !r.workers.is_empty() {
        let _ = writeln!(out, "{}", dim(&workers_line(r)));
    }
    if r.replay {
        let _ = writeln!(
            out,
            "{}",
            dim("replaying the sample interactions: the judge says the `<` lines and expects the `>` lines, word for word")
        );
    }
}

/// "workers: a (host, 1 case), b (host, 3 cases, time limit x1.32)", or, before any case is
/// judged, the workers that may.
fn workers_line(r: &SolutionReport) -> String {
    let judged = r.workers.iter().any(|w| w.cases > 0);
    let each: Vec<String> = r
        .workers
        .iter()
        .filter(|w| !judged || w.cases > 0)
        .map(|w| {
            let mut facts = vec![w.host.clone()];
            if judged {
                facts.push(format!(
                    "{} case{}",
                    w.cases,
                    if w.cases == 1 { "" } else { "s" }
                ));
            }
            if let Some(f) = w.time_scale {
                facts.push(format!(
                    "time limit x{f:.2}: its speed differs from this machine's"
                ));
            }
            format!("{} ({})", w.name, facts.join(", "))
        })
        .collect();
    format!(
        "{}: {}",
        if judged { "judged by" } else { "workers" },
        each.join(", ")
    )
}

pub fn compile_line(out: &mut dyn Write, c: &CompileReport) {
    let how = match (c.cached, &c.diagnostics) {
        (true, None) => "binary from cache (source unchanged)".to_string(),
        // No binary: what the cache holds is the compiler's verdict on this very source.
        (true, Some(_)) => "compile error from cache (source unchanged)".to_string(),
        // Nothing was compiled: "compiled in" would say there is a program.
        (false, Some(_)) => format!("compile error after {}", format_duration(c.duration)),
        (false, None) => format!("compiled in {}", format_duration(c.duration)),
    };
    let _ = writeln!(out, "{}", dim(&format!("{how} · {}", c.compiler)));
    if let Some(d) = &c.diagnostics {
        let _ = writeln!(out);
        let _ = write!(out, "{}", d);
        if !d.ends_with('\n') {
            let _ = writeln!(out);
        }
    }
}

/// Said before the table of a run with `--jobs N`.
pub fn parallel_note(out: &mut dyn Write, jobs: usize) {
    let _ = writeln!(
        out,
        "{}",
        dim(&format!(
            "{jobs} cases at a time: times measured in parallel; TLE and cases within 20% of the limit are re-run alone"
        ))
    );
}

/// The head of the case table; `repeated` adds the min column of `--repeat` (time is then the median).
pub fn table_head(out: &mut dyn Write, repeated: bool, names: usize) {
    let w = case_width(names);
    let head = if repeated {
        format!(
            "{:<w$} {:<W_VERDICT$} {:>W_NUM$} {:>W_NUM$} {:>W_NUM$} {:>W_NUM$}",
            "case", "verdict", "min", "median", "wall", "memory"
        )
    } else {
        format!(
            "{:<w$} {:<W_VERDICT$} {:>W_NUM$} {:>W_NUM$} {:>W_NUM$}",
            "case", "verdict", "time", "wall", "memory"
        )
    };
    let _ = writeln!(out, "\n  {}", paint(Style::new().bold(), &head));
}

/// The failed cases of a run whose details (input, diff, stderr, transcript) are shown, unless
/// the whole of them is asked for (`judge run --full`): the rows of the others say their
/// verdict and why, and the summary, what was left out, so that it stays on the screen.
pub const DETAILED_FAILURES: usize = 3;

/// A case's name as its row shows it: "04 (s)" for a sample.
fn row_name(name: &str, sample: bool) -> String {
    if sample {
        format!("{name} (s)")
    } else {
        name.to_string()
    }
}

/// One row of the table, with the details of a failed case beneath it when `details`.
pub fn case_row(out: &mut dyn Write, c: &CaseReport, limits: &Limits, names: usize, details: bool) {
    let w = case_width(names);
    let name = row_name(&c.name, c.sample);
    let verdict = format!("{:<W_VERDICT$}", c.verdict.code());
    let min = match &c.timing {
        Some(t) if c.verdict != Verdict::Tle => format!("{:>W_NUM$} ", format_duration(t.min())),
        Some(_) => format!("{:>W_NUM$} ", ""),
        None => String::new(),
    };
    let _ = write!(
        out,
        "  {:<w$} {} {min}{:>W_NUM$} {:>W_NUM$} {:>W_NUM$}",
        name,
        paint(verdict_style(c.verdict), &verdict),
        time_cell(c, limits),
        format_duration(c.wall),
        memory_cell(c, limits),
    );
    let indent = " ".repeat(w + 3);
    // A checker's message can span lines: the first one on the row, the others beneath it.
    let words = c
        .reason
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    let mut detail = words.lines();
    if let Some(first) = detail.next() {
        let _ = write!(out, "  {first}");
    }
    let _ = writeln!(out);
    for line in detail {
        let _ = writeln!(out, "{indent}{line}");
    }
    if let Some(h) = &c.hint {
        // A note may bring a second line (the source line a panic points at), under its text.
        for (i, line) in h.lines().enumerate() {
            let text = if i == 0 {
                format!("note: {line}")
            } else {
                format!("      {line}")
            };
            let _ = writeln!(out, "{indent}{}", dim(&text));
        }
    }
    for w in timing_warnings(c, limits) {
        let _ = writeln!(out, "{indent}{}", yellow(&format!("warning: {w}")));
    }
    if let Some(r) = &c.rerun {
        let note = format!(
            "note: re-run alone; in parallel: {} in {}",
            r.verdict.code(),
            format_duration(r.cpu)
        );
        let _ = writeln!(out, "{indent}{}", dim(&note));
    }
    if c.leftover_processes > 0 {
        let _ = writeln!(
            out,
            "{indent}{}",
            dim(&format!(
                "note: the program left {} process{} running; the judge killed {}",
                c.leftover_processes,
                if c.leftover_processes == 1 { "" } else { "es" },
                if c.leftover_processes == 1 {
                    "it"
                } else {
                    "them"
                }
            ))
        );
    }
    if details {
        case_details(out, c, &indent);
    }
}

/// The row of a case that ran under the shorter cap after a TLE and did not finish within it:
/// no verdict, and the time it was stopped at.
pub fn not_timed_row(out: &mut dyn Write, c: &NotTimed, limits: &Limits, names: usize) {
    let w = case_width(names);
    let _ = writeln!(
        out,
        "  {:<w$} {} {:>W_NUM$} {:>W_NUM$} {:>W_NUM$}  {}",
        row_name(&c.name, c.sample),
        dim(&format!("{:<W_VERDICT$}", "-")),
        c.time_text(),
        format_duration(c.wall),
        "",
        dim(&format!(
            "not timed: stopped under the {} cap after a TLE (--full gives it the whole {})",
            format_duration(c.cap),
            format_duration(limits.time)
        )),
    );
}

/// What is beneath a failed case's row: its input, the diff, the transcript, stderr.
fn case_details(out: &mut dyn Write, c: &CaseReport, indent: &str) {
    if let Some(input) = &c.input {
        let _ = writeln!(out, "{indent}{}", dim("input:"));
        for line in input.lines() {
            let _ = writeln!(out, "{indent}  {line}");
        }
    }
    if let Some(diff) = &c.diff {
        for line in diff.lines() {
            // The diff opens with "first difference at line N": say there what - and + are.
            if let Some(at) = line.trim_start().strip_prefix("first difference at ") {
                let _ = writeln!(
                    out,
                    "{indent}{}",
                    dim(&format!(
                        "diff (- answer, + output), first difference at {at}:"
                    ))
                );
                continue;
            }
            let styled = match line.chars().next() {
                Some('-') => paint(Style::new().fg_color(Some(AnsiColor::Green.into())), line),
                Some('+') => paint(Style::new().fg_color(Some(AnsiColor::Red.into())), line),
                _ => dim(line),
            };
            let _ = writeln!(out, "{indent}{styled}");
        }
    }
    if let Some(i) = &c.interaction {
        if let Some(t) = &i.transcript {
            let head = match i.transcript_lines_before {
                0 => "transcript (> solution to interactor, < interactor to solution):".to_string(),
                n => format!("transcript, its end ({n} lines before; > solution to interactor, < interactor to solution):"),
            };
            let _ = writeln!(out, "{indent}{}", dim(&head));
            for line in t.lines() {
                let _ = writeln!(out, "{indent}  {line}");
            }
        }
    }
    if let Some(err) = &c.stderr {
        let _ = writeln!(out, "{indent}{}", dim("stderr (end):"));
        for line in err.lines() {
            let _ = writeln!(out, "{indent}  {}", dim(line));
        }
    }
    if let Some(err) = c
        .interaction
        .as_ref()
        .and_then(|i| i.interactor_stderr.as_ref())
    {
        let head = match c.killed_by {
            // What it says of the solution's end, it wrote after the judge stopped it.
            Some(by) => format!(
                "interactor's stderr (end), written after the judge stopped the solution ({}):",
                stopped_words(by)
            ),
            None => "interactor's stderr (end):".to_string(),
        };
        let _ = writeln!(out, "{indent}{}", dim(&head));
        for line in err.lines() {
            let _ = writeln!(out, "{indent}  {}", dim(line));
        }
    }
}

/// Who stopped a program, as the words after "the judge stopped the solution".
fn stopped_words(by: StoppedBy) -> &'static str {
    match by {
        StoppedBy::WallCap => "at the wall-clock cap",
        StoppedBy::CpuLimit | StoppedBy::CpuBackstop => "at the time limit",
        StoppedBy::MemoryLimit => "at the memory limit",
        StoppedBy::OutputLimit | StoppedBy::FolderLimit => "at the output limit",
    }
}

/// What is doubtful about a case's time: a wide spread over repeats, or a time near the limit.
pub fn timing_warnings(c: &CaseReport, limits: &Limits) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = &c.timing {
        if t.wide() {
            out.push(format!(
                "wide spread over {} runs: {} to {} ({:.0}% of the median)",
                t.runs.len(),
                format_duration(t.min()),
                format_duration(t.max()),
                t.spread() * 100.0
            ));
        }
    }
    if c.verdict != Verdict::Tle && judge_core::stats::near_limit(c.cpu, limits.time) {
        out.push(format!(
            "within 10% of the time limit ({} of {})",
            format_duration(c.cpu),
            format_duration(limits.time)
        ));
    }
    out
}

/// The width of the case column for names up to `names` characters (a sample's " (s)" included).
pub fn case_width(names: usize) -> usize {
    (names + 4).max(W_CASE)
}

/// The status line: verdict, cases passed, max time and memory, where the binary came from.
pub fn summary(out: &mut dyn Write, r: &SolutionReport) {
    let v = paint(verdict_style(r.verdict), &format!(" {} ", r.verdict.code()));
    let mut parts = vec![format!("{}", r.verdict.meaning())];
    if r.verdict != Verdict::Ce {
        parts.push(format!("{}/{} passed", r.passed, r.total));
        match &r.partial {
            Some(p) => parts.push(format!("partial run: {}", p.describe())),
            None if r.cases.len() < r.total => {
                parts.push(format!("{} not run", r.total - r.cases.len()))
            }
            None => {}
        }
        let max_time = format_run_time(r.max_cpu(), r.any_tle().then_some(r.limits.time));
        parts.push(format!("max time {max_time}"));
        parts.push(format!("max memory {}", format_bytes(r.max_memory())));
        if let (true, Some((score, max))) = (r.scoring, r.score()) {
            parts.push(match max.filter(|m| m.is_finite()) {
                Some(m) => format!("score {}/{}", number(score), number(m)),
                None => format!("score {}", number(score)),
            });
        }
        if r.parallel {
            parts.push(format!("times measured in parallel ({} jobs)", r.jobs));
        }
    }
    if r.verdict != Verdict::Ce {
        parts.push(
            if r.compile.cached {
                "binary from cache"
            } else {
                "freshly compiled"
            }
            .to_string(),
        );
    }
    if let Some(e) = &r.expected {
        let ok = e.admits(r.verdict);
        parts.push(format!(
            "expected {e}{}",
            if ok { "" } else { " (MISMATCH)" }
        ));
    }
    let _ = writeln!(out, "\n{v} {}", parts.join(" · "));
    if r.workers.iter().any(|w| w.cases > 0) {
        let _ = writeln!(out, "    {}", dim(&workers_line(r)));
    }
    if let (true, Some(groups)) = (r.scoring, &r.groups) {
        // Each group that gives points, with what it gave: the subtasks of a scoring problem.
        let scored: Vec<String> = groups
            .groups
            .iter()
            .filter(|g| !g.path.is_empty() && g.max_score.is_some_and(|m| m > 0.0 && m.is_finite()))
            .map(|g| {
                format!(
                    "{} {} {}/{}",
                    g.path,
                    g.verdict.code(),
                    number(g.score),
                    number(g.max_score.unwrap_or_default())
                )
            })
            .collect();
        if !scored.is_empty() {
            let _ = writeln!(
                out,
                "{}",
                dim(&format!("    groups: {}", scored.join(" · ")))
            );
        }
    }
    grader_errors(out, r);
    if let Some(first) = r.not_timed.first() {
        let n = r.not_timed.len();
        let _ = writeln!(
            out,
            "{}",
            dim(&format!(
                "    {n} case{} after the first TLE ran under a {} cap and did not finish: not timed, no verdict (--full runs every case under the whole {})",
                if n == 1 { "" } else { "s" },
                format_duration(first.cap),
                format_duration(r.limits.time)
            ))
        );
    }
    if let Some(dir) = kept_folder(r) {
        let _ = writeln!(
            out,
            "{}",
            dim(&format!(
                "    output and stderr of the failed cases kept in {}/",
                shown(&dir)
            ))
        );
    }
}

/// A package's own grader that gave no result: the group is IE, and this says why.
fn grader_errors(out: &mut dyn Write, r: &SolutionReport) {
    for g in r.groups.iter().flat_map(|g| &g.groups) {
        if let Some(why) = &g.error {
            let group = if g.path.is_empty() {
                "the root"
            } else {
                &g.path
            };
            let _ = writeln!(out, "    {}", alarm(&format!("group {group}: {why}")));
        }
    }
}

/// The folder that holds the kept files of every failed case: a package's cases are named by
/// their group (`sample/1`, `secret/2`), and so are their files, so that of the first failed
/// case alone may hold none of the others'.
fn kept_folder(r: &SolutionReport) -> Option<std::path::PathBuf> {
    let mut kept = r
        .cases
        .iter()
        .filter_map(|c| c.saved_output.as_deref()?.parent());
    let mut folder = kept.next()?.to_path_buf();
    for other in kept {
        while !other.starts_with(&folder) {
            folder = folder.parent()?.to_path_buf();
        }
    }
    Some(folder)
}

/// Said under the summary when the details of `count` failed cases were left out.
pub fn left_out(out: &mut dyn Write, count: usize) {
    if count > 0 {
        let _ = writeln!(
            out,
            "{}",
            dim(&format!(
                "    the details of {count} more failed case{} are left out (--full shows them)",
                if count == 1 { "" } else { "s" }
            ))
        );
    }
}

/// A path as the user would type it: relative to the current folder when below it.
fn shown(path: &std::path::Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(|p| p.display().to_string()))
        .unwrap_or_else(|| path.display().to_string())
}

/// A score as people write it: "50", "12.5".
pub fn number(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;
    use judge_core::fixtures;
    use judge_core::model::{Rerun, Timing};
    use judge_core::verdict::{Reason, StoppedBy};

    /// A case as the table shows it: 1.9 MiB, 3 bytes, a millisecond of wall time more.
    fn case(name: &str, verdict: Verdict, ms: u64) -> CaseReport {
        let mut c = fixtures::case(name, verdict, ms);
        c.wall = Duration::from_millis(ms + 1);
        (c.memory_bytes, c.output_bytes) = (1900 << 10, 3);
        c
    }

    /// A run that shows every part of a row: a sample, a wrong answer with its input and diff,
    /// a crash with stderr and a hint, a re-run TLE, leftovers, a case near the limit.
    fn report() -> SolutionReport {
        let mut sample = case("01", Verdict::Ac, 1);
        sample.sample = true;
        let mut wrong = case("02", Verdict::Wa, 2);
        wrong.reason = Some(Reason::WrongAnswer(Some(
            "token 1 (line 1, column 1): expected `10`, received `11`".into(),
        )));
        wrong.input = Some("5".into());
        wrong.diff = Some("  first difference at line 1\n-     1 │ 10\n+     1 │ 11".into());
        wrong.saved_output = Some(PathBuf::from(".judge/last/double/wrong/02.out"));
        let mut crash = case("03", Verdict::Re, 3);
        crash.reason = Some(Reason::Signal(judge_runner::SIGABRT));
        crash.hint = Some("likely a stack overflow".into());
        crash.stderr = Some("thread 'main' has overflowed its stack".into());
        crash.leftover_processes = 2;
        let mut slow = case("04", Verdict::Tle, 1004);
        slow.reason = Some(Reason::CpuTime);
        slow.killed_by = Some(StoppedBy::CpuLimit);
        slow.rerun = Some(Rerun {
            verdict: Verdict::Tle,
            cpu: Duration::from_millis(1003),
        });
        let near = case("05", Verdict::Ac, 950);
        let mut r = fixtures::report("wrong", vec![sample, wrong, crash, slow, near]);
        r.problem = "double".into();
        r.path = PathBuf::from("solutions/double/wrong.rs");
        r.sandbox = judge_runner::Sandbox {
            isolated: vec!["files".into(), "network".into()],
            missing: vec![judge_runner::Missing {
                what: "processes".into(),
                why: "no pid namespace".into(),
            }],
        };
        r.expected = Some("AC".parse().unwrap());
        r.compile.duration = Duration::from_millis(3);
        r.compile.compiler = "rustc 1.95.0 (59807616e 2026-04-14)".into();
        r.limits = Limits::new(Duration::from_secs(1), 256 << 20, 64 << 20);
        (r.total, r.jobs, r.parallel) = (6, 2, true);
        r.conclude(None);
        r
    }

    fn render(r: &SolutionReport, repeated: bool) -> String {
        let mut out = Vec::new();
        header(&mut out, r, "solutions/double/wrong.rs");
        compile_line(&mut out, &r.compile);
        if r.jobs > 1 {
            parallel_note(&mut out, r.jobs);
        }
        table_head(&mut out, repeated, 2);
        for c in &r.cases {
            case_row(&mut out, c, &r.limits, 2, true);
        }
        summary(&mut out, r);
        anstream::adapter::strip_str(&String::from_utf8(out).unwrap()).to_string()
    }

    #[test]
    fn the_run_table_and_its_summary() {
        insta::assert_snapshot!(render(&report(), false));
    }

    #[test]
    fn a_compile_error_from_the_cache_is_no_binary() {
        let mut r = report();
        r.compile.cached = true;
        r.compile.diagnostics = Some("error: expected `;`\n".into());
        let mut out = Vec::new();
        compile_line(&mut out, &r.compile);
        let out = anstream::adapter::strip_str(&String::from_utf8(out).unwrap()).to_string();
        assert!(
            out.starts_with("compile error from cache (source unchanged)"),
            "{out}"
        );
        assert!(!out.contains("binary"), "{out}");
        r.compile.cached = false;
        let mut out = Vec::new();
        compile_line(&mut out, &r.compile);
        let out = anstream::adapter::strip_str(&String::from_utf8(out).unwrap()).to_string();
        assert!(out.starts_with("compile error after 3 ms · rustc"), "{out}");
        assert!(!out.contains("compiled in"), "{out}");
    }

    #[test]
    fn the_kept_files_are_said_to_be_in_the_folder_that_holds_them_all() {
        let kept_in = |outputs: &[&str]| {
            let mut r = report();
            for c in &mut r.cases {
                c.saved_output = None;
            }
            for (c, o) in r.cases.iter_mut().zip(outputs) {
                c.saved_output = Some(PathBuf::from(o));
            }
            let mut out = Vec::new();
            summary(&mut out, &r);
            let out = anstream::adapter::strip_str(&String::from_utf8(out).unwrap()).to_string();
            out.lines()
                .find_map(|l| {
                    l.trim()
                        .strip_prefix("output and stderr of the failed cases kept in ")
                })
                .map(str::to_string)
        };
        let base = ".judge/last/p/wrong_answer/off.py";
        assert_eq!(
            kept_in(&[&format!("{base}/secret/group1/1.out")]).unwrap(),
            format!("{base}/secret/group1/")
        );
        assert_eq!(
            kept_in(&[
                &format!("{base}/sample/1.out"),
                &format!("{base}/secret/group1/2.out"),
            ])
            .unwrap(),
            format!("{base}/")
        );
    }

    #[test]
    fn the_table_of_repeated_runs() {
        let mut r = report();
        r.jobs = 1;
        r.parallel = false;
        r.cases.truncate(2);
        r.cases[0].timing = Some(Timing {
            runs: vec![
                Duration::from_millis(1),
                Duration::from_millis(1),
                Duration::from_millis(2),
            ],
            verdict_changed: false,
        });
        r.cases[1].timing = Some(Timing {
            runs: vec![Duration::from_millis(10), Duration::from_millis(40)],
            verdict_changed: true,
        });
        for c in &mut r.cases {
            c.cpu = c.timing.as_ref().unwrap().median();
        }
        r.conclude(None);
        insta::assert_snapshot!(render(&r, true));
    }
}
