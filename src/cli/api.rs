//! `judge api`: the judge as an execution service (SandboxFusion's and Piston's APIs, health,
//! metrics) for evaluation harnesses and training loops; no pages.

use std::io::Write;
use std::net::IpAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;

use judge_web::http::{Server, ADDRESS};
use judge_web::serve::Token;
use judge_web::service::{self, Settings};

use super::{parse_seconds, parse_size, Context, EXIT_OK};

/// The port `judge api` listens on unless told: SandboxFusion's client's default endpoint.
const DEFAULT_PORT: u16 = 8080;

#[derive(clap::Args)]
pub(crate) struct ApiArgs {
    #[command(flatten)]
    cluster: super::cluster::ClusterArgs,

    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,

    /// Listen on this address instead of 127.0.0.1 (0.0.0.0: every network); needs --token.
    #[arg(long, value_name = "ADDRESS")]
    bind: Option<IpAddr>,

    /// Every request must carry `Authorization: Bearer TOKEN`.
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,

    /// Programs run at once (default: the number of CPUs); with --nats, requests in the
    /// cluster's hands at once (default: the slots of the workers registered at start, at
    /// least 4).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,

    /// Requests that may wait for a free judge; more are answered 429 with Retry-After.
    #[arg(long, value_name = "N", default_value_t = 64)]
    queue: usize,

    /// The most CPU time a request may ask for (seconds, or with a unit).
    #[arg(long, value_name = "S", default_value = "30s", value_parser = parse_seconds)]
    max_time: Duration,

    /// The most memory a request may ask for, and what it gets when it asks for none (MiB, or
    /// with a unit).
    #[arg(long, value_name = "MIB", default_value = "1GiB", value_parser = parse_size)]
    max_memory: u64,

    /// What a program may print on stdout (MiB, or with a unit).
    #[arg(long, value_name = "MIB", default_value = "64MiB", value_parser = parse_size)]
    output_limit: u64,
}

pub(crate) fn api(ctx: &Context, args: ApiArgs) -> Result<ExitCode> {
    let bound = args.bind.unwrap_or(ADDRESS.into());
    if !bound.is_loopback() && args.token.is_none() {
        anyhow::bail!(
            "judge api --bind {bound} would let anyone who reaches this machine run code on it\n  fix: give a token with --token TOKEN, which every request must carry as `Authorization: Bearer TOKEN`"
        );
    }
    if args.token.as_deref() == Some("") {
        anyhow::bail!("--token is empty\n  fix: give a token of at least one character");
    }
    let server = Server::bind_at(bound, args.port)?;
    let cluster = ctx.cluster(&args.cluster);
    let front = match &cluster {
        Some(config) => Some(judge_cluster::service::Front::connect(config)?),
        None => None,
    };
    let jobs = match (args.jobs, &front) {
        (Some(jobs), _) => jobs,
        (None, Some(front)) => front
            .workers_now()
            .iter()
            .map(|w| w.jobs)
            .sum::<usize>()
            .max(FEWEST_FRONT_JOBS),
        (None, None) => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
    .max(1);
    let settings = Settings {
        bound,
        jobs,
        queue: args.queue,
        token: args.token.map(Token::given),
        max_time: args.max_time,
        max_memory: args.max_memory,
        output_limit: args.output_limit,
    };
    let shown = std::net::SocketAddr::from((bound, server.port()));
    let (front, config) = match (front, cluster) {
        (Some(front), Some(config)) => (front, config),
        _ => {
            print_line(&format!(
                "judge api: http://{shown} ({jobs} jobs, queue {}; Ctrl-C stops)",
                args.queue
            ))?;
            service::serve(server, settings, judges(ctx.ws.clone(), ctx.settings))?;
            return Ok(ExitCode::from(EXIT_OK));
        }
    };
    let workers = front.workers_now().len();
    print_line(&format!(
        "judge api: http://{shown} (the front of the cluster at {}: {workers} worker{} now; {jobs} requests at once in the cluster's hands, queue {}; Ctrl-C stops)",
        config.url,
        if workers == 1 { "" } else { "s" },
        args.queue
    ))?;
    let front = Arc::new(super::cluster::ServiceFront(front));
    service::forward::serve(server, settings, front, ctx.ws.clone())?;
    Ok(ExitCode::from(EXIT_OK))
}

/// With --nats and no --jobs, requests in the cluster's hands at once when fewer workers' slots
/// are registered at start: workers that join later find work waiting.
const FEWEST_FRONT_JOBS: usize = 4;

fn print_line(line: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

/// The judges of the service's pool for `workspace`, each made on its thread with runners of
/// its own (noted, to be stopped when the client of the request it runs goes away): `judge
/// api`'s, and a worker's answering the calls of a cluster's front.
pub(crate) fn judges(
    workspace: judge_core::workspace::Workspace,
    run_settings: judge_core::session::Settings,
) -> service::pool::MakeJudge {
    Arc::new(move || {
        let runners = Arc::new(std::sync::Mutex::new(Vec::new()));
        let noted = runners.clone();
        let note = Arc::new(move |pid| noted.lock().map_or((), |mut r| r.push(pid)));
        let executors = judge_runner::runners_noted(run_settings.sandbox, note);
        let judge =
            judge_core::session::Judge::with_executors(workspace.clone(), executors, run_settings)
                .map_err(|e| e.to_string())?;
        let stop: service::pool::Stop = Arc::new(move || {
            for &pid in runners.lock().iter().flat_map(|r| r.iter()) {
                judge_runner::stop_runner(pid);
            }
        });
        Ok((judge, stop))
    })
}
