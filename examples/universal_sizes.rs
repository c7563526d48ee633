//! Universal FNNs by the GA alone: for every size of 3..64 PCs
//! with 2..6 NICs, constructions off, time to a valid design at the width
//! the constructions reach (on as many switches as the construction uses);
//! with 7 and 8 NICs (no projective plane of order 6, so constructions
//! are weak there) at one port over the lower bound, starting from as many
//! switches as the NICs need (every port used) and adding one at a time
//! (up to `--max-extra`), then the line count of a plane of order nics - 1
//! where one may exist (8 NICs: 57), until every seed is valid: the table
//! then says how many extra switches each size took, next to what the best
//! construction needs for the same width.
//!
//! ```sh
//! cargo run --release --example universal_sizes            # the whole table
//! cargo run --release --example universal_sizes -- --pcs 40..64 --nics 5..6
//! cargo run --release --example universal_sizes -- --pcs 3..64 --nics 2..6 --seeds 5
//! cargo run --release --example universal_sizes -- --nics 7..8 --seeds 3 --max-extra 0  # every port used only
//! ```

use clap::Parser;
use fnn_tui::design::{bounds, constructions};
use fnn_tui::run::Limits;
use fnn_tui::run::Run;
use fnn_tui::spec::quick_spec;
use std::time::Instant;

const LIMIT_S: f64 = 10.0;

/// Universal FNNs by the GA alone, constructions off: time to a valid
/// design for every size in a range.
#[derive(Parser)]
struct Args {
    /// PCs, as a range `FIRST..LAST` (both included).
    #[arg(long, default_value = "3..64", value_parser = range)]
    pcs: (usize, usize),
    /// NICs per PC, as a range `FIRST..LAST` (2..8).
    #[arg(long, default_value = "2..8", value_parser = range)]
    nics: (usize, usize),
    /// Seeds per size (1..=N).
    #[arg(long, default_value_t = 1)]
    seeds: u64,
    /// Switches added beyond every-port-used before a 7- or 8-NIC size
    /// counts as failed.
    #[arg(long, default_value_t = 6)]
    max_extra: u64,
}

/// `A..B` (or one number) as an inclusive range.
fn range(s: &str) -> anyhow::Result<(usize, usize)> {
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let num = |v: &str| v.trim().parse::<usize>().map_err(|e| anyhow::anyhow!("`{v}`: {e}"));
    let (a, b) = (num(a)?, num(b)?);
    if a > b {
        return Err(anyhow::anyhow!("{a}..{b} is empty"));
    }
    Ok((a, b))
}

fn time_to_valid(pcs: usize, nics: u32, width: u32, switches: u64, seed: u64) -> Option<(f64, u64)> {
    let mut spec = quick_spec(pcs, nics, &format!("{width}x{switches}")).ok()?;
    spec.ga.constructions = false;
    spec.ga.seed = seed;
    let c = spec.resolve().ok()?;
    let start = Instant::now();
    // A generation's walks stop at the limit too, as every run's do.
    let limits = Limits {
        generations: 0,
        time_limit_s: LIMIT_S,
    };
    let mut run = Run::of_cluster_since(spec, c, start).with_limits(limits);
    while !run.engine().is_valid() {
        if run.step().is_some() && !run.engine().is_valid() {
            return None;
        }
    }
    Some((start.elapsed().as_secs_f64(), run.engine().generation()))
}

/// The hardware a size is tried on: the width and switch count of the
/// best construction (2..6 NICs), or one port over the bound (7, 8 NICs).
fn hardware(pcs: usize, nics: u32) -> (u32, u64) {
    let bound = bounds::width_bound(pcs as u64, nics as u64) as u32;
    if nics <= 6 {
        let b = constructions::best(pcs, nics as usize).expect("a construction");
        let w = b.width.max(2);
        (
            w,
            (b.switches() as u64).max((pcs as u64 * nics as u64).div_ceil(w as u64)),
        )
    } else {
        let w = bound + 1;
        let need = (pcs as u64 * nics as u64).div_ceil(w as u64);
        (w, need.max(bounds::min_switches(pcs as u64, w as u64)))
    }
}

/// The switch counts a size is tried on, in order: the construction's
/// (2..6 NICs); with 7 and 8 NICs every-port-used and up to `max_extra`
/// more, then, where a plane of order nics - 1 may exist, its line count
/// (8 NICs: 57), which the ladder may fall short of.
fn switch_counts(nics: u32, least: u64, max_extra: u64) -> Vec<u64> {
    if nics <= 6 {
        return vec![least];
    }
    let mut rungs: Vec<u64> = (least..=least + max_extra).collect();
    let q = u64::from(nics) - 1;
    let lines = q * q + q + 1;
    if bounds::plane_may_exist(q) && lines > least + max_extra {
        rungs.push(lines);
    }
    rungs
}

