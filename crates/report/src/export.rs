//! What `judge export` says: where the package is, what it holds, what was left out and why.

use std::fmt::Write;
use std::path::Path;

use super::{bold, dim};
use judge_packages::export::{Exported, Version};

/// The lines for an export to `shown` (the folder as the user named it).
pub fn render(e: &Exported, id: &str, shown: &Path) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}  {}",
        bold(id),
        dim(&format!(
            "exported as a Kattis package to {}{} · {} sample{} + {} secret case{} · {} submission{}",
            shown.display(),
            match e.version {
                Version::V2023_07 => String::new(),
                v => format!(" (format {})", v.label()),
            },
            e.samples,
            if e.samples == 1 { "" } else { "s" },
            e.secret,
            if e.secret == 1 { "" } else { "s" },
            e.submissions.len(),
            if e.submissions.len() == 1 { "" } else { "s" },
        ))
    );
    for (file, solution) in &e.submissions {
        let _ = writeln!(out, "  submissions/{file:<40} {}", dim(solution));
    }
    for (solution, why) in &e.left_out {
        let _ = writeln!(out, "  left out {solution}: {why}");
    }
    for note in &e.notes {
        let _ = writeln!(out, "  note: {note}");
    }
    let _ = match e.version {
        Version::V2023_07 => writeln!(
            out,
            "\n  check it with problemtools: verifyproblem {}",
            shown.display()
        ),
        // problemtools reads formats up to 2023-07.
        Version::V2025_09 => writeln!(out, "\n  check it with: judge verify {}", shown.display()),
    };
    out
}
