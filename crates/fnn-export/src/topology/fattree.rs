//! Two-level fat-trees by Algorithm 1 of the fat-tree paper (Solnushkin): for every
//! edge switch, ports to nodes P_En = floor(P_E * Bl / (1 + Bl)), ports to
//! the core P_Ec = P_E - P_En, edge switches E = ceil(N / P_En); for every
//! core switch with at least E ports, links in a bundle
//! B = min(P_C div E, P_Ec), core switches C = ceil(P_Ec / B), cables
//! L = N + E * P_Ec; the cheapest combination wins, against the two trivial
//! cases (two blade enclosures cabled together; a single switch, a star).

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchOption {
    pub model: String,
    pub ports: u32,
    pub price: f64,
    #[serde(default)]
    pub power_w: f64,
    #[serde(default)]
    pub rack_units: u32,
}

/// The two databases of Algorithm 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchDatabase {
    pub edge: Vec<SwitchOption>,
    pub core: Vec<SwitchOption>,
}

pub(crate) const PAPER_DATABASE: &str = include_str!("../../../../assets/switches/fattree.toml");

impl SwitchDatabase {
    pub fn paper() -> SwitchDatabase {
        toml::from_str(PAPER_DATABASE).expect("the built-in switch database parses")
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    pub nodes: u32,
    /// Oversubscription: 1 is non-blocking.
    pub blocking: f64,
    pub edge: Vec<SwitchOption>,
    pub core: Vec<SwitchOption>,
    pub cable_price: f64,
    /// Blade servers in enclosures with built-in edge switches: nodes need
    /// no cables to their edge switch, and two enclosures can be cabled
    /// directly (trivial case 1).
    pub blades: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Shape {
    /// Trivial case 1: two blade enclosures, their switches cabled together.
    TwoEnclosures { edge: usize },
    /// Trivial case 2: one switch with a port for every node.
    Star { switch: SwitchOption },
    TwoLevel {
        edge: usize,
        core: usize,
        /// Ports of an edge switch to nodes and to the core.
        to_nodes: u32,
        to_core: u32,
        /// E and C.
        edges: u32,
        cores: u32,
        /// Links in a bundle between an edge and a core switch.
        bundle: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FatTree {
    pub shape: Shape,
    pub switches: u32,
    pub cables: u32,
    pub resulting_blocking: f64,
    pub switch_cost: f64,
    pub cable_cost: f64,
    pub cost: f64,
    pub power_w: f64,
    pub rack_units: u32,
    pub unused_ports: u32,
    /// Switch hops between two nodes: 1 under one edge switch, else 3.
    pub max_switch_hops: u32,
}

#[derive(Debug, Error, PartialEq)]
pub enum FatTreeError {
    #[error("blocking factor {0} is not allowed: use a number > 0 (1 is non-blocking)")]
    Blocking(f64),
    #[error("no nodes to connect")]
    NoNodes,
    #[error(
        "no design: no switch has {nodes} ports for a star, and no core switch has a port for each of the {edges} edge switches needed"
    )]
    NoSwitchWideEnough { nodes: u32, edges: u32 },
}

pub fn design(input: &Input) -> Result<FatTree, FatTreeError> {
    let n = input.nodes;
    if n == 0 {
        return Err(FatTreeError::NoNodes);
    }
    if !(input.blocking.is_finite() && input.blocking > 0.0) {
        return Err(FatTreeError::Blocking(input.blocking));
    }
    let (two_level, needed_edges) = two_levels(input);
    // The cheapest; of equal costs, the first (the simplest shape).
    let mut best: Option<FatTree> = None;
    for t in trivial(input).into_iter().chain(two_level) {
        if best.as_ref().is_none_or(|b| t.cost < b.cost) {
            best = Some(t);
        }
    }
    best.ok_or(FatTreeError::NoSwitchWideEnough {
        nodes: n,
        edges: needed_edges,
    })
}

/// The trivial fat-trees: two enclosures cabled together, and stars.
fn trivial(input: &Input) -> Vec<FatTree> {
    let n = input.nodes;
    let mut out = Vec::new();
    let mut consider = |t: FatTree| out.push(t);
    // Trivial case 1: two enclosures of P_E / 2 blades, switches cabled together.
    if input.blades {
        for (i, e) in input.edge.iter().enumerate() {
            if n <= e.ports && n > e.ports / 2 && n <= 2 * (e.ports / 2) {
                let cables = e.ports / 2;
                consider(finish(
                    input,
                    Shape::TwoEnclosures { edge: i },
                    2.0 * e.price,
                    cables,
                    2.0 * e.power_w,
                    0,
                    1.0,
                    2 * e.ports - n - 2 * cables,
                ));
            }
        }
    }
    // Trivial case 2: a star.
    for s in input.edge.iter().chain(&input.core) {
        if s.ports >= n {
            let cables = if input.blades { 0 } else { n };
            consider(finish(
                input,
                Shape::Star { switch: s.clone() },
                s.price,
                cables,
                s.power_w,
                s.rack_units,
                1.0,
                s.ports - n,
            ));
        }
    }
    out
}

/// Every two-level fat-tree (edge and core models), and the most edge
/// switches any edge model needs.
fn two_levels(input: &Input) -> (Vec<FatTree>, u32) {
    let n = input.nodes;
    let mut out = Vec::new();
    let mut consider = |t: FatTree| out.push(t);
    let mut needed_edges = 0;
    for (i, e) in input.edge.iter().enumerate() {
        let to_nodes = (e.ports as f64 * (input.blocking / (1.0 + input.blocking))).floor() as u32;
        let to_core = e.ports - to_nodes;
        if to_nodes == 0 || to_core == 0 {
            continue;
        }
        let edges = n.div_ceil(to_nodes);
        needed_edges = needed_edges.max(edges);
        for (j, c) in input.core.iter().enumerate() {
            if c.ports < edges {
                continue;
            }
            let bundle = (c.ports / edges).min(to_core);
            let cores = to_core.div_ceil(bundle);
            let node_cables = if input.blades { 0 } else { n };
            let cables = node_cables + edges * to_core;
            let unused = edges * to_nodes - n + cores * c.ports - edges * to_core;
            consider(finish(
                input,
                Shape::TwoLevel {
                    edge: i,
                    core: j,
                    to_nodes,
                    to_core,
                    edges,
                    cores,
                    bundle,
                },
                edges as f64 * e.price + cores as f64 * c.price,
                cables,
                edges as f64 * e.power_w + cores as f64 * c.power_w,
                edges * e.rack_units + cores * c.rack_units,
                to_nodes as f64 / to_core as f64,
                unused,
            ));
        }
    }
    (out, needed_edges)
}

#[allow(clippy::too_many_arguments)]
fn finish(
    input: &Input,
    shape: Shape,
    switch_cost: f64,
    cables: u32,
    power_w: f64,
    rack_units: u32,
    blocking: f64,
    unused: u32,
) -> FatTree {
    let switches = match &shape {
        Shape::TwoEnclosures { .. } => 2,
        Shape::Star { .. } => 1,
        Shape::TwoLevel { edges, cores, .. } => edges + cores,
    };
    let max_switch_hops = match &shape {
        Shape::Star { .. } => 1,
        Shape::TwoEnclosures { .. } => 2,
        Shape::TwoLevel { .. } => 3,
    };
    let cable_cost = cables as f64 * input.cable_price;
    FatTree {
        shape,
        switches,
        cables,
        resulting_blocking: blocking,
        switch_cost,
        cable_cost,
        cost: switch_cost + cable_cost,
        power_w,
        rack_units,
        unused_ports: unused,
        max_switch_hops,
    }
}

/// The fat-tree paper §6.1: a full two-level fat-tree of identical P-port switches
/// uses 3 ports per node, so 3N times a per-port figure estimates the
/// network; it is exact when N = P^2 / (2X) for X a factor of P/2 and a
/// lower bound otherwise.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PerPort {
    pub ports: u32,
    pub cost: f64,
    pub power_w: f64,
    pub rack_units: f64,
}

pub fn per_port_estimate(nodes: u32, per_port_cost: f64, per_port_power_w: f64, per_port_rack_units: f64) -> PerPort {
    let ports = 3 * nodes;
    PerPort {
        ports,
        cost: ports as f64 * per_port_cost,
        power_w: ports as f64 * per_port_power_w,
        rack_units: ports as f64 * per_port_rack_units,
    }
}

/// The fat-tree paper §6.2: a core level designed for `future` nodes, with edge
/// switches for the `now` nodes installed; returns (edges now, edges at
/// full size, core switches).
pub fn expandable(now: u32, future: u32, input: &Input) -> Result<(u32, u32, u32), FatTreeError> {
    let full = design(&Input {
        nodes: future.max(now),
        ..input.clone()
    })?;
    match full.shape {
        Shape::TwoLevel {
            to_nodes, edges, cores, ..
        } => Ok((now.div_ceil(to_nodes), edges, cores)),
        _ => Ok((1, 1, 0)),
    }
}
