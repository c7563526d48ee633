//! Star, tree, Stack-Ring (SR) and Stack-Mesh (SM) networks of stackable
//! Ethernet switches (the Stack-Ring paper, Varavithya and Thepuatrakul). A stack of
//! `stack` switches of `ports` ports is one "single stack block" (SSB).
//!
//! * SR: `stages` SSBs in a ring; the nodes of stage i have a West NIC on
//!   SSB i and an East NIC on SSB i+1, so SSB i serves stages i-1 and i and
//!   holds half its ports for each. Nodes two or more stages apart need
//!   software forwarding by a node in between.
//! * SM: k x k groups of nodes in a 2D torus; each pair of neighbouring
//!   groups shares an SSB, and every node has N, E, S, W NICs.
//!
//! Reconstructed where the extracted text is ambiguous (see the docs): a
//! stage's West addresses use hosts 127 + x so they cannot collide with the
//! East addresses of the previous stage ("up to 127 nodes at each stage");
//! SM forwarding hops are computed (dimension order over the torus of
//! groups), which gives 3 for 4x4 where the paper's table says 1; Table 1
//! lists a gateway for the West subnet, which is directly attached, so it
//! is routed directly here.

use serde::Serialize;
use std::fmt::Write as _;
use thiserror::Error;

#[derive(Clone, Debug, PartialEq)]
pub struct Hardware {
    /// Ports per switch (I_s).
    pub ports: u32,
    /// Switches per stack (SK_n).
    pub stack: u32,
    /// NICs a node can hold.
    pub max_nics: u32,
    pub link_mbps: f64,
    /// Stack backplane bandwidth (SP), Mb/s.
    pub backplane_mbps: f64,
}

impl Hardware {
    /// Table 2's assumptions: 24-port Fast Ethernet, stacks of five, four NICs.
    pub fn table2() -> Hardware {
        Hardware {
            ports: 24,
            stack: 5,
            max_nics: 4,
            link_mbps: 100.0,
            backplane_mbps: f64::INFINITY,
        }
    }

