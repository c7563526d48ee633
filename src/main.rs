//! `fnn-tui`: parse the command line and hand off.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run(cli::parse())
}
