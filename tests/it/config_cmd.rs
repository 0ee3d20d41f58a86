//! `judge config` and the settings' order: a flag over the environment over the workspace's
//! judge.toml over the user's config file over the default, each shown with where it came from;
//! and the settings acted on (a build cache the user's file moves), not only shown.

use std::path::Path;

use serde_json::Value;

use crate::common::{Test, Workspace, READ_N};

/// The user's config folder (`XDG_CONFIG_HOME`) of a test, with `text` as its config file.
fn user_config(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("judge/config.toml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, text).unwrap();
    (home, file)
}

/// The setting `name` of `judge config --json` (and `extra`): (its value, `from`, `source`).
fn setting_with(test: Test, extra: &[&str], name: &str) -> (Value, String, Value) {
    let doc = test
        .args(["config", "--json"])
        .args(extra)
        .expect_exit(0)
        .run()
        .json();
    let s = doc["settings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no setting {name} in {doc}"))
        .clone();
    (
        s["value"].clone(),
        s["from"].as_str().unwrap().to_string(),
        s["source"].clone(),
    )
}

fn setting(test: Test, name: &str) -> (Value, String, Value) {
    setting_with(test, &[], name)
}

fn text(p: &Path) -> Value {
    Value::from(p.to_str().unwrap())
}

#[test]
fn each_source_wins_over_the_ones_below_it() {
    let ws = Workspace::doubling("1s");
    let (home, file) = user_config(
        "[cluster]\nurl = \"nats://user:4222\"\ncredentials = \"me.creds\"\nmax_deliver = 5\n",
    );
    let judge = || ws.judge().env("XDG_CONFIG_HOME", home.path());

    // Nothing says: the default.
    let (value, from, source) = setting(ws.judge(), "cluster.url");
    assert_eq!(
        (value, from.as_str(), source),
        (Value::Null, "default", Value::Null)
    );

    // The user's file, its relative path read from its own folder.
    let (value, from, source) = setting(judge(), "cluster.url");
    assert_eq!(
        (value, from.as_str()),
        (Value::from("nats://user:4222"), "user config")
    );
    assert_eq!(source, text(&file));
    let (value, _, _) = setting(judge(), "cluster.credentials");
    assert_eq!(value, text(&file.with_file_name("me.creds")));

    // judge.toml over the user's file, for the keys it has; the others stay the user's.
    let toml = ws.write(
        "judge.toml",
        "[cluster]\nurl = \"nats://ws:4222\"\ncredentials = \"ws.creds\"\n",
    );
    let (value, from, source) = setting(judge(), "cluster.url");
    assert_eq!(
        (value, from.as_str()),
        (Value::from("nats://ws:4222"), "judge.toml")
    );
    assert_eq!(source, text(&toml));
    let (value, _, _) = setting(judge(), "cluster.credentials");
    assert_eq!(value, text(&ws.path().join("ws.creds")));
    let (value, from, _) = setting(judge(), "cluster.max_deliver");
    assert_eq!((value, from.as_str()), (Value::from(5), "user config"));

    // The environment over judge.toml.
    let (value, from, source) =
        setting(judge().env("JUDGE_NATS", "nats://env:4222"), "cluster.url");
    assert_eq!(
        (value, from.as_str()),
        (Value::from("nats://env:4222"), "env")
    );
    assert_eq!(source, Value::from("JUDGE_NATS"));

    // A flag over the environment.
    let (value, from, source) = setting_with(
        judge().env("JUDGE_NATS", "nats://env:4222"),
        &["--nats", "nats://flag:4222"],
        "cluster.url",
    );
    assert_eq!(
        (value, from.as_str()),
        (Value::from("nats://flag:4222"), "flag")
    );
    assert_eq!(source, Value::from("--nats"));

    // The table says the same, in words.
    judge()
        .env("JUDGE_NATS", "nats://env:4222")
        .args(["config", "--nats-max-deliver", "7"])
        .expect_exit(0)
        .stdout_matches(r"(?m)^cluster\.url +nats://env:4222 +environment variable JUDGE_NATS$")
        .stdout_matches(r"(?m)^cluster\.max_deliver +7 +flag --nats-max-deliver$")
        .stdout_matches(r"(?m)^cluster\.credentials +ws\.creds +judge\.toml .*judge\.toml$")
        .stdout_matches(r"(?m)^cluster\.ack_wait +30 s +default$")
        .stdout_has(format!("user config: {}\n", file.display()))
        .run();
}

