//! A sample interaction replayed: the judge's own interactor, which says the `<` lines of a Kattis `.interaction` file and expects the solution to say its `>` lines.
//!
//! `judge run --replay` runs it as the interactor of each sample interaction, through the same
//! runner, sandbox and verdict rules as a problem's own interactor (Kattis protocol: exit 42
//! accepts, 43 rejects with `judgemessage.txt`). A sample is one possible conversation: a
//! solution that chooses other questions than the sample's fails its replay and may still be
//! right; the problem's interactor is the judge of that.

use std::io::{BufRead, Read, Write};
use std::path::Path;

/// The first argument that makes the `judge` binary this interactor (see `main.rs`).
pub const REPLAY_ARG: &str = "__replay-interaction";

/// The longest line read from the solution: past it the line is cut and compared as it is.
const LINE_CAP: u64 = 1 << 20;
/// How much of a line a message quotes.
const QUOTE_CHARS: usize = 60;

/// One line of a sample interaction, with its line number in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Turn {
    /// `<`: the judge says this to the solution.
    ToSolution(usize, String),
    /// `>`: the solution is to say this.
    FromSolution(usize, String),
}

/// A parsed `.interaction` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    pub turns: Vec<Turn>,
}

/// Why a file is not a sample interaction: its line number and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    pub line: usize,
    pub message: String,
}

impl Script {
    /// Reads a `.interaction` file's text: every line starts with `<` or `>`; an empty last
    /// line (the file's final newline) is not a turn.
    pub fn parse(text: &str) -> Result<Script, BadLine> {
        let mut turns = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let line = line.strip_suffix('\r').unwrap_or(line);
            let turn = match line.as_bytes().first() {
                Some(b'<') => Turn::ToSolution(n, line[1..].to_string()),
                Some(b'>') => Turn::FromSolution(n, line[1..].to_string()),
                _ => {
                    return Err(BadLine {
                        line: n,
                        message: format!(
                            "`{}` starts with neither `<` nor `>`",
                            quote(line.as_bytes())
                        ),
                    })
                }
            };
            turns.push(turn);
        }
        if turns.is_empty() {
            return Err(BadLine {
                line: 1,
                message: "the file is empty".into(),
            });
        }
        Ok(Script { turns })
    }
}

/// Plays the judge's side of `script` with a solution that reads `to` and writes `from`.
/// `Err` is the rejection, in words.
fn replay(script: &Script, from: &mut impl BufRead, mut to: impl Write) -> Result<(), String> {
    let mut turns = script.turns.iter().peekable();
    while let Some(turn) = turns.next() {
        match turn {
            Turn::ToSolution(n, text) => {
                let sent = writeln!(to, "{text}");
                // A run of `<` lines goes out together, then waits for the solution.
                let sent = match turns.peek() {
                    Some(Turn::ToSolution(..)) => sent,
                    _ => sent.and_then(|_| to.flush()),
                };
                if sent.is_err() {
                    return Err(format!(
                        "the solution stopped reading before line {n} (`<{}`)",
                        quote(text.as_bytes())
                    ));
                }
            }
            Turn::FromSolution(n, expected) => {
                let mut line = Vec::new();
                let read = from.by_ref().take(LINE_CAP).read_until(b'\n', &mut line);
                if read.is_err() || line.is_empty() {
                    return Err(format!(
                        "the solution said nothing more where line {n} of the sample has `>{}`",
                        quote(expected.as_bytes())
                    ));
                }
                if !same_tokens(&line, expected.as_bytes()) {
                    return Err(format!(
                        "line {n}: the solution said `{}`, the sample `>{}` (a replay expects \
                         the sample's conversation word for word)",
                        quote(&line),
                        quote(expected.as_bytes())
                    ));
                }
            }
        }
    }
    // The sample is over: the solution sees the end of its input and must say no more.
    drop(to);
    let mut rest = Vec::new();
    let _ = from.by_ref().take(LINE_CAP).read_to_end(&mut rest);
    if rest.iter().any(|b| !b.is_ascii_whitespace()) {
        let first = rest
            .split(|&b| b == b'\n')
            .find(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
            .unwrap_or(&rest);
        return Err(format!(
            "the solution said more after the sample's last line: `{}`",
            quote(first)
        ));
    }
    Ok(())
}

/// Equal but for the amount and kind of whitespace between words.
fn same_tokens(said: &[u8], expected: &[u8]) -> bool {
    said.split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .eq(expected
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty()))
}

