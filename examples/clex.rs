//! CLEX point-to-point routing simulation at any size, with the 3D torus of
//! the same node count for comparison (the CLEX paper, Tables I-IV).
//!
//! ```sh
//! cargo run --release --example clex -- 8 3 6            # a small one, in a second
//! cargo run --release --example clex -- 32 4 28 --saving  # Table I (minutes)
//! cargo run --release --example clex -- 64 3 57 --saving  # Table II
//! ```
//! (Tables III/IV: light loads, without `--saving`.)

use clap::Parser;
use fnn_tui::topology::clex::{Clex, torus_for};
use fnn_tui::topology::clex_sim::simulate;

/// CLEX point-to-point routing simulation, with the 3D torus of the same
/// node count for comparison (the CLEX paper, Tables I-IV).
#[derive(Parser)]
struct Args {
    /// Nodes per cluster at each level (the paper's k).
    #[arg(default_value_t = 8)]
    k: u64,
    /// Levels of clustering.
    #[arg(default_value_t = 3)]
    levels: u32,
    /// Messages each node sends (and receives).
    #[arg(default_value_t = 6)]
    load: usize,
    /// The paper's "saving" mode: every request acknowledged.
    #[arg(long)]
    saving: bool,
}

fn main() {
    let Args {
        k,
        levels,
        load,
        saving,
    } = Args::parse();
    let c = match Clex::new(k, levels) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    // A large size runs for minutes: say what is running before it starts.
    eprintln!(
        "simulating CLEX k={k} levels={levels}: {} nodes, {} messages...",
        c.nodes(),
        c.nodes() * load as u64
    );
    let start = std::time::Instant::now();
    let stats = simulate(c, load, saving, 1);
    println!(
        "CLEX k={k} levels={levels}: {} nodes, load {load}, saving {saving}, {:.1} s",
        c.nodes(),
        start.elapsed().as_secs_f64()
    );
    println!("lvl  max.rds  avg.rds  max.avg.load  avg.hops");
    for s in &stats {
        println!(
            "{:>3}  {:>7}  {:>7.2}  {:>12.2}  {:>8.2}",
            s.level, s.max_rounds, s.avg_rounds, s.max_avg_load, s.avg_hops
        );
    }
    let t = torus_for(c.nodes()).expect("a torus");
    println!(
        "3D torus {0}x{0}x{0}: average {1:.1} hops, diameter {2}",
        t.side, t.avg_hops, t.diameter
    );
}
