//! Seed 003's worked figures: Table 2's scalability and stage 1's
//! forwarding table (Table 1), and the interface selection of Fig. 5.

use fnn_tui::topology::stacks::{
    Hardware, StackError, mesh_interface, ring_forwarding_table, ring_interface, stack_mesh, stack_ring, star, tree,
};

#[test]
fn table_2_scalability() {
    let h = Hardware::table2();
    let s = star(&h);
    assert_eq!(
        (s.switches, s.nodes, s.software_forwarding, s.bisection_mbps),
        (5, 120, 0, 1200.0)
    );
    let t = tree(&h, 2).unwrap();
    assert_eq!(
        (t.switches, t.nodes, t.software_forwarding, t.bisection_mbps),
        (61, 1416, 0, 1200.0)
    );
    let r = stack_ring(&h, 5).unwrap();
    assert_eq!(
        (r.switches, r.nodes, r.software_forwarding, r.bisection_mbps),
        (25, 300, 1, 12_000.0)
    );
    let m = stack_mesh(&h, 4).unwrap();
    assert_eq!((m.switches, m.nodes, m.bisection_mbps), (160, 960, 48_000.0));
    // Dimension-order routing over the 4x4 torus of groups: up to 3 forwards
    // (the paper's table says 1; see the module docs).
    assert_eq!(m.software_forwarding, 3);
}

#[test]
fn stage_1_forwarding_table() {
    // Table 1: four stages, a node x of stage 1.
    let t = ring_forwarding_table(1, 7, 4);
    let row = |n: usize| (t[n].0.as_str(), t[n].1, t[n].2.clone());
    assert_eq!(row(0), ("10.10.0.0", 'W', None), "stage 0's subnet is attached by W");
    assert_eq!(row(1), ("10.10.1.0", 'E', None), "own subnet, N/A");
    assert_eq!(
        row(2),
        ("10.10.2.0", 'E', Some("10.10.1.134".into())),
        "via stage 2's node x"
    );
    assert_eq!(
        row(3),
        ("10.10.3.0", 'W', Some("10.10.0.7".into())),
        "via stage 0's node x"
    );
}

#[test]
fn figure_5_interface_selection() {
    // "for the nodes in the stage 1, the interface W is selected for
    // destinations belong to stage 0 and 4 and the interface E for stage 2."
    assert_eq!(ring_interface(1, 0, 5), 'W');
    assert_eq!(ring_interface(1, 4, 5), 'W');
    assert_eq!(ring_interface(1, 2, 5), 'E');
    assert_eq!(ring_interface(4, 0, 5), 'E');
    assert_eq!(mesh_interface((0, 0), (1, 0), 4), Some('E'));
    assert_eq!(mesh_interface((0, 0), (3, 0), 4), Some('W'));
    assert_eq!(mesh_interface((2, 0), (2, 1), 4), Some('N'));
    assert_eq!(mesh_interface((2, 2), (2, 2), 4), None);
}

#[test]
fn bad_inputs_get_clear_errors() {
    let h = Hardware::table2();
    assert_eq!(stack_ring(&h, 1).unwrap_err(), StackError::RingTooSmall(1));
    assert!(stack_ring(&h, 1).unwrap_err().to_string().contains("at least 2 stages"));
    assert_eq!(stack_mesh(&h, 1).unwrap_err(), StackError::MeshTooSmall(1));
    let two = Hardware {
        max_nics: 2,
        ..h.clone()
    };
    assert!(stack_mesh(&two, 4).unwrap_err().to_string().contains("needs 4 NICs"));
    assert_eq!(tree(&h, 0).unwrap_err(), StackError::Ports);
}
