//! The fat-tree `compare` designs for the cluster (the fat-tree paper's
//! Algorithm 1: edge switches of PCs, each joined to every core switch by
//! a bundle of cables), built on Linux bridges for the same traffic at the
//! same link rate.
//!
//! Cores in parallel, and a bundle's parallel cables, make loops, which
//! plain bridges cannot have (a switch's spanning tree would cut all but
//! one), and this kernel has neither VLAN filtering nor bonding to split
//! them. So the fat-tree is built as today's large fat-trees are, routed:
//! each edge switch is a namespace whose bridge holds its PCs (one NIC
//! each, the edge's subnet) and which routes; each core is a namespace
//! that routes; every cable between an edge and a core is a link of its
//! own. Traffic to PC `d` takes cable `d mod (cores x bundle)` of all the
//! cables to the cores — destination-mod-k routing, as a fat-tree's
//! static tables spread it — up from the source's edge and down to `d`'s.

use super::links::End;
use super::testbed::Testbed;
use super::{EmulateError, commands};
use fnn_core::escape::batch_word;
use fnn_core::spec::Cluster;
use fnn_export::topology::fattree::Shape as Built;
use std::net::Ipv4Addr;

/// Why no fat-tree is built for the cluster.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum NoFatTree {
    #[error(transparent)]
    NotBuilt(#[from] fnn_export::topology::compare::NotBuilt),
    #[error("it is two blade enclosures, not switches")]
    Enclosures,
    #[error(
        "{edges} edges and {cables} cables to the cores; at most {MAX_EDGES} edges and {MAX_CABLES} cables are built"
    )]
    TooLarge { edges: usize, cables: usize },
}

/// What is built: PCs per edge switch, edges, cores (0 for one switch, a
/// star) and cables a bundle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    pub to_nodes: usize,
    pub edges: usize,
    pub cores: usize,
    pub bundle: usize,
}

impl Shape {
    /// The fat-tree `compare` designs for `c`, or why there is none.
    pub fn of(c: &Cluster) -> Result<Shape, NoFatTree> {
        let (_, t) = fnn_export::topology::compare::fat_tree_for(c)?;
        match t.shape {
            Built::TwoLevel {
                to_nodes,
                edges,
                cores,
                bundle,
                ..
            } => Ok(Shape {
                to_nodes: to_nodes as usize,
                edges: edges as usize,
                cores: cores as usize,
                bundle: bundle as usize,
            }),
            Built::Star { .. } => Ok(Shape {
                to_nodes: c.pcs(),
                edges: 1,
                cores: 0,
                bundle: 0,
            }),
            Built::TwoEnclosures { .. } => Err(NoFatTree::Enclosures),
        }
        .and_then(|s| {
            if s.edges > MAX_EDGES || s.edges * s.vlans() > MAX_CABLES {
                let (edges, cables) = (s.edges, s.edges * s.vlans());
                Err(NoFatTree::TooLarge { edges, cables })
            } else {
                Ok(s)
            }
        })
    }

    fn edge(&self, pc: usize) -> usize {
        pc / self.to_nodes.max(1)
    }

    /// Cables from an edge to the cores (one for a star, unused).
    pub(crate) fn vlans(&self) -> usize {
        (self.cores * self.bundle).max(1)
    }

    /// Which of its edge's cables to the cores traffic to PC `dst`
    /// crosses (cable `v mod bundle` to core `v / bundle`).
    pub(crate) fn vlan_for(&self, dst: usize) -> usize {
        dst % self.vlans()
    }
}

/// The most edges built: one /16 of 10.100.0.0-10.249.0.0 each.
pub(crate) const MAX_EDGES: usize = 150;

/// The most cables from one edge to the cores (links of 172.16.0.0/12).
pub(crate) const MAX_CABLES: usize = 250_000;

/// PC `pc`'s address: a /16 an edge.
pub fn address(pc: usize, s: &Shape) -> Ipv4Addr {
    let h = pc + 1;
    Ipv4Addr::new(10, 100 + s.edge(pc) as u8, (h >> 8) as u8, (h & 0xff) as u8)
}

/// Edge `e`'s address on its PCs' subnet, their gateway.
fn gateway(e: usize) -> Ipv4Addr {
    Ipv4Addr::new(10, 100 + e as u8, 255, 254)
}

/// A link's MAC: kind 1 a PC's NIC, 2 an edge's bridge, 3 and 4 the edge
/// and core ends of a cable. Every neighbour is then written in before
/// the run: an all-to-all would otherwise start with thousands of ARP
/// broadcasts into rate-limited queues, and the drops fail connections.
fn mac(kind: u8, id: usize) -> String {
    format!(
        "02:fc:{kind:02x}:{:02x}:{:02x}:{:02x}",
        (id >> 16) & 0xff,
        (id >> 8) & 0xff,
        id & 0xff
    )
}

