//! What it takes to build each of the other systems: the fat-tree's and
//! tree's wiring lists and bills of materials, the Stack-Ring's and
//! Stack-Mesh's IP plans and forwarding tables (the Stack-Ring paper's Table 1, Fig. 7).

use super::fattree::Shape;
use super::stacks;
use fnn_core::escape::one_line;
use fnn_core::spec::Cluster;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn widest(c: &Cluster) -> &fnn_core::spec::SwitchModel {
    c.models
        .iter()
        .max_by_key(|m| m.ports)
        .expect("a spec has a switch model")
}

/// Fat-tree wiring (node -> edge port, edge uplinks -> core in bundles) and BOM.
pub(crate) fn fat_tree(c: &Cluster) -> Result<(String, String), super::compare::NotBuilt> {
    let (m, t) = super::compare::fat_tree_for(c)?;
    let n = c.pcs() as u32;
    let mut w = format!(
        "# {}: non-blocking fat-tree of {}-port switches (the fat-tree paper's Algorithm 1)\n",
        one_line(&c.name),
        m.ports
    );
    let (edges, cores) = match t.shape {
        Shape::TwoLevel {
            to_nodes,
            to_core,
            edges,
            cores,
            bundle,
            ..
        } => {
            for pc in 0..n {
                let _ = writeln!(
                    w,
                    "{} -> edge {} port {}",
                    one_line(&c.pc_name(pc as usize)),
                    pc / to_nodes,
                    pc % to_nodes + 1
                );
            }
            for e in 0..edges {
                for k in 0..to_core {
                    let core = k / bundle;
                    let _ = writeln!(
                        w,
                        "edge {e} port {} -> core {core} port {}",
                        to_nodes + k + 1,
                        e * bundle + k % bundle + 1
                    );
                }
            }
            (edges, cores)
        }
        _ => {
            for pc in 0..n {
                let _ = writeln!(w, "{} -> switch 0 port {}", one_line(&c.pc_name(pc as usize)), pc + 1);
            }
            (1, 0)
        }
    };
    let money = |v: f64| format!("{v:.2}");
    let bom = fnn_core::escape::csv([
        ["item".into(), "count".into(), "unit_price".into(), "total".into()],
        [
            format!("{} (edge)", m.model),
            edges.to_string(),
            money(m.price),
            money(edges as f64 * m.price),
        ],
        [
            format!("{} (core)", m.model),
            cores.to_string(),
            money(m.price),
            money(cores as f64 * m.price),
        ],
        [
            c.nic.model.clone(),
            n.to_string(),
            money(c.nic.price),
            money(n as f64 * c.nic.price),
        ],
        [
            "cable".into(),
            t.cables.to_string(),
            money(c.cable_price),
            money(t.cable_cost),
        ],
    ]);
    Ok((w, bom))
}

/// Stack-Ring IP plan and the forwarding table of every stage (node x uses
/// the x-th nodes of its neighbouring stages as gateways).
pub fn stack_ring(c: &Cluster) -> (String, String) {
    let per_stage = (widest(c).ports / 2).max(1) as usize;
    let stages = c.pcs().div_ceil(per_stage).max(2) as u32;
    let mut plan = format!(
        "# {}: Stack-Ring of {stages} stages (the Stack-Ring paper); East on 10.10.stage.x, West on 10.10.(stage-1).(127+x)\n",
        one_line(&c.name)
    );
    for pc in 0..c.pcs() {
        let (stage, x) = ((pc / per_stage) as u32, (pc % per_stage + 1) as u32);
        let (e, w) = stacks::ring_addresses(stage, x, stages);
        let _ = writeln!(
            plan,
            "{} stage {stage} node {x}: E {e}  W {w}",
            one_line(&c.pc_name(pc))
        );
    }
    let mut tables = String::new();
    for stage in 0..stages {
        let _ = writeln!(
            tables,
            "# stage {stage}, node 1 (node x uses the same rows with its own x)"
        );
        tables.push_str(&stacks::ring_table_text(stage, 1, stages));
        tables.push('\n');
    }
    (plan, tables)
}

/// Stack-Mesh IP plan [10.j.i.x] and, per group, the interface toward
/// every other group (Fig. 7, X first).
pub fn stack_mesh(c: &Cluster) -> (String, String) {
    let per_group = (widest(c).ports / 2).max(1) as usize;
    let k = (c.pcs().div_ceil(per_group) as f64).sqrt().ceil().max(2.0) as u32;
    let mut plan = format!(
        "# {}: Stack-Mesh of {k}x{k} groups (the Stack-Ring paper); node (x, i, j) is 10.j.i.x\n",
        one_line(&c.name)
    );
    for pc in 0..c.pcs() {
        let g = (pc / per_group) as u32;
        let (i, j, x) = (g % k, g / k, pc % per_group + 1);
        let _ = writeln!(
            plan,
            "{} group ({i},{j}) node {x}: 10.{j}.{i}.{x}",
            one_line(&c.pc_name(pc))
        );
    }
    let mut tables = String::new();
    for src in 0..k * k {
        let s = (src % k, src / k);
        let _ = writeln!(tables, "# group ({},{})", s.0, s.1);
        for dst in 0..k * k {
            let d = (dst % k, dst / k);
            if let Some(iface) = stacks::mesh_interface(s, d, k) {
                let _ = writeln!(tables, "10.{}.{}.0/24 via {iface}", d.1, d.0);
            }
        }
    }
    (plan, tables)
}

