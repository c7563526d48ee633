//! Seed 004's worked examples, reproduced by Algorithm 1.

use fnn_tui::topology::fattree::{
    FatTreeError, Input, Shape, SwitchDatabase, SwitchOption, design, expandable, per_port_estimate,
};

fn sw(ports: u32, price: f64) -> SwitchOption {
    SwitchOption {
        model: format!("{ports}-port"),
        ports,
        price,
        power_w: 0.0,
        rack_units: 1,
    }
}

fn input(nodes: u32, blocking: f64, edge: Vec<SwitchOption>, core: Vec<SwitchOption>) -> Input {
    Input {
        nodes,
        blocking,
        edge,
        core,
        cable_price: 80.0,
        blades: false,
    }
}

fn two_level(t: &fnn_tui::topology::fattree::FatTree) -> (u32, u32, u32) {
    match t.shape {
        Shape::TwoLevel {
            edges, cores, bundle, ..
        } => (edges, cores, bundle),
        ref s => panic!("expected a two-level fat-tree, got {s:?}"),
    }
}

#[test]
fn example_1_sixty_nodes_on_36_port_switches() {
    let t = design(&input(60, 1.0, vec![sw(36, 11000.0)], vec![sw(36, 11000.0)])).unwrap();
    assert_eq!(two_level(&t), (4, 2, 9), "E = 4, C = 2, B = 9");
    assert_eq!(t.cables, 132, "L = 60 + 4 * 18");
    // "on the rightmost edge switch only 6 ports are utilized, 12 left unused"
    assert_eq!(t.unused_ports, 12);
}

#[test]
fn example_2_1200_nodes_blocking_2() {
    let t = design(&input(1200, 2.0, vec![sw(36, 1.0)], vec![sw(108, 1.0)])).unwrap();
    assert_eq!(two_level(&t), (50, 6, 2));
    match t.shape {
        Shape::TwoLevel { to_nodes, to_core, .. } => assert_eq!((to_nodes, to_core), (24, 12)),
        _ => unreachable!(),
    }
    assert_eq!(t.resulting_blocking, 2.0);
}

#[test]
fn example_3_280_nodes_blocking_11() {
    let t = design(&input(280, 11.0, vec![sw(36, 1.0)], vec![sw(36, 1.0)])).unwrap();
    assert_eq!(two_level(&t), (9, 1, 3), "one core switch, bundles of all 3 uplinks");
    assert_eq!(t.resulting_blocking, 11.0);
}

#[test]
fn blade_cluster_of_224_costs_as_in_section_5() {
    let db = SwitchDatabase::paper();
    let blade = db.edge.iter().find(|e| e.ports == 32).unwrap().clone();
    let mut i = input(224, 1.0, vec![blade], db.core.clone());
    i.blades = true;
    let best = design(&i).unwrap();
    let (e, c, _) = two_level(&best);
    assert_eq!((e, c), (14, 8), "eight 36-port core switches");
    assert_eq!(best.switch_cost - 14.0 * 11000.0, 88_000.0, "the cheapest core level");
    assert_eq!(best.cables, 224, "blades need no node cables: E * P_Ec");
    assert!(
        (best.cost / 224.0 - 1160.0).abs() < 1.0,
        "per port {}",
        best.cost / 224.0
    );
    // The 90-port modular configuration: C = 3 at $117,000 each.
    let modular = db.core.iter().find(|c| c.ports == 90).unwrap().clone();
    assert_eq!(modular.price, 117_000.0);
    let m = design(&Input {
        core: vec![modular],
        ..i.clone()
    })
    .unwrap();
    assert_eq!(two_level(&m).1, 3);
    assert_eq!(m.switch_cost - 14.0 * 11000.0, 351_000.0);
    assert!((m.cost / 224.0 - 2334.0).abs() < 1.0, "per port {}", m.cost / 224.0);
    // With the servers and enclosures: $2,515,320 and $2,778,320.
    let rest = 224.0 * 9600.0 + 14.0 * 7500.0;
    assert_eq!(rest + best.cost, 2_515_320.0);
    assert_eq!(rest + m.cost, 2_778_320.0);
}

