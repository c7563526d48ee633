//! The hard-spec benchmark: time to a valid design over
//! several seeds for each spec of `tests/common/hard_specs.rs` (sparse, every
//! port used, mixed NICs, pins, KASY0 as built), with the median, the
//! worst and the failures, as BENCHMARKS.md reports them.
//!
//! ```sh
//! cargo run --release --example hard_specs                 # all, 10 seeds, 60 s each
//! cargo run --release --example hard_specs -- --seeds 3 torus3d-512
//! cargo run --release --example hard_specs -- --local-search 0   # the papers' GA alone
//! cargo run --release --example hard_specs -- --write     # (re)write assets/specs/hard/*.toml
//! ```

use clap::Parser;
use fnn_tui::run::Limits;
use fnn_tui::run::Run;
#[path = "../tests/common/hard_specs.rs"]
mod hard_specs;
use hard_specs::HardSpec;
use std::time::Instant;

/// Time to a valid design over several seeds for each hard spec.
#[derive(Parser)]
struct Options {
    /// Seeds per spec (1..=N).
    #[arg(long, default_value_t = 10)]
    seeds: u64,
    /// Seconds each run may take before it counts as a failure.
    #[arg(long = "time-limit", default_value_t = 60.0)]
    time_limit_s: f64,
    /// Local-search moves per generation, overriding the specs' (0: the papers' GA alone).
    #[arg(long)]
    local_search: Option<u64>,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// (Re)write assets/specs/hard/*.toml instead of timing.
    #[arg(long)]
    write: bool,
    /// The specs to run (all without names).
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(hard_specs::all().into_iter().map(|h| h.name)))]
    names: Vec<String>,
}

/// Seconds to the first valid design, or None within the limit.
fn time_to_valid(h: &HardSpec, seed: u64, o: &Options) -> anyhow::Result<(Option<f64>, u64)> {
    let mut spec = h.spec.clone();
    spec.ga.seed = seed;
    spec.ga.threads = o.threads;
    if let Some(m) = o.local_search {
        spec.ga.local_search = m;
    }
    let cluster = spec.resolve()?;
    let start = Instant::now();
    let limits = Limits {
        generations: 0,
        time_limit_s: o.time_limit_s,
    };
    let mut run = Run::of_cluster_since(spec, cluster, start).with_limits(limits);
    while !run.engine().is_valid() {
        if run.step().is_some() && !run.engine().is_valid() {
            return Ok((None, run.engine().generation()));
        }
    }
    Ok((Some(start.elapsed().as_secs_f64()), run.engine().generation()))
}

fn main() -> anyhow::Result<()> {
    let o = Options::parse();
    let specs: Vec<HardSpec> = hard_specs::all()
        .into_iter()
        .filter(|h| o.names.is_empty() || o.names.iter().any(|n| n == h.name))
        .collect();
    if o.write {
        for h in &specs {
            let path = format!("assets/specs/hard/{}.toml", h.name);
            fnn_tui::fs::atomic::write_atomic(&path, h.toml()).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
            println!("wrote {path}");
        }
        return Ok(());
    }
    println!("| spec | PCs | NICs | required pairs | median s | worst s | failures | median generations |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for h in &specs {
        let pairs = h.spec.resolve().map(|c| c.pattern.pair_count())?;
        let mut times = Vec::new();
        let mut gens = Vec::new();
        let mut failures = 0;
        for seed in 1..=o.seeds {
            let (t, g) = time_to_valid(h, seed, &o)?;
            eprintln!(
                "{} seed {seed}: {} ({g} generations)",
                h.name,
                t.map_or("FAILED".into(), |t| format!("{t:.3} s"))
            );
            match t {
                Some(t) => times.push(t),
                None => failures += 1,
            }
            gens.push(g);
        }
        let worst = if failures > 0 {
            format!("> {:.0}", o.time_limit_s)
        } else {
            format!("{:.2}", times.iter().cloned().fold(0.0, f64::max))
        };
        // Failures count as the limit: the median is honest about them.
        let mut all: Vec<f64> = times.clone();
        all.extend(std::iter::repeat_n(f64::INFINITY, failures));
        all.sort_by(f64::total_cmp);
        gens.sort_unstable();
        let median = all.get(all.len() / 2).copied().unwrap_or(f64::NAN);
        let median = if median.is_finite() {
            format!("{median:.2}")
        } else {
            "—".into()
        };
        println!(
            "| {} | {} | {} | {pairs} | {median} | {worst} | {failures}/{} | {} |",
            h.name,
            h.spec.pcs.count,
            h.spec.pcs.nics,
            o.seeds,
            gens.get(gens.len() / 2).copied().unwrap_or(0)
        );
    }
    Ok(())
}