/// The fat-tree in racks (the fat-tree paper §6.3), as SVG and a summary.
pub fn fat_tree_racks(c: &Cluster) -> Result<(String, String), super::compare::NotBuilt> {
    let (_, t) = super::compare::fat_tree_for(c)?;
    let Shape::TwoLevel {
        to_nodes, edges, cores, ..
    } = t.shape
    else {
        return Err(super::compare::NotBuilt::Star);
    };
    let n = c.pcs() as u32;
    let blocks: Vec<u32> = (0..edges).map(|e| to_nodes.min(n - e * to_nodes)).collect();
    let units = c.racks.units.max(to_nodes + 1);
    let p = super::fattree_racks::place(&blocks, cores, units, 7);
    let summary = format!(
        "{} racks of {units}U (7 a row, serpentine): {} building blocks whole, {} spread over collected space, {cores} core switches first\n",
        p.racks.len(),
        p.whole_blocks,
        p.spread_blocks
    );
    Ok((p.svg(), summary))
}

/// A two-level CLEX for the cluster's PCs: construction figures and a
/// routing simulation at 90% load, next to the 3D torus of the same size.
pub(crate) fn clex_stats(c: &Cluster) -> String {
    let k = (c.pcs() as f64).sqrt().ceil().max(2.0) as u64;
    let Ok(x) = super::clex::Clex::new(k, 2) else {
        return "no CLEX for this size\n".into();
    };
    let f = x.figures();
    let mut s = format!(
        "CLEX: {} nodes, cliques of {k}, 2 levels; degree {}, diameter at most {}, all-to-all in {} hops\n",
        f.nodes, f.degree, f.diameter_bound, f.all_to_all_hops
    );
    for l in &f.levels {
        let _ = writeln!(
            s,
            "level {}: clusters of {}, {} links a node, links up to {:.2} node spacings",
            l.level, l.cluster_nodes, l.degree, l.max_link_length
        );
    }
    let load = ((k - 1) as f64 * 0.9).round().max(1.0) as usize;
    s.push_str(&format!(
        "routing simulation, {load} messages a node (lvl, max rounds, avg rounds, max avg load, avg hops):\n"
    ));
    for st in super::clex_sim::simulate(x, load, true, 1) {
        let _ = writeln!(
            s,
            "{} {} {:.2} {:.2} {:.2}",
            st.level, st.max_rounds, st.avg_rounds, st.max_avg_load, st.avg_hops
        );
    }
    if let Ok(t) = super::clex::torus_for(f.nodes) {
        let _ = writeln!(
            s,
            "3D torus {0}x{0}x{0}: average {1:.2} hops, diameter {2}, all-to-all in {3} hops",
            t.side, t.avg_hops, t.diameter, t.all_to_all_hops
        );
    }
    s
}

/// Writes every system's artifacts under `dir`; returns the files. Also
/// with the comparison of `design` against them (`compare.txt`, `.csv`).
pub fn write_all(
    dir: &Path,
    c: &Cluster,
    design: &fnn_core::design::Design,
) -> Result<Vec<PathBuf>, crate::export::ExportError> {
    let (rows, skipped) = super::compare::compare(c, design);
    let mut files: Vec<(String, String)> = vec![
        ("compare.txt".into(), super::compare::text(&rows, &skipped, None)),
        ("compare.csv".into(), super::compare::csv(&rows)),
    ];
    if let Ok((wiring, bom)) = fat_tree(c) {
        files.push(("fat-tree/wiring.txt".into(), wiring));
        files.push(("fat-tree/bom.csv".into(), bom));
    }
    if let Ok((svg, summary)) = fat_tree_racks(c) {
        files.push(("fat-tree/racks.svg".into(), svg));
        files.push(("fat-tree/racks.txt".into(), summary));
    }
    files.push(("clex/stats.txt".into(), clex_stats(c)));
    let (plan, tables) = stack_ring(c);
    files.push(("stack-ring/ip-plan.txt".into(), plan));
    files.push(("stack-ring/forwarding.txt".into(), tables));
    let (plan, tables) = stack_mesh(c);
    files.push(("stack-mesh/ip-plan.txt".into(), plan));
    files.push(("stack-mesh/forwarding.txt".into(), tables));
    crate::export::write_files(dir, "compare", &files)
}