#[test]
fn per_port_estimate_at_648_and_its_lower_bound_property() {
    // $306 a port, 4.22 W a port, 1/36 U a port: $594,864, 8,204 W, 54U.
    let e = per_port_estimate(648, 306.0, 4.22, 1.0 / 36.0);
    assert_eq!(e.cost, 594_864.0);
    assert_eq!(e.power_w.round(), 8204.0);
    assert!((e.rack_units - 54.0).abs() < 1e-9);
    // A lower bound for every two-level size, exact at N = P^2 / (2X).
    let s = sw(36, 11000.0);
    for n in 37..=648 {
        let t = design(&input(n, 1.0, vec![s.clone()], vec![s.clone()])).unwrap();
        let estimate = per_port_estimate(n, 11000.0 / 36.0, 0.0, 0.0).cost;
        assert!(
            estimate <= t.switch_cost + 1e-6,
            "N = {n}: estimate {estimate} above {}",
            t.switch_cost
        );
        if [72, 108, 216, 324, 648].contains(&n) {
            assert!((estimate - t.switch_cost).abs() < 1e-6, "N = {n} should be exact");
        }
    }
}

#[test]
fn designing_for_expansion_as_in_section_6_2() {
    let s = sw(36, 11000.0);
    let i = input(76, 1.0, vec![s.clone()], vec![s.clone()]);
    assert_eq!(two_level(&design(&i).unwrap()), (5, 3, 7), "76 nodes: E = 5, C = 3");
    // Designed for 126 nodes: E = 7 and C = 4 at full size, 5 edges now.
    assert_eq!(expandable(76, 126, &i).unwrap(), (5, 7, 4));
}

#[test]
fn trivial_cases_and_bad_inputs() {
    let s = sw(36, 11000.0);
    let star = design(&input(30, 1.0, vec![s.clone()], vec![s.clone()])).unwrap();
    assert!(matches!(star.shape, Shape::Star { .. }));
    let mut two = input(32, 1.0, vec![sw(32, 11000.0)], vec![]);
    two.blades = true;
    // A 32-port switch takes all 32 blades: the star beats two enclosures.
    assert!(matches!(design(&two).unwrap().shape, Shape::Star { .. }));
    two.nodes = 33;
    assert!(design(&two).is_err());
    assert_eq!(
        design(&input(60, 0.0, vec![s.clone()], vec![s.clone()])).unwrap_err(),
        FatTreeError::Blocking(0.0)
    );
    let too_big = design(&input(5000, 1.0, vec![s.clone()], vec![s.clone()])).unwrap_err();
    assert!(too_big.to_string().contains("278 edge switches"), "{too_big}");
}

#[test]
fn rack_placement_of_section_6_3() {
    use fnn_tui::topology::fattree_racks::{Unit, place};
    // The paper's example: 1U nodes, 36-port switches: 19U blocks, two to a
    // 42U rack with 4U spare; after five racks the 20U collected take the
    // next block, spread.
    let eleven = vec![18u32; 11];
    let p = place(&eleven, 0, 42, 7);
    assert_eq!(p.racks.len(), 5);
    assert_eq!((p.whole_blocks, p.spread_blocks), (10, 1));
    // N = 396: E = 22 edge, C = 18 core switches (Algorithm 1).
    let s = sw(36, 11000.0);
    let t = design(&input(396, 1.0, vec![s.clone()], vec![s])).unwrap();
    let (e, c, _) = two_level(&t);
    assert_eq!((e, c), (22, 18));
    let blocks = vec![18u32; 22];
    let p = place(&blocks, c, 42, 7);
    // The cores take the first rack's bottom 18U; blocks go whole while they
    // fit and are spread over the collected blank space otherwise.
    assert!(p.racks[0][..18].iter().all(|u| matches!(u, Unit::Core(_))));
    assert_eq!(p.whole_blocks + p.spread_blocks, 22);
    assert!(p.spread_blocks >= 2);
    // Nothing overfills, every node and switch is placed once.
    let count = |f: &dyn Fn(&Unit) -> bool| p.racks.iter().flatten().filter(|u| f(u)).count();
    assert_eq!(count(&|u| matches!(u, Unit::Node { .. })), 396);
    assert_eq!(count(&|u| matches!(u, Unit::Edge(_))), 22);
    assert_eq!(count(&|u| matches!(u, Unit::Core(_))), 18);
    assert!(p.racks.iter().all(|r| r.len() == 42));
    // Serpentine rows: rack 7 starts the second row at its far end.
    assert_eq!(p.position(6), (0, 6));
    assert_eq!(p.position(7), (1, 6));
    let svg = p.svg();
    roxmltree::Document::parse(&svg).expect("the fat-tree's racks.svg is well-formed XML");
}
