//! What `judge import` and `judge listen` say of each problem: one line (what happened, its
//! samples and limits, the command to run next), then a line for each thing to know.

use std::path::Path;
use std::time::Duration;

use judge_core::units::format_bytes;
use judge_packages::import::{Imported, ATTEMPT};

/// The lines for one imported problem; `show` makes a path short for the user.
pub fn imported(i: &Imported, show: &dyn Fn(&Path) -> String) -> Vec<String> {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let added_samples = i.added.iter().filter(|(_, s)| *s).count();
    let added_tests = i.added.len() - added_samples;
    let what = if i.created {
        let mut what = plural(added_samples, "sample", "samples");
        if added_tests > 0 {
            what += &format!(" + {}", plural(added_tests, "test", "tests"));
        }
        if !i.interactions.is_empty() {
            what += &format!(
                ", {}",
                plural(
                    i.interactions.len(),
                    "sample interaction",
                    "sample interactions"
                )
            );
        }
        format!("created {}: {what}", i.id)
    } else if i.added.is_empty() && i.interactions.is_empty() {
        format!(
            "{}: already here, nothing new ({} there)",
            i.id,
            plural(i.already.len(), "test", "tests")
        )
    } else {
        let mut what = format!("updated {}: ", i.id);
        let mut parts = Vec::new();
        if added_samples > 0 {
            parts.push(plural(added_samples, "new sample", "new samples"));
        }
        if added_tests > 0 {
            parts.push(plural(added_tests, "new test", "new tests"));
        }
        if !i.interactions.is_empty() {
            parts.push(plural(
                i.interactions.len(),
                "new sample interaction",
                "new sample interactions",
            ));
        }
        if !i.already.is_empty() {
            parts.push(format!("{} already there", i.already.len()));
        }
        what += &parts.join(", ");
        what
    };
    let mut facts = vec![what, limit_time(i.time), format_bytes(i.memory_bytes)];
    if let Some(interactor) = &i.interactor {
        facts.push(format!("interactive: {interactor}"));
    }
    match (&i.io.input, &i.io.output) {
        (None, None) => {}
        (input, output) => facts.push(format!(
            "reads {}, writes {}",
            input.as_deref().unwrap_or("stdin"),
            output.as_deref().unwrap_or("stdout")
        )),
    }
    let verb = if i.attempt.is_some() { "run" } else { "new" };
    facts.push(format!("judge {verb} {ATTEMPT} --problem {}", i.id));
    let mut lines = vec![facts.join(" · ")];
    for c in &i.kept {
        lines.push(format!(
            "  kept the {} {} (the import says {}; {})",
            c.what,
            c.problem,
            c.import,
            if c.replaceable {
                "--force takes it"
            } else {
                "yours, never replaced"
            }
        ));
    }
    for c in &i.replaced {
        lines.push(format!(
            "  replaced the {} {} with {}",
            c.what, c.problem, c.import
        ));
    }
    for name in &i.conflicting {
        lines.push(format!(
            "  left out a test whose input is case {name}'s with another answer (remove testcases/{}/{name}.* and import again to take it)",
            i.id
        ));
    }
    for note in &i.notes {
        lines.push(format!("  note: {note}"));
    }
    if let Some((path, true)) = &i.attempt {
        lines.push(format!("  started {} from the template", show(path)));
    }
    lines
}

/// A limit as a statement says it: "1.5 s", "2 s", "500 ms".
fn limit_time(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        return format!("{ms} ms");
    }
    let seconds = format!("{:.3}", d.as_secs_f64());
    format!("{} s", seconds.trim_end_matches('0').trim_end_matches('.'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use judge_core::workspace::FileIo;
    use judge_packages::import::LimitConflict;

    fn castle() -> Imported {
        Imported {
            id: "cf-954g".into(),
            origin: "Competitive Companion".into(),
            created: true,
            added: vec![("1".into(), true), ("2".into(), true), ("3".into(), true)],
            already: vec![],
            conflicting: vec![],
            time: Duration::from_millis(1500),
            memory_bytes: 256 << 20,
            io: FileIo::default(),
            kept: vec![],
            replaced: vec![],
            samples: 3,
            interactor: None,
            interactions: vec![],
            notes: vec![],
            attempt: None,
        }
    }

    #[test]
    fn one_line_a_problem() {
        let show = |p: &Path| p.display().to_string();
        assert_eq!(
            imported(&castle(), &show),
            ["created cf-954g: 3 samples · 1.5 s · 256 MiB · judge new main --problem cf-954g"]
        );
        let mut i = castle();
        i.attempt = Some(("solutions/cf-954g/main.rs".into(), true));
        i.io.input = Some("input.txt".into());
        i.io.output = Some("output.txt".into());
        assert_eq!(
            imported(&i, &show),
            [
                "created cf-954g: 3 samples · 1.5 s · 256 MiB · reads input.txt, writes output.txt · judge run main --problem cf-954g",
                "  started solutions/cf-954g/main.rs from the template",
            ]
        );
        let mut i = castle();
        i.created = false;
        i.added = vec![("4".into(), true)];
        i.already = vec!["1".into(), "2".into()];
        i.kept = vec![LimitConflict {
            what: "time limit",
            problem: "2s".into(),
            import: "1.5s".into(),
            replaceable: true,
        }];
        i.time = Duration::from_secs(2);
        assert_eq!(
            imported(&i, &show),
            [
                "updated cf-954g: 1 new sample, 2 already there · 2 s · 256 MiB · judge new main --problem cf-954g",
                "  kept the time limit 2s (the import says 1.5s; --force takes it)",
            ]
        );
        // A checker program is the user's own: --force would not take the import's.
        i.kept.push(LimitConflict {
            what: "checker",
            problem: "custom (check.cpp)".into(),
            import: "tokens".into(),
            replaceable: false,
        });
        assert_eq!(
            imported(&i, &show)[2],
            "  kept the checker custom (check.cpp) (the import says tokens; yours, never replaced)"
        );
        i.added.clear();
        assert!(imported(&i, &show)[0]
            .starts_with("cf-954g: already here, nothing new (2 tests there)"));
        assert_eq!(limit_time(Duration::from_millis(500)), "500 ms");
        assert_eq!(limit_time(Duration::from_millis(2250)), "2.25 s");
    }

    #[test]
    fn an_interactive_import_says_its_interactor_and_sample_interactions() {
        let show = |p: &Path| p.display().to_string();
        let mut i = castle();
        i.id = "guess".into();
        i.added = vec![("secret-01".into(), false)];
        i.interactor = Some("validate.cc (Kattis protocol)".into());
        i.interactions = vec!["sample-1".into(), "sample-2".into()];
        assert_eq!(
            imported(&i, &show),
            ["created guess: 0 samples + 1 test, 2 sample interactions · 1.5 s · 256 MiB · interactive: validate.cc (Kattis protocol) · judge new main --problem guess"]
        );
        i.created = false;
        i.added.clear();
        i.interactions = vec!["sample-3".into()];
        i.kept = vec![LimitConflict {
            what: "interactor",
            problem: "validate.cc (Kattis protocol)".into(),
            import: "validate.cc (Kattis protocol), another program".into(),
            replaceable: false,
        }];
        assert_eq!(
            imported(&i, &show),
            [
                "updated guess: 1 new sample interaction · 1.5 s · 256 MiB · interactive: validate.cc (Kattis protocol) · judge new main --problem guess",
                "  kept the interactor validate.cc (Kattis protocol) (the import says validate.cc (Kattis protocol), another program; yours, never replaced)",
            ]
        );
    }
}
