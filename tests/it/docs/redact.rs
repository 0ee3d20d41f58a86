//! What an example's output and the program's may differ in: the figures of one machine and
//! one moment (times, sizes, dates, rates, compiler versions, the state of the build cache), the
//! warnings that only a slow or busy machine prints, and the spacing that aligns them. Both sides
//! are normalised alike, so everything else (verdicts, case names, counts, limits, messages) is
//! compared as it is.

use std::sync::LazyLock;

use regex::{Captures, Regex};

/// A pattern and what it becomes, on both sides.
struct Redaction {
    pattern: Regex,
    replacement: &'static str,
}

fn redaction(pattern: &str, replacement: &'static str) -> Redaction {
    Redaction {
        pattern: Regex::new(pattern).unwrap(),
        replacement,
    }
}

/// In order: a later pattern sees what an earlier one left.
static REDACTIONS: LazyLock<Vec<Redaction>> = LazyLock::new(|| {
    vec![
        redaction(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", "[DATE]"),
        redaction(
            r"rustc \d+\.\d+\.\d+(-\w+)?( \([^)]*\))?",
            "rustc [VERSION]",
        ),
        redaction(r"Python \d+\.\d+\.\d+", "Python [VERSION]"),
        // Whether a build is in the cache depends on what ran before, in any test.
        redaction(
            r"compiled in \d+(\.\d+)? m?s|binary from cache \(source unchanged\)|freshly compiled|binary from cache",
            "[BUILD]",
        ),
        // A transcript's time stamps, in seconds since the solution started.
        redaction(r"\b\d+\.\d{6}\b", "[SECONDS]"),
        // A Rust panic names its thread's id, a number of the sandbox's pid namespace.
        redaction(r"thread '([^']*)' \(\d+\)", "thread '$1' ([TID])"),
        redaction(r"\d+(\.\d+)? seeds/s", "[RATE] seeds/s"),
        // How many seeds a stress test bounded in time got through.
        redaction(
            r"seeds (\d+) to \d+ · \d+ seeds in",
            "seeds $1 to [N] · [N] seeds in",
        ),
        redaction(r"\d+\.\d+( ± \d+\.\d+)? x faster", "[RATIO] x faster"),
        // compare's mark of a cell whose runs spread widely, as a busy machine's do: written
        // after the cell's time, after a `!` and before a `^` where those stand too; and its
        // meaning in the legend under the table, among the other marks' meanings.
        redaction(r"((?:ms|s|µs) !?)~", "$1"),
        redaction(
            r" · ~ wide spread over the runs|~ wide spread over the runs · ",
            "",
        ),
    ]
});

/// A warning line that says how a time measured on this machine stands to the limit or to its
/// other runs: a busy machine prints it where an idle one does not (an example's Python case
/// at 6 s of 14 s goes past 12.6 s under load), so it is set aside on both sides, as a line.
static LOAD_WARNING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(warning: (within 10% of the time limit \(|wide spread over \d+ runs: |.*: accepted, but its slowest case \(.*\) uses \d+% of the time limit \(at most half is safe\)$)|~ wide spread over the runs$)",
    )
    .unwrap()
});

/// compare's legend when the spread is its only mark: the line goes, with the blank line that
/// sets the legend apart from the table.
static SPREAD_LEGEND: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*~ wide spread over the runs$").unwrap());

/// A time or a size, measured unless what stands before it says it is a limit.
static QUANTITY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b\d+(\.\d+)? (ms|s|µs|KiB|MiB|GiB)\b").unwrap());

/// What stands right before a limit: `limits: time 4 s (wall cap 9 s) · memory 256 MiB`, a
/// TLE's `> 4 s`, a language's `4 s x 3 + 2 s`.
const LIMIT_BEFORE: &[&str] = &[
    "> ",
    "limits: time ",
    "· time ",
    "wall cap ",
    "· memory ",
    "· output ",
    "time limit ",
    "judged at ",
    "= ",
    "+ ",
];

/// `text` with the figures of the moment replaced by placeholders, the warnings of a busy
/// machine left out and each line's spacing collapsed; a line that is `...` alone stays that
/// (snapbox's wildcard for any lines).
pub(super) fn normalise(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if SPREAD_LEGEND.is_match(line) && out.ends_with("\n\n") {
            out.pop();
        }
        if LOAD_WARNING.is_match(line) {
            continue;
        }
        let mut line = line.to_string();
        for r in REDACTIONS.iter() {
            line = r.pattern.replace_all(&line, r.replacement).into_owned();
        }
        let line = QUANTITY.replace_all(&line, |c: &Captures<'_>| {
            let whole = c.get(0).unwrap();
            let before = &line[..whole.start()];
            let limit =
                before.trim_start() == "time " || LIMIT_BEFORE.iter().any(|l| before.ends_with(l));
            match limit {
                true => whole.as_str().to_string(),
                false => format!("[{}]", quantity_kind(&c[2])),
            }
        });
        let words: Vec<&str> = line.split_whitespace().collect();
        let indented = line.starts_with(char::is_whitespace);
        match (words.as_slice(), indented) {
            (["..."], _) => out.push_str("..."),
            (_, true) => out.push_str(&format!(" {}", words.join(" "))),
            (_, false) => out.push_str(&words.join(" ")),
        }
        out.push('\n');
    }
    let kept = out.trim_end_matches('\n').len();
    out.truncate(kept);
    out.push('\n');
    out
}

