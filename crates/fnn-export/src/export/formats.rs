//! The design as Graphviz DOT and JSON, with its metrics (the cable list
//! is the cut list, `cut_list.rs`).

use fnn_core::design::Design;
use fnn_core::escape::dot_string;
use fnn_core::metrics::Metrics;
use fnn_core::spec::Cluster;
use serde::Serialize;
use std::fmt::Write as _;

/// PCs and switches as nodes, one edge per NIC cable in its colour.
/// Every text is a DOT string, quoted by DOT's rules.
pub fn dot(cluster: &Cluster, design: &Design) -> String {
    let mut d = format!(
        "graph {} {{\n  layout=neato; overlap=false; splines=true;\n",
        dot_string(&cluster.name)
    );
    for s in 0..design.switches() {
        let c = super::colors::cable(&cluster.cable_colors, s);
        let _ = writeln!(
            d,
            "  s{s} [shape=box, style=filled, fillcolor={}, label=\"switch {s}\"];",
            dot_string(&c.base.hex)
        );
    }
    for pc in 0..design.pcs() {
        let _ = writeln!(
            d,
            "  p{pc} [shape=ellipse, label={}];",
            dot_string(&cluster.pc_name(pc))
        );
        for (nic, s) in design.switches_of(pc).into_iter().enumerate() {
            let c = super::colors::cable(&cluster.cable_colors, s);
            let _ = writeln!(
                d,
                "  p{pc} -- s{s} [color={}, tooltip=\"NIC {nic}\"];",
                dot_string(&c.base.hex)
            );
        }
    }
    d.push_str("}\n");
    d
}

/// One row per cable: PC, NIC, switch, colour, port.
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
