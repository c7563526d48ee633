//! The planted benchmark: time to a valid design over several seeds for
//! each family of planted specs (`fnn_tui::planted`: feasible by
//! construction, shape and pairs drawn from the seed) at thousands of PCs,
//! with the median, the worst, the failures and the peak memory, as
//! BENCHMARKS.md reports them. Each run is a child process of its own, so
//! its peak memory (VmHWM) is its own.
//!
//! ```sh
//! cargo run --release --example planted                          # every family, 1024..4096 PCs, 5 seeds
//! cargo run --release --example planted -- --families hypercube --sizes 1024 --seeds 3
//! cargo run --release --example planted -- --write specs/ --sizes 1024   # the specs as TOML
//! ```

use clap::Parser;
use fnn_tui::planted::{Family, plant};
use fnn_tui::run::Limits;
use fnn_tui::run::Run;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

#[derive(Parser)]
struct Args {
    /// Families to run (all without this).
    #[arg(long, value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(Family::ALL.map(Family::name)))]
    families: Vec<String>,
    /// PC counts (powers of two).
    #[arg(long, value_delimiter = ',', default_value = "1024,2048,4096")]
    sizes: Vec<usize>,
    /// Seeds per family and size (1..=N).
    #[arg(long, default_value_t = 5)]
    seeds: u64,
    /// Seconds a run may take before it counts as failed (default: 60,
    /// and 120 above 2048 PCs).
    #[arg(long)]
    time_limit: Option<f64>,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Write the specs (TOML) and their certificates (switch tables) to DIR
    /// instead of running them.
    #[arg(long, value_name = "DIR")]
    write: Option<PathBuf>,
    /// One run, in this process: FAMILY PCS SEED LIMIT (how the benchmark
    /// runs each in a child).
    #[arg(long, num_args = 4, hide = true)]
    one: Vec<String>,
}

/// One run's outcome, as the child prints it.
struct Outcome {
    seconds: Option<f64>,
    generations: u64,
    peak_mb: f64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if let [family, pcs, seed, limit] = args.one.as_slice() {
        return one(family, pcs, seed, limit, args.threads);
    }
    let families: Vec<Family> = if args.families.is_empty() {
        Family::ALL.to_vec()
    } else {
        args.families.iter().filter_map(|n| Family::named(n)).collect()
    };
    if let Some(dir) = &args.write {
        return write(dir, &families, &args);
    }
    println!("| family | PCs | NICs | required pairs | median s | worst s | failures | peak MB |");
    println!("|---|---:|---|---:|---:|---:|---:|---:|");
    for &family in &families {
        for &pcs in &args.sizes {
            let limit = args.time_limit.unwrap_or(if pcs > 2048 { 120.0 } else { 60.0 });
            row(family, pcs, limit, &args)?;
        }
    }
    Ok(())
}

/// A family at a size over every seed, as a table row.
fn row(family: Family, pcs: usize, limit: f64, args: &Args) -> anyhow::Result<()> {
    let (mut times, mut failures, mut peak) = (Vec::new(), 0, 0.0f64);
    let (mut nics, mut pairs) = (Vec::new(), Vec::new());
    for seed in 1..=args.seeds {
        let p = plant(family, pcs, seed)?;
        nics.push(p.spec.pcs.nics);
        pairs.push(p.spec.resolve()?.pattern.pair_count());
        let o = child(family, pcs, seed, limit, args.threads)?;
        eprintln!(
            "{}-{pcs} seed {seed} ({}): {} ({} generations, {:.0} MB)",
            family.name(),
            p.about,
            o.seconds
                .map_or(format!("FAILED in {limit} s"), |t| format!("{t:.2} s")),
            o.generations,
            o.peak_mb
        );
        peak = peak.max(o.peak_mb);
        match o.seconds {
            Some(t) => times.push(t),
            None => failures += 1,
        }
    }
    // Failures count as the limit or worse: the median is honest about them.
    let mut all = times.clone();
    all.extend(std::iter::repeat_n(f64::INFINITY, failures));
    all.sort_by(f64::total_cmp);
    let median = all[all.len() / 2];
    let show = |t: f64| {
        if t.is_finite() {
            format!("{t:.2}")
        } else {
            format!("> {limit:.0}")
        }
    };
    nics.sort_unstable();
    nics.dedup();
    pairs.sort_unstable();
    println!(
        "| {} | {pcs} | {} | {}..{} | {} | {} | {failures}/{} | {peak:.0} |",
        family.name(),
        nics.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
        pairs[0],
        pairs[pairs.len() - 1],
        show(median),
        show(all[all.len() - 1]),
        args.seeds
    );
    Ok(())
}