fn quantity_kind(unit: &str) -> &'static str {
    match unit {
        "ms" | "s" | "µs" => "TIME",
        _ => "SIZE",
    }
}

#[test]
fn measured_figures_go_and_the_rest_stays() {
    let row =
        "  14         AC           193 ms      260 ms     1.8 MiB  expected `6`, received `5`";
    assert_eq!(
        normalise(row),
        " 14 AC [TIME] [TIME] [SIZE] expected `6`, received `5`\n"
    );
    let limits = "limits: time 4 s (wall cap 9 s) · memory 256 MiB · output 64 MiB";
    assert_eq!(normalise(limits), format!("{limits}\n"));
    let summary = " TLE  time limit exceeded · 13/14 passed · max time > 100 ms · max memory 2 MiB · binary from cache · expected AC (MISMATCH)";
    assert_eq!(
        normalise(summary),
        " TLE time limit exceeded · 13/14 passed · max time > 100 ms · max memory [SIZE] · [BUILD] · expected AC (MISMATCH)\n"
    );
    assert_eq!(
        normalise("compiled in 157 ms · rustc 1.95.0 (59807616e 2026-04-14)"),
        "[BUILD] · rustc [VERSION]\n"
    );
    assert_eq!(
        normalise("  #1  2026-12-02 20:53:36  nqueens-ii  bitmask  rust  AC  183 ms  1.9 MiB  1300 B  14/14"),
        " #1 [DATE] nqueens-ii bitmask rust AC [TIME] [SIZE] 1300 B 14/14\n"
    );
    assert_eq!(
        normalise(" OK  no disagreement · seeds 1 to 292 · 292 seeds in 3.00 s · 97 seeds/s"),
        " OK no disagreement · seeds 1 to [N] · [N] seeds in [TIME] · [RATE] seeds/s\n"
    );
    assert_eq!(
        normalise(
            " WA  the attempt disagrees with bitmask on seed 4 · 4 seeds in 34 ms · 119 seeds/s"
        ),
        " WA the attempt disagrees with bitmask on seed 4 · 4 seeds in [TIME] · [RATE] seeds/s\n"
    );
    assert_eq!(normalise("   ...\n\n\n"), "...\n");
}

#[test]
fn warnings_of_a_busy_machine_are_set_aside_on_both_sides() {
    let idle = "  14         AC           6.09 s      6.12 s    13.2 MiB\n\n AC  accepted · 14/14 passed\n";
    let busy = "  14         AC          12.71 s     13.02 s    13.2 MiB\n             warning: within 10% of the time limit (12.71 s of 14 s)\n\n AC  accepted · 14/14 passed\n";
    assert_eq!(normalise(busy), normalise(idle));
    let spread = "  3  AC  1.20 s\n     warning: wide spread over 5 runs: 1.02 s to 1.61 s (49% of the median)\n";
    assert_eq!(normalise(spread), " 3 AC [TIME]\n");
    let verify = "  warning: py-mirror: accepted, but its slowest case (14, 3.04 s) uses 76% of the time limit (at most half is safe)\nnext\n";
    assert_eq!(normalise(verify), "next\n");
    // compare's table marks such a cell and says what the mark means under it.
    let marked =
        " 01  AC 1 ms / 2 ms ~   AC 1 ms / 1 ms\n\n  ~ wide spread over the runs\n\nnext\n";
    assert_eq!(
        normalise(marked),
        " 01 AC [TIME] / [TIME] AC [TIME] / [TIME]\n\nnext\n"
    );
    let among = " 02  TLE > 4 s !   AC 1 ms / 2 ms !~^\n\n  ! contradicts the expected verdict · ~ wide spread over the runs · ^ within 10% of the time limit\n";
    assert_eq!(
        normalise(among),
        " 02 TLE > 4 s ! AC [TIME] / [TIME] !^\n\n ! contradicts the expected verdict · ^ within 10% of the time limit\n"
    );
    // Other warnings are the program's words, compared as they are.
    let other = "warning: the verdict above stands, but nothing was recorded in the history: x\n";
    assert_eq!(normalise(other), other);
}
