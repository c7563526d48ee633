//! Counting bounds that prove a spec has no solution, checked before any
//! search so the user gets the reason and the bound instead of a long run
//! that cannot succeed (DESIGN.md §3.1).

use super::cluster::Cluster;
use super::error::SpecError;
use super::model::Coverage;
use crate::design::{bits, bounds, max_pair_links};

pub fn check_feasible(c: &Cluster) -> Result<(), SpecError> {
    let f = c.source.as_str();
    let err = |reason: String| Err(SpecError::infeasible(f, reason));
    check_pins(c)?;
    if c.cable_every_nic && c.total_nics() > c.total_ports() {
        return err(format!(
            "every NIC must be cabled but the PCs have {} NICs and the FNN switches only {} usable ports",
            c.total_nics(),
            c.total_ports()
        ));
    }
    let p = c.pcs();
    for pc in 0..p {
        let need = c.partners_needed(pc);
        if need == 0 {
            continue;
        }
        let (reach, nics, widest) = reach_bound(c, pc);
        if (reach as usize) < need {
            let what = match c.coverage {
                Coverage::Universal => "others",
                Coverage::Sparse => "pattern partners",
            };
            return err(format!(
                "PC {pc} must reach {need} {what} but its {nics} NIC(s) on switches of at most {widest} usable ports reach at most {nics} x ({widest}-1) = {reach}"
            ));
        }
    }
    if c.coverage == Coverage::Universal && p > 1 {
        let ports: Vec<u32> = c.switches.iter().map(|s| s.ports).collect();
        let max_links = max_pair_links(&ports, c.total_nics(), p);
        let needed = (p * (p - 1) / 2) as u64;
        let widest = ports.iter().copied().max().unwrap_or(0) as u64;
        let rank = c.max_nics() as u64;
        if let Some(why) = bounds::intersecting_refutation(p as u64, rank, widest) {
            return err(format!(
                "{p} PCs with at most {rank} NIC(s) each cannot all share switches of at most {widest} usable ports: {why}"
            ));
        }
        if max_links < needed {
            return err(format!(
                "{p} PCs make {needed} pairs but {} NICs on these switches can connect at most {max_links} pairs (sum of used x (used-1) / 2 over the switches)",
                c.total_nics()
            ));
        }
    }
    Ok(())
}

/// The most partners PC `pc` can reach: its usable NICs on the widest
/// switches it is allowed on, each contributing ports - 1 partners.
fn reach_bound(c: &Cluster, pc: usize) -> (u64, u32, u32) {
    let mut widths: Vec<u32> = (0..c.switch_count())
        .filter(|&s| !c.pins.is_forbidden(pc, s))
        .map(|s| c.ports(s))
        .collect();
    widths.sort_unstable_by(|a, b| b.cmp(a));
    let nics = (c.nics[pc] as usize).min(widths.len());
    let widest = widths.first().copied().unwrap_or(0);
    let reach = widths[..nics].iter().map(|&w| (w - 1) as u64).sum();
    (reach, nics as u32, widest)
}

fn check_pins(c: &Cluster) -> Result<(), SpecError> {
    let f = c.source.as_str();
    let mut per_switch = vec![0u32; c.switch_count()];
    for pc in 0..c.pcs() {
        let must = c.pins.must(pc);
        let n = bits::count(must);
        if n > c.nics[pc] {
            return Err(SpecError::infeasible(
                f,
                format!("PC {pc} is pinned to {n} switches but has only {} NIC(s)", c.nics[pc]),
            ));
        }
        for s in bits::ones(must) {
            per_switch[s] += 1;
        }
    }
    for (s, &n) in per_switch.iter().enumerate() {
        if n > c.ports(s) {
            return Err(SpecError::infeasible(
                f,
                format!(
                    "switch {s} has {n} PCs pinned to it but only {} usable ports",
                    c.ports(s)
                ),
            ));
        }
    }
    Ok(())
}
