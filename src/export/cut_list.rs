//! The cut list: one row per cable, everything the person cutting,
//! labelling and plugging it needs — the PC and NIC at one end, the switch
//! and port at the other, the colour, the text of its tag and its length
//! as the rack placement estimates it.
//!
//! Numbering (the same in every file an export writes): numbers fnn-tui
//! assigns count from 0 (PCs' numbers, NICs in NIC order, switches, racks);
//! numbers printed on the hardware count from 1 as printed (switch ports,
//! rack units from the bottom, PCI slots).

use super::racks::Placement;
use crate::design::Design;
use crate::spec::Cluster;

/// The columns, in order.
pub const HEADER: [&str; 8] = [
    "pc",
    "nic",
    "switch",
    "port",
    "color",
    "label",
    "length_m",
    "crosses_racks",
];

/// The text of a cable's tag: both ends, as the labels and port sheets
/// name them.
pub fn tag(c: &Cluster, pc: usize, nic: usize, switch: usize, port: usize) -> String {
    format!("{} NIC {nic} - switch {switch} port {port}", c.pc_name(pc))
}

/// The cut list as CSV, cables in PC and NIC order (the placement's).
pub fn csv(c: &Cluster, d: &Design, p: &Placement) -> String {
    // Ports once for all: a port is the PC's place on its switch, from 1.
    let on = d.pcs_on_switches();
    let port = |s: usize, pc: usize| on[s].iter().position(|&x| x == pc).map_or(0, |i| i + 1);
    let rows = p.cables.iter().map(|r| {
        let port = port(r.switch, r.pc);
        [
            c.pc_name(r.pc),
            r.nic.to_string(),
            r.switch.to_string(),
            port.to_string(),
            r.color.clone(),
            tag(c, r.pc, r.nic, r.switch, port),
            format!("{:.1}", r.length_m),
            r.crosses.to_string(),
        ]
    });
    crate::escape::csv(std::iter::once(HEADER.map(String::from)).chain(rows))
}
