//! `fnn-tui sweep --atlas FILE`: a sweep folded into the atlas, each size
//! keeping its better row, with one graph per NIC count beside the file.
//! A cell over the bound whose narrower width the exact mode refuted on
//! any number of switches is marked proved only once the DRAT checker
//! `rate` accepts the SAT proof, made again here into a temporary folder.

use super::out;
use anyhow::Context;
use fnn_tui::atlas::{self, Cell, Status};
use fnn_tui::atomic::write_atomic;
use fnn_tui::sweep::{self, Budget, Mark, Point, Settings};
use std::path::Path;
use std::time::Duration;

/// Folds the points of `settings`' range into the atlas at `path`. Rows
/// a resumed sweep read back are taken as computed with these settings
/// (the sweep's CSV does not record its flags), so resume with the same
/// flags; rows outside the range are left out.
pub fn write(path: &Path, points: &[Point], settings: &Settings) -> anyhow::Result<()> {
    let budget = settings.budget;
    let range: std::collections::HashSet<(usize, u32)> = settings.cells().into_iter().collect();
    let mut cells = if path.exists() {
        let text = fnn_tui::input::read_text_limited(path, fnn_tui::input::MAX_PAIR_FILE_BYTES)?;
        atlas::parse(&text, &fnn_tui::input::shown(path)).map_err(anyhow::Error::msg)?
    } else {
        Vec::new()
    };
    let rows = points
        .iter()
        .filter(|p| range.contains(&(p.pcs, p.nics)))
        .map(|p| {
            Ok(Cell::of_point(
                p,
                budget,
                refuted_everywhere(p) && checked_proof(p, budget)?,
            ))
        })
        .collect::<anyhow::Result<Vec<Cell>>>()?;
    atlas::fold(&mut cells, rows);
    write_atomic(path, atlas::to_csv(&cells).as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    let dir = fnn_tui::fs::parent_of(path);
    let mut nics: Vec<u32> = cells.iter().map(|c| c.nics).collect();
    nics.dedup();
    for n in nics {
        let pts: Vec<Point> = cells.iter().filter(|c| c.nics == n).map(Cell::to_point).collect();
        let title =
            format!("FNN atlas, {n} NICs per PC: narrowest switches known (solid) and the lower bound (dashed)");
        let svg_path = dir.join(format!("atlas-{n}-nics.svg"));
        write_atomic(&svg_path, sweep::svg(&pts, &title).as_bytes())
            .with_context(|| format!("cannot write {}", svg_path.display()))?;
    }
    let count = |s: Status| cells.iter().filter(|c| c.status == s).count();
    out::errln!(
        "atlas {}: {} sizes, {} at the bound, {} proved, {} open",
        path.display(),
        cells.len(),
        count(Status::AtBound),
        count(Status::Proved),
        count(Status::Open)
    );
    Ok(())
}

/// Whether the sweep refuted one port less on every switch count.
fn refuted_everywhere(p: &Point) -> bool {
    p.gap() > 0 && p.mark == Mark::Optimal && p.proof.contains("impossible on any number of switches")
}

/// Makes the SAT proof that `p.width - 1` ports cannot serve the cell on
/// the most switches a design can use, and asks `rate` to check it.
fn checked_proof(p: &Point, budget: Budget) -> anyhow::Result<bool> {
    let narrower = p.width as u64 - 1;
    let cap = fnn_tui::design::bounds::most_useful_switches(p.pcs as u64, p.nics as u64, narrower).max(1);
    let Ok(cluster) = fnn_tui::spec::quick_cluster(p.pcs, p.nics, &format!("{narrower}x{cap}")) else {
        return Ok(false);
    };
    let dir =
        fnn_tui::fs::temp::private_dir("fnn-atlas-proof-").context("cannot make a temporary folder for the proof")?;
    let checked = prove_in(&dir, &cluster, p, budget);
    let _ = fnn_tui::fs::remove_all(&dir);
    checked
}

fn prove_in(dir: &Path, cluster: &fnn_tui::spec::Cluster, p: &Point, budget: Budget) -> anyhow::Result<bool> {
    let opts = fnn_tui::exact::Options {
        deadline: fnn_tui::deadline::Deadline::from_now(Some(Duration::from_secs_f64(budget.exact_s.max(1.0) * 4.0))),
        proof: true,
        ..Default::default()
    };
    let Ok(outcome) = fnn_tui::exact::solve(cluster, &opts) else {
        return Ok(false);
    };
    let Some(proof) = outcome.proof else {
        return Ok(false);
    };
    let (cnf, drat) = (dir.join("cell.cnf"), dir.join("cell.drat"));
    for (path, bytes) in [(&cnf, &proof.cnf), (&drat, &proof.drat)] {
        fnn_tui::fs::atomic::write_atomic(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let checked = std::process::Command::new("rate").arg(&cnf).arg(&drat).output();
    match checked {
        Ok(o) => Ok(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("s VERIFIED")),
        Err(e) => anyhow::bail!(
            "cannot run the DRAT checker `rate` ({e}) to check the proof for {} PCs with {} NICs: install it with `cargo install --locked rate`",
            p.pcs,
            p.nics
        ),
    }
}
