//! The general model: a boolean `x[pc][switch]` per possible cable.
//!
//! Each PC uses at most its NICs (exactly, when every NIC must be cabled),
//! each switch at most its ports, pins fix their booleans, and every
//! required pair has a switch both PCs are on (an auxiliary per pair and
//! switch). When nothing is pinned and the switches are interchangeable,
//! PC 0's switches are the first ones.

use super::solve::{Built, Model, is_true};
use crate::design::Design;
use crate::spec::{Cluster, Coverage};
use rustsat::instances::SatInstance;
use rustsat::types::Lit;
use rustsat::types::constraints::CardConstraint;

pub(super) fn build(c: &Cluster) -> Built {
    let (p, s) = (c.pcs(), c.switch_count());
    let mut inst = SatInstance::new();
    let x: Vec<Vec<Lit>> = (0..p).map(|_| (0..s).map(|_| inst.new_lit()).collect()).collect();
    for (pc, row) in x.iter().enumerate() {
        let nics = c.nics[pc] as usize;
        if c.cable_every_nic {
            inst.add_card_constr(CardConstraint::new_eq(row.iter().copied(), nics));
        } else {
            inst.add_card_constr(CardConstraint::new_ub(row.iter().copied(), nics));
        }
        for (sw, &l) in row.iter().enumerate() {
            if c.pins.is_must(pc, sw) {
                inst.add_unit(l);
            } else if c.pins.is_forbidden(pc, sw) {
                inst.add_unit(!l);
            }
        }
    }
    for (sw, slot) in c.switches.iter().enumerate() {
        inst.add_card_constr(CardConstraint::new_ub(x.iter().map(|row| row[sw]), slot.ports as usize));
    }
    for (a, b) in required_pairs(c) {
        let meet: Vec<Lit> = (0..s)
            .map(|sw| {
                let m = inst.new_lit();
                inst.add_lit_impl_lit(m, x[a][sw]);
                inst.add_lit_impl_lit(m, x[b][sw]);
                m
            })
            .collect();
        inst.add_nary(&meet);
    }
    let interchangeable = c.pins.is_empty() && c.switches.iter().all(|x| x.ports == c.switches[0].ports);
    if interchangeable && p > 1 && s > 0 {
        // PC 0's switches are a prefix: any design can be relabelled so.
        for sw in 1..s {
            inst.add_lit_impl_lit(x[0][sw], x[0][sw - 1]);
        }
    }
    let decode = Box::new(move |a: &rustsat::types::Assignment| {
        let mut d = Design::new(p, s);
        for (pc, row) in x.iter().enumerate() {
            for (sw, &l) in row.iter().enumerate() {
                if is_true(a, l) {
                    d.connect(pc, sw);
                }
            }
        }
        d
    });
    Built {
        instance: inst,
        model: Model::PerPc,
        decode,
    }
}

/// Every pair that must share a switch, each once (a < b).
fn required_pairs(c: &Cluster) -> Vec<(usize, usize)> {
    let p = c.pcs();
    match c.coverage {
        Coverage::Universal => (0..p).flat_map(|a| (a + 1..p).map(move |b| (a, b))).collect(),
        Coverage::Sparse => c
            .pattern
            .pairs()
            .filter(|&(a, b, w)| w > 0 && a != b)
            .map(|(a, b, _)| (a.min(b), a.max(b)))
            .collect(),
    }
}
