//! A markdown page's `console` blocks: the commands each shows, the output under each command,
//! and the annotation before the block that says how to test it (see the parent module).

use std::fmt;

/// One ```` ```console ```` block of a page.
#[derive(Debug)]
pub(super) struct Block {
    /// The line of its opening fence, from 1.
    pub(super) line: usize,
    pub(super) plan: Plan,
    pub(super) commands: Vec<Shown>,
}

/// What the annotation before a block says.
#[derive(Debug, PartialEq)]
pub(super) enum Plan {
    /// `<!-- not tested: REASON -->`.
    NotTested(String),
    /// No annotation, or `<!-- test: STEP; STEP... -->`: the steps, then the commands.
    Tested { steps: Vec<Step>, exit: i32 },
}

/// What is done to the page's workspace before a block's commands run.
#[derive(Debug, PartialEq)]
pub(super) enum Step {
    /// `fresh`: start again from a new copy of the repository's workspace.
    Fresh,
    /// `write PATH from FIXTURE`: the repository's file or folder FIXTURE copied to PATH.
    Write { path: String, fixture: String },
    /// `append PATH from FIXTURE`: the repository's file FIXTURE added at the end of PATH.
    Append { path: String, fixture: String },
    /// `parquet PATH from FIXTURE`: the repository's JSON Lines file FIXTURE written as the
    /// Parquet file PATH (a binary file the repository does not keep).
    Parquet { path: String, fixture: String },
    /// `remove PATH`: a file of the workspace removed.
    Remove(String),
    /// `run ARGS`: `judge ARGS` run for what it leaves behind (a submission in the history).
    Run(Vec<String>),
    /// `without PROGRAM`: the block's commands run with a PATH on which PROGRAM is not found,
    /// whether or not the machine has it.
    Without(String),
}

/// A command as the block shows it, with the output shown under it.
#[derive(Debug)]
pub(super) struct Shown {
    pub(super) line: usize,
    /// The command line as written, without the `$ `.
    pub(super) text: String,
    pub(super) output: String,
}

/// A page that cannot be read as the scheme says: the line and why.
#[derive(Debug)]
pub(super) struct Malformed {
    pub(super) line: usize,
    pub(super) why: String,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

/// The `console` blocks of a page, in order.
pub(super) fn blocks(text: &str) -> Result<Vec<Block>, Malformed> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start();
        if !fence.starts_with("```") {
            i += 1;
            continue;
        }
        let start = i;
        let close = (i + 1..lines.len())
            .find(|&j| lines[j].trim_start().starts_with("```"))
            .ok_or_else(|| Malformed {
                line: start + 1,
                why: "a code block that never ends".into(),
            })?;
        if fence.trim_start_matches('`').trim() == "console" {
            blocks.push(Block {
                line: start + 1,
                plan: plan(&lines[..start], start)?,
                commands: shown(&lines[start + 1..close], start + 2),
            });
        }
        i = close + 1;
    }
    Ok(blocks)
}

/// The plan from the HTML comments right above the fence (`fence` is its index).
fn plan(above: &[&str], fence: usize) -> Result<Plan, Malformed> {
    let comments = above
        .iter()
        .enumerate()
        .rev()
        .map_while(|(i, l)| {
            let l = l.trim();
            let inner = l.strip_prefix("<!--")?.strip_suffix("-->")?;
            Some((i + 1, inner.trim()))
        })
        .collect::<Vec<_>>();
    let mut steps = Vec::new();
    let mut exit = 0;
    let mut not_tested = None;
    for &(line, comment) in comments.iter().rev() {
        let malformed = |why: String| Malformed { line, why };
        if let Some(reason) = comment.strip_prefix("not tested:") {
            if reason.trim().is_empty() {
                return Err(malformed("`not tested:` needs the reason".into()));
            }
            not_tested = Some(reason.trim().to_string());
        } else if let Some(list) = comment.strip_prefix("test:") {
            for step in list.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                match step.strip_prefix("exit ") {
                    Some(code) => {
                        exit = code
                            .trim()
                            .parse()
                            .map_err(|_| malformed(format!("`{step}`: not an exit code")))?
                    }
                    None => steps.push(parse_step(step).map_err(malformed)?),
                }
            }
        }
    }
    match not_tested {
        Some(_) if !steps.is_empty() || exit != 0 => Err(Malformed {
            line: fence + 1,
            why: "a block is either tested or not: both annotations are above it".into(),
        }),
        Some(reason) => Ok(Plan::NotTested(reason)),
        None => Ok(Plan::Tested { steps, exit }),
    }
}

fn parse_step(step: &str) -> Result<Step, String> {
    let (verb, rest) = step.split_once(' ').unwrap_or((step, ""));
    let from = |rest: &str| match rest.split_once(" from ") {
        Some((path, fixture)) => Ok((workspace_path(path)?, fixture.trim().to_string())),
        None => Err(format!("`{step}`: write `{verb} PATH from FIXTURE`")),
    };
    match verb {
        "fresh" if rest.is_empty() => Ok(Step::Fresh),
        "write" => from(rest).map(|(path, fixture)| Step::Write { path, fixture }),
        "append" => from(rest).map(|(path, fixture)| Step::Append { path, fixture }),
        "parquet" => from(rest).map(|(path, fixture)| Step::Parquet { path, fixture }),
        "remove" => workspace_path(rest).map(Step::Remove),
        "run" => judge_args(rest).map(Step::Run),
        "without" if !rest.is_empty() && !rest.contains(['/', ' ']) => {
            Ok(Step::Without(rest.to_string()))
        }
        _ => Err(format!(
            "unknown step `{step}`: the steps are fresh, write, append, parquet, remove, run, without and exit"
        )),
    }
}

