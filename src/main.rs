//! `judge`: the command-line entry point. Parses arguments, runs the command, maps errors to exit codes.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // The runner process: serve before clap or anything else touches memory (see run::server).
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == judge_runner::RUNNER_ARG)
    {
        std::process::exit(judge_runner::runner_main());
    }
    // The judge's own interactor replaying a sample interaction (`judge run --replay`).
    let argv: Vec<_> = std::env::args_os().collect();
    if argv
        .get(1)
        .is_some_and(|a| a == judge_core::replay::REPLAY_ARG)
    {
        std::process::exit(judge_core::replay::main(&argv[2..]));
    }
    let args = cli::Cli::parse();
    match cli::main(args) {
        Ok(code) => code,
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            // The reader went away (`judge show | head`): stop quietly, as if by SIGPIPE.
            ExitCode::from(141)
        }
        Err(e) => {
            anstream::eprintln!(
                "{}error:{} {e:#}",
                anstyle::AnsiColor::Red.on_default().bold().render(),
                anstyle::Reset.render()
            );
            ExitCode::from(cli::EXIT_ERROR)
        }
    }
}
