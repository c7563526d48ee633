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
//!
//! With `PLANTED_TRACE` set in the environment, one run in this process
//! (`--one FAMILY PCS DENSITY SEED LIMIT`, density 0 for the family's own
//! pattern) prints its best design's uncovered pairs generation by
//! generation on stderr.

use clap::Parser;
use fnn_tui::planted::{Family, Planted, plant, plant_at};
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
    /// PC counts (powers of two without `--densities`; any count with).
    #[arg(long, value_delimiter = ',', default_value = "1024,2048,4096")]
    sizes: Vec<usize>,
    /// Densities in percent of the pairs the planted wiring covers
    /// (`fnn_tui::planted::plant_at`); without, each family's own pattern.
    #[arg(long, value_delimiter = ',')]
    densities: Vec<u32>,
    /// Also write the rows as CSV to FILE (family,pcs,density,median_s,worst_s,failures,seeds).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Compare the rows with a CSV written by `--csv`: print and exit
    /// non-zero on a row more than 2x slower (median or worst) or failing
    /// more often.
    #[arg(long, value_name = "FILE")]
    compare: Option<PathBuf>,
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
    /// One run, in this process: FAMILY PCS DENSITY SEED LIMIT (how the
    /// benchmark runs each in a child; density 0: the family's own pattern).
    #[arg(long, num_args = 5, hide = true)]
    one: Vec<String>,
}

