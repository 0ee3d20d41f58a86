//! `judge`: the command-line entry point. Parses arguments, runs the command, exits with the status `cli::exit` gives.

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
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            // What clap's own exit does, but with the status decided where every other is.
            let _ = e.print();
            return ExitCode::from(cli::exit::for_usage(&e));
        }
    };
    match cli::main(args) {
        Ok(code) => code,
        Err(e) => {
            let code = cli::exit::for_error(&e);
            // The reader went away (`judge show | head`): stop quietly, as if by SIGPIPE.
            if code != cli::exit::EXIT_CLOSED_PIPE {
                anstream::eprintln!(
                    "{}error:{} {e:#}",
                    anstyle::AnsiColor::Red.on_default().bold().render(),
                    anstyle::Reset.render()
                );
            }
            ExitCode::from(code)
        }
    }
}
