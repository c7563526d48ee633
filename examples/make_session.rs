//! Runs a spec for some generations and saves the session: how the example
//! sessions in `saves/` are made.
//!
//! cargo run --release --example make_session -- SPEC GENERATIONS OUT.toml NAME

use clap::Parser;
use fnn_tui::run::Limits;
use fnn_tui::run::Run;
use fnn_tui::spec::Spec;
use std::path::PathBuf;

/// Runs a spec for some generations and saves the session.
#[derive(Parser)]
struct Args {
    /// The spec (TOML) to search.
    spec: PathBuf,
    /// Generations to run.
    generations: u64,
    /// Where the session is written.
    out: PathBuf,
    /// The session's name.
    name: String,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let spec = Spec::load(&args.spec)?;
    let limits = Limits {
        generations: args.generations,
        time_limit_s: 0.0,
    };
    let mut run = Run::new(spec)?.with_limits(limits);
    let stop = run.run(&std::sync::atomic::AtomicBool::new(false), |_| {});
    let e = run.engine();
    println!(
        "generation {}, valid {}, {}",
        e.generation(),
        e.is_valid(),
        stop.words()
    );
    Ok(run.session(&args.name).save(&args.out)?)
}
