//! Planted specs at a density, at any size: the wiring is planted as for
//! [`super::plant`] (a random wiring at the size itself; a structured one
//! at the next power of two, its PCs past the size cut away), and the
//! required pairs are then a random share of every pair the wiring
//! covers. A sparse pattern is then as hard to read as a dense one is
//! easy: at 100% every pair the planted switches make is required, at 5%
//! one in twenty of them, and the wiring still covers them all.

use super::{Family, Part, PlantError, Planted, assemble, pairs_pattern, random_part_with, structured_parts};
use crate::ga::Rng;
use rand::SeedableRng;
use rand::seq::SliceRandom;

/// The densities the benchmark plants (percent of the covered pairs).
pub const DENSITIES: [u32; 6] = [5, 10, 20, 35, 50, 100];

/// The planted spec of `family` at `pcs` PCs (64 to 65,536, any count)
/// whose required pairs are `percent` of the pairs its wiring covers
/// (at least one), for `seed`.
pub fn plant_at(family: Family, pcs: usize, percent: u32, seed: u64) -> Result<Planted, PlantError> {
    let fail = |why: String| PlantError {
        family: family.name(),
        pcs,
        why,
    };
    if !(64..=65_536).contains(&pcs) {
        return Err(fail("the PCs must be from 64 to 65536".into()));
    }
    if !(1..=100).contains(&percent) {
        return Err(fail(format!("the density must be 1 to 100 percent, not {percent}")));
    }
    let mut rng = Rng::seed_from_u64(seed ^ u64::from_be_bytes(*b"\0density"));
    let mut parts = match family {
        Family::Random => vec![random_part_with(pcs, &mut rng).ok_or_else(|| fail("no random wiring fits".into()))?],
        _ => cut(structured_parts(family, pcs.next_power_of_two(), seed)?, pcs),
    };
    let mut covered = covered_pairs(pcs, &parts);
    let total = covered.len();
    let keep = (total * percent as usize).div_ceil(100).max(1).min(total);
    let mut chosen = covered.partial_shuffle(&mut rng, keep).0.to_vec();
    chosen.sort_unstable();
    for p in parts.iter_mut() {
        p.patterns.clear();
    }
    let about = parts
        .iter()
        .map(|p| p.about.as_str())
        .filter(|a| !a.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    parts[0].patterns.push(pairs_pattern(chosen));
    parts[0].about = format!("{about}; {percent}% of the {total} pairs it covers");
    for p in parts.iter_mut().skip(1) {
        p.about.clear();
    }
    let name = format!("{}-{pcs}-d{percent}-s{seed}", family.name());
    Ok(assemble(&name, pcs, parts))
}

/// The parts with the PCs from `pcs` on taken off their switches (those
/// switches keep their width, with ports left free).
fn cut(mut parts: Vec<Part>, pcs: usize) -> Vec<Part> {
    for p in parts.iter_mut() {
        for b in p.blocks.iter_mut() {
            b.retain(|&pc| pc < pcs);
        }
    }
    parts
}

/// Every pair that shares a switch of the parts, each once, smaller PC
/// first, sorted.
fn covered_pairs(pcs: usize, parts: &[Part]) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = parts
        .iter()
        .flat_map(|p| &p.blocks)
        .flat_map(|b| {
            b.iter()
                .flat_map(move |&x| b.iter().filter(move |&&y| x < y && y < pcs).map(move |&y| (x, y)))
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}