/// One NIC count's row of the table, filled size by size.
#[derive(Default)]
struct Row {
    sizes_ok: usize,
    runs_ok: usize,
    runs: u64,
    times: Vec<f64>,
    /// The slowest run: seconds, and its PCs.
    worst: (f64, usize),
    failed: Vec<String>,
    extras: Vec<String>,
}

/// Every seed's time to a valid design on `switches` switches; a failed
/// seed stops the rest unless `all` (the last switch count runs them all).
/// The times, and how many seeds failed.
fn run_seeds(pcs: usize, nics: u32, width: u32, switches: u64, seeds: u64, all: bool) -> (Vec<f64>, u64) {
    let (mut these, mut fails) = (Vec::new(), 0);
    for seed in 1..=seeds {
        match time_to_valid(pcs, nics, width, switches, seed) {
            Some((t, g)) => {
                these.push(t);
                if t > 1.0 {
                    eprintln!(
                        "{pcs} PCs x {nics} NICs: {width} ports x {switches}, seed {seed}: {t:.2} s ({g} generations)"
                    );
                }
            }
            None => {
                fails += 1;
                eprintln!("{pcs} PCs x {nics} NICs: {width} ports x {switches}, seed {seed}: FAILED in {LIMIT_S} s");
                // One failed seed moves the size to the next switch count.
                if !all {
                    break;
                }
            }
        }
    }
    (these, fails)
}

impl Row {
    /// Tries `pcs` PCs on each switch count in turn until every seed
    /// gives a valid design (or the counts run out).
    fn add_size(&mut self, pcs: usize, nics: u32, seeds: u64, max_extra: u64) {
        let (width, least) = hardware(pcs, nics);
        let rungs = switch_counts(nics, least, max_extra);
        let most = *rungs.last().expect("at least one switch count");
        let mut fails = 0;
        for switches in rungs {
            let these;
            (these, fails) = run_seeds(pcs, nics, width, switches, seeds, switches == most);
            // The runs at the switch count the size settles on are the
            // ones the table times.
            if fails == 0 || switches == most {
                self.runs += seeds;
                self.runs_ok += these.len();
                for &t in &these {
                    self.times.push(t);
                    if t > self.worst.0 {
                        self.worst = (t, pcs);
                    }
                }
                if fails == 0 && switches > least {
                    let built = constructions::best(pcs, nics as usize)
                        .filter(|b| b.width.max(2) <= width)
                        .map(|b| b.switches().to_string())
                        .unwrap_or_else(|| "none".into());
                    self.extras.push(format!(
                        "{pcs}: +{} ({switches}, construction {built})",
                        switches - least
                    ));
                }
                break;
            }
        }
        if fails == 0 {
            self.sizes_ok += 1;
        } else {
            self.failed.push(format!("{pcs} ({fails})"));
        }
    }

    fn print(mut self, nics: u32, (p0, p1): (usize, usize)) {
        self.times.sort_by(f64::total_cmp);
        let median = self.times.get(self.times.len() / 2).copied().unwrap_or(f64::NAN);
        println!(
            "| {nics} | {p0}..{p1} | {}/{} | {}/{} | {median:.2} | {:.2} ({}) | {} |",
            self.sizes_ok,
            p1 - p0 + 1,
            self.runs_ok,
            self.runs,
            self.worst.0,
            self.worst.1,
            if self.failed.is_empty() {
                "none".into()
            } else {
                self.failed.join(", ")
            }
        );
        if !self.extras.is_empty() {
            println!(
                "|   | extra switches needed (switches; the construction's at this width) | {} |",
                self.extras.join("; ")
            );
        }
    }
}

fn main() {
    let args = Args::parse();
    let ((p0, p1), (n0, n1)) = (args.pcs, args.nics);
    let (n0, n1) = (n0.max(2) as u32, n1.min(8) as u32);
    println!(
        "| NICs | PCs | sizes valid on every seed | runs valid | median s | worst s (PCs) | failed sizes (seeds failed) |"
    );
    println!("|---:|---|---:|---:|---:|---:|---|");
    for nics in n0..=n1 {
        let mut row = Row::default();
        for pcs in p0..=p1 {
            row.add_size(pcs, nics, args.seeds, args.max_extra);
        }
        row.print(nics, (p0, p1));
    }
}