fn neigh(ip: Ipv4Addr, mac: &str, dev: &str) -> String {
    format!("neigh replace {ip} lladdr {mac} dev {dev} nud permanent\n")
}

/// The two ends of cable `n` between an edge and a core: (edge's, core's), a /30.
fn cable_ends(n: usize) -> (Ipv4Addr, Ipv4Addr) {
    let base = u32::from(Ipv4Addr::new(172, 16, 0, 0)) + 4 * n as u32;
    (Ipv4Addr::from(base + 1), Ipv4Addr::from(base + 2))
}

/// A directed link of the fat-tree: a PC's cable (out of or into the PC),
/// or a VLAN's cable between an edge and its core (up or down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Link {
    Pc(usize, bool),
    Up(usize, usize),
    Down(usize, usize),
}

/// Each flow's predicted payload throughput on the fat-tree, bits/s: a
/// link's payload rate divided by the most flows on any link it crosses
/// (its PCs' cables and, between edges, its VLAN's cables up from one and
/// down to the other).
pub fn predict(flows: &[(usize, usize)], s: &Shape, rate: f64, mptcp: bool) -> Vec<f64> {
    let rate = rate * fnn_export::bandwidth::payload_share(mptcp);
    let route = |a: usize, b: usize| {
        let mut v = vec![Link::Pc(a, true), Link::Pc(b, false)];
        if s.edge(a) != s.edge(b) {
            let vlan = s.vlan_for(b);
            v.extend([Link::Up(s.edge(a), vlan), Link::Down(vlan, s.edge(b))]);
        }
        v
    };
    fnn_export::bandwidth::share_busiest(flows, rate, route)
}

/// Builds the fat-tree in `tb`: the PCs' namespaces (one a PC, by the
/// PC's name) and every cable end to rate-limit.
pub fn build(c: &Cluster, pcs: usize, s: &Shape, tb: &mut Testbed) -> Result<(Vec<String>, Vec<End>), EmulateError> {
    let p = tb.prefix.clone();
    let edges: Vec<String> = (0..s.edges).map(|e| format!("{p}-E{e}")).collect();
    let cores: Vec<String> = (0..s.cores).map(|k| format!("{p}-C{k}")).collect();
    let namespaces: Vec<String> = (0..pcs).map(|pc| tb.namespace(c, pc)).collect();
    tb.add_namespaces(
        &edges
            .iter()
            .chain(&cores)
            .chain(&namespaces)
            .cloned()
            .collect::<Vec<_>>(),
    )?;
    let mut ends: Vec<End> = Vec::new();
    // Cables: created in the host, each end moved into its switch.
    let mut host = String::new();
    let mut edge_cfg: Vec<String> = (0..s.edges)
        .map(|e| {
            format!(
                "link add name edge address {} type bridge\nlink set edge up\naddr add {}/16 dev edge\n",
                mac(2, e),
                gateway(e)
            )
        })
        .collect();
    let mut core_cfg: Vec<String> = vec![String::new(); s.cores];
    let cable = |e: usize, v: usize| e * s.vlans() + v;
    for e in 0..s.edges {
        for v in 0..s.cores * s.bundle {
            let n = cable(e, v);
            let k = v / s.bundle;
            let (up, down) = cable_ends(n);
            host.push_str(&format!(
                "link add c{n}e address {} netns {} type veth peer name c{n}k address {} netns {}\n",
                mac(3, n),
                batch_word(&edges[e]),
                mac(4, n),
                batch_word(&cores[k])
            ));
            edge_cfg[e].push_str(&format!("addr add {up}/30 dev c{n}e\nlink set c{n}e up\n"));
            edge_cfg[e].push_str(&neigh(down, &mac(4, n), &format!("c{n}e")));
            core_cfg[k].push_str(&format!("addr add {down}/30 dev c{n}k\nlink set c{n}k up\n"));
            core_cfg[k].push_str(&neigh(up, &mac(3, n), &format!("c{n}k")));
            ends.extend([
                (Some(edges[e].clone()), format!("c{n}e")),
                (Some(cores[k].clone()), format!("c{n}k")),
            ]);
        }
    }
    for (pc, ns) in namespaces.iter().enumerate() {
        let e = s.edge(pc);
        host.push_str(&format!(
            "link add p{pc} netns {} type veth peer name eth0 address {} netns {}\n",
            batch_word(&edges[e]),
            mac(1, pc),
            batch_word(ns)
        ));
        edge_cfg[e].push_str(&format!("link set p{pc} master edge up\n"));
        edge_cfg[e].push_str(&neigh(address(pc, s), &mac(1, pc), "edge"));
        ends.extend([
            (Some(edges[e].clone()), format!("p{pc}")),
            (Some(ns.clone()), "eth0".into()),
        ]);
    }
    commands::batch(&host, None)?;
    add_routes(s, pcs, &mut edge_cfg, &mut core_cfg);
    for (ns, cfg) in edges.iter().zip(&edge_cfg).chain(cores.iter().zip(&core_cfg)) {
        router(ns)?;
        commands::run_with(&["ip", "-n", ns, "-batch", "-"], Some(cfg.clone().into_bytes()), None)?;
    }
    configure_pcs(s, &namespaces)?;
    Ok((namespaces, ends))
}

