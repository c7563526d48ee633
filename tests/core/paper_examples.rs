//! The worked examples of the FNN papers (the KLAT2 paper §2 and §6.1, the FNN compiler paper
//! "Performance"), reproduced by the engine and the metrics code.

use crate::common;

use crate::common::{quick, quick_with};
use fnn_tui::design::parse_table;
use fnn_tui::ga::Engine;
use fnn_tui::metrics::Metrics;
use fnn_tui::spec::{Spec, check_feasible};

/// The papers' GA alone: no construction seeds it and no local search
/// helps it, so these tests fail when an operator of the FNN compiler paper is broken.
fn search(mut cluster: fnn_tui::spec::Cluster) -> (fnn_tui::design::Design, Metrics) {
    common::papers_ga(&mut cluster);
    let engine = Engine::new(cluster);
    assert!(!engine.is_valid(), "the search must start from nothing valid");
    let engine = common::run(engine, 2000);
    let design = engine.best_design();
    let metrics = Metrics::compute(&design, engine.cluster());
    (design, metrics)
}

/// The KLAT2 paper §2: 6 PCs with 2 NICs on three 4-way switches; A and B on 0 and
/// 1, C and D on 0 and 2, E and F on 1 and 2.
const SIX_PCS: &str = "0: 0 1 2 3\n1: 0 1 4 5\n2: 2 3 4 5\n";

#[test]
fn six_pc_example_is_valid_and_found_by_the_ga() {
    let cluster = quick(6, 2, "4x3");
    let paper = parse_table(SIX_PCS, "the KLAT2 paper", 6, 3).unwrap();
    let m = Metrics::compute(&paper, &cluster);
    assert!(m.valid, "{:?}", m.violations);
    assert_eq!(paper.links(0, 1), 2, "A and B share switches 0 and 1");
    assert_eq!(paper.links(0, 2), 1, "A reaches C through switch 0");

    let (design, found) = search(cluster);
    assert!(
        found.valid,
        "GA did not find the 6-PC design:\n{}",
        fnn_tui::design::format_table(&design)
    );
    assert_eq!(found.nics_used, 12);
}

#[test]
fn six_pc_example_with_uplink_port_uses_five_way_switches() {
    // "the above FNN would really be built using 5-way switches": one port
    // of each goes to the uplink switch.
    let cluster = quick_with(6, 2, "4x3", |s| {
        s.switches[0].ports = 5;
        s.uplink.mode = fnn_tui::spec::UplinkMode::Separate;
        s.uplink.ports = 1;
    });
    assert!(cluster.switches.iter().all(|s| s.ports == 4));
    let m = Metrics::compute(&parse_table(SIX_PCS, "the KLAT2 paper", 6, 3).unwrap(), &cluster);
    assert!(m.valid);
    assert_eq!(m.bisection.uplink_mbps, 3.0 * 2.0 * 100.0);
}

/// The KLAT2 paper §6.1: eight PCs, 3 NICs each, six 4-port switches; the PCs in
/// pairs (AB, CD, EF, GH) and a switch for every two pairs.
fn pairs_of_groups(groups: usize, group_size: usize) -> String {
    let mut table = String::new();
    let mut s = 0;
    for a in 0..groups {
        for b in a + 1..groups {
            let pcs: Vec<String> = (a * group_size..(a + 1) * group_size)
                .chain(b * group_size..(b + 1) * group_size)
                .map(|p| p.to_string())
                .collect();
            table.push_str(&format!("{s}: {}\n", pcs.join(" ")));
            s += 1;
        }
    }
    table
}

#[test]
fn eight_pc_fnn_figures_of_seed_000() {
    let cluster = quick_with(8, 3, "4x6", |s| s.nic.speed_mbps = 1.0);
    let design = parse_table(&pairs_of_groups(4, 2), "the KLAT2 paper §6.1", 8, 6).unwrap();
    let m = Metrics::compute(&design, &cluster);
    assert!(m.valid);
    // ((4*3)*6)/(8*7) = 1.28571428 links per pair, which is also the bound.
    assert!(
        (m.avg_pairwise_links - 72.0 / 56.0).abs() < 1e-12,
        "{}",
        m.avg_pairwise_links
    );
    assert!((m.pairwise_upper_bound - 72.0 / 56.0).abs() < 1e-12);
    assert!((m.avg_pairwise_links - 1.285_714_28).abs() < 1e-8);
    // 3.0 links between A and B, 1.0 between A and C.
    assert_eq!((design.links(0, 1), design.links(0, 2)), (3, 1));
    // Best-case bisection 8 * 3.0 = 24 links; conservative 8 * 1.2857 = 10.2857.
    assert_eq!(m.bisection.best_case_mbps, 24.0);
    assert!((m.bisection.random_permutation_mbps - 10.285_714_28).abs() < 1e-6);
    // Latency 1.0 switch hops against the fat tree's 2.7.
    assert_eq!(m.latency.avg_switch_hops, 1.0);
}

