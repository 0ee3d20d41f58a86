//! `judge show`: a problem as a contestant reads it: statement, limits, samples, solutions.

use std::io::Write;

use anstyle::Style;

use judge_core::function::harness::FnLanguage;
use judge_core::text;
use judge_core::workspace::{
    statement_parts, Part, Problem, Solution, Statement, TestCase, Workspace,
};
use judge_statement::tex;

use super::{dim, paint, verdict_style};

/// The most of a sample's input or answer shown.
const SAMPLE_SHOWN: usize = 4 << 10;

/// The problem's page: its facts, statement, samples, sample interactions and solutions.
pub fn render(
    out: &mut dyn Write,
    ws: &Workspace,
    problem: &Problem,
    cases: &[TestCase],
    solutions: &[Solution],
) -> std::io::Result<()> {
    let bold = Style::new().bold();

    writeln!(
        out,
        "{}  {}",
        paint(bold, &problem.id),
        paint(bold, &problem.title)
    )?;
    writeln!(out, "{}", dim(&facts(ws, problem, cases).join(" · ")))?;
    writeln!(out)?;

    let samples: Vec<&TestCase> = cases.iter().filter(|c| c.sample).collect();
    let interactive = problem.interactor.is_some();
    let placed = statement(out, ws, problem, &samples, interactive)?;

    // Those the statement did not place itself (`\nextsample`, `\remainingsamples`).
    let rest = &samples[placed..];
    if !rest.is_empty() {
        writeln!(out, "\n{}", paint(bold, "Samples"))?;
    }
    for case in rest {
        let mut text = String::new();
        sample(&mut text, case, interactive);
        write!(out, "{text}")?;
    }
    interactions(out, ws, problem)?;
    function(out, problem)?;
    solutions_of(out, problem, solutions)
}

/// A function problem's declaration, and its signature in each language a solution may be
/// written in as LeetCode's editor takes it.
fn function(out: &mut dyn Write, problem: &Problem) -> std::io::Result<()> {
    let Some(f) = &problem.function else {
        return Ok(());
    };
    let bold = Style::new().bold();
    writeln!(out, "\n{}  {}", paint(bold, "Function"), f.signature)?;
    for lang in FnLanguage::ALL {
        writeln!(
            out,
            "  {:<11} {}",
            lang.name(),
            lang.signature_line(&f.signature)
        )?;
    }
    writeln!(
        out,
        "{}",
        dim("  start from it: judge new NAME --function --lang LANG")
    )
}

/// The line under the title: limits, checker, cases and whatever else the problem has.
fn facts(ws: &Workspace, problem: &Problem, cases: &[TestCase]) -> Vec<String> {
    // An interactor decides by itself; a checker is named only when one runs after it.
    let checker = (problem.interactor.is_none() || problem.checker.program().is_some())
        .then(|| format!("checker {}", problem.checker));
    let mut facts = vec![
        problem.limits.to_string(),
        format!(
            "{} test case{}",
            cases.len(),
            if cases.len() == 1 { "" } else { "s" }
        ),
    ];
    facts.splice(1..1, checker);
    if let Some(g) = &problem.generator {
        facts.push(format!("generator {}", ws.show(g)));
    }
    if !problem.input_validators.is_empty() {
        let names: Vec<&str> = problem
            .input_validators
            .iter()
            .map(|v| v.name.as_str())
            .collect();
        facts.push(format!("input validator {}", names.join(", ")));
    }
    if problem.io != Default::default() {
        facts.push(format!(
            "reads {}, writes {}",
            problem.io.input.as_deref().unwrap_or("stdin"),
            problem.io.output.as_deref().unwrap_or("stdout")
        ));
    }
    if let Some(i) = &problem.interactor {
        if let Some(source) = i.program.source() {
            facts.push(format!(
                "interactive: interactor {} ({} protocol)",
                ws.show(source),
                i.protocol
            ));
        }
    }
    facts.extend(problem.url.clone());
    facts
}

/// The statement, with the samples it places itself; returns how many it placed.
fn statement(
    out: &mut dyn Write,
    ws: &Workspace,
    problem: &Problem,
    samples: &[&TestCase],
    interactive: bool,
) -> std::io::Result<usize> {
    let mut placed = 0;
    match problem.statement() {
        Statement::Markdown { text, .. } => {
            for part in statement_parts(&text) {
                match part {
                    Part::Text(t) => markdown(out, t)?,
                    Part::Samples { remaining } => {
                        let upto = if remaining {
                            samples.len()
                        } else {
                            (placed + 1).min(samples.len())
                        };
                        let mut text = String::new();
                        for case in &samples[placed..upto] {
                            sample(&mut text, case, interactive);
                        }
                        write!(out, "{text}")?;
                        placed = placed.max(upto);
                    }
                }
            }
        }
        Statement::Latex { path, text } => {
            let doc = judge_statement::latex::parse(&text, &problem.terms.constants);
            let folder = path.parent().unwrap_or(&problem.dir);
            let mut page = String::new();
            placed = super::latex::render(
                &mut page,
                &doc,
                std::path::Path::new(&ws.show(folder)),
                samples.len(),
                &mut |out, i| sample(out, samples[i], interactive),
            );
            write!(out, "{page}")?;
        }
        Statement::Elsewhere(dir) => writeln!(
            out,
            "  {}",
            dim(&format!(
                "(the statement is in {}/, in a format the judge does not show)",
                ws.show(&dir)
            ))
        )?,
        Statement::None => writeln!(out, "  {}", dim("(no statement.md)"))?,
    }
    Ok(placed)
}