/// Runs one spec in a child process of this example.
fn child(family: Family, pcs: usize, seed: u64, limit: f64, threads: usize) -> anyhow::Result<Outcome> {
    let exe = std::env::current_exe()?;
    let out = Command::new(exe)
        .args(["--threads", &threads.to_string(), "--one", family.name()])
        .args([pcs.to_string(), seed.to_string(), limit.to_string()])
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let f: Vec<&str> = text.split_whitespace().collect();
    match (out.status.success(), f.as_slice()) {
        (true, [secs, gens, kb]) => Ok(Outcome {
            seconds: secs.parse().ok(),
            generations: gens.parse().unwrap_or(0),
            peak_mb: kb.parse::<f64>().unwrap_or(0.0) / 1024.0,
        }),
        _ => Err(anyhow::anyhow!(
            "{}-{pcs} seed {seed}: {}",
            family.name(),
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}

/// The child: plants, searches to the first valid design or the limit,
/// prints `SECONDS|- GENERATIONS PEAK_KB`.
fn one(family: &str, pcs: &str, seed: &str, limit: &str, threads: usize) -> anyhow::Result<()> {
    let family = Family::named(family).ok_or_else(|| anyhow::anyhow!("no family {family}"))?;
    let num = |s: &str| s.parse::<f64>().map_err(|e| anyhow::anyhow!("`{s}`: {e}"));
    let (pcs, seed, limit) = (num(pcs)? as usize, num(seed)? as u64, num(limit)?);
    let mut spec = plant(family, pcs, seed)?.spec;
    spec.ga.seed = seed;
    spec.ga.threads = threads;
    let cluster = spec.resolve()?;
    let start = Instant::now();
    let limits = Limits {
        generations: 0,
        time_limit_s: limit,
    };
    let mut run = Run::of_cluster_since(spec, cluster, start).with_limits(limits);
    let mut seconds = None;
    loop {
        if run.engine().is_valid() {
            seconds = Some(start.elapsed().as_secs_f64());
            break;
        }
        if run.step().is_some() && !run.engine().is_valid() {
            break;
        }
    }
    println!(
        "{} {} {}",
        seconds.map_or("-".into(), |t| t.to_string()),
        run.engine().generation(),
        peak_kb()
    );
    Ok(())
}

/// This process's peak resident memory (VmHWM), in kB.
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Writes each spec as TOML and its certificate as a switch table.
fn write(dir: &std::path::Path, families: &[Family], args: &Args) -> anyhow::Result<()> {
    fnn_tui::fs::make_dirs(dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    for &family in families {
        for &pcs in &args.sizes {
            for seed in 1..=args.seeds {
                let p = plant(family, pcs, seed)?;
                let toml = toml::to_string(&p.spec)?;
                let path = dir.join(format!("{}.toml", p.spec.name));
                let head = format!(
                    "# {}: {}\n# Planted by the planted example; its certificate is beside it.\n",
                    p.spec.name, p.about
                );
                fnn_tui::fs::atomic::write_atomic(&path, head + &toml)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
                let table = fnn_tui::design::format_table(&p.certificate);
                let path = dir.join(format!("{}.switches.txt", p.spec.name));
                fnn_tui::fs::atomic::write_atomic(&path, table)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
                println!("wrote {}", path.display());
            }
        }
    }
    Ok(())
}