#[test]
fn eight_pc_example_is_found_by_the_ga() {
    let (design, m) = search(quick(8, 3, "4x6"));
    assert!(m.valid, "{}", fnn_tui::design::format_table(&design));
    assert!((m.avg_pairwise_links - 72.0 / 56.0).abs() < 1e-12);
}

#[test]
fn scaled_to_64_pcs_on_32_port_switches() {
    // "replace the six 4-way switches and eight PCs with six 32-way switches
    // and 64 PCs": ((32*31)*6)/(64*63) = 1.47619047.
    let cluster = quick(64, 3, "32x6");
    let design = parse_table(&pairs_of_groups(4, 16), "the KLAT2 paper §6.1", 64, 6).unwrap();
    let m = Metrics::compute(&design, &cluster);
    assert!(m.valid);
    assert!(
        (m.avg_pairwise_links - 1.476_190_47).abs() < 1e-8,
        "{}",
        m.avg_pairwise_links
    );
}

#[test]
fn klat2_reaches_the_1_859_bound_of_seed_002() {
    // 4 NICs, 31 ports on each of 8 switches and 8 on the ninth, 64 PCs.
    let cluster = quick(64, 4, "31x8,8");
    let bound = (8.0 * 31.0 * 30.0 + 8.0 * 7.0) / (64.0 * 63.0);
    assert!((bound - 1.859_126_98_f64).abs() < 1e-8);
    let (design, m) = search(cluster);
    assert!(m.valid);
    assert!((m.pairwise_upper_bound - bound).abs() < 1e-12);
    assert!(
        (m.avg_pairwise_links - bound).abs() < 1e-12,
        "avg {} bound {bound}",
        m.avg_pairwise_links
    );

    // Under the KLAT2 spec (100 Mb/s, a separate uplink switch), the same
    // wiring gives the paper's bisection figures: 25.6 Gb/s best case,
    // 371.8 Mb/s x 32 = 11.9 Gb/s for a random permutation, +1.8 Gb/s uplink.
    let klat2 = Spec::klat2().resolve().unwrap();
    let k = Metrics::compute(&design, &klat2);
    assert!(k.valid, "{:?}", k.violations);
    assert_eq!(k.bisection.best_case_mbps, 25_600.0);
    assert!((k.bisection.random_permutation_mbps / 1000.0 - 11.9).abs() < 0.01);
    assert!((k.avg_pairwise_links * 200.0 - 371.8).abs() < 0.05);
    assert_eq!(k.bisection.uplink_mbps, 1800.0);
}

/// The shipped KLAT2 spec reproduces the paper's run: the GA alone solves
/// the scaled-down problem, scales up, and solves the full one.
#[test]
fn klat2_default_runs_both_phases_of_the_papers_ga() {
    let cluster = Spec::klat2().resolve().unwrap();
    assert!(!cluster.ga.constructions && cluster.ga.local_search == 0);
    let engine = Engine::new(cluster);
    assert_eq!(engine.phase(), fnn_tui::ga::Phase::Scaled { width: 3, pcs: 7 });
    assert!(
        engine.population()[0].terms().uncovered > 0,
        "the scaled problem starts unsolved"
    );
    let engine = common::run(engine, 400);
    assert_eq!(engine.phase_changes().len(), 1, "scaled up once");
    assert!(engine.is_valid());
    // The paper's run: the scaled problem solved by generation 2 or so,
    // settled, scaled up, valid in the full phase from then on.
    let change = engine.phase_changes()[0];
    let scaled: Vec<_> = engine.history().iter().filter(|g| !g.full).collect();
    // Generation 0 is the initial population; the step that scales up is full.
    assert_eq!(
        scaled.len() as u64 + 1,
        change,
        "every generation before the change was scaled"
    );
    assert!(
        scaled.iter().any(|g| g.best_uncovered == 0),
        "the GA solved the scaled problem"
    );
    assert!(
        engine.first_valid().is_some_and(|g| g >= change),
        "first valid {:?}, change {change}",
        engine.first_valid()
    );
}

#[test]
fn klat2_default_spec_is_valid_and_costs_about_8100() {
    let cluster = Spec::klat2().resolve().unwrap();
    check_feasible(&cluster).unwrap();
    assert_eq!(cluster.pcs(), 64);
    assert_eq!(cluster.switch_count(), 9);
    assert!(cluster.switches.iter().all(|s| s.ports == 31));
    let (_, m) = search(cluster);
    assert!(m.valid);
    assert_eq!(m.nics_used, 256);
    assert!((7500.0..8700.0).contains(&m.cost.total), "cost {}", m.cost.total);
    assert!(m.pattern_min_links.unwrap() >= 1);
}
