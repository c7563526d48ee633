//! CLEX (the CLEX paper) reconstructed: sizes, uniform degrees, the diameter
//! bound checked by BFS on small instances, link lengths, and the torus
//! figures it is compared with.

use fnn_tui::topology::clex::{Clex, ClexError, torus, torus_for};

#[test]
fn small_instances_are_regular_and_within_the_diameter_bound() {
    for (k, levels) in [(4, 1), (4, 2), (4, 3), (3, 4), (8, 2)] {
        let c = Clex::new(k, levels).unwrap();
        let f = c.figures();
        assert_eq!(f.nodes, k.pow(levels));
        // Uniform degree: k - 1 in the clique, k more per level.
        for node in 0..c.nodes() {
            let deg: usize = (1..=levels).map(|l| c.neighbours(node, l).len()).sum();
            let on_own_copy = (2..=levels).filter(|&l| node / k.pow(l - 1) % k == node % k).count();
            // A level whose edges lead into the node's own clique repeats
            // the clique's k - 1 edges; every other level adds k.
            assert_eq!(
                deg as u64 + on_own_copy as u64,
                f.degree,
                "k={k} L={levels} node {node}"
            );
        }
        let diameter = (0..c.nodes())
            .step_by(((c.nodes() / 16).max(1)) as usize)
            .map(|s| *c.distances(s).iter().max().unwrap())
            .max()
            .unwrap();
        assert!(
            diameter as u64 <= f.diameter_bound,
            "k={k} L={levels}: diameter {diameter} > {}",
            f.diameter_bound
        );
        assert!(diameter >= levels.min(2), "connected across levels");
    }
}

#[test]
fn the_papers_configurations_and_their_level_figures() {
    // Table I: k = 32, 4 levels (about a million nodes); Table II: k = 64, 3 levels.
    let a = Clex::new(32, 4).unwrap().figures();
    assert_eq!(a.nodes, 1 << 20);
    assert_eq!(a.all_to_all_hops, 4, "at most one edge per level");
    assert_eq!(a.degree, 31 + 3 * 32);
    let visits: Vec<u64> = a.levels.iter().map(|l| l.visits).collect();
    assert_eq!(
        visits,
        [8, 4, 2, 1],
        "Tables I/III: 4, 2, 1 hops on levels 2-4, level 1 visited 8 times"
    );
    let b = Clex::new(64, 3).unwrap().figures();
    assert_eq!(b.nodes, 1 << 18);
    assert_eq!(b.levels.iter().map(|l| l.visits).collect::<Vec<_>>(), [4, 2, 1]);
    // Cable lengths grow by 32^(1/3) (64^(1/3) = 4) per level.
    let growth = a.levels[1].max_link_length / a.levels[0].max_link_length;
    assert!((growth - 32f64.cbrt()).abs() < 1e-9);
    assert!((b.levels[2].max_link_length / b.levels[1].max_link_length - 4.0).abs() < 1e-9);
}

#[test]
fn torus_figures_for_the_same_node_count() {
    let t = torus_for(1 << 18).unwrap();
    assert_eq!((t.side, t.nodes, t.degree, t.diameter), (64, 262_144, 6, 96));
    assert_eq!(t.all_to_all_hops, 96);
    assert!((t.avg_hops - 48.0).abs() < 1e-9, "3 x 64/4");
    assert_eq!(t.bisection_links, 2 * 64 * 64);
    assert_eq!(torus(1).unwrap_err(), ClexError::TorusTooSmall(1));
    assert!(Clex::new(1, 3).is_err() && Clex::new(4, 0).is_err());
    assert!(matches!(Clex::new(1 << 20, 3), Err(ClexError::TooLarge { .. })));
}

#[test]
fn routing_simulation_on_a_small_instance_behaves_as_the_tables_do() {
    use fnn_tui::topology::clex_sim::simulate;
    // 8^3 = 512 nodes, loads at 90% of a clique's links as in Tables I/II.
    let c = Clex::new(8, 3).unwrap();
    let stats = simulate(c, 6, true, 7);
    assert_eq!(stats.len(), 3);
    // Levels above 1 are crossed once per visit (messages already in the
    // destination's copy skip a level: a 1/k share).
    for s in &stats[1..] {
        let visits = (1u64 << (3 - s.level)) as f64;
        let expected = visits * (1.0 - 1.0 / 8.0);
        assert!(
            (s.avg_hops - expected).abs() < 0.1,
            "level {}: {} hops, expected about {expected}",
            s.level,
            s.avg_hops
        );
        assert!(s.max_rounds <= 2, "level {}: {} rounds", s.level, s.max_rounds);
    }
    // Level 1: each visit is one hop, or two when relayed.
    let l1 = &stats[0];
    let visits = 4.0 * (1.0 - 1.0 / 8.0);
    assert!(l1.avg_hops > visits * 0.9 && l1.avg_hops < visits * 2.0, "{l1:?}");
    assert!(l1.max_avg_load <= 8.0);
    // Deterministic per seed.
    assert_eq!(simulate(c, 6, true, 7), stats);
    assert_ne!(simulate(c, 6, true, 8), stats);
}
