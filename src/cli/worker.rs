//! `judge worker`: judge for others, in any folder, with no workspace: jobs from the NATS
//! server's work queue, outcomes back to it, until Ctrl-C (which hands back what it holds).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use judge_cluster::worker::{self, Event, WorkerOptions};
use judge_core::session::Settings;
use judge_report::dim;

use super::cluster::ClusterArgs;

#[derive(clap::Args)]
pub(crate) struct WorkerArgs {
    #[command(flatten)]
    cluster: ClusterArgs,

    /// Cases judged at once (default 1: times measured alone). Above 1, a case whose time could
    /// decide its verdict is judged again with nothing else running.
    #[arg(long, short, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,

    /// The worker's name, as reports show it (default: the host's name and this process).
    #[arg(long)]
    name: Option<String>,

    /// Where fetched files and builds are kept (default: the user's cache folder).
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,

    /// This machine's calibration figure (microseconds of the fixed loop) instead of measuring
    /// it at start: one measured at rest, for a machine that starts busy.
    #[arg(long, value_name = "MICROS", value_parser = clap::value_parser!(u64).range(1..))]
    calibration: Option<u64>,
}

pub(crate) fn worker(
    args: WorkerArgs,
    settings: Settings,
    cwd: &std::path::Path,
) -> Result<ExitCode> {
    // No workspace: the flags, the environment, then the user's config file.
    let sources = super::settings::Sources::read(None)?;
    let Some(config) = sources.cluster(&args.cluster, cwd).config() else {
        anyhow::bail!("judge worker needs the cluster's NATS server\n  fix: judge worker --nats nats://HOST:4222");
    };
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "worker".into());
    let name = args
        .name
        .unwrap_or_else(|| format!("{host}-{}", std::process::id()));
    // Absolute: the programs it builds there run from other folders.
    let cache = cwd.join(args.cache.unwrap_or_else(judge_core::paths::worker_cache));
    // The execution service's calls (`judge api --nats`) are answered by the service's own
    // routes here, with judges like `judge api`'s.
    let local = judge_web::service::local::Local::new(
        args.jobs.into(),
        &cache.join("service"),
        std::sync::Arc::new(move |ws| super::api::judges(ws, settings)),
    )?;
    let options = WorkerOptions {
        name,
        service: Some(super::cluster::answering(std::sync::Arc::new(local))),
        jobs: args.jobs.into(),
        cache,
        settings,
        rustc: judge_core::env::RUSTC.get().map(PathBuf::from),
        calibration_us: args.calibration,
    };
    let url = config.url.clone();
    worker::run(&config, options, move |event| {
        let mut out = anstream::stdout();
        let line = match event {
            Event::Ready(w) => format!(
                "worker {} on {} ({}, calibration {} µs, {} at once, sandbox: {}) takes jobs from {url} (Ctrl-C stops)",
                w.name, w.host, w.cpu, w.calibration_us, w.jobs, w.sandbox
            ),
            Event::Judged {
                submission,
                case,
                attempt,
                said,
            } => dim(&format!(
                "{submission} case {case}{}: {said}",
                if attempt > 1 {
                    format!(" (delivery {attempt})")
                } else {
                    String::new()
                }
            )),
            Event::Warning(why) => format!("warning: {why}"),
        };
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    })?;
    Ok(ExitCode::from(super::EXIT_OK))
}
