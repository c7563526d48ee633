//! Every construction is a valid universal FNN for a range of
//! orders and sizes, as the spec's validator (Metrics) and the engine see
//! it, and the sweep's widths sit on or next to the lower bound.

use fnn_tui::design::bounds;
use fnn_tui::design::constructions::{self, Construction};
use fnn_tui::ga::Engine;
use fnn_tui::metrics::Metrics;
use fnn_tui::spec::quick_cluster;
use proptest::prelude::*;

fn all_constructions() -> Vec<Construction> {
    let mut out = vec![constructions::single_switch()];
    out.extend((3..=8).map(constructions::pairs_of_groups));
    for q in [2, 3, 4, 5, 7, 8, 9] {
        out.push(constructions::projective_plane(q).unwrap());
        out.push(constructions::affine_plane(q).unwrap());
    }
    out
}

/// The construction for `pcs` PCs, on switches exactly as wide as its
/// fullest one, checked by Metrics and by a fresh engine (which must find
/// it valid at generation 0, before any search).
fn check(c: &Construction, pcs: usize) {
    let built = constructions::build(c, pcs);
    let nics = c.nics() as u32;
    let switches = format!("{}x{}", built.width.max(2), built.switches().max(1));
    let cluster = quick_cluster(pcs, nics, &switches).unwrap_or_else(|e| panic!("{} at {pcs}: {e}", c.name));
    let mut design = built.design.clone();
    if design.switches() == 0 {
        design = fnn_tui::design::Design::new(pcs, 1);
    }
    let m = Metrics::compute(&design, &cluster);
    assert!(
        m.valid,
        "{} with {pcs} PCs: {:?} {} uncovered",
        c.name, m.violations, m.uncovered_pairs
    );
    let engine = Engine::new(cluster);
    assert_eq!(engine.generation(), 0);
    assert!(
        engine.is_valid(),
        "{} with {pcs} PCs: the seeded engine is not valid",
        c.name
    );
}

#[test]
fn every_construction_is_valid_over_a_range_of_sizes() {
    for c in all_constructions() {
        let blocks = c.blocks.len();
        // Truncated (fewer PCs than groups), exact, and padded (bigger groups).
        let mut sizes: Vec<usize> = vec![
            3,
            blocks.saturating_sub(1).max(3),
            blocks.max(3),
            blocks + 1,
            2 * blocks + 3,
        ];
        sizes.extend([50, 97, 200]);
        sizes.sort_unstable();
        sizes.dedup();
        for pcs in sizes {
            check(&c, pcs);
        }
    }
}

#[test]
fn the_planes_meet_fureds_bound_where_it_rules() {
    // With q = n - 1 the projective plane over equal groups reaches
    // P n / (n^2 - n + 1) exactly.
    for (n, q) in [(3usize, 2usize), (4, 3), (5, 4), (6, 5)] {
        let l = q * q + q + 1;
        for groups in [1, 2, 5, 10] {
            let pcs = l * groups;
            let b = constructions::build(&constructions::projective_plane(q).unwrap(), pcs);
            assert_eq!(
                b.width as u64,
                bounds::width_bound(pcs as u64, n as u64),
                "n={n} P={pcs}"
            );
        }
    }
}

#[test]
fn one_thousand_and_twenty_four_pcs_with_five_nics() {
    let b = constructions::best(1024, 5).unwrap();
    assert_eq!(b.width, 244);
    let cluster = quick_cluster(1024, 5, "244x21").unwrap();
    assert!(Metrics::compute(&b.design, &cluster).valid);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The best construction is a valid FNN, never narrower than the lower
    /// bound (that would disprove the bound) and at most one port over it.
    #[test]
    fn best_construction_is_valid_and_near_the_bound(pcs in 3usize..400, nics in 2usize..7) {
        let b = constructions::best(pcs, nics).unwrap();
        let lb = bounds::width_bound(pcs as u64, nics as u64);
        prop_assert!(b.width as u64 >= lb);
        prop_assert!(b.width as u64 <= lb + 1, "P={} n={}: width {} bound {}", pcs, nics, b.width, lb);
        let used_nics = (0..pcs).map(|p| b.design.nics_used(p)).max().unwrap();
        prop_assert!(used_nics as usize <= nics);
        let cluster = quick_cluster(pcs, nics as u32, &format!("{}x{}", b.width, b.switches())).unwrap();
        prop_assert!(Metrics::compute(&b.design, &cluster).valid);
    }
}
