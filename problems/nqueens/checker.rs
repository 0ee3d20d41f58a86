// The checker of N-Queens, testlib's convention: `checker INPUT OUTPUT ANSWER`,
// the verdict in the exit code (0 accepted, 1 wrong answer, 2 presentation
// error, 3 the checker's own failure: a broken input or answer), the reason
// on stderr.
//
// Boards may come in any order. The output is rejected when its count differs
// from the answer's, when a board is malformed (a wrong number of rows or
// squares, a character other than `.` and `Q`, a row without exactly one
// queen), when two queens attack each other, when a board is listed twice, and
// when a board is missing. Whitespace at the ends of lines and runs of blank
// lines between boards are tolerated.

use std::collections::HashMap;
use std::process::exit;

const AC: i32 = 0;
const WA: i32 = 1;
const PE: i32 = 2;
const FAIL: i32 = 3;

fn quit(code: i32, message: String) -> ! {
    eprintln!("{message}");
    exit(code)
}

/// A board: the column of each row's queen (0-based), and the line it starts on.
struct Board {
    columns: Vec<usize>,
    line: usize,
}

/// "columns 2 4 1 3": each row's queen, 1-based, as a reader counts.
fn describe(columns: &[usize]) -> String {
    let cols: Vec<String> = columns.iter().map(|c| (c + 1).to_string()).collect();
    format!(
        "queens in columns {} (rows 1 to {})",
        cols.join(" "),
        columns.len()
    )
}

/// The count on the first line and the boards after it, checked one by one;
/// `Err((code, message))` at the first fault. `who` names the file in messages.
fn parse(text: &str, n: usize, who: &str) -> Result<(usize, Vec<Board>), (i32, String)> {
    let lines: Vec<(usize, &str)> = text
        .split('\n')
        .map(str::trim_end)
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .collect();
    let mut rest = lines.iter().skip_while(|(_, l)| l.is_empty());
    let count = match rest.next() {
        None => {
            return Err((
                PE,
                format!("the {who} is empty: its first line should be the number of boards"),
            ))
        }
        Some((line, l)) => l.trim().parse::<usize>().map_err(|_| {
            (
                PE,
                format!(
                    "line {line} of the {who} should be the number of boards, not `{}`",
                    l.escape_debug()
                ),
            )
        })?,
    };
    let mut groups: Vec<Vec<(usize, &str)>> = Vec::new();
    let mut blank = true;
    for &(line, l) in rest {
        if l.is_empty() {
            blank = true;
        } else {
            if blank {
                groups.push(Vec::new());
            }
            groups.last_mut().unwrap().push((line, l));
            blank = false;
        }
    }
    let mut boards = Vec::new();
    let mut seen: HashMap<Vec<usize>, (usize, usize)> = HashMap::new();
    for (k, rows) in groups.iter().enumerate() {
        let k = k + 1;
        let start = rows[0].0;
        if rows.len() != n {
            return Err((WA, format!(
                "board {k} (line {start}) has {} rows, expected {n} (boards are separated by one blank line)",
                rows.len()
            )));
        }
        let mut columns = Vec::with_capacity(n);
        for (r, &(line, row)) in rows.iter().enumerate() {
            let r = r + 1;
            if let Some(c) = row.chars().find(|&c| c != '.' && c != 'Q') {
                return Err((
                    WA,
                    format!(
                        "board {k}, row {r} (line {line}): `{}` is neither `.` nor `Q`",
                        c.escape_debug()
                    ),
                ));
            }
            if row.len() != n {
                return Err((
                    WA,
                    format!(
                        "board {k}, row {r} (line {line}) has {} squares, expected {n}",
                        row.len()
                    ),
                ));
            }
            let queens: Vec<usize> = row.match_indices('Q').map(|(i, _)| i).collect();
            if queens.len() != 1 {
                return Err((
                    WA,
                    format!(
                        "board {k}, row {r} (line {line}) has {} queens, expected one",
                        queens.len()
                    ),
                ));
            }
            columns.push(queens[0]);
        }
        for r2 in 0..n {
            for r1 in 0..r2 {
                let (c1, c2) = (columns[r1], columns[r2]);
                let along = if c1 == c2 {
                    "a column"
                } else if c1.abs_diff(c2) == r2 - r1 {
                    "a diagonal"
                } else {
                    continue;
                };
                return Err((WA, format!(
                    "board {k} (line {start}): the queens of row {} (column {}) and row {} (column {}) attack each other along {along}",
                    r1 + 1,
                    c1 + 1,
                    r2 + 1,
                    c2 + 1
                )));
            }
        }
        if let Some(&(j, line)) = seen.get(&columns) {
            return Err((
                WA,
                format!(
                    "board {k} (line {start}) repeats board {j} (line {line}): {}",
                    describe(&columns)
                ),
            ));
        }
        seen.insert(columns.clone(), (k, start));
        boards.push(Board {
            columns,
            line: start,
        });
    }
    Ok((count, boards))
}

fn read(path: &str) -> String {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => quit(FAIL, format!("cannot read {path}: {e}")),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        quit(FAIL, "usage: checker INPUT OUTPUT ANSWER".into());
    }
    let n: usize = match read(&args[1]).trim().parse() {
        Ok(n) if (1..=10).contains(&n) => n,
        _ => quit(FAIL, "the input is not a number n with 1 <= n <= 10".into()),
    };
    let (expected, answer) = match parse(&read(&args[3]), n, "answer") {
        Ok(parsed) => parsed,
        Err((_, why)) => quit(FAIL, format!("the answer is broken: {why}")),
    };
    if expected != answer.len() {
        quit(
            FAIL,
            format!(
                "the answer says {expected} boards but lists {}",
                answer.len()
            ),
        );
    }
    let (count, boards) = match parse(&read(&args[2]), n, "output") {
        Ok(parsed) => parsed,
        Err((code, why)) => quit(code, why),
    };
    if count != expected {
        quit(
            WA,
            format!("the output says {count} boards, the answer has {expected}"),
        );
    }
    if boards.len() > count {
        quit(
            WA,
            format!(
                "the output says {count} boards but lists {} (board {} starts at line {})",
                boards.len(),
                count + 1,
                boards[count].line
            ),
        );
    }
    let listed: HashMap<&[usize], usize> = boards
        .iter()
        .enumerate()
        .map(|(k, b)| (&b.columns[..], k + 1))
        .collect();
    if boards.len() < count {
        let (j, missing) = answer
            .iter()
            .enumerate()
            .find(|(_, b)| !listed.contains_key(&b.columns[..]))
            .expect("fewer distinct boards than the answer's");
        quit(WA, format!(
            "the output lists {} of its {count} boards; missing, for one: board {} of the answer, {}",
            boards.len(),
            j + 1,
            describe(&missing.columns)
        ));
    }
    // Every board is valid and distinct and there are as many as in the answer:
    // only an incomplete answer could leave one of them out of it.
    let known: HashMap<&[usize], usize> = answer.iter().map(|b| (&b.columns[..], b.line)).collect();
    if let Some((k, b)) = boards
        .iter()
        .enumerate()
        .find(|(_, b)| !known.contains_key(&b.columns[..]))
    {
        quit(
            FAIL,
            format!(
            "board {} of the output is valid but not in the answer: the answer is incomplete ({})",
            k + 1,
            describe(&b.columns)
        ),
        );
    }
    quit(
        AC,
        format!(
            "ok {count} board{}, all valid and distinct",
            if count == 1 { "" } else { "s" }
        ),
    )
}
