//! One table for the FNN and the networks it replaces,
//! for the same PCs and switch price list, with the papers' definitions:
//! latency in switch hops; pairwise bandwidth in links between two PCs
//! (the KLAT2 paper §6.1); bisection in links across the worst halving, both the
//! conservative figure (P x average pairwise links for an FNN, a random
//! permutation) and the best case (every NIC busy).

use super::fattree::{self, Shape, SwitchOption};
use super::stacks;
use fnn_core::design::Design;
use fnn_core::metrics::Metrics;
use fnn_core::spec::{Cluster, UplinkMode};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub system: String,
    pub switches: u32,
    pub nics: u64,
    pub cables: u64,
    pub cost: f64,
    pub avg_switch_hops: f64,
    pub max_switch_hops: u32,
    pub software_forwarding: u32,
    pub avg_pairwise_links: f64,
    pub bisection_links: f64,
    pub bisection_best_links: f64,
    pub note: String,
}

fn pairs(n: u64) -> f64 {
    (n * n.saturating_sub(1) / 2) as f64
}

/// Average switch hops when nodes sit in groups of `sizes` and pairs in
/// one group cross one switch, others `far`.
fn grouped_latency(sizes: &[u64], far: f64) -> f64 {
    let n: u64 = sizes.iter().sum();
    let near: f64 = sizes.iter().map(|&s| pairs(s)).sum();
    let all = pairs(n);
    if all == 0.0 {
        0.0
    } else {
        (near + far * (all - near)) / all
    }
}

fn groups(n: u64, size: u64) -> Vec<u64> {
    let size = size.max(1);
    (0..n.div_ceil(size)).map(|g| size.min(n - g * size)).collect()
}

pub(crate) fn fnn_row(c: &Cluster, d: &Design) -> Row {
    let m = Metrics::compute(d, c);
    let uplink = u32::from(c.uplink.mode == UplinkMode::Separate);
    Row {
        system: "FNN".into(),
        switches: m.switches_used as u32 + uplink,
        nics: m.nics_used,
        cables: m.cables,
        cost: m.cost.total,
        avg_switch_hops: m.latency.avg_switch_hops,
        max_switch_hops: m.latency.max_switch_hops,
        software_forwarding: u32::from(m.latency.via_pc_pairs > 0),
        avg_pairwise_links: m.avg_pairwise_links,
        bisection_links: m.avg_pairwise_links * c.pcs() as f64,
        bisection_best_links: m.nics_used as f64,
        note: if m.valid {
            "valid".into()
        } else {
            format!("{} pairs uncovered", m.uncovered_pairs)
        },
    }
}

/// The spec's widest switch model as the commodity switch of the others.
fn commodity(c: &Cluster) -> SwitchOption {
    let m = c
        .models
        .iter()
        .max_by_key(|m| m.ports)
        .expect("a spec has a switch model");
    SwitchOption {
        model: m.model.clone(),
        ports: m.ports,
        price: m.price,
        power_w: m.power_w,
        rack_units: m.rack_units,
    }
}

