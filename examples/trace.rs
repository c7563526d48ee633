//! Prints a search generation by generation: phase, best and mean fitness,
//! the best member's uncovered pairs. A tool for tuning the GA.
//!
//! cargo run --release --example trace -- --pcs 64 --nics 4 --switches 31x8,8 [--generations N] [--every K] [--spec FILE]

use clap::Parser;
use fnn_tui::ga::Phase;
use fnn_tui::run::Limits;
use fnn_tui::run::Run;
use fnn_tui::spec::{QuickFlags, Spec};
use std::path::PathBuf;

/// Prints a search generation by generation (a tool for tuning the GA).
#[derive(Parser)]
struct Args {
    /// The spec to start from (KLAT2 without one).
    #[arg(long)]
    spec: Option<PathBuf>,
    /// PCs, overriding the spec's.
    #[arg(long)]
    pcs: Option<usize>,
    /// NICs per PC, overriding the spec's.
    #[arg(long)]
    nics: Option<u32>,
    /// Switches, as `PORTSxCOUNT` groups, comma separated, overriding the spec's.
    #[arg(long)]
    switches: Option<String>,
    /// The search's seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Generations to run at most.
    #[arg(long, default_value_t = 500)]
    generations: u64,
    /// Print every K-th generation (and the first valid one).
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let flags = QuickFlags {
        pcs: args.pcs,
        nics: args.nics,
        switches: args.switches,
        seed: args.seed,
        ..Default::default()
    };
    let base = match &args.spec {
        Some(p) => Spec::load(p)?,
        None => Spec::default(),
    };
    let spec = flags.apply(base)?;
    let (generations, every) = (args.generations, args.every);
    let start = std::time::Instant::now();
    let limits = Limits {
        generations,
        time_limit_s: 0.0,
    };
    let mut run = Run::new(spec)?.with_limits(limits);
    loop {
        let stop = run.step();
        let e = run.engine();
        if e.generation().is_multiple_of(every) || e.is_valid() || stop.is_some() {
            let h = e.history().last().unwrap();
            let phase = match e.phase() {
                Phase::Scaled { width, pcs } => format!("scaled {pcs}x{width}"),
                Phase::Full => "full".into(),
            };
            println!(
                "{:>6} {:>8.3}s {:<14} best {:>12.3} mean {:>12.3} uncovered {}",
                h.generation,
                start.elapsed().as_secs_f64(),
                phase,
                h.best,
                h.mean,
                h.best_uncovered
            );
        }
        if let Some(stop) = stop {
            println!("stopped: {}", stop.words());
            break;
        }
    }
    for s in run.engine().strategy_stats() {
        println!(
            "{:<14} ran in {:>5} generations, {:>4} designs, {:>10} moves, {:>8.3} s",
            s.name, s.runs, s.finds, s.moves, s.seconds
        );
    }
    Ok(())
}
