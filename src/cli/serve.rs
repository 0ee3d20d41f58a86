//! `judge serve`: the online judge's pages in the browser (problems, status, submissions, submit).

use std::io::Write;
use std::net::IpAddr;
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use judge_report::dim;
use judge_web::http::{Server, ADDRESS};
use judge_web::serve::{self, Settings, Token};

use super::{Context, EXIT_OK};

/// The port `judge serve` listens on unless told.
const DEFAULT_PORT: u16 = 8080;

#[derive(clap::Args)]
pub(crate) struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,

    /// Listen on this address instead of 127.0.0.1 (0.0.0.0: every network). Anyone who can
    /// reach it and has the token can run code on this machine.
    #[arg(long, value_name = "ADDRESS")]
    bind: Option<IpAddr>,

    /// Problem packages (Kattis/ICPC, Polygon, a folder or a `.zip`) served beside the
    /// workspace's problems, with their statements (Markdown or LaTeX).
    #[arg(value_name = "PACKAGE")]
    pub(crate) packages: Vec<String>,

    #[command(flatten)]
    cluster: super::cluster::ClusterArgs,
}

pub(crate) fn serve(ctx: &Context, args: ServeArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    if let Some(p) = args
        .packages
        .iter()
        .find(|p| !judge_packages::package::is_package(&ctx.cwd.join(p)))
    {
        anyhow::bail!(
            "`{p}` is not a problem package (no problem.yaml, problem.xml or .zip there)\n  fix: name a package's folder; the workspace's own problems are served without naming them"
        );
    }
    let bound = args.bind.unwrap_or(ADDRESS.into());
    let server = Server::bind_at(bound, args.port).map_err(|e| match e {
        judge_web::Error::PortInUse { port } => anyhow::anyhow!(
            "port {port} is in use by another program\n  fix: choose another port with --port N (0: any free port)"
        ),
        e => e.into(),
    })?;
    let token = Token::generate().context("making the server's secret token")?;
    let port = server.port();
    let shown = if bound.is_unspecified() || bound.is_loopback() {
        format!("127.0.0.1:{port}")
    } else {
        std::net::SocketAddr::from((bound, port)).to_string()
    };
    {
        let mut out = anstream::stdout();
        writeln!(
            out,
            "judge serve: http://{shown}/?token={} (Ctrl-C stops)",
            token.as_str()
        )?;
        writeln!(
            out,
            "{}",
            dim("open that address: the token in it lets this browser submit; other pages cannot")
        )?;
        out.flush()?;
    }
    if !bound.is_loopback() {
        let mut err = anstream::stderr();
        writeln!(
            err,
            "{}warning:{} listening on {bound}, beyond this machine: whoever reaches port {port} and learns the token can run code here",
            anstyle::AnsiColor::Yellow.on_default().bold().render(),
            anstyle::Reset.render()
        )?;
    }
    // Connected when the first submission comes: a server that is only looked at needs no
    // cluster, and one that cannot be reached is said on the run's page.
    let remote = ctx.cluster(&args.cluster).map(|config| {
        let (workspace, memo) = (ws.clone(), ctx.memo_dir());
        let connect: judge_web::serve::Remote = Box::new(move || {
            let cluster = judge_cluster::dispatch::Cluster::connect(&config, &memo)?;
            Ok(Box::new(judge_cluster::dispatch::Remote { cluster, workspace }) as _)
        });
        connect
    });
    let settings = Settings {
        history: ctx.history.clone(),
        bound,
        token,
        judging: ctx.settings,
        remote,
    };
    serve::serve(server, ws.clone(), settings)?;
    Ok(ExitCode::from(EXIT_OK))
}
