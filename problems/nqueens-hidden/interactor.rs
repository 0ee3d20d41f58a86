// Hidden Queens: the interactor. It never fixes a board: it keeps every placement of n
// non-attacking queens that fits its answers so far, and answers each question so that as
// many placements as possible still fit (an adversary). A solution is accepted only when one
// placement is left and that is the one it names.
//
// testlib protocol: interactor INPUT OUTPUT ANSWER; exit 0 accepts, 1 rejects, 3 fails.
// INPUT holds n (1 to 10); ANSWER the number of placements (a check of its own search), or
// nothing (`judge stress`: a generator makes inputs only).
// OUTPUT receives the board named, for the record.

use std::io::{BufRead, BufReader, Write};

fn boards(n: usize, row: usize, cols: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if row == n {
        out.push(cols.clone());
        return;
    }
    for c in 0..n {
        let safe = cols
            .iter()
            .enumerate()
            .all(|(r, &q)| q != c && (row - r) != q.abs_diff(c));
        if safe {
            cols.push(c);
            boards(n, row + 1, cols, out);
            cols.pop();
        }
    }
}

fn reject(why: &str) -> ! {
    eprintln!("{why}");
    std::process::exit(1)
}

fn fail(why: &str) -> ! {
    eprintln!("interactor failure: {why}");
    std::process::exit(3)
}

/// The most questions allowed: a binary search per row, `ceil(log2(n + 1))` each.
fn budget(n: usize) -> usize {
    let mut per_row = 0;
    while (1usize << per_row) < n + 1 {
        per_row += 1;
    }
    n * per_row
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        fail("usage: interactor INPUT OUTPUT ANSWER");
    }
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_else(|e| fail(&format!("{p}: {e}")));
    let n: usize = read(&args[1]).trim().parse().unwrap_or_else(|_| fail("bad input"));
    let answer = read(&args[3]);
    let expected: Option<usize> = match answer.trim() {
        "" => None,
        count => Some(count.parse().unwrap_or_else(|_| fail("bad answer"))),
    };
    if !(1..=10).contains(&n) {
        fail("n must be from 1 to 10");
    }
    let mut left = Vec::new();
    boards(n, 0, &mut Vec::new(), &mut left);
    if let Some(expected) = expected.filter(|&e| e != left.len()) {
        fail(&format!("{} boards for n = {n}, the answer file says {expected}", left.len()));
    }
    let mut to = std::io::stdout().lock();
    // A solution that has gone away is rejected, never the interactor's failure.
    let mut say = |text: String| {
        if writeln!(to, "{text}").and_then(|_| to.flush()).is_err() {
            reject("the solution stopped reading");
        }
    };
    say(n.to_string());
    let mut from = BufReader::new(std::io::stdin().lock());
    let mut asked = 0;
    let mut line = String::new();
    loop {
        line.clear();
        match from.read_line(&mut line) {
            // Its output closed: it exited, or the judge stopped it (at the wall-clock cap, when
            // it waited for an answer to a question it never flushed). Which, it cannot tell.
            Ok(0) | Err(_) => reject("the solution's output closed (it exited, or was stopped) before it named a board"),
            Ok(_) => {}
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            Some(&"?") => {
                asked += 1;
                if asked > budget(n) {
                    reject(&format!("more than {} questions", budget(n)));
                }
                let nums: Vec<usize> = words[1..].iter().filter_map(|w| w.parse().ok()).collect();
                let (r, c) = match nums[..] {
                    [r, c] if (1..=n).contains(&r) && (1..=n).contains(&c) => (r - 1, c - 1),
                    _ => reject(&format!("bad question `{}`", line.trim())),
                };
                // The answer that keeps the most placements; "=" only when it must.
                let count = |want: std::cmp::Ordering| {
                    left.iter().filter(|b| b[r].cmp(&c) == want).count()
                };
                use std::cmp::Ordering::*;
                let best = [Less, Greater, Equal]
                    .into_iter()
                    .max_by_key(|&o| (count(o), o != Equal))
                    .expect("three answers");
                left.retain(|b| b[r].cmp(&c) == best);
                say(match best {
                    Less => "<",
                    Greater => ">",
                    Equal => "=",
                }
                .to_string());
            }
            Some(&"!") => {
                let named: Vec<usize> = words[1..].iter().filter_map(|w| w.parse().ok()).collect();
                let _ = std::fs::write(&args[2], line.as_bytes());
                if named.len() != n || words.len() != n + 1 {
                    reject(&format!("`!` must be followed by {n} columns"));
                }
                let named: Vec<usize> = named.iter().map(|c| c.wrapping_sub(1)).collect();
                if !left.contains(&named) {
                    reject("that board does not fit the answers given");
                }
                if left.len() > 1 {
                    reject(&format!("{} boards fit the answers given: the board was not known yet", left.len()));
                }
                // Anything more is an error of the solution's.
                line.clear();
                if matches!(from.read_line(&mut line), Ok(k) if k > 0 && !line.trim().is_empty()) {
                    reject("the solution said more after naming its board");
                }
                std::process::exit(0);
            }
            _ => reject(&format!("expected `? r c` or `! c1 ... cn`, got `{}`", line.trim())),
        }
    }
}
