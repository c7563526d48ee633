//! Universal FNNs by the GA alone (issue 10): for every size of 3..64 PCs
//! with 2..6 NICs, constructions off, time to a valid design at the width
//! the constructions reach (on as many switches as the construction uses);
//! with 7 and 8 NICs (no projective plane of order 6, so constructions
//! are weak there) at one port over the lower bound.
//!
//! ```sh
//! cargo run --release --example universal_sizes            # the whole table
//! cargo run --release --example universal_sizes -- 40 64 5 6   # PCs 40..64, NICs 5..6
//! ```

use fnn_tui::design::{bounds, constructions};
use fnn_tui::ga::Engine;
use fnn_tui::spec::quick_cluster;
use std::time::Instant;

const LIMIT_S: f64 = 10.0;

fn time_to_valid(pcs: usize, nics: u32, width: u32, switches: u64) -> Option<(f64, u64)> {
    let mut c = quick_cluster(pcs, nics, &format!("{width}x{switches}")).ok()?;
    c.ga.constructions = false;
    let start = Instant::now();
    let mut e = Engine::new(c);
    while !e.is_valid() {
        if start.elapsed().as_secs_f64() > LIMIT_S {
            return None;
        }
        e.step();
    }
    Some((start.elapsed().as_secs_f64(), e.generation()))
}

fn main() {
    let a: Vec<usize> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let (p0, p1, n0, n1) = match a.as_slice() {
        [p0, p1, n0, n1] => (*p0, *p1, *n0 as u32, *n1 as u32),
        _ => (3, 64, 2, 8),
    };
    let mut failures = Vec::new();
    let (mut done, mut worst, mut total) = (0, (0.0f64, 0, 0), 0.0);
    for nics in n0..=n1 {
        let (mut ok, mut n, mut slowest) = (0, 0, (0.0f64, 0));
        for pcs in p0..=p1 {
            let bound = bounds::width_bound(pcs as u64, nics as u64) as u32;
            let (width, switches) = if nics <= 6 {
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
            };
            n += 1;
            match time_to_valid(pcs, nics, width, switches) {
                Some((t, g)) => {
                    ok += 1;
                    total += t;
                    if t > slowest.0 {
                        slowest = (t, pcs);
                    }
                    if t > worst.0 {
                        worst = (t, pcs, nics);
                    }
                    if t > 1.0 {
                        eprintln!("{pcs} PCs x {nics} NICs: {width} ports x {switches}: {t:.2} s ({g} generations)");
                    }
                }
                None => {
                    eprintln!("{pcs} PCs x {nics} NICs: {width} ports x {switches}: FAILED in {LIMIT_S} s");
                    failures.push((pcs, nics, width, switches));
                }
            }
            done += 1;
        }
        println!(
            "| {nics} | {}..{} | {ok}/{n} | {:.2} s ({} PCs) |",
            p0, p1, slowest.0, slowest.1
        );
    }
    println!(
        "{done} sizes, {} failures {failures:?}, worst {:.2} s at {} PCs x {} NICs, total {total:.1} s",
        failures.len(),
        worst.0,
        worst.1,
        worst.2
    );
}
