//! `judge config`: each setting, its value and where it came from (a flag, an environment
//! variable, judge.toml, the user's config file, the default), as text or as JSON.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::{json, Value};

use super::cluster::ClusterArgs;
use super::settings::{Origin, Setting};
use super::{Context, EXIT_OK};

#[derive(clap::Args)]
pub(crate) struct ConfigArgs {
    /// Print the settings as JSON (each with its value, `from` and `source`), for scripts.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    cluster: ClusterArgs,
}

/// A setting's value, as text for people and as JSON for scripts.
struct Shown {
    name: &'static str,
    text: String,
    json: Value,
    origin: Origin,
}

pub(crate) fn config(ctx: &Context, args: ConfigArgs) -> Result<ExitCode> {
    let shown = shown(ctx, &args.cluster);
    let r = &ctx.resolved;
    let user = r.sources.user_path.as_ref();
    let found = r.sources.user.is_some();
    let mut out = anstream::stdout();
    if args.json {
        let settings: Vec<Value> = shown
            .iter()
            .map(|s| {
                json!({
                    "name": s.name,
                    "value": s.json,
                    "from": s.origin.kind(),
                    "source": s.origin.source(),
                })
            })
            .collect();
        let doc = json!({
            "settings": settings,
            "user_config": {"path": user, "found": found},
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(ExitCode::from(EXIT_OK));
    }
    let rows: Vec<judge_report::settings::Row> = shown
        .into_iter()
        .map(|s| judge_report::settings::Row {
            name: s.name,
            value: s.text,
            from: s.origin.to_string(),
        })
        .collect();
    let user = match user {
        Some(p) if found => p.display().to_string(),
        Some(p) => format!("{} (none there)", p.display()),
        None => "none (no home folder)".into(),
    };
    write!(out, "{}", judge_report::settings::render(&rows, &user))?;
    Ok(ExitCode::from(EXIT_OK))
}

/// Every setting, in the order shown, the cluster's with `cluster`'s flags.
fn shown(ctx: &Context, cluster: &ClusterArgs) -> [Shown; 9] {
    let r = &ctx.resolved;
    let path = |s: &Setting<std::path::PathBuf>| (ctx.ws.show(&s.value), json!(s.value));
    let on = |s: &Setting<bool>| {
        let text = if s.value { "on" } else { "off" };
        (text.to_string(), json!(s.value))
    };
    let cluster = r.sources.cluster(cluster, &ctx.cwd);
    let none_or = |text: String, none: &str| {
        if text.is_empty() {
            none.to_string()
        } else {
            text
        }
    };
    let url = &cluster.url.value;
    let credentials = cluster.credentials.value.as_os_str();
    let wait = judge_core::units::format_duration(cluster.ack_wait.value);
    [
        ("history", path(&r.history), r.history.origin.clone()),
        ("cache", path(&r.cache), r.cache.origin.clone()),
        ("sandbox", on(&r.sandbox), r.sandbox.origin.clone()),
        (
            "transcripts",
            on(&r.transcripts),
            r.transcripts.origin.clone(),
        ),
        (
            "cluster.url",
            (
                none_or(url.clone(), "none (judged here)"),
                Some(url)
                    .filter(|u| !u.is_empty())
                    .map_or(Value::Null, |u| json!(u)),
            ),
            cluster.url.origin.clone(),
        ),
        (
            "cluster.credentials",
            (
                none_or(ctx.ws.show(Path::new(credentials)), "none"),
                Some(credentials)
                    .filter(|c| !c.is_empty())
                    .map_or(Value::Null, |c| json!(c.to_string_lossy())),
            ),
            cluster.credentials.origin.clone(),
        ),
        (
            "cluster.ack_wait",
            (wait.clone(), json!(wait)),
            cluster.ack_wait.origin.clone(),
        ),
        (
            "cluster.max_deliver",
            (
                cluster.max_deliver.value.to_string(),
                json!(cluster.max_deliver.value),
            ),
            cluster.max_deliver.origin.clone(),
        ),
        ("rustc", path(&r.rustc), r.rustc.origin.clone()),
    ]
    .map(|(name, (text, json), origin)| Shown {
        name,
        text,
        json,
        origin,
    })
}
