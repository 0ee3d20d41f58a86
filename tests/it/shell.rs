//! `judge completions` and `judge man`: made from the same definitions as the commands, so each
//! covers every command the judge has.

use crate::common::Workspace;

/// The commands `judge --help` lists (without `help`).
fn commands(ws: &Workspace) -> Vec<String> {
    let out = ws.judge().arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
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
        let out = ws.judge().args(["completions", shell]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        for name in &names {
            assert!(script.contains(name.as_str()), "{shell} lacks `{name}`");
        }
        // And the options of a command, not only its name.
        assert!(
            script.contains("stop-on-fail"),
            "{shell} lacks run's options"
        );
    }
    let bad = ws.judge().args(["completions", "cmd"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn the_man_page_covers_every_command() {
    let ws = Workspace::new();
    let names = commands(&ws);
    let out = ws.judge().arg("man").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(
        page.starts_with(".ie") && page.contains(".TH judge 1"),
        "{page}"
    );
    for name in &names {
        let reference = format!("judge\\-{}(1)", name.replace('-', "\\-"));
        assert!(page.contains(&reference), "judge.1 lacks {reference}");
    }
    let dir = ws.path().join("man");
    let out = ws
        .judge()
        .args(["man", "--dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    for name in &names {
        let file = dir.join(format!("judge-{name}.1"));
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(text.contains(".TH judge-"), "{}", file.display());
    }
}
