//! Prints a search generation by generation: phase, best and mean fitness,
//! the best member's uncovered pairs. A tool for tuning the GA.
//!
//! cargo run --release --example trace -- --pcs 64 --nics 4 --switches 31x8,8 [--generations N] [--every K] [--spec FILE]

use fnn_tui::ga::{Engine, Phase};
use fnn_tui::spec::{QuickFlags, Spec};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let flags = QuickFlags {
        pcs: get("--pcs").and_then(|v| v.parse().ok()),
        nics: get("--nics").and_then(|v| v.parse().ok()),
        switches: get("--switches"),
        seed: get("--seed").and_then(|v| v.parse().ok()),
        ..Default::default()
    };
    let base = match get("--spec") {
        Some(p) => Spec::load(std::path::Path::new(&p)).expect("spec loads"),
        None => Spec::default(),
    };
    let cluster = flags.apply(base).and_then(|s| s.resolve()).expect("spec resolves");
    let generations: u64 = get("--generations").and_then(|v| v.parse().ok()).unwrap_or(500);
    let every: u64 = get("--every").and_then(|v| v.parse().ok()).unwrap_or(25);
    let start = std::time::Instant::now();
    let mut e = Engine::new(cluster);
    for _ in 0..generations {
        e.step();
        if e.generation().is_multiple_of(every) || e.is_valid() {
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
            if e.done() {
                break;
            }
        }
    }
}
