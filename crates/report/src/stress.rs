//! `judge stress` as text: what is stressed, and what it found.

use std::io::Write;

use anstyle::Style;

use judge_core::stress::{self, Disagreement, InternalError, StressOptions, StressReport};
use judge_core::units::{format_bytes, format_duration};
use judge_core::verdict::Verdict;
use judge_core::workspace::{Problem, Solution, Workspace};

use super::{dim, paint, verdict_style};

/// The lines before the seeds: what is stressed against what, the generator, the seeds and
/// the limits.
pub fn header(
    out: &mut dyn Write,
    ws: &Workspace,
    problem: &Problem,
    (attempt, reference): (&Solution, &Solution),
    options: &StressOptions,
) -> std::io::Result<()> {
    let limits = options.run.limits(problem);
    writeln!(
        out,
        "{}  {}",
        paint(
            Style::new().bold(),
            &format!(
                "{} / {} against {}",
                problem.id, attempt.name, reference.name
            )
        ),
        dim(&ws.show(&attempt.path))
    )?;
    let until = match (options.count, options.duration) {
        (Some(c), Some(d)) => format!("{c} seeds or {}", format_duration(d)),
        (Some(c), None) => format!("{c} seeds"),
        (None, Some(d)) => format_duration(d),
        (None, None) => format!("{} seeds", stress::DEFAULT_COUNT),
    };
    let generator = problem
        .generator
        .as_ref()
        .map(|g| ws.show(g))
        .unwrap_or_else(|| "none".into());
    writeln!(
        out,
        "{}",
        dim(&format!(
            "generator {generator}{} · from seed {} · {until} · limits: time {} · memory {}",
            options
                .size
                .map(|s| format!(" (size {s})"))
                .unwrap_or_default(),
            options.first_seed,
            format_duration(limits.time),
            format_bytes(limits.memory_bytes),
        ))
    )
}

/// The outcome: no disagreement, the disagreement with the input and both outputs, or who
/// is at fault when the run could not go on.
pub fn render(
    out: &mut dyn Write,
    ws: &Workspace,
    problem: &str,
    r: &StressReport,
    reproduce: Option<&str>,
    saved: Option<&str>,
) -> std::io::Result<()> {
    let pace = format!(
        "{} seed{} in {} · {:.0} seeds/s",
        r.seeds_tried,
        if r.seeds_tried == 1 { "" } else { "s" },
        format_duration(r.elapsed),
        r.rate()
    );
    writeln!(out)?;
    if let Some(ie) = &r.internal_error {
        return internal_error(out, ie, &pace);
    }
    if let Some(diagnostics) = &r.compile_error {
        write!(out, "{diagnostics}")?;
        writeln!(
            out,
            "\n{} the attempt does not compile",
            badge(Verdict::Ce, "CE")
        )?;
        return Ok(());
    }
    let Some(d) = &r.disagreement else {
        let last = r.first_seed + r.seeds_tried.saturating_sub(1);
        writeln!(
            out,
            "{} no disagreement · seeds {} to {last} · {pace}",
            badge(Verdict::Ac, "OK"),
            r.first_seed
        )?;
        return Ok(());
    };
    disagreement(out, r, d, &pace)?;
    writeln!(out)?;
    if let Some(name) = saved {
        writeln!(
            out,
            "saved as test case {name}: {}",
            ws.show(
                &ws.root
                    .join("testcases")
                    .join(problem)
                    .join(format!("{name}.in"))
            )
        )?;
    }
    if let Some(cmd) = reproduce {
        writeln!(out, "reproduce: {cmd}")?;
    }
    Ok(())
}

fn badge(v: Verdict, text: &str) -> String {
    paint(verdict_style(v), &format!(" {text} "))
}

/// The generator, the reference or the checker at fault: what went wrong, and on which seed.
fn internal_error(out: &mut dyn Write, ie: &InternalError, pace: &str) -> std::io::Result<()> {
    writeln!(
        out,
        "{} {}{}",
        badge(Verdict::Ie, "IE"),
        ie.message,
        ie.seed.map(|s| format!(" (seed {s})")).unwrap_or_default()
    )?;
    if let Some(d) = &ie.details {
        for line in d.lines() {
            writeln!(out, "     {line}")?;
        }
    }
    writeln!(
        out,
        "{}",
        dim(&format!(
            "the {} is at fault, not the attempt; {pace} before it",
            ie.culprit
        ))
    )
}