/// The sample interactions, with the command that replays them.
fn interactions(out: &mut dyn Write, ws: &Workspace, problem: &Problem) -> std::io::Result<()> {
    let bold = Style::new().bold();
    let interactions = ws.sample_interactions(problem);
    if !interactions.is_empty() {
        writeln!(
            out,
            "\n{}  {}",
            paint(bold, "Sample interactions"),
            dim("(> solution to interactor, < interactor to solution)")
        )?;
        writeln!(
            out,
            "  {}",
            dim("replay them against a solution: judge run SOLUTION --replay")
        )?;
    }
    for path in interactions {
        let name = path.file_stem().map(|n| n.to_string_lossy().into_owned());
        writeln!(
            out,
            "\n  {}",
            paint(bold, &format!("sample {}", name.unwrap_or_default()))
        )?;
        let data = std::fs::read(&path).unwrap_or_default();
        for line in text::printable(&data, SAMPLE_SHOWN).lines() {
            writeln!(out, "    {line}")?;
        }
    }
    Ok(())
}

/// The solutions, each with the verdicts it is expected to get.
fn solutions_of(
    out: &mut dyn Write,
    problem: &Problem,
    solutions: &[Solution],
) -> std::io::Result<()> {
    writeln!(out, "\n{}", paint(Style::new().bold(), "Solutions"))?;
    if solutions.is_empty() {
        writeln!(
            out,
            "  {}",
            dim(&format!(
                "none yet: judge new NAME --problem {}",
                problem.id
            ))
        )?;
    }
    let width = solutions.iter().map(|s| s.name.len()).max().unwrap_or(0);
    for s in solutions {
        let expected = match problem.expected.get(&s.name) {
            Some(e) => {
                let first = *e.0.iter().next().expect("non-empty");
                paint(verdict_style(first), &e.to_string())
            }
            None => dim("no expected verdict"),
        };
        writeln!(out, "  {:<width$}  {expected}", s.name)?;
    }
    Ok(())
}

/// A sample: its name, its input and its answer.
/// One sample's files. An interactive problem's are the interactor's: the input it reads, and
/// what it checks against (its secret, not what the solution prints).
fn sample(out: &mut String, case: &TestCase, interactive: bool) {
    use std::fmt::Write as _;
    let bold = Style::new().bold();
    let _ = writeln!(out, "\n  {}", paint(bold, &format!("sample {}", case.name)));
    let files = match interactive {
        true => vec![("input, read by the interactor", &case.input)],
        false => vec![("input", &case.input), ("answer", &case.answer)],
    };
    for (label, path) in files {
        let data = std::fs::read(path).unwrap_or_default();
        let _ = writeln!(out, "  {}", dim(&format!("{label}:")));
        for line in text::printable(&data, SAMPLE_SHOWN).lines() {
            let _ = writeln!(out, "    {line}");
        }
    }
}

/// Markdown for a terminal: headings in bold, code blocks indented, TeX math as plain symbols.
fn markdown(out: &mut dyn Write, text: &str) -> std::io::Result<()> {
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if line.trim().is_empty() {
            writeln!(out)?;
        } else if in_code {
            writeln!(out, "      {line}")?;
        } else if let Some(h) = line.strip_prefix('#') {
            let h = h.trim_start_matches('#').trim();
            writeln!(
                out,
                "  {}",
                paint(Style::new().bold().underline(), &tex::line_to_text(h))
            )?;
        } else {
            writeln!(out, "  {}", tex::line_to_text(line))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn math_reads_plainly() {
        let mut out = Vec::new();
        super::markdown(
            &mut out,
            "# A $1 \\le n$ title\n$\\left( a \\right) \\neg b, \\cdots, c \\le d \\leq e$",
        )
        .unwrap();
        let text = anstream::adapter::strip_str(&String::from_utf8(out).unwrap()).to_string();
        assert_eq!(text, "  A 1 ≤ n title\n  ( a ) ¬ b, ⋯, c ≤ d ≤ e\n");
    }

    #[test]
    fn the_facts_name_what_the_problem_has() {
        let root = std::path::Path::new("/ws");
        let ws = judge_core::workspace::Workspace::loose(root);
        let mut problem = judge_core::fixtures::problem("sum", &root.join("problems/sum"));
        let one = [judge_core::workspace::TestCase::default()];
        assert_eq!(
            super::facts(&ws, &problem, &one),
            [
                "time 1 s · memory 256 MiB · output 1 MiB",
                "checker tokens",
                "1 test case"
            ]
        );
        problem.generator = Some(root.join("problems/sum/gen.py"));
        problem.io.input = Some("sum.in".into());
        problem.url = Some("https://example.com/sum".into());
        assert_eq!(
            super::facts(&ws, &problem, &[]),
            [
                "time 1 s · memory 256 MiB · output 1 MiB",
                "checker tokens",
                "0 test cases",
                "generator problems/sum/gen.py",
                "reads sum.in, writes stdout",
                "https://example.com/sum",
            ]
        );
    }
}
