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
fn range(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let num = |v: &str| v.trim().parse::<usize>().map_err(|e| format!("`{v}`: {e}"));
    let (a, b) = (num(a)?, num(b)?);
    if a > b {
        return Err(format!("{a}..{b} is empty"));
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

fn main() {
    let args = Args::parse();
    let ((p0, p1), (n0, n1)) = (args.pcs, args.nics);
    let (n0, n1) = (n0.max(2) as u32, n1.min(8) as u32);
    let (seeds, max_extra) = (args.seeds, args.max_extra);
    println!(
        "| NICs | PCs | sizes valid on every seed | runs valid | median s | worst s (PCs) | failed sizes (seeds failed) |"
    );
    println!("|---:|---|---:|---:|---:|---:|---|");
    for nics in n0..=n1 {
        let (mut sizes_ok, mut runs_ok, mut runs) = (0, 0, 0);
        let mut times = Vec::new();
        let mut worst = (0.0f64, 0);
        let mut failed = Vec::new();
        let mut extras = Vec::new();
        for pcs in p0..=p1 {
            let (width, least) = hardware(pcs, nics);
            let rungs = switch_counts(nics, least, max_extra);
            let most = *rungs.last().expect("at least one switch count");
            let mut fails = 0;
            for switches in rungs {
                fails = 0;
                let mut these = Vec::new();
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
                            eprintln!(
                                "{pcs} PCs x {nics} NICs: {width} ports x {switches}, seed {seed}: FAILED in {LIMIT_S} s"
                            );
                            // One failed seed moves the size to the next
                            // switch count; only the last one runs them all.
                            if switches != most {
                                break;
                            }
                        }
                    }
                }
                // The runs at the switch count the size settles on are the
                // ones the table times.
                if fails == 0 || switches == most {
                    runs += seeds;
                    runs_ok += these.len();
                    for &t in &these {
                        times.push(t);
                        if t > worst.0 {
                            worst = (t, pcs);
                        }
                    }
                    if fails == 0 && switches > least {
                        let built = constructions::best(pcs, nics as usize)
                            .filter(|b| b.width.max(2) <= width)
                            .map(|b| b.switches().to_string())
                            .unwrap_or_else(|| "none".into());
                        extras.push(format!(
                            "{pcs}: +{} ({switches}, construction {built})",
                            switches - least
                        ));
                    }
                    break;
                }
            }
            if fails == 0 {
                sizes_ok += 1;
            } else {
                failed.push(format!("{pcs} ({fails})"));
            }
        }
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
        println!(
            "| {nics} | {p0}..{p1} | {sizes_ok}/{} | {runs_ok}/{runs} | {median:.2} | {:.2} ({}) | {} |",
            p1 - p0 + 1,
            worst.0,
            worst.1,
            if failed.is_empty() {
                "none".into()
            } else {
                failed.join(", ")
            }
        );
        if !extras.is_empty() {
            println!(
                "|   | extra switches needed (switches; the construction's at this width) | {} |",
                extras.join("; ")
            );
        }
    }
}