/// Routes by destination: up the cable its number picks, and from the
/// core down the same-numbered cable to its edge.
fn add_routes(s: &Shape, pcs: usize, edge_cfg: &mut [String], core_cfg: &mut [String]) {
    let cable = |e: usize, v: usize| e * s.vlans() + v;
    for d in 0..pcs {
        let v = s.vlan_for(d);
        let (k, de) = (v / s.bundle.max(1), s.edge(d));
        for (e, cfg) in edge_cfg.iter_mut().enumerate() {
            if e == de || s.cores == 0 {
                continue;
            }
            cfg.push_str(&format!(
                "route add {}/32 via {}\n",
                address(d, s),
                cable_ends(cable(e, v)).1
            ));
        }
        if s.cores > 0 {
            core_cfg[k].push_str(&format!(
                "route add {}/32 via {}\n",
                address(d, s),
                cable_ends(cable(de, v)).0
            ));
        }
    }
}

/// Each PC's address, its route through its edge switch, and the static
/// neighbours on its edge.
fn configure_pcs(s: &Shape, namespaces: &[String]) -> Result<(), EmulateError> {
    let pcs = namespaces.len();
    for (pc, ns) in namespaces.iter().enumerate() {
        let mut script = format!(
            "link set eth0 up\naddr add {}/16 dev eth0\nroute add 10.0.0.0/8 via {}\n",
            address(pc, s),
            gateway(s.edge(pc))
        );
        script.push_str(&neigh(gateway(s.edge(pc)), &mac(2, s.edge(pc)), "eth0"));
        for peer in (0..pcs).filter(|&o| o != pc && s.edge(o) == s.edge(pc)) {
            script.push_str(&neigh(address(peer, s), &mac(1, peer), "eth0"));
        }
        commands::run_with(&["ip", "-n", ns, "-batch", "-"], Some(script.into_bytes()), None)?;
    }
    Ok(())
}

/// Makes namespace `ns` a router: it forwards, and takes packets back by
/// whatever cable they arrive on (paths up and down differ by destination).
fn router(ns: &str) -> Result<(), EmulateError> {
    super::netns::within(ns, || {
        fnn_core::fs::kernel::set(std::path::Path::new("/proc/sys/net/ipv4/ip_forward"), "1")?;
        for f in ["all", "default"] {
            fnn_core::fs::kernel::set(
                std::path::Path::new(&format!("/proc/sys/net/ipv4/conf/{f}/rp_filter")),
                "0",
            )?;
        }
        Ok(())
    })
    .map_err(|e| EmulateError::Setup {
        command: format!("forwarding in {ns}"),
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flows to PCs on other edges cross the VLAN (core and cable) their
    /// destination picks; flows within an edge cross none.
    #[test]
    fn flows_share_the_cable_their_destination_picks() {
        let s = Shape {
            to_nodes: 2,
            edges: 4,
            cores: 2,
            bundle: 1,
        };
        let full = 10.0 * fnn_export::bandwidth::payload_share(false);
        assert_eq!(predict(&[(0, 1), (1, 0)], &s, 10.0, false), vec![full; 2]);
        // 2 and 4 are both even: VLAN 0, and edge 0's one cable to core 0.
        assert_eq!(predict(&[(0, 2), (1, 4)], &s, 10.0, false), vec![full / 2.0; 2]);
        // 2 and 5 take a cable each.
        assert_eq!(predict(&[(0, 2), (1, 5)], &s, 10.0, false), vec![full; 2]);
        // Two cables to each core: 2 and 4 differ mod 4.
        let wide = Shape { bundle: 2, ..s };
        assert_eq!(predict(&[(0, 2), (1, 4)], &wide, 10.0, false), vec![full; 2]);
        assert_eq!((wide.vlan_for(5), s.edge(5), wide.vlans()), (1, 2, 4));
    }
}
