//! Prints a search generation by generation: phase, best and mean fitness,
//! the best member's uncovered pairs. A tool for tuning the GA.
//!
//! cargo run --release --example trace -- --pcs 64 --nics 4 --switches 31x8,8 [--generations N] [--every K] [--spec FILE]

use fnn_tui::ga::{Limits, Phase};
use fnn_tui::run::Run;
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
    let spec = flags.apply(base).expect("flags apply");
    let generations: u64 = get("--generations").and_then(|v| v.parse().ok()).unwrap_or(500);
    let every: u64 = get("--every").and_then(|v| v.parse().ok()).unwrap_or(25);
    let start = std::time::Instant::now();
    let limits = Limits {
        generations,
        time_limit_s: 0.0,
    };
    let mut run = Run::new(spec).expect("the spec can be searched").with_limits(limits);
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
}
