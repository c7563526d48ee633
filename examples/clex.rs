//! CLEX point-to-point routing simulation at any size, with the 3D torus of
//! the same node count for comparison (the CLEX paper, Tables I-IV).
//!
//! cargo run --release --example clex -- K LEVELS LOAD [saving]
//! (Table I: 32 4 28 saving; Table II: 64 3 57 saving; Tables III/IV: light loads, no "saving")

use fnn_tui::topology::clex::{Clex, torus_for};
use fnn_tui::topology::clex_sim::simulate;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: u64| a.get(i).and_then(|v| v.parse().ok()).unwrap_or(d);
    let (k, levels, load) = (num(0, 8), num(1, 3) as u32, num(2, 6) as usize);
    let saving = a.get(3).is_some_and(|s| s == "saving");
    let c = Clex::new(k, levels).expect("a valid CLEX");
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