/// One run's outcome, as the child prints it.
struct Outcome {
    seconds: Option<f64>,
    generations: u64,
    peak_mb: f64,
    /// Each search's seconds a generation, in words (which one held the
    /// generations shows here).
    searches: String,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if let [family, pcs, density, seed, limit] = args.one.as_slice() {
        return one(family, pcs, density, seed, limit, args.threads);
    }
    let families: Vec<Family> = if args.families.is_empty() {
        Family::ALL.to_vec()
    } else {
        args.families.iter().filter_map(|n| Family::named(n)).collect()
    };
    let densities = if args.densities.is_empty() {
        vec![0]
    } else {
        args.densities.clone()
    };
    if let Some(dir) = &args.write {
        return write(dir, &families, &densities, &args);
    }
    println!("| family | PCs | density | NICs | required pairs | median s | worst s | failures | peak MB |");
    println!("|---|---:|---:|---|---:|---:|---:|---:|---:|");
    let mut rows = Vec::new();
    for &family in &families {
        for &pcs in &args.sizes {
            for &density in &densities {
                let limit = args.time_limit.unwrap_or(if pcs > 2048 { 120.0 } else { 60.0 });
                rows.push(row(family, pcs, density, limit, &args)?);
            }
        }
    }
    let csv: String = std::iter::once(suite::HEADER.to_string())
        .chain(rows.iter().map(suite::Row::line))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    if let Some(path) = &args.csv {
        fnn_tui::fs::atomic::write_atomic(path, csv).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &args.compare {
        let stored = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let worse = suite::regressions(&suite::parse(&stored)?, &rows);
        for w in &worse {
            println!("REGRESSION {w}");
        }
        if !worse.is_empty() {
            anyhow::bail!("{} row(s) slower than {} or failing more", worse.len(), path.display());
        }
        println!("no row more than 2x slower than {} or failing more", path.display());
    }
    Ok(())
}

/// The spec of a family at a size: its own pattern (density 0) or the
/// share of its covered pairs.
fn planted(family: Family, pcs: usize, density: u32, seed: u64) -> anyhow::Result<Planted> {
    Ok(match density {
        0 => plant(family, pcs, seed),
        d => plant_at(family, pcs, d, seed),
    }?)
}

/// A family at a size over every seed, as a table row.
fn row(family: Family, pcs: usize, density: u32, limit: f64, args: &Args) -> anyhow::Result<suite::Row> {
    let (mut times, mut failures, mut peak) = (Vec::new(), 0, 0.0f64);
    let (mut nics, mut pairs) = (Vec::new(), Vec::new());
    for seed in 1..=args.seeds {
        let p = planted(family, pcs, density, seed)?;
        nics.push(p.spec.pcs.nics);
        pairs.push(p.spec.resolve()?.pattern.pair_count());
        let o = child(family, pcs, density, seed, limit, args.threads)?;
        eprintln!(
            "{}-{pcs} seed {seed} ({}): {} ({} generations, {:.0} MB; {})",
            family.name(),
            p.about,
            o.seconds
                .map_or(format!("FAILED in {limit} s"), |t| format!("{t:.2} s")),
            o.generations,
            o.peak_mb,
            o.searches
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
        "| {} | {pcs} | {} | {} | {}..{} | {} | {} | {failures}/{} | {peak:.0} |",
        family.name(),
        if density == 0 {
            "own".to_string()
        } else {
            format!("{density}%")
        },
        nics.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
        pairs[0],
        pairs[pairs.len() - 1],
        show(median),
        show(all[all.len() - 1]),
        args.seeds
    );
    Ok(suite::Row {
        family: family.name().to_string(),
        pcs,
        density,
        median: median.is_finite().then_some(median),
        worst: all[all.len() - 1].is_finite().then_some(all[all.len() - 1]),
        failures,
        seeds: args.seeds as usize,
    })
}

/// Runs one spec in a child process of this example.
fn child(family: Family, pcs: usize, density: u32, seed: u64, limit: f64, threads: usize) -> anyhow::Result<Outcome> {
    let exe = std::env::current_exe()?;
    let out = Command::new(exe)
        .args(["--threads", &threads.to_string(), "--one", family.name()])
        .args([
            pcs.to_string(),
            density.to_string(),
            seed.to_string(),
            limit.to_string(),
        ])
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let f: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    match (out.status.success(), f.as_slice()) {
        (true, [secs, gens, kb]) => Ok(Outcome {
            seconds: secs.parse().ok(),
            generations: gens.parse().unwrap_or(0),
            peak_mb: kb.parse::<f64>().unwrap_or(0.0) / 1024.0,
            searches: lines.next().unwrap_or("").to_string(),
        }),
        _ => Err(anyhow::anyhow!(
            "{}-{pcs} seed {seed}: {}",
            family.name(),
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}

/// The child: plants, searches to the first valid design or the limit,
/// prints `SECONDS|- GENERATIONS PEAK_KB`, then each search's seconds a
/// generation.
fn one(family: &str, pcs: &str, density: &str, seed: &str, limit: &str, threads: usize) -> anyhow::Result<()> {
    let family = Family::named(family).ok_or_else(|| anyhow::anyhow!("no family {family}"))?;
    let num = |s: &str| s.parse::<f64>().map_err(|e| anyhow::anyhow!("`{s}`: {e}"));
    let (pcs, density, seed, limit) = (num(pcs)? as usize, num(density)? as u32, num(seed)? as u64, num(limit)?);
    let mut spec = planted(family, pcs, density, seed)?.spec;
    spec.ga.seed = seed;
    spec.ga.threads = threads;
    // The searches slice their time from the spec's limit, as under
    // `design --time-limit`; the run's own limit alone would leave them
    // slicing the default.
    spec.ga.time_limit_s = limit;
    let cluster = spec.resolve()?;
    let start = Instant::now();
    let limits = Limits {
        generations: 0,
        time_limit_s: limit,
    };
    let mut run = Run::of_cluster_since(spec, cluster, start).with_limits(limits);
    let mut seconds = None;
    // Each generation's best, for tuning a search (the parent reads stdout only).
    let trace = std::env::var_os("PLANTED_TRACE").is_some();
    loop {
        if run.engine().is_valid() {
            seconds = Some(start.elapsed().as_secs_f64());
            break;
        }
        let stopped = run.step().is_some();
        if trace {
            let e = run.engine();
            eprintln!(
                "{:>5} {:>8.2}s uncovered {}",
                e.generation(),
                start.elapsed().as_secs_f64(),
                e.best().eval.terms.uncovered
            );
        }
        if stopped && !run.engine().is_valid() {
            break;
        }
    }
    println!(
        "{} {} {}",
        seconds.map_or("-".into(), |t| t.to_string()),
        run.engine().generation(),
        peak_kb()
    );
    let searches: Vec<String> = run
        .engine()
        .strategy_stats()
        .iter()
        .filter(|s| s.runs > 0)
        .map(|s| format!("{} {:.2} s x {}", s.name, s.seconds / s.runs as f64, s.runs))
        .collect();
    println!("{}", searches.join(", "));
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

/// Writes each spec (at each density) as TOML and its certificate as a
/// switch table.
fn write(dir: &std::path::Path, families: &[Family], densities: &[u32], args: &Args) -> anyhow::Result<()> {
    fnn_tui::fs::make_dirs(dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    for &family in families {
        for &pcs in &args.sizes {
            for (&density, seed) in densities.iter().flat_map(|d| (1..=args.seeds).map(move |s| (d, s))) {
                let p = planted(family, pcs, density, seed)?;
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

/// The rows as CSV, and the comparison the regression script makes.
mod suite {
    /// The CSV's first line.
    pub const HEADER: &str = "family,pcs,density,median_s,worst_s,failures,seeds";

    /// How much slower a row may be before it counts (and a floor below
    /// which a time is noise on a shared machine).
    const SLOWER: f64 = 2.0;
    const FLOOR_S: f64 = 0.25;

    /// One row: `None` for a median or worst that is a failure.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Row {
        pub family: String,
        pub pcs: usize,
        pub density: u32,
        pub median: Option<f64>,
        pub worst: Option<f64>,
        pub failures: usize,
        pub seeds: usize,
    }

    impl Row {
        pub fn line(&self) -> String {
            let t = |x: Option<f64>| x.map_or("fail".to_string(), |x| format!("{x:.2}"));
            format!(
                "{},{},{},{},{},{},{}",
                self.family,
                self.pcs,
                self.density,
                t(self.median),
                t(self.worst),
                self.failures,
                self.seeds
            )
        }

        fn key(&self) -> (&str, usize, u32) {
            (&self.family, self.pcs, self.density)
        }
    }

    /// The rows of a CSV written by [`Row::line`] under [`HEADER`].
    pub fn parse(text: &str) -> anyhow::Result<Vec<Row>> {
        let mut rows = Vec::new();
        for (n, line) in text.lines().enumerate().skip(1).filter(|(_, l)| !l.trim().is_empty()) {
            let bad = |what: &str| anyhow::anyhow!("line {}: {what}: `{}`", n + 1, fnn_tui::escape::line(line));
            let f: Vec<&str> = line.split(',').collect();
            let [family, pcs, density, median, worst, failures, seeds] = f.as_slice() else {
                return Err(bad("not 7 fields"));
            };
            let time = |s: &str| match s {
                "fail" => Ok(None),
                s => s.parse().map(Some).map_err(|_| bad("a time that is no number")),
            };
            let int = |s: &str| s.parse::<usize>().map_err(|_| bad("a count that is no number"));
            rows.push(Row {
                family: family.to_string(),
                pcs: int(pcs)?,
                density: int(density)? as u32,
                median: time(median)?,
                worst: time(worst)?,
                failures: int(failures)?,
                seeds: int(seeds)?,
            });
        }
        Ok(rows)
    }

    /// Each row of `now` more than 2x slower than its stored row (median
    /// or worst), or failing where it did not, in words.
    pub fn regressions(stored: &[Row], now: &[Row]) -> Vec<String> {
        let slower = |old: Option<f64>, new: Option<f64>| match (old, new) {
            (Some(o), Some(n)) => n > SLOWER * o.max(FLOOR_S),
            (Some(_), None) => true,
            (None, _) => false,
        };
        now.iter()
            .filter_map(|r| {
                let old = stored.iter().find(|o| o.key() == r.key())?;
                let worse = r.failures > old.failures || slower(old.median, r.median) || slower(old.worst, r.worst);
                worse.then(|| format!("{}\n  was {}", r.line(), old.line()))
            })
            .collect()
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn row(median: Option<f64>, worst: Option<f64>, failures: usize) -> Row {
            Row {
                family: "random".into(),
                pcs: 1000,
                density: 20,
                median,
                worst,
                failures,
                seeds: 3,
            }
        }

        #[test]
        fn a_row_twice_as_slow_or_newly_failing_is_flagged_and_noise_is_not() {
            let stored = parse(&format!("{HEADER}\n{}\n", row(Some(1.0), Some(2.0), 0).line())).unwrap();
            assert_eq!(stored, vec![row(Some(1.0), Some(2.0), 0)]);
            assert!(regressions(&stored, &[row(Some(1.9), Some(3.9), 0)]).is_empty());
            assert_eq!(regressions(&stored, &[row(Some(2.1), Some(2.0), 0)]).len(), 1);
            assert_eq!(regressions(&stored, &[row(Some(1.0), Some(4.1), 0)]).len(), 1);
            assert_eq!(regressions(&stored, &[row(Some(1.0), None, 1)]).len(), 1);
            let quick = parse(&format!("{HEADER}\n{}\n", row(Some(0.01), Some(0.02), 0).line())).unwrap();
            assert!(
                regressions(&quick, &[row(Some(0.2), Some(0.4), 0)]).is_empty(),
                "below the floor"
            );
        }
    }
}
