//! `judge completions` and `judge man`: made from the same definitions as the commands, so each
//! covers every command the judge has.

use crate::common::Workspace;

/// The commands `judge --help` lists (without `help`).
fn commands(ws: &Workspace) -> Vec<String> {
    let help = ws.judge().arg("--help").expect_exit(0).run().stdout;
    let listed = help
        .split("Commands:\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("a list of commands");
    let names: Vec<String> = listed
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_string)
        .collect();
    assert!(
        names.len() > 15 && names.contains(&"run".to_string()),
        "{names:?}"
    );
    names
}

#[test]
fn every_shell_completes_every_command() {
    let ws = Workspace::new();
    let names = commands(&ws);
    for shell in ["bash", "zsh", "fish"] {
        let script = ws
            .judge()
            .args(["completions", shell])
            .expect_exit(0)
            .run()
            .stdout;
        for name in &names {
            assert!(script.contains(name.as_str()), "{shell} lacks `{name}`");
        }
        // And the options of a command, not only its name.
        assert!(
            script.contains("stop-on-fail"),
            "{shell} lacks run's options"
        );
    }
    ws.judge()
        .args(["completions", "cmd"])
        .expect_exit(2)
        .stderr_has("invalid value 'cmd'")
        .run();
}

#[test]
fn the_man_page_covers_every_command() {
    let ws = Workspace::new();
    let names = commands(&ws);
    let page = ws.judge().arg("man").expect_exit(0).run().stdout;
    assert!(
        page.starts_with(".ie") && page.contains(".TH judge 1"),
        "{page}"
    );
    for name in &names {
        let reference = format!("judge\\-{}(1)", name.replace('-', "\\-"));
        assert!(page.contains(&reference), "judge.1 lacks {reference}");
    }
    let dir = ws.path().join("man");
    ws.judge()
        .args(["man", "--dir", dir.to_str().unwrap()])
        .expect_exit(0)
        .run();
    for name in &names {
        let file = dir.join(format!("judge-{name}.1"));
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(text.contains(".TH judge-"), "{}", file.display());
    }
}