    fn ssb_ports(&self) -> u32 {
        self.ports * self.stack
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scalability {
    pub topology: String,
    pub switches: u32,
    pub nodes: u32,
    pub nics_per_node: u32,
    /// Most software forwardings between two nodes.
    pub software_forwarding: u32,
    pub bisection_mbps: f64,
}

#[derive(Debug, Error, PartialEq)]
pub enum StackError {
    #[error("a ring needs at least 2 stages, not {0}")]
    RingTooSmall(u32),
    #[error("a stack mesh needs at least 2 x 2 groups, not {0} x {0}")]
    MeshTooSmall(u32),
    #[error("{topology} needs {need} NICs per node but nodes hold {have}")]
    Nics {
        topology: &'static str,
        need: u32,
        have: u32,
    },
    #[error("switches need at least 2 ports")]
    Ports,
}

/// One SSB as a star: every node on one stack.
pub fn star(h: &Hardware) -> Scalability {
    Scalability {
        topology: "star".into(),
        switches: h.stack,
        nodes: h.ssb_ports(),
        nics_per_node: 1,
        software_forwarding: 0,
        bisection_mbps: (h.ports as f64 / 2.0 * h.link_mbps).min(h.backplane_mbps),
    }
}

/// A two-level tree: a root switch, and SSBs hanging from it by bundles of
/// `bundle` links; the root's half-width bounds the bisection.
pub fn tree(h: &Hardware, bundle: u32) -> Result<Scalability, StackError> {
    if h.ports < 2 || bundle == 0 {
        return Err(StackError::Ports);
    }
    let groups = h.ports / bundle;
    Ok(Scalability {
        topology: "tree".into(),
        switches: 1 + groups * h.stack,
        nodes: groups * (h.ssb_ports() - bundle),
        nics_per_node: 1,
        software_forwarding: 0,
        bisection_mbps: (h.ports as f64 / 2.0 * h.link_mbps).min(h.backplane_mbps),
    })
}

pub fn stack_ring(h: &Hardware, stages: u32) -> Result<Scalability, StackError> {
    if stages < 2 {
        return Err(StackError::RingTooSmall(stages));
    }
    if h.max_nics < 2 {
        return Err(StackError::Nics {
            topology: "Stack-Ring",
            need: 2,
            have: h.max_nics,
        });
    }
    let per_stage = h.ssb_ports() / 2;
    Ok(Scalability {
        topology: format!("Stack-Ring {stages}"),
        switches: stages * h.stack,
        nodes: stages * per_stage,
        nics_per_node: 2,
        software_forwarding: (stages / 2).saturating_sub(1),
        // A cut through the ring crosses two SSBs, each carrying a stage's links.
        bisection_mbps: per_stage as f64 * 2.0 * h.link_mbps,
    })
}

pub fn stack_mesh(h: &Hardware, k: u32) -> Result<Scalability, StackError> {
    if k < 2 {
        return Err(StackError::MeshTooSmall(k));
    }
    if h.max_nics < 4 {
        return Err(StackError::Nics {
            topology: "Stack-Mesh",
            need: 4,
            have: h.max_nics,
        });
    }
    let groups = k * k;
    let ssbs = 2 * groups;
    let per_group = h.ssb_ports() / 2;
    // A node reaches the four neighbouring groups directly; each further
    // group on the dimension-order path costs one forward.
    let farthest = 2 * (k / 2);
    Ok(Scalability {
        topology: format!("Stack-Mesh {k}x{k}"),
        switches: ssbs * h.stack,
        nodes: groups * per_group,
        nics_per_node: 4,
        software_forwarding: farthest.saturating_sub(1),
        // A group's links into the next column, k groups across, doubled by the wraparound.
        bisection_mbps: per_group as f64 * h.link_mbps * k as f64 * 2.0,
    })
}

/// Fig. 5: the interface a node of stage `src` uses toward stage `dst`.
pub fn ring_interface(src: u32, dst: u32, stages: u32) -> char {
    let half = stages as f64 / 2.0;
    let (s, d) = (src as f64, dst as f64);
    if s <= half {
        if s <= d && s + half > d { 'E' } else { 'W' }
    } else if s > d && s - half <= d {
        'W'
    } else {
        'E'
    }
}

/// IP addresses of node x (1-based) of a stage: East on SSB stage+1's
/// subnet 10.10.stage.x, West on the previous subnet 10.10.(stage-1).(127+x).
pub(crate) fn ring_addresses(stage: u32, x: u32, stages: u32) -> (String, String) {
    let west_net = (stage + stages - 1) % stages;
    (format!("10.10.{stage}.{x}"), format!("10.10.{west_net}.{}", 127 + x))
}

/// The forwarding table of node x of a stage (Table 1): per stage subnet,
/// the interface and the gateway (the x-th node of the neighbouring stage,
/// so forwarding is spread evenly), or N/A when directly attached.
pub fn ring_forwarding_table(stage: u32, x: u32, stages: u32) -> Vec<(String, char, Option<String>)> {
    let west_net = (stage + stages - 1) % stages;
    (0..stages)
        .map(|net| {
            let network = format!("10.10.{net}.0");
            if net == stage {
                (network, 'E', None)
            } else if net == west_net {
                (network, 'W', None)
            } else {
                let iface = ring_interface(stage, net, stages);
                let gateway = match iface {
                    // The next stage's node x, by its West address on our East subnet.
                    'E' => format!("10.10.{stage}.{}", 127 + x),
                    // The previous stage's node x, by its East address on our West subnet.
                    _ => format!("10.10.{west_net}.{x}"),
                };
                (network, iface, Some(gateway))
            }
        })
        .collect()
}

pub(crate) fn ring_table_text(stage: u32, x: u32, stages: u32) -> String {
    let mut s = String::from("Network\tInterface\tGateway\n");
    for (net, iface, gw) in ring_forwarding_table(stage, x, stages) {
        let _ = writeln!(s, "{net}\t{iface}\t{}", gw.unwrap_or_else(|| "N/A".into()));
    }
    s
}

/// Fig. 7: the interface toward group (xd, yd) from (xs, ys) in a k x k
/// stack mesh, X first, then Y.
pub fn mesh_interface(src: (u32, u32), dst: (u32, u32), k: u32) -> Option<char> {
    let half = k as f64 / 2.0;
    let ((xs, ys), (xd, yd)) = (src, dst);
    if xs != xd {
        let forward = (xd + k - xs) % k;
        return Some(if (forward as f64) < half { 'E' } else { 'W' });
    }
    if ys != yd {
        let forward = (yd + k - ys) % k;
        return Some(if (forward as f64) < half { 'N' } else { 'S' });
    }
    None
}
