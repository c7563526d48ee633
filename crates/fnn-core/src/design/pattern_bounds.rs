//! Lower bounds that hold for a sparse pattern, where only the required
//! pairs must meet and the universal bounds (every pair meeting) say
//! nothing: a PC with `d` partners on `n` NICs needs a switch of
//! `ceil(d / n) + 1` ports; a clique of the pattern of `k` PCs is a
//! universal FNN of `k` PCs, so it needs what one of those needs; and on
//! switches of `w` ports each PC needs `ceil(d / (w - 1))` cabled NICs and
//! each switch covers at most `w (w - 1) / 2` pairs, which counts switches.

use super::bounds::width_bound;
use crate::patterns::PairWeights;
use serde::Serialize;

/// Cliques are grown from this many PCs of the highest degree.
const CLIQUE_STARTS: usize = 32;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PatternBounds {
    /// Said in every sparse report.
    pub universal_bounds: &'static str,
    /// The most required partners one PC has.
    pub max_degree: u64,
    /// PCs of the largest clique of required pairs found (greedily: at
    /// least this large).
    pub clique: u64,
    /// The narrowest switch the degrees and the clique allow.
    pub min_switch_width: u64,
    /// Switches of the widest width needed, by counting NIC ends and pairs.
    pub min_switches_at_widest: u64,
    pub widest_ports: u64,
    pub switches_available: u64,
    pub width_gap: i64,
    pub switch_gap: i64,
}

/// The bounds of `pattern` for PCs of `nics` NICs each (per PC), on
/// switches of at most `widest` ports.
pub fn pattern_bounds(
    pattern: &PairWeights,
    nics: &[u32],
    widest: u64,
    switches_available: u64,
    switches_used: u64,
) -> PatternBounds {
    let p = pattern.pcs();
    let degree = |pc: usize| pattern.required_degree(pc) as u64;
    let max_degree = (0..p).map(degree).max().unwrap_or(0);
    let by_degree = (0..p)
        .map(|pc| degree(pc).div_ceil(u64::from(nics.get(pc).copied().unwrap_or(1)).max(1)) + 1)
        .max()
        .unwrap_or(1);
    let clique = largest_clique(pattern);
    let most_nics = nics.iter().copied().max().unwrap_or(1) as u64;
    let min_switch_width = by_degree.max(if clique >= 2 { width_bound(clique, most_nics) } else { 1 });
    let min_switches_at_widest = if widest >= 2 {
        let ends: u64 = (0..p).map(|pc| degree(pc).div_ceil(widest - 1)).sum();
        let pairs = pattern.pair_count() as u64;
        ends.div_ceil(widest).max(pairs.div_ceil(widest * (widest - 1) / 2))
    } else {
        0
    };
    PatternBounds {
        universal_bounds: "do not apply: only the pattern's pairs must meet",
        max_degree,
        clique,
        min_switch_width,
        min_switches_at_widest,
        widest_ports: widest,
        switches_available,
        width_gap: widest as i64 - min_switch_width as i64,
        switch_gap: switches_used as i64 - min_switches_at_widest as i64,
    }
}

/// The largest clique grown greedily from the PCs of the highest degree.
fn largest_clique(pattern: &PairWeights) -> u64 {
    let p = pattern.pcs();
    let mut starts: Vec<usize> = (0..p).collect();
    starts.sort_by_key(|&pc| std::cmp::Reverse(pattern.required_degree(pc)));
    let joined = |a: usize, b: usize| pattern.row(a).0.binary_search(&(b as u32)).is_ok();
    let mut best = u64::from(p > 0);
    for &a in starts.iter().take(CLIQUE_STARTS) {
        let mut clique = vec![a];
        for &b in pattern.row(a).0 {
            if clique.iter().all(|&c| joined(c, b as usize)) {
                clique.push(b as usize);
            }
        }
        best = best.max(clique.len() as u64);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_of_triangles_is_bounded_by_its_cliques_and_degrees() {
        // Triangles (0,1,2), (3,4,5), (6,7,8) and a ring through 0, 3, 6.
        let pairs = [
            (0, 1),
            (0, 2),
            (1, 2),
            (3, 4),
            (3, 5),
            (4, 5),
            (6, 7),
            (6, 8),
            (7, 8),
            (0, 3),
            (3, 6),
            (0, 6),
        ];
        let pattern = PairWeights::from_pairs(9, 0, pairs.iter().map(|&(a, b)| (a, b, 1000)));
        let b = pattern_bounds(&pattern, &[1; 9], 4, 10, 6);
        assert_eq!((b.max_degree, b.clique), (4, 3));
        // One NIC and 4 partners: a 5-port switch; 4 ports are a gap of -1.
        assert_eq!((b.min_switch_width, b.width_gap), (5, -1));
        // 12 pairs, 6 a 4-port switch: 2; NIC ends: 3 PCs of degree 4 need 2, 6 need 1: 12 / 4 = 3.
        assert_eq!((b.min_switches_at_widest, b.switch_gap), (3, 3));
        assert!(b.universal_bounds.starts_with("do not apply"));
    }
}
