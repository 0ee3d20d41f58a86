//! `judge listen`: receive problems from the Competitive Companion browser extension.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use judge_report::{self as report, dim};
use judge_web::http::Server;
use judge_web::listen::{self, Event, Settings};

use super::import::WriteArgs;
use super::{Context, EXIT_ERROR, EXIT_OK};

#[derive(clap::Args)]
pub(crate) struct ListenArgs {
    /// The port to listen on, at 127.0.0.1 only (Competitive Companion sends to 27121 without
    /// being told; another port goes in its "Custom ports" setting).
    #[arg(long, default_value_t = listen::DEFAULT_PORT)]
    port: u16,

    /// Stop after one batch: a problem, or every problem of a contest.
    #[arg(long)]
    once: bool,

    #[command(flatten)]
    write: WriteArgs,
}

pub(crate) fn listen(ctx: &Context, args: ListenArgs) -> Result<ExitCode> {
    let ws = &ctx.ws;
    let server = Server::bind(args.port).map_err(|e| match e {
        judge_web::Error::PortInUse { port } => anyhow::anyhow!(
            "port {port} is in use: another program listens there (cph in VS Code and CP Editor use 27121)\n  fix: stop that program, or listen on another port with --port N and add N to Competitive Companion's custom ports"
        ),
        e => e.into(),
    })?;
    let port = server.port();
    {
        let mut out = anstream::stdout();
        writeln!(
            out,
            "listening for Competitive Companion on http://127.0.0.1:{port}/ ({})",
            if args.once {
                "until one problem or contest has arrived"
            } else {
                "Ctrl-C stops"
            }
        )?;
        writeln!(
            out,
            "{}",
            dim("click the green plus on a problem's page: it becomes problems/ID/ and testcases/ID/")
        )?;
        out.flush()?;
    }
    let settings = Settings {
        import: args.write.options(None),
        once: args.once,
    };
    let shown = ws.clone();
    let summary = listen::listen(server, ws.clone(), settings, move |event| {
        let mut out = anstream::stdout();
        let _ = match event {
            Event::Imported(i) => report::import::imported(&i, &|p| shown.show(p))
                .iter()
                .try_for_each(|line| writeln!(out, "{line}")),
            Event::Rejected { status, reason } => {
                let mut err = anstream::stderr();
                writeln!(
                    err,
                    "{}error:{} refused a request ({status}): {reason}",
                    anstyle::AnsiColor::Red.on_default().bold().render(),
                    anstyle::Reset.render()
                )
            }
            Event::BatchDone { size, contest } => writeln!(
                out,
                "{}",
                dim(&format!(
                    "all {size} problems of {} arrived",
                    contest.as_deref().unwrap_or("the contest")
                ))
            ),
        };
        let _ = out.flush();
    })?;
    Ok(ExitCode::from(if summary.rejected > 0 && args.once {
        EXIT_ERROR
    } else {
        EXIT_OK
    }))
}