/// Why another system cannot be built for this cluster.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum NotBuilt {
    #[error(transparent)]
    FatTree(#[from] fattree::FatTreeError),
    #[error(transparent)]
    Stack(#[from] stacks::StackError),
    #[error(transparent)]
    Clex(#[from] super::clex::ClexError),
    #[error("a two-level tree of {ports}-port switches holds at most {most} PCs")]
    TreeTooSmall { ports: u32, most: u64 },
    #[error("one switch holds every PC (a star): no rack plan is needed")]
    Star,
}

/// A system the comparison could not build, and why (data, not text).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Skipped {
    pub system: String,
    pub reason: String,
}

/// The non-blocking fat-tree of the cluster's commodity switch (the fat-tree paper's Algorithm 1).
pub fn fat_tree_for(c: &Cluster) -> Result<(SwitchOption, fattree::FatTree), NotBuilt> {
    let s = commodity(c);
    let input = fattree::Input {
        nodes: c.pcs() as u32,
        blocking: 1.0,
        edge: vec![s.clone()],
        core: vec![s.clone()],
        cable_price: c.cable_price,
        blades: false,
    };
    let t = fattree::design(&input)?;
    Ok((s, t))
}

pub(crate) fn fat_tree_row(c: &Cluster) -> Result<Row, NotBuilt> {
    let n = c.pcs() as u32;
    let (_, t) = fat_tree_for(c)?;
    let (latency, bisection, note) = match t.shape {
        Shape::TwoLevel {
            to_nodes,
            edges,
            cores,
            bundle,
            ..
        } => (
            grouped_latency(&groups(n as u64, to_nodes as u64), 3.0),
            n as f64 / t.resulting_blocking,
            format!("{edges} edge + {cores} core switches, bundles of {bundle} (the fat-tree paper's Algorithm 1)"),
        ),
        _ => (1.0, n as f64, "one switch (a star)".into()),
    };
    Ok(Row {
        system: "fat-tree".into(),
        switches: t.switches,
        nics: n as u64,
        cables: t.cables as u64,
        cost: t.cost + n as f64 * c.nic.price,
        avg_switch_hops: latency,
        max_switch_hops: t.max_switch_hops,
        software_forwarding: 0,
        avg_pairwise_links: 1.0,
        bisection_links: bisection,
        bisection_best_links: bisection,
        note,
    })
}

/// The KLAT2 paper §6.1's tree: leaf switches with half their ports to PCs, one
/// uplink each to a root switch; the root's links bound the bisection.
pub(crate) fn tree_row(c: &Cluster) -> Result<Row, NotBuilt> {
    let s = commodity(c);
    let n = c.pcs() as u64;
    let per_leaf = (s.ports / 2).max(1) as u64;
    let leaves = n.div_ceil(per_leaf);
    if leaves > s.ports as u64 {
        return Err(NotBuilt::TreeTooSmall {
            ports: s.ports,
            most: s.ports as u64 * per_leaf,
        });
    }
    let single = leaves <= 1;
    let switches = if single { 1 } else { leaves + 1 } as u32;
    let cables = n + if single { 0 } else { leaves };
    Ok(Row {
        system: "tree".into(),
        switches,
        nics: n,
        cables,
        cost: switches as f64 * s.price + cables as f64 * c.cable_price + n as f64 * c.nic.price,
        avg_switch_hops: if single {
            1.0
        } else {
            grouped_latency(&groups(n, per_leaf), 3.0)
        },
        max_switch_hops: if single { 1 } else { 3 },
        software_forwarding: 0,
        avg_pairwise_links: 1.0,
        bisection_links: if single { n as f64 } else { leaves as f64 },
        bisection_best_links: if single { n as f64 } else { leaves as f64 },
        note: format!("{leaves} leaf switches of {per_leaf} PCs, one root"),
    })
}

fn stack_hardware(c: &Cluster) -> stacks::Hardware {
    stacks::Hardware {
        ports: commodity(c).ports,
        stack: 1,
        max_nics: c.max_nics().max(4),
        link_mbps: c.nic.speed_mbps,
        backplane_mbps: f64::INFINITY,
    }
}

/// The Stack-Ring paper's Stack-Ring with one switch per stage, as many stages as the PCs need.
pub(crate) fn stack_ring_row(c: &Cluster) -> Result<Row, NotBuilt> {
    let s = commodity(c);
    let n = c.pcs() as u64;
    let per_stage = (s.ports / 2).max(1) as u64;
    let stages = n.div_ceil(per_stage).max(2) as u32;
    let r = stacks::stack_ring(&stack_hardware(c), stages)?;
    // Stage distance d: d <= 1 one switch; else d - 1 forwards, d switches.
    let st = stages as u64;
    let mut hops = 0.0;
    let mut count = 0.0;
    let sizes = groups(n, per_stage);
    for (a, &sa) in sizes.iter().enumerate() {
        for (b, &sb) in sizes.iter().enumerate() {
            let d = (a as u64).abs_diff(b as u64).min(st - (a as u64).abs_diff(b as u64));
            let pairs_ab = if a == b {
                pairs(sa)
            } else if a < b {
                (sa * sb) as f64
            } else {
                0.0
            };
            hops += pairs_ab * d.max(1) as f64;
            count += pairs_ab;
        }
    }
    Ok(Row {
        system: "Stack-Ring".into(),
        switches: r.switches,
        nics: 2 * n,
        cables: 2 * n,
        cost: r.switches as f64 * s.price + 2.0 * n as f64 * (c.cable_price + c.nic.price),
        avg_switch_hops: if count > 0.0 { hops / count } else { 0.0 },
        max_switch_hops: (stages / 2).max(1),
        software_forwarding: r.software_forwarding,
        avg_pairwise_links: 1.0,
        bisection_links: per_stage as f64 * 2.0,
        bisection_best_links: per_stage as f64 * 2.0,
        note: format!("{stages} stages of {per_stage} PCs (the Stack-Ring paper)"),
    })
}

/// The Stack-Ring paper's Stack-Mesh: k x k groups, one switch between neighbouring groups.
pub(crate) fn stack_mesh_row(c: &Cluster) -> Result<Row, NotBuilt> {
    let s = commodity(c);
    let n = c.pcs() as u64;
    let per_group = (s.ports / 2).max(1) as u64;
    let k = ((n.div_ceil(per_group)) as f64).sqrt().ceil().max(2.0) as u32;
    let m = stacks::stack_mesh(&stack_hardware(c), k)?;
    let kk = k as u64;
    let max_d = 2 * (kk / 2);
    // Average torus distance between groups (dimension order), in switches.
    let ring_avg = |k: u64| -> f64 { (0..k).map(|d| d.min(k - d) as f64).sum::<f64>() / k as f64 };
    let avg_groups = 2.0 * ring_avg(kk);
    Ok(Row {
        system: "Stack-Mesh".into(),
        switches: m.switches,
        nics: 4 * n,
        cables: 4 * n,
        cost: m.switches as f64 * s.price + 4.0 * n as f64 * (c.cable_price + c.nic.price),
        avg_switch_hops: avg_groups.max(1.0),
        max_switch_hops: max_d.max(1) as u32,
        software_forwarding: m.software_forwarding,
        avg_pairwise_links: 1.0,
        bisection_links: per_group as f64 * kk as f64 * 2.0,
        bisection_best_links: per_group as f64 * kk as f64 * 2.0,
        note: format!("{k}x{k} groups of up to {per_group} PCs (the Stack-Ring paper)"),
    })
}

/// A 3D torus of the PCs themselves (the CLEX paper's comparison): six links a
/// node, intermediate nodes forward.
pub(crate) fn torus_row(c: &Cluster) -> Result<Row, NotBuilt> {
    let t = super::clex::torus_for(c.pcs() as u64)?;
    let n = t.nodes;
    let nics = n * t.degree;
    Ok(Row {
        system: "3D torus".into(),
        switches: 0,
        nics,
        cables: nics / 2,
        cost: nics as f64 * c.nic.price + (nics / 2) as f64 * c.cable_price,
        avg_switch_hops: t.avg_hops,
        max_switch_hops: t.diameter as u32,
        software_forwarding: t.diameter.saturating_sub(1) as u32,
        avg_pairwise_links: 1.0,
        bisection_links: t.bisection_links as f64,
        bisection_best_links: t.bisection_links as f64,
        note: format!(
            "{0}x{0}x{0} nodes (the CLEX paper){1}",
            t.side,
            if n != c.pcs() as u64 { ", nearest cube" } else { "" }
        ),
    })
}

/// A two-level CLEX of the PCs (the CLEX paper, reconstructed): cliques of k,
/// k copies; a message crosses at most 2^L - 1 links.
pub(crate) fn clex_row(c: &Cluster) -> Result<Row, NotBuilt> {
    let p = c.pcs() as u64;
    let k = (p as f64).sqrt().ceil().max(2.0) as u64;
    let x = super::clex::Clex::new(k, 2)?;
    let f = x.figures();
    let nics = f.nodes * f.degree;
    Ok(Row {
        system: "CLEX".into(),
        switches: 0,
        nics,
        cables: nics / 2,
        cost: nics as f64 * c.nic.price + (nics / 2) as f64 * c.cable_price,
        // Level 1 is visited twice and level 2 once on a routed path.
        avg_switch_hops: 3.0,
        max_switch_hops: f.diameter_bound as u32,
        software_forwarding: (f.diameter_bound - 1) as u32,
        avg_pairwise_links: 1.0,
        bisection_links: (f.nodes / 2 * k) as f64,
        bisection_best_links: (f.nodes / 2 * k) as f64,
        note: format!(
            "2 levels, cliques of {k}{} (the CLEX paper, reconstructed)",
            if f.nodes != p {
                format!(", {} nodes padded", f.nodes)
            } else {
                String::new()
            }
        ),
    })
}

/// Every system that can be built for this cluster; the others say why not.
pub fn compare(c: &Cluster, fnn: &Design) -> (Vec<Row>, Vec<Skipped>) {
    let mut rows = vec![fnn_row(c, fnn)];
    let mut skipped = Vec::new();
    for (name, r) in [
        ("fat-tree", fat_tree_row(c)),
        ("tree", tree_row(c)),
        ("Stack-Ring", stack_ring_row(c)),
        ("Stack-Mesh", stack_mesh_row(c)),
        ("3D torus", torus_row(c)),
        ("CLEX", clex_row(c)),
    ] {
        match r {
            Ok(row) => rows.push(row),
            Err(e) => skipped.push(Skipped {
                system: name.into(),
                reason: e.to_string(),
            }),
        }
    }
    (rows, skipped)
}

/// The comparison as a table, wrapped to `width` columns when given.
pub fn text(rows: &[Row], skipped: &[Skipped], width: Option<u16>) -> String {
    // Short headers, so the figures fit 80 columns; the legend says them whole.
    let header = [
        "system", "sw", "NICs", "cables", "cost", "hops", "max", "fwd", "pairwise", "bisect", "best", "note",
    ];
    let cells: Vec<Vec<String>> = rows.iter().map(|r| cells(r, 3)).collect();
    let mut s = fnn_core::table::fitted(&header, &cells, width);
    for k in skipped {
        s.push_str(&fnn_core::table::wrap(
            &format!("not built: {}: {}", k.system, k.reason),
            width,
        ));
    }
    s.push_str(&fnn_core::table::wrap(
        "sw: switches; hops: switches a message crosses (average), max: at most; fwd: software forwardings; \
         pairwise: links between two PCs (average); bisect, best: bisection for a random and the best split; \
         in links (a link is one NIC's bandwidth)",
        // Prose wraps even where the table may run wide (a file, a view
        // that scrolls sideways).
        Some(width.unwrap_or(100)),
    ));
    s
}

/// A row's figures as text, the average hops to `hops` decimals (the
/// table rounds them to fit 80 columns; the CSV keeps more).
fn cells(r: &Row, hops: usize) -> Vec<String> {
    vec![
        r.system.clone(),
        r.switches.to_string(),
        r.nics.to_string(),
        r.cables.to_string(),
        format!("{:.2}", r.cost),
        format!("{:.hops$}", r.avg_switch_hops),
        r.max_switch_hops.to_string(),
        r.software_forwarding.to_string(),
        format!("{:.4}", r.avg_pairwise_links),
        format!("{:.2}", r.bisection_links),
        format!("{:.2}", r.bisection_best_links),
        r.note.clone(),
    ]
}

pub fn csv(rows: &[Row]) -> String {
    let header = "system,switches,nics,cables,cost,avg_switch_hops,max_switch_hops,software_forwarding,\
                  avg_pairwise_links,bisection_links,bisection_best_links,note";
    let header = std::iter::once(header.split(',').map(String::from).collect::<Vec<_>>());
    let body = rows.iter().map(|r| cells(r, 4));
    fnn_core::escape::csv(header.chain(body))
}
