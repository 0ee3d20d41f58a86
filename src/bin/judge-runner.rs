//! `judge-runner`: the small process that starts, limits, measures and reaps programs for `judge`.

fn main() {
    std::process::exit(judge::run::runner_main());
}