#[test]
fn the_history_and_the_cache_follow_their_sources() {
    let ws = Workspace::doubling("1s");
    let (home, file) = user_config("cache = \"builds\"\n");

    // The history: the default, the environment, a flag.
    let (value, from, _) = setting(ws.judge(), "history");
    assert_eq!(
        (value, from.as_str()),
        (text(&ws.path().join(".judge/history.db")), "default")
    );
    let env = ws.path().join("env.db");
    let (value, from, _) = setting(ws.judge().env("JUDGE_HISTORY", &env), "history");
    assert_eq!((value, from.as_str()), (text(&env), "env"));
    let flag = ws.path().join("flag.db");
    let (value, from, source) = setting(
        ws.judge()
            .env("JUDGE_HISTORY", &env)
            .args(["--history", flag.to_str().unwrap()]),
        "history",
    );
    assert_eq!(
        (value, from.as_str(), source),
        (text(&flag), "flag", Value::from("--history"))
    );

    // The cache: the environment (here the tests' shared one) over the user's file; an empty
    // variable is none, so the user's file decides, then the default.
    let (_, from, source) = setting(ws.judge().env("XDG_CONFIG_HOME", home.path()), "cache");
    assert_eq!(
        (from.as_str(), source),
        ("env", Value::from("JUDGE_CACHE_DIR"))
    );
    let by_user = || {
        ws.judge()
            .env("XDG_CONFIG_HOME", home.path())
            .env("JUDGE_CACHE_DIR", "")
    };
    let builds = file.with_file_name("builds");
    let (value, from, _) = setting(by_user(), "cache");
    assert_eq!((value, from.as_str()), (text(&builds), "user config"));
    let (value, from, _) = setting(ws.judge().env("JUDGE_CACHE_DIR", ""), "cache");
    assert_eq!(
        (value, from.as_str()),
        (text(&ws.path().join(".judge/cache")), "default")
    );

    // And the judge builds there.
    ws.write(
        "solutions/double/ok.rs",
        format!("{READ_N}fn main() {{ println!(\"{{}}\", n() * 2); }}\n"),
    );
    by_user().args(["run", "ok"]).expect_exit(0).run();
    let built = std::fs::read_dir(builds.join("build")).map_or(0, |d| d.count());
    assert_eq!(built, 1, "one build in the user's cache folder");
    assert!(!ws.path().join(".judge/cache/build").exists());

    // A flag that turns something off says so.
    let (value, from, source) = setting(ws.judge().arg("--no-sandbox"), "sandbox");
    assert_eq!(
        (value, from.as_str(), source),
        (Value::from(false), "flag", Value::from("--no-sandbox"))
    );
}

#[test]
fn a_bad_user_config_is_an_error_naming_the_file_and_the_fix() {
    let ws = Workspace::doubling("1s");
    let (home, file) = user_config("cache = \"builds\"\nsandbox = false\n");
    for args in [&["config"][..], &["list"]] {
        ws.judge()
            .env("XDG_CONFIG_HOME", home.path())
            .args(args)
            .expect_exit(2)
            .stderr_has(format!("{}:2: unknown field `sandbox`", file.display()))
            .stderr_has("fix: correct the file (the guide's \"Settings\" page lists its keys), or remove it")
            .run();
    }
    std::fs::write(&file, "[cluster]\nack_wait = \"soon\"\n").unwrap();
    ws.judge()
        .env("XDG_CONFIG_HOME", home.path())
        .args(["config"])
        .expect_exit(2)
        .stderr_has(format!("{}:1: cluster.ack_wait:", file.display()))
        .run();
}

#[test]
fn outside_a_workspace_the_settings_are_shown_too() {
    let dir = tempfile::tempdir().unwrap();
    Test::outside(dir.path())
        .args(["config"])
        .expect_exit(0)
        .stdout_matches(r"(?m)^sandbox +on +default$")
        .stdout_has("judge-test-no-config/judge/config.toml (none there)")
        .run();
}
