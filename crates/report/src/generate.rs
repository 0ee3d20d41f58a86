//! `judge generate` as text: each case and what became of it, the settings files written,
//! and the cases generators.yaml does not name.

use std::fmt::Write as _;

use super::{bold, dim, yellow};
use judge_packages::generate::{Generated, Status};

pub fn render(g: &Generated) -> String {
    let mut out = String::new();
    let count = |s: Status| g.cases.iter().filter(|c| c.status == s).count();
    let _ = writeln!(
        out,
        "{}  {}",
        bold(&g.problem),
        dim(&format!(
            "{} cases · {} new · {} changed · {} made again, the same · {} from cache · {} by hand",
            g.cases.len(),
            count(Status::New),
            count(Status::Changed),
            count(Status::Same),
            count(Status::Cached),
            count(Status::Kept)
        ))
    );
    let _ = writeln!(out);
    let width = g.cases.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for c in &g.cases {
        let status = match c.status {
            Status::New => "new",
            Status::Changed => "changed",
            Status::Same => "same",
            Status::Cached => "cached",
            Status::Kept => "by hand",
        };
        let line = format!("  {:<width$}  {status:<8} {}", c.name, c.made_by);
        let _ = writeln!(
            out,
            "{}",
            if matches!(c.status, Status::New | Status::Changed) {
                line
            } else {
                dim(&line)
            }
        );
    }
    for s in &g.settings {
        let _ = writeln!(out, "  {}", dim(&format!("wrote {s}")));
    }
    for u in &g.unlisted {
        let _ = writeln!(
            out,
            "  {}",
            yellow(&format!(
                "warning: data/{u} is not named in generators.yaml (the format wants every case named): left as it is"
            ))
        );
    }
    out
}