/// A path inside the workspace: relative, never out of it.
fn workspace_path(path: &str) -> Result<String, String> {
    let path = path.trim();
    let escapes = path.starts_with('/') || path.split('/').any(|part| part == "..");
    match path.is_empty() || escapes {
        true => Err(format!("`{path}`: a path inside the workspace is needed")),
        false => Ok(path.to_string()),
    }
}

/// The `$ ` lines of a block's body, each with the lines under it (`first` is the body's first
/// line number).
fn shown(body: &[&str], first: usize) -> Vec<Shown> {
    let mut commands: Vec<Shown> = Vec::new();
    for (i, line) in body.iter().enumerate() {
        match line.strip_prefix("$ ") {
            Some(command) => commands.push(Shown {
                line: first + i,
                text: command.trim().to_string(),
                output: String::new(),
            }),
            None => {
                if let Some(last) = commands.last_mut() {
                    last.output.push_str(line);
                    last.output.push('\n');
                }
            }
        }
    }
    commands
}

/// The arguments of a plain `judge ...` command line: words, quoted ('...' or "...") where they
/// hold spaces, and an optional `# comment`. Anything a shell would do more (`&&`, a pipe, a
/// redirection, `~`, a variable) is refused: the test runs the judge, not a shell.
pub(super) fn judge_args(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut chars = command.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c == '#' {
            break;
        }
        let mut word = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() {
                break;
            }
            chars.next();
            match c {
                '\'' | '"' => loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some(inner) => word.push(inner),
                        None => return Err(format!("`{command}`: a quote that never ends")),
                    }
                },
                '&' | '|' | ';' | '<' | '>' | '$' | '`' | '\\' | '*' | '?' => {
                    return Err(format!("`{command}`: `{c}` needs a shell"))
                }
                '~' if word.is_empty() => return Err(format!("`{command}`: `~` needs a shell")),
                _ => word.push(c),
            }
        }
        words.push(word);
    }
    match words.first().map(String::as_str) {
        Some("judge") => Ok(words.split_off(1)),
        _ => Err(format!("`{command}` does not run the judge")),
    }
}

#[test]
fn a_page_reads_as_blocks_with_their_plans() {
    let page = "text\n\
        <!-- test: write solutions/p/a.rs from tests/fixtures/a.rs; exit 1 -->\n\
        <!-- test: run judge run a --time-limit 100ms -->\n\
        ```console\n\
        $ judge run a   # a comment\n\
        ...\n\
        \x20WA  wrong answer\n\
        $ judge list\n\
        p  P\n\
        ```\n\
        <!-- not tested: needs a browser -->\n\
        ```console\n\
        $ judge serve\n\
        ```\n\
        ```sh\n\
        $ not a console block\n\
        ```\n";
    let blocks = blocks(page).unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].line, 4);
    assert_eq!(
        blocks[0].plan,
        Plan::Tested {
            steps: vec![
                Step::Write {
                    path: "solutions/p/a.rs".into(),
                    fixture: "tests/fixtures/a.rs".into()
                },
                Step::Run(vec![
                    "run".into(),
                    "a".into(),
                    "--time-limit".into(),
                    "100ms".into()
                ]),
            ],
            exit: 1,
        }
    );
    let commands = &blocks[0].commands;
    assert_eq!((commands[0].line, commands[1].line), (5, 8));
    assert_eq!(commands[0].output, "...\n WA  wrong answer\n");
    assert_eq!(commands[1].output, "p  P\n");
    assert_eq!(blocks[1].plan, Plan::NotTested("needs a browser".into()));
}

#[test]
fn only_a_plain_judge_command_runs() {
    assert_eq!(
        judge_args("judge verify 'sum-3$linux.zip' --case \"1 *\"  # two quotes").unwrap(),
        ["verify", "sum-3$linux.zip", "--case", "1 *"]
    );
    for command in [
        "judge init practice && cd practice",
        "judge run ~/attempts/queens.rs",
        "cargo bench --profile release --bench overhead",
        "judge run a > out",
        "judge run 'a",
    ] {
        assert!(judge_args(command).is_err(), "{command}");
    }
}

#[test]
fn a_malformed_annotation_is_an_error_with_its_line() {
    let unknown = "<!-- test: rename a b -->\n```console\n$ judge list\n```\n";
    assert_eq!(blocks(unknown).unwrap_err().line, 1);
    let both = "<!-- test: exit 1 -->\n<!-- not tested: why -->\n```console\n$ judge list\n```\n";
    assert_eq!(blocks(both).unwrap_err().line, 3);
    let out = "<!-- test: write ../x from tests/fixtures/a.rs -->\n```console\n```\n";
    assert!(blocks(out).is_err());
    let reasonless = "<!-- not tested: -->\n```console\n```\n";
    assert!(blocks(reasonless).is_err());
}
