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
use fnn_core::design::Design;
use fnn_core::spec::Cluster;

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

/// The name a switch is given (its host name, and the system name it
/// announces over LLDP), as `verify --lldp` reads it back.
pub fn switch_name(switch: usize) -> String {
    format!("sw{switch}")
}

/// The per-switch port plan a switch configuration needs: every port of
/// every FNN switch, the PC and NIC its cable comes from, and a port
/// description to set on the switch, in switch and port order.
pub(crate) fn port_plan(
    c: &Cluster,
    d: &Design,
    ifaces: &crate::routing::Interfaces,
    macs: &crate::routing::MacTable,
) -> String {
    let header = [
        "switch",
        "switch_name",
        "port",
        "pc",
        "nic",
        "iface",
        "mac",
        "description",
    ]
    .map(String::from);
    let rows = d.pcs_on_switches().into_iter().enumerate().flat_map(|(s, pcs)| {
        pcs.into_iter().enumerate().map(move |(i, pc)| {
            let nic = d.nic_on(pc, s).unwrap_or(0);
            let iface = macs.iface(pc, nic, ifaces);
            let mac = macs.known_mac(pc, nic).unwrap_or("").to_string();
            [
                s.to_string(),
                switch_name(s),
                (i + 1).to_string(),
                c.pc_name(pc),
                nic.to_string(),
                iface.clone(),
                mac,
                format!("{} NIC {nic} {iface}", fnn_core::escape::one_line(&c.pc_name(pc))),
            ]
        })
    });
    fnn_core::escape::csv(std::iter::once(header).chain(rows))
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
    fnn_core::escape::csv(std::iter::once(HEADER.map(String::from)).chain(rows))
}
