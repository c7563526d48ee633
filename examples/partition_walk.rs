//! The sparse search's partition walk alone, counted in moves, on planted
//! random wirings (`fnn_tui::ga::walk_trial`): one thread and one random
//! stream, so a seed gives the same count on every run and machine, and a
//! change to the walk is measured in moves, free of the third by which
//! the planted benchmark's times swing from run to run.
//!
//! ```sh
//! cargo run --release --example partition_walk                      # 4,096 PCs, 4 NICs on 16-port, 10 and 12 partners
//! cargo run --release --example partition_walk -- --pcs 1024 --partners 8,10,12 --seeds 5
//! cargo run --release --example partition_walk -- --swapped 0.01    # from the planted wiring after a swap per 100 ports
//! ```

use clap::Parser;
use fnn_tui::ga::{Wiring, walk_trial};
use std::time::Instant;

#[derive(Parser)]
struct Args {
    /// PCs.
    #[arg(long, default_value_t = 4096)]
    pcs: usize,
    /// Ports a switch.
    #[arg(long, default_value_t = 16)]
    width: usize,
    /// NICs a PC.
    #[arg(long, default_value_t = 4)]
    nics: usize,
    /// Partners a PC, drawn from the pairs the wiring covers (one row each).
    #[arg(long, value_delimiter = ',', default_value = "10,12")]
    partners: Vec<usize>,
    /// Seeds per row (1..=N).
    #[arg(long, default_value_t = 3)]
    seeds: u64,
    /// Start from the planted wiring after this share of its ports in
    /// swaps of two ports of different switches (0.01: a swap per 100
    /// ports, about 2% of them moved) instead of from the greedy fill.
    #[arg(long)]
    swapped: Option<f64>,
    /// Moves a walk may make before it counts as failed.
    #[arg(long, default_value_t = 20_000_000)]
    most: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if let Some(s) = args.swapped.filter(|s| !(0.0..=1.0).contains(s)) {
        anyhow::bail!("--swapped {s}: swaps as a share of the ports, from 0 to 1");
    }
    println!("pcs\twidth\tnics\tpartners\tseed\tpairs\tstart\tleft\tmoves\tseconds");
    for &partners in &args.partners {
        let wiring = Wiring {
            pcs: args.pcs,
            width: args.width,
            nics: args.nics,
            partners,
        };
        for seed in 1..=args.seeds {
            let t = Instant::now();
            let Some(trial) = walk_trial(wiring, seed, args.swapped, args.most) else {
                anyhow::bail!(
                    "no wiring of {} PCs x {} NICs on {}-port switches with {partners} partners a PC: \
                     the ports must fill whole switches, and a PC's partners be at most half of those it could have",
                    args.pcs,
                    args.nics,
                    args.width
                );
            };
            println!(
                "{}\t{}\t{}\t{partners}\t{seed}\t{}\t{}\t{}\t{}\t{:.1}",
                args.pcs,
                args.width,
                args.nics,
                trial.pairs,
                trial.start,
                trial.left,
                trial.moves,
                t.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}