/// `text` without its line end, cut to a readable length.
fn quote(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let text = text.trim_end_matches(['\n', '\r']);
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The interactor's process: `judge REPLAY_ARG SCRIPT ANSWER FEEDBACK_DIR` (the Kattis
/// interactor's arguments; the script is the case's input). Returns its exit code: 42 the
/// solution said what the sample says, 43 it did not (why in `FEEDBACK_DIR/judgemessage.txt`),
/// 1 the replay itself could not run (said on stderr).
pub fn main(args: &[std::ffi::OsString]) -> i32 {
    let [script, _answer, feedback, ..] = args else {
        eprintln!("usage: judge {REPLAY_ARG} INTERACTION ANSWER FEEDBACK_DIR");
        return 1;
    };
    let script_path = Path::new(script);
    let text = match std::fs::read_to_string(script_path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", script_path.display());
            return 1;
        }
    };
    let script = match Script::parse(&text) {
        Ok(s) => s,
        Err(bad) => {
            eprintln!(
                "{}: line {}: {}",
                script_path.display(),
                bad.line,
                bad.message
            );
            return 1;
        }
    };
    let stdin = std::io::stdin();
    let mut from = stdin.lock();
    match replay(&script, &mut from, Ending(std::io::stdout().lock())) {
        Ok(()) => 42,
        Err(why) => {
            let message = Path::new(feedback).join("judgemessage.txt");
            if let Err(e) = std::fs::write(&message, format!("{why}\n")) {
                eprintln!("{}: {e}", message.display());
                return 1;
            }
            43
        }
    }
}

/// The solution's stdin: dropped, it flushes and ends it, so the solution reads the end of
/// its input.
struct Ending(std::io::StdoutLock<'static>);

impl Write for Ending {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl Drop for Ending {
    fn drop(&mut self) {
        let _ = self.0.flush();
        let _ = judge_runner::end_stdout();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(text: &str) -> Script {
        Script::parse(text).unwrap()
    }

    fn play(text: &str, said: &str) -> (Result<(), String>, String) {
        let mut heard = Vec::new();
        let result = replay(&script(text), &mut said.as_bytes(), &mut heard);
        (result, String::from_utf8(heard).unwrap())
    }

    #[test]
    fn parses_both_directions_and_names_a_bad_line() {
        assert_eq!(
            script("<4\n>? 1 2\n").turns,
            vec![
                Turn::ToSolution(1, "4".into()),
                Turn::FromSolution(2, "? 1 2".into())
            ]
        );
        assert_eq!(
            script("<a\r\n").turns,
            vec![Turn::ToSolution(1, "a".into())]
        );
        let bad = Script::parse("<4\n? 1 2\n").unwrap_err();
        assert_eq!(bad.line, 2);
        assert!(bad.message.contains("`? 1 2`"), "{}", bad.message);
        assert_eq!(Script::parse("").unwrap_err().message, "the file is empty");
    }

    #[test]
    fn the_same_conversation_is_accepted_whatever_the_spacing() {
        let (result, heard) = play("<4\n>? 1 2\n<=\n>! 2 4 1 3\n", "?  1\t2\n! 2 4 1 3\n");
        assert_eq!(result, Ok(()));
        assert_eq!(heard, "4\n=\n");
    }

    #[test]
    fn a_different_word_names_the_line_and_both_sides() {
        let (result, heard) = play("<4\n>? 1 2\n<=\n", "? 2 1\n");
        let why = result.unwrap_err();
        assert!(
            why.starts_with("line 2: the solution said `? 2 1`, the sample `>? 1 2`"),
            "{why}"
        );
        // Nothing after the difference was said to the solution.
        assert_eq!(heard, "4\n");
    }

    #[test]
    fn saying_too_little_or_too_much_is_rejected() {
        let (result, _) = play(">1\n>2\n", "1\n");
        assert!(result
            .unwrap_err()
            .contains("said nothing more where line 2"));
        let (result, _) = play(">1\n", "1\n2\n");
        assert_eq!(
            result.unwrap_err(),
            "the solution said more after the sample's last line: `2`"
        );
        // Trailing blank lines are not more.
        assert_eq!(play(">1\n", "1\n\n  \n").0, Ok(()));
    }

    #[test]
    fn a_solution_that_stopped_reading_is_told_apart() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let result = replay(&script("<4\n>1\n"), &mut "".as_bytes(), Closed);
        assert!(result
            .unwrap_err()
            .contains("stopped reading before line 1"));
    }
}
