//! The exact mode on the sweep's cells one port over the bound (issue 14):
//! for every size of P PCs with n NICs where the best construction is one
//! port over the lower bound, ask the SAT solver whether the bound's width
//! works on `extra` more switches than the construction uses. Switches can
//! stay empty, so an impossibility there holds for every smaller count.
//!
//! ```sh
//! cargo run --release --example exact_cells -- 3 32 2 6 10   # PCs 3..32, NICs 2..6, 10 s per count
//! ```

use fnn_tui::design::{bounds, constructions};
use fnn_tui::exact::{Options, Verdict, solve};
use fnn_tui::spec::quick_cluster;
use std::time::Duration;

fn main() {
    let a: Vec<f64> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let (p0, p1, n0, n1, budget) = match a.as_slice() {
        [p0, p1, n0, n1, b] => (*p0 as usize, *p1 as usize, *n0 as usize, *n1 as usize, *b),
        _ => (3, 32, 2, 6, 10.0),
    };
    let extra = 2;
    println!("| PCs | NICs | bound | construction | result | seconds |");
    println!("|---:|---:|---:|---|---|---:|");
    let (mut cells, mut improved, mut proved) = (0, 0, 0);
    for nics in n0..=n1 {
        for pcs in p0..=p1 {
            let bound = bounds::width_bound(pcs as u64, nics as u64) as u32;
            let Some(b) = constructions::best(pcs, nics) else {
                continue;
            };
            if b.width <= bound {
                continue;
            }
            cells += 1;
            let most = b.switches() + extra;
            // The counting bounds may refute the hardware before any model.
            let c = match quick_cluster(pcs, nics as u32, &format!("{bound}x{most}")) {
                Ok(c) => c,
                Err(e) => {
                    proved += 1;
                    println!(
                        "| {pcs} | {nics} | {bound} | {} x{} | optimal: {e} | 0.00 |",
                        b.width,
                        b.switches()
                    );
                    continue;
                }
            };
            let opts = Options {
                time_limit: Some(Duration::from_secs_f64(budget)),
                proof: None,
                only: None,
            };
            let out = solve(&c, &opts).expect("the solver runs");
            let total = out.seconds;
            let result = match out.verdict {
                Verdict::Found(_) => {
                    improved += 1;
                    format!("improved: {bound} ports on up to {most} switches")
                }
                Verdict::Impossible(_) => {
                    proved += 1;
                    format!("optimal: {bound} ports impossible on up to {most} switches")
                }
                Verdict::Unknown => "open".to_string(),
            };
            println!(
                "| {pcs} | {nics} | {bound} | {} x{} | {result} | {total:.2} |",
                b.width,
                b.switches()
            );
        }
    }
    println!(
        "{cells} cells one over the bound: {improved} improved, {proved} proved for the counts tried, {} open",
        cells - improved - proved
    );
}
