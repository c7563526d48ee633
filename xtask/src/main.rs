//! The project's own tasks, run as `cargo xtask TASK` (an alias in
//! `.cargo/config.toml`), so they need nothing but cargo.
//!
//! `cargo test-all` is the README's test command: it sets the machine up
//! for the tests, runs the checks that are not tests (formatting, clippy,
//! the core built alone, the declared Rust version, the release binary on
//! older CPUs), then every test, and ends with one tally in which a test
//! that could not run counts as skipped, never as passed.

mod checks;
mod rules;
mod step;
mod tally;
mod tests;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo test-all [CARGO TEST ARGS...]   (cargo xtask test ...)

  test    set this machine up (scripts/setup-tests), run the checks
          (fmt, clippy, the core alone, rust-version, older CPUs) and every
          test; the tally at the end counts tests that could not run as
          skipped, never as passed. Arguments go to `cargo test` (as in
          `cargo test-all --test designer -- tui::`) and leave the
          checks out.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("test") => test(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Every step, in order; each runs even when one before it failed, so one
/// run shows everything that is wrong.
fn test(filter: &[String]) -> ExitCode {
    let mut steps = step::Steps::default();
    steps.run("setup", checks::setup);
    if filter.is_empty() {
        steps.run("fmt", checks::fmt);
        steps.run("clippy", checks::clippy);
        steps.run("core alone", checks::core_alone);
        steps.run("rust-version", checks::rust_version);
    }
    let release = steps.run_for("release build", checks::release_binary);
    if filter.is_empty()
        && let Some(bin) = &release
    {
        steps.run("older CPUs", || checks::older_cpus(bin));
    }
    let mut tally = None;
    steps.run("tests", || tests::run(release.as_deref(), filter, &mut tally));
    steps.report(tally.as_ref())
}
