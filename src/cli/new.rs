//! `judge new`, `judge new-problem` and `judge init`: start an attempt, a problem, a workspace.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use judge_core::scaffold;
use judge_core::workspace::Workspace;
use judge_report::dim;

use super::{Context, EXIT_OK};

#[derive(clap::Args)]
pub(crate) struct NewArgs {
    /// The new solution's name: it becomes solutions/PROBLEM/NAME.rs (NAME.py with --lang py,
    /// or name the file: `mine.cpp`).
    name: String,

    /// Its language: a key or an extension (`python`, `py`, `cpp`, `java`); default Rust.
    #[arg(long, short, value_name = "LANG")]
    lang: Option<String>,

    /// Its problem (needed when the workspace has more than one).
    #[arg(long, short)]
    problem: Option<String>,

    /// Start from a copy of this solution (a name or a path) instead of the template; a
    /// solution in function form (LeetCode's) becomes a whole stdin/stdout program.
    #[arg(long, value_name = "SOLUTION", conflicts_with = "function")]
    from: Option<String>,

    /// Start from the problem's declared function, as LeetCode's editor gives it, instead of
    /// a whole program.
    #[arg(long)]
    function: bool,
}

pub(crate) fn new(ctx: &Context, args: NewArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    let cwd = ctx.cwd.as_path();
    // `mine.py` names the language by its extension, when a language claims it.
    let (name, lang) = match args.name.rsplit_once('.') {
        Some((stem, ext)) if ws.config.languages.of_path(Path::new(&args.name)).is_some() => {
            (stem, args.lang.clone().or(Some(ext.to_string())))
        }
        _ => (args.name.as_str(), args.lang.clone()),
    };
    let from = match &args.from {
        Some(spec) => Some(ws.resolve_solution(spec, args.problem.as_deref(), cwd)?),
        None => None,
    };
    let problem = match (&args.problem, &from) {
        (Some(p), _) => p.clone(),
        (None, Some(f)) => f.problem.clone(),
        (None, None) => match ws.problem_ids()?.as_slice() {
            [only] => only.clone(),
            ids => anyhow::bail!(
                "which problem is `{name}` for?\n  fix: add --problem P (one of: {})",
                ids.join(", ")
            ),
        },
    };
    let start = match (&from, args.function) {
        (Some(f), _) => scaffold::Start::From(f),
        (None, true) => scaffold::Start::Function,
        (None, false) => scaffold::Start::Template,
    };
    let made = scaffold::new_solution(ws, &problem, name, lang.as_deref(), start)?;
    // The short name when it is unambiguous, PROBLEM/NAME otherwise.
    let spec = match ws.resolve_solution(name, None, cwd) {
        Ok(_) => name.to_string(),
        Err(_) => format!("{problem}/{name}"),
    };
    let mut out = anstream::stdout();
    let origin = match (&from, args.function) {
        (Some(f), _) if made.made_whole => {
            format!(
                "{}, its function made a whole stdin/stdout program",
                ws.show(&f.path)
            )
        }
        (Some(f), _) => format!("a copy of {}", ws.show(&f.path)),
        (None, true) => "the function's template".to_string(),
        (None, false) => "the template".to_string(),
    };
    writeln!(out, "created {} from {origin}", ws.show(&made.path))?;
    writeln!(out, "judge it:  judge run {spec}")?;
    writeln!(
        out,
        "{}",
        dim(&format!(
            "or on every save: judge run {spec} --watch · statement: judge show {problem}"
        ))
    )?;
    Ok(ExitCode::from(EXIT_OK))
}

#[derive(clap::Args)]
pub(crate) struct NewProblemArgs {
    /// The problem's id: its folder name under problems/ and testcases/.
    id: String,

    /// Its title (default: made from the id).
    #[arg(long)]
    title: Option<String>,
}

pub(crate) fn new_problem(ctx: &Context, args: NewProblemArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    let title = args.title.clone().unwrap_or_else(|| {
        args.id
            .split(['-', '_'])
            .filter(|w| !w.is_empty())
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect::<String>())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(" ")
    });
    let created = scaffold::new_problem(ws, &args.id, &title)?;
    let mut out = anstream::stdout();
    writeln!(out, "created problem `{}` ({title}):", args.id)?;
    for p in &created {
        writeln!(out, "  {}", ws.show(p))?;
    }
    let id = &args.id;
    writeln!(out, "next:")?;
    writeln!(
        out,
        "  1. write the statement and the limits (problems/{id}/statement.md, problem.toml)"
    )?;
    writeln!(
        out,
        "  2. add test cases: testcases/{id}/1.in with its answer in testcases/{id}/1.out (judge run needs at least one)"
    )?;
    writeln!(
        out,
        "  3. make problems/{id}/gen.rs print a whole input, for judge stress"
    )?;
    writeln!(out, "  4. start a solution: judge new NAME --problem {id}")?;
    Ok(ExitCode::from(EXIT_OK))
}

#[derive(clap::Args)]
pub(crate) struct InitArgs {
    /// Where to create the workspace (default: the current folder).
    dir: Option<PathBuf>,
}

pub(crate) fn init(cwd: &Path, args: InitArgs) -> Result<ExitCode> {
    let dir = cwd.join(args.dir.unwrap_or_else(|| PathBuf::from(".")));
    let created = scaffold::init(&dir)?;
    let ws = Workspace::at(&dir)?;
    let mut out = anstream::stdout();
    writeln!(out, "created a practice workspace in {}:", dir.display())?;
    for p in &created {
        writeln!(out, "  {}", ws.show(p))?;
    }
    let example = scaffold::example_problem();
    let go = match args_dir_shown(&dir, cwd) {
        Some(d) => format!("cd {d} && "),
        None => String::new(),
    };
    writeln!(out, "try it:")?;
    writeln!(out, "  {go}judge show {example}")?;
    writeln!(
        out,
        "  judge run sum                      # the example solution: AC"
    )?;
    writeln!(
        out,
        "  judge new mine                     # your attempt, from the template"
    )?;
    writeln!(
        out,
        "  judge stress mine --against sum    # against the example, on generated inputs"
    )?;
    writeln!(
        out,
        "  judge new-problem ID               # a problem of your own"
    )?;
    Ok(ExitCode::from(EXIT_OK))
}

/// The folder to `cd` into, when it is not the current one.
fn args_dir_shown(dir: &Path, cwd: &Path) -> Option<String> {
    let d = dir.canonicalize().ok()?;
    if d == cwd.canonicalize().ok()? {
        return None;
    }
    Some(
        d.strip_prefix(cwd.canonicalize().ok()?)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| d.display().to_string()),
    )
}
