// Input validator of N-Queens II (`judge validate nqueens-ii`): the input must be exactly one
// line holding n, 1 <= n <= 14, in decimal without sign or leading zero, ended by a newline.
// Exits with 42 when the input is valid, 43 with the reason on stderr when it is not (the
// Kattis convention, so the exported package's validator is this same file).

use std::io::Read;

const MAX_N: u32 = 14;

fn main() {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        reject(&format!("cannot read the input: {e}"));
    }
    let Some(line) = input.strip_suffix(b"\n") else {
        reject("the input must end with a newline");
    };
    if line.contains(&b'\n') {
        reject("the input must be a single line");
    }
    let Ok(text) = std::str::from_utf8(line) else {
        reject("the input is not text");
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        reject(&format!("`{text}` is not a number written with digits only"));
    }
    if text.len() > 1 && text.starts_with('0') {
        reject(&format!("`{text}` has a leading zero"));
    }
    match text.parse::<u32>() {
        Ok(n) if (1..=MAX_N).contains(&n) => std::process::exit(42),
        _ => reject(&format!("n = {text} is not between 1 and {MAX_N}")),
    }
}

fn reject(why: &str) -> ! {
    eprintln!("{why}");
    std::process::exit(43);
}
