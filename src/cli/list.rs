//! `judge list`: the problems, their limits, test counts, declared function (LeetCode's form)
//! and solutions with expected verdicts;
//! with `--languages`, the languages and which of their toolchains are installed.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use judge_core::workspace::{Problem, Solution, TestCase, Workspace};
use judge_report as report;

use super::{Context, EXIT_ERROR, EXIT_OK};

#[derive(clap::Args)]
pub(crate) struct ListArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// List the languages instead: each one's extensions, and its toolchain's version where it
    /// is installed (what it needs where it is not).
    #[arg(long)]
    pub(crate) languages: bool,
}

fn languages(ctx: &Context, json: bool) -> Result<ExitCode> {
    let all = judge_core::workspace::installed::installed(&ctx.ws);
    let mut out = anstream::stdout();
    if json {
        let doc: Vec<serde_json::Value> = all
            .iter()
            .map(|i| {
                serde_json::json!({
                    "id": i.language.id,
                    "name": i.language.name,
                    "code": i.language.code,
                    "extensions": i.language.extensions,
                    "installed": i.toolchain.is_ok(),
                    "version": i.toolchain.as_ref().ok(),
                    "missing": i.toolchain.as_ref().err().map(ToString::to_string),
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        write!(out, "{}", report::languages::render(&all))?;
    }
    Ok(ExitCode::from(EXIT_OK))
}

pub(crate) fn list(ctx: &Context, args: ListArgs) -> Result<ExitCode> {
    if args.languages {
        return languages(ctx, args.json);
    }
    let ws = &ctx.ws;
    let mut out = anstream::stdout();
    let mut problems = Vec::new();
    let mut failed = false;
    for id in ws.problem_ids()? {
        let loaded = ws
            .problem(&id)
            .and_then(|p| ws.testcases_if_any(&p).map(|c| (p, c)))
            .and_then(|(p, c)| ws.solutions(&id).map(|s| (p, c, s)));
        match loaded {
            Ok(x) => problems.push(x),
            Err(e) => {
                failed = true;
                eprintln!("error: {e}");
            }
        }
    }
    if args.json {
        let doc: Vec<serde_json::Value> = problems.iter().map(|l| json_of(ws, l)).collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
    } else {
        for listed in &problems {
            print_problem(&mut out, ws, listed)?;
        }
    }
    Ok(ExitCode::from(if failed { EXIT_ERROR } else { EXIT_OK }))
}

/// A problem as it is listed: itself, its cases and its solutions.
type Listed = (Problem, Vec<TestCase>, Vec<Solution>);

/// A problem's entry in `judge list --json`.
fn json_of(ws: &Workspace, (p, cases, sols): &Listed) -> serde_json::Value {
    serde_json::json!({
        "id": p.id,
        "title": p.title,
        "time_limit_ms": p.limits.time.as_millis() as u64,
        "memory_limit_kb": p.limits.memory_bytes / 1024,
        "output_limit_kb": p.limits.output_bytes / 1024,
        "checker": p.checker.to_string(),
        "checker_summary": p.checker_summary(),
        "checker_program": p.checker.program().map(|c| ws.show(&c.source)),
        "function": p.function.as_ref().map(|f| f.signature.to_string()),
        "cases": cases.len(),
        "samples": cases.iter().filter(|c| c.sample).map(|c| c.name.clone()).collect::<Vec<_>>(),
        "solutions": sols.iter().map(|s| serde_json::json!({
            "name": s.name,
            "path": ws.show(&s.path),
            "language": ws.language_of(&s.path).ok().map(|l| l.id.clone()),
            "expected": p.expected.get(&s.name).map(|e| e.to_string()),
        })).collect::<Vec<_>>(),
    })
}

/// A problem's lines: its title, limits, cases and checker, then its solutions, each with its
/// language and expected verdict, and the expected verdicts that have no source.
fn print_problem(out: &mut dyn Write, ws: &Workspace, (p, cases, sols): &Listed) -> Result<()> {
    let samples = cases.iter().filter(|c| c.sample).count();
    writeln!(
        out,
        "{}  {}",
        report::paint(anstyle::Style::new().bold(), &p.id),
        p.title
    )?;
    writeln!(
        out,
        "  {} · {} test case{} ({} sample{}) · checker {}",
        p.limits,
        cases.len(),
        if cases.len() == 1 { "" } else { "s" },
        samples,
        if samples == 1 { "" } else { "s" },
        p.checker_summary()
    )?;
    if let Some(f) = &p.function {
        writeln!(
            out,
            "  function {} · in LeetCode's form or as a whole program",
            f.signature
        )?;
    }
    let width = sols.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let language = |s: &Solution| {
        ws.language_of(&s.path)
            .map(|l| l.name.clone())
            .unwrap_or_default()
    };
    let lang_width = sols.iter().map(|s| language(s).len()).max().unwrap_or(0);
    for s in sols {
        let expected = match p.expected.get(&s.name) {
            Some(e) => {
                let first = *e.0.iter().next().expect("non-empty");
                report::paint(report::verdict_style(first), &e.to_string())
            }
            None => report::dim("no expected verdict"),
        };
        writeln!(
            out,
            "    {:<width$}  {}  {}",
            s.name,
            report::dim(&format!("{:<lang_width$}", language(s))),
            expected
        )?;
    }
    for name in p
        .expected
        .keys()
        .filter(|n| !sols.iter().any(|s| &&s.name == n))
    {
        writeln!(
            out,
            "    {}",
            report::dim(&format!(
                "warning: problem.toml expects a verdict of `{name}`, which has no source file"
            ))
        )?;
    }
    writeln!(out)?;
    Ok(())
}
