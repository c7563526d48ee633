//! The design as Graphviz DOT, CSV and JSON, with its metrics.

use crate::design::{Design, Metrics};
use crate::spec::Cluster;
use serde::Serialize;
use std::fmt::Write as _;

/// PCs and switches as nodes, one edge per NIC cable in its colour.
pub fn dot(cluster: &Cluster, design: &Design) -> String {
    let mut d = format!(
        "graph \"{}\" {{\n  layout=neato; overlap=false; splines=true;\n",
        cluster.name.replace('"', "'")
    );
    for s in 0..design.switches() {
        let c = super::colors::cable(&cluster.cable_colors, s);
        let _ = writeln!(
            d,
            "  s{s} [shape=box, style=filled, fillcolor=\"{}\", label=\"switch {s}\"];",
            c.base.hex
        );
    }
    for pc in 0..design.pcs() {
        let _ = writeln!(d, "  p{pc} [shape=ellipse, label=\"{}\"];", cluster.pc_name(pc));
        for (nic, s) in design.switches_of(pc).into_iter().enumerate() {
            let c = super::colors::cable(&cluster.cable_colors, s);
            let _ = writeln!(d, "  p{pc} -- s{s} [color=\"{}\", tooltip=\"NIC {nic}\"];", c.base.hex);
        }
    }
    d.push_str("}\n");
    d
}

/// One row per cable: PC, NIC, switch, colour, port.
pub fn csv(cluster: &Cluster, design: &Design) -> String {
    let mut c = String::from("pc,pc_name,nic,switch,color,port\n");
    for pc in 0..design.pcs() {
        for (nic, s) in design.switches_of(pc).into_iter().enumerate() {
            let port = super::labels::port_of(design, s, pc).unwrap_or(0);
            let _ = writeln!(
                c,
                "{pc},{},{nic},{s},{},{port}",
                cluster.pc_name(pc),
                super::colors::cable(&cluster.cable_colors, s).name()
            );
        }
    }
    c
}

#[derive(Serialize)]
struct DesignJson<'a> {
    name: &'a str,
    pcs: usize,
    switches: usize,
    /// switch -> PCs, as the canonical table.
    table: Vec<Vec<usize>>,
    /// PC -> switches in NIC order.
    nics: Vec<Vec<usize>>,
    metrics: &'a Metrics,
}

pub fn json(cluster: &Cluster, design: &Design, metrics: &Metrics) -> String {
    let j = DesignJson {
        name: &cluster.name,
        pcs: design.pcs(),
        switches: design.switches(),
        table: design.pcs_on_switches(),
        nics: (0..design.pcs()).map(|pc| design.switches_of(pc)).collect(),
        metrics,
    };
    serde_json::to_string_pretty(&j).expect("a design serializes")
}