/// The seed the attempt disagrees on: its verdict, the input and both outputs, the diff and
/// the attempt's stderr.
fn disagreement(
    out: &mut dyn Write,
    r: &StressReport,
    d: &Disagreement,
    pace: &str,
) -> std::io::Result<()> {
    let c = &d.attempt;
    writeln!(
        out,
        "{} the attempt disagrees with {} on seed {} · {pace}",
        badge(c.verdict, c.verdict.code()),
        r.reference,
        d.seed
    )?;
    let mut facts = vec![format!("{} {}", c.verdict.code(), c.verdict.meaning())];
    facts.extend(c.reason.as_ref().map(ToString::to_string));
    writeln!(out, "  {}", facts.join(": "))?;
    if let Some(h) = &c.hint {
        writeln!(out, "  {}", dim(&format!("note: {h}")))?;
    }
    let size = r.size.map(|s| format!(" {s}")).unwrap_or_default();
    block(out, format!("input (gen {}{size}):", d.seed), &d.input)?;
    block(
        out,
        format!("reference output ({}):", r.reference),
        &d.reference_output,
    )?;
    block(
        out,
        format!("attempt output ({}):", r.attempt),
        &d.attempt_output,
    )?;
    if let Some(diff) = &c.diff {
        writeln!(out, "\n{}", paint(Style::new().bold(), "diff:"))?;
        for line in diff.lines() {
            writeln!(out, "  {line}")?;
        }
        writeln!(out, "  {}", dim("(- reference, + attempt)"))?;
    }
    if let Some(err) = &c.stderr {
        writeln!(
            out,
            "\n{}",
            paint(Style::new().bold(), "attempt stderr (end):")
        )?;
        for line in err.lines() {
            writeln!(out, "  {}", dim(line))?;
        }
    }
    Ok(())
}

/// A titled block of a program's input or output.
fn block(out: &mut dyn Write, title: String, data: &[u8]) -> std::io::Result<()> {
    writeln!(out, "\n{}", paint(Style::new().bold(), &title))?;
    if data.is_empty() {
        writeln!(out, "  {}", dim("(empty)"))?;
    }
    for line in stress::shown(data).lines() {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};
    use std::time::Duration;

    use super::*;
    use judge_core::fixtures;
    use judge_core::stress::Culprit;

    fn plain(out: Vec<u8>) -> String {
        anstream::adapter::strip_str(&String::from_utf8(out).unwrap()).to_string()
    }

    fn report() -> StressReport {
        StressReport {
            problem: "sum".into(),
            attempt: "wrong".into(),
            attempt_path: PathBuf::from("solutions/sum/wrong.py"),
            reference: "ok".into(),
            verdict: Verdict::Ac,
            first_seed: 1,
            seeds_tried: 3,
            elapsed: Duration::from_millis(1500),
            limits: fixtures::report("x", vec![]).limits,
            size: Some(7),
            disagreement: None,
            internal_error: None,
            compile_error: None,
        }
    }

    #[test]
    fn an_internal_error_names_the_culprit_and_the_seed() {
        let ie = InternalError {
            culprit: Culprit::Generator,
            seed: Some(4),
            message: "the generator printed nothing on `gen 4`".into(),
            details: Some("Traceback\nValueError".into()),
        };
        let mut out = Vec::new();
        internal_error(&mut out, &ie, "3 seeds in 1.5 s · 2 seeds/s").unwrap();
        assert_eq!(
            plain(out),
            " IE  the generator printed nothing on `gen 4` (seed 4)\n     Traceback\n     ValueError\n\
             the generator is at fault, not the attempt; 3 seeds in 1.5 s · 2 seeds/s before it\n"
        );
    }

    #[test]
    fn a_disagreement_shows_the_input_both_outputs_and_how_to_replay_it() {
        let ws = Workspace::loose(Path::new("/ws"));
        let mut r = report();
        let mut attempt = fixtures::case("seed 3", Verdict::Wa, 3);
        attempt.stderr = Some("oops".into());
        r.disagreement = Some(Disagreement {
            seed: 3,
            input: b"1 2\n".to_vec(),
            reference_output: b"3\n".to_vec(),
            attempt_output: Vec::new(),
            attempt,
        });
        let mut out = Vec::new();
        let replay = Some("judge stress wrong --seed 3");
        render(&mut out, &ws, "sum", &r, replay, Some("stress-3")).unwrap();
        let text = plain(out);
        for part in [
            "the attempt disagrees with ok on seed 3",
            "\ninput (gen 3 7):\n  1 2\n",
            "\nreference output (ok):\n  3\n",
            "\nattempt output (wrong):\n  (empty)\n",
            "\nattempt stderr (end):\n  oops\n",
            "\nsaved as test case stress-3: testcases/sum/stress-3.in\nreproduce: judge stress wrong --seed 3\n",
        ] {
            assert!(text.contains(part), "{part:?} not in {text}");
        }
    }
}
