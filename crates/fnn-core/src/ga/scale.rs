//! The scaled-down first phase of the FNN compiler paper ("The GA Structure"): divide the
//! PC count and the switch ports by the same factor, keep the NICs per PC,
//! solve plain connectivity, then scale the population back up. A design
//! problem with 24-port switches and 48 PCs is first tried with 2-port
//! switches and 4 PCs, then 3-port and 6 PCs, and so on.

use super::genome::Genome;
use super::problem::Problem;
use crate::patterns::PairWeights;
use crate::spec::{Cluster, Coverage, Pins, SwitchSlot, Weights, check_feasible};

/// One scaled-down version of the problem.
#[derive(Clone, Debug)]
pub struct Scaled {
    pub problem: Problem,
    /// Ports of the widest scaled switch.
    pub width: u32,
    /// Real PCs per scaled PC.
    pub factor: f64,
}

/// The scaled-down problem whose widest switch has `width` ports, if it is
/// a real reduction and not provably impossible.
pub(crate) fn scaled_problem(full: &Cluster, width: u32) -> Option<Scaled> {
    let widest = full.switches.iter().map(|s| s.ports).max()?;
    let factor = widest as f64 / width as f64;
    if factor < 2.0 {
        return None;
    }
    let pcs = (full.pcs() as f64 / factor).ceil() as usize;
    if pcs < 2 {
        return None;
    }
    // A scaled PC stands for a group of real PCs: give it the fewest NICs
    // in its group so that the scaled design fits every member.
    let mut nics = vec![u32::MAX; pcs];
    for pc in 0..full.pcs() {
        let g = group_of(pc, full.pcs(), pcs);
        nics[g] = nics[g].min(full.nics[pc]);
    }
    let switches = full
        .switches
        .iter()
        .map(|s| SwitchSlot {
            model: s.model,
            ports: ((s.ports as f64 / factor).round() as u32).max(1),
        })
        .collect::<Vec<_>>();
    let cluster = Cluster {
        nics,
        pins: Pins::new(pcs, switches.len()),
        switches,
        coverage: Coverage::Universal,
        pattern: PairWeights::default(),
        weights: Weights {
            uncovered: 1.0,
            bandwidth: 0.0,
            weakest: 0.0,
            balance: 0.0,
            cost: 0.0,
            redundancy: 0.0,
            rack_crossings: 0.0,
        },
        cable_every_nic: false,
        ..full.clone()
    };
    check_feasible(&cluster).ok()?;
    Some(Scaled {
        problem: Problem::new(cluster),
        width,
        factor,
    })
}

/// The first feasible scaled problem wider than `after` (2-port switches first).
pub(crate) fn next_scaled(full: &Cluster, after: u32) -> Option<Scaled> {
    let widest = full.switches.iter().map(|s| s.ports).max()?;
    (after.max(1) + 1..=widest / 2).find_map(|w| scaled_problem(full, w))
}

/// The scaled PC standing for real PC `pc` (contiguous groups).
pub(crate) fn group_of(pc: usize, pcs: usize, scaled_pcs: usize) -> usize {
    pc * scaled_pcs / pcs
}

/// A full-size genome from a scaled one: every real PC takes its group's
/// switches where ports remain, then the lowest free switches.
pub(crate) fn scale_up(full: &Problem, scaled: &Problem, g: &Genome) -> Genome {
    let order: Vec<usize> = (0..full.pcs()).collect();
    let (p, sp) = (full.pcs(), scaled.pcs());
    Genome::construct(full, &order, &|pc| {
        crate::design::bits::ones(g.mask(scaled, group_of(pc, p, sp))).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{QuickFlags, Spec};

    fn cluster(pcs: usize, nics: u32, switches: &str) -> Cluster {
        let q = QuickFlags {
            pcs: Some(pcs),
            nics: Some(nics),
            switches: Some(switches.into()),
            ..Default::default()
        };
        q.apply(Spec::default()).unwrap().resolve().unwrap()
    }

    #[test]
    fn paper_example_scales_48_pcs_on_24_ports_to_4_on_2() {
        let c = cluster(48, 3, "24x6");
        let s = scaled_problem(&c, 2).unwrap();
        assert_eq!(s.problem.pcs(), 4);
        assert!(s.problem.cluster.switches.iter().all(|x| x.ports == 2));
        assert_eq!(next_scaled(&c, 1).map(|s| s.width), Some(2));
    }

    #[test]
    fn klat2_skips_impossible_scales() {
        let c = cluster(64, 4, "31x8,8");
        // 5 PCs on eight 2-port switches cannot cover 10 pairs.
        assert!(scaled_problem(&c, 2).is_none());
        let s = next_scaled(&c, 1).unwrap();
        assert_eq!((s.width, s.problem.pcs()), (3, 7));
    }
}
