//! CLEX (clique expander, the CLEX paper) and the 3D torus it is measured
//! against. The extracted paper lost its mathematical symbols; the
//! construction is reconstructed from the prose and Tables I-IV:
//!
//! * Level 1 is a clique of `k` nodes. Level l is made of `k` copies of the
//!   level l-1 graph, so a CLEX of `levels` levels has k^levels nodes
//!   (Tables I and II: k = 32 with 4 levels, k = 64 with 3).
//! * A node is labelled by its digits (d_L, ..., d_2, d_1) in base k, d_1
//!   its place in its level-1 clique. On level l >= 2 it has edges to all k
//!   nodes of the level-1 clique that agrees with it on every digit except
//!   d_l, which equals the node's own d_1. So every level-1 clique reaches
//!   every copy on every level ("each copy connects each of its subgraphs by
//!   many edges to any other copy") and degrees grow by exactly k per level.
//! * Routing a message on level l: through the level-(l-1) copy to a node
//!   whose level-l edges lead to the destination's copy, one level-l hop,
//!   then within the destination's copy. Level l is crossed once, level l-1
//!   twice, level 1 2^(levels-1) times (Tables I-IV: 1, 2, 4, 10.6 hops
//!   for 4 levels, level 1 at about 1.33 hops a visit because of relaying).
//!
//! Nodes sit in cubes: a level-l cluster of k^l nodes fills a cube of side
//! (k^l)^(1/3) node spacings, so level-l links span up to sqrt(3) times that.

use serde::Serialize;
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum ClexError {
    #[error("a CLEX needs cliques of at least 2 nodes and at least 1 level (k = {k}, levels = {levels})")]
    TooSmall { k: u64, levels: u32 },
    #[error("k^levels = {k}^{levels} nodes is too many (at most 2^40)")]
    TooLarge { k: u64, levels: u32 },
    #[error("a 3D torus needs at least 2 nodes a side, not {0}")]
    TorusTooSmall(u64),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clex {
    pub k: u64,
    pub levels: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelFigures {
    pub level: u32,
    /// Nodes in a level-l cluster.
    pub cluster_nodes: u64,
    /// Edges a node has on this level.
    pub degree: u64,
    /// Longest link on this level, in node spacings.
    pub max_link_length: f64,
    /// Visits of this level by a routed message (level 1 counts visits, a
    /// visit being one hop, or two when relayed).
    pub visits: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClexFigures {
    pub nodes: u64,
    pub degree: u64,
    pub diameter_bound: u64,
    /// All-to-all (§II-C): each message is flooded along a tree that uses
    /// lower levels first, reaching every node after at most one edge per
    /// level.
    pub all_to_all_hops: u64,
    pub levels: Vec<LevelFigures>,
}

impl Clex {
    pub fn new(k: u64, levels: u32) -> Result<Clex, ClexError> {
        if k < 2 || levels == 0 {
            return Err(ClexError::TooSmall { k, levels });
        }
        match k.checked_pow(levels) {
            Some(n) if n <= 1 << 40 => Ok(Clex { k, levels }),
            _ => Err(ClexError::TooLarge { k, levels }),
        }
    }

    pub fn nodes(&self) -> u64 {
        self.k.pow(self.levels)
    }

    fn digit(&self, node: u64, level: u32) -> u64 {
        node / self.k.pow(level - 1) % self.k
    }

    /// The neighbours of `node` on `level`.
    pub fn neighbours(&self, node: u64, level: u32) -> Vec<u64> {
        let k = self.k;
        if level == 1 {
            let base = node - self.digit(node, 1);
            return (0..k).map(|d| base + d).filter(|&n| n != node).collect();
        }
        let place = k.pow(level - 1);
        let target = self.digit(node, 1);
        let here = self.digit(node, level);
        // Same digits but d_l := d_1, and any d_1.
        let clique = node - here * place + target * place - self.digit(node, 1);
        (0..k).map(|d| clique + d).filter(|&n| n != node).collect()
    }

    pub fn figures(&self) -> ClexFigures {
        let levels = (1..=self.levels)
            .map(|l| {
                let cluster = self.k.pow(l);
                LevelFigures {
                    level: l,
                    cluster_nodes: cluster,
                    degree: if l == 1 { self.k - 1 } else { self.k },
                    max_link_length: 3f64.sqrt() * (cluster as f64).cbrt(),
                    visits: 1 << (self.levels - l),
                }
            })
            .collect();
        ClexFigures {
            nodes: self.nodes(),
            degree: self.k - 1 + self.k * (self.levels as u64 - 1),
            diameter_bound: (1 << self.levels) - 1,
            all_to_all_hops: self.levels as u64,
            levels,
        }
    }

    /// Hop distances from `src` to every node (BFS; for small instances).
    pub fn distances(&self, src: u64) -> Vec<u32> {
        let n = self.nodes() as usize;
        let mut dist = vec![u32::MAX; n];
        let mut queue = std::collections::VecDeque::from([src]);
        dist[src as usize] = 0;
        while let Some(u) = queue.pop_front() {
            for l in 1..=self.levels {
                for v in self.neighbours(u, l) {
                    if dist[v as usize] == u32::MAX {
                        dist[v as usize] = dist[u as usize] + 1;
                        queue.push_back(v);
                    }
                }
            }
        }
        dist
    }
}

/// A 3D torus of `side`^3 nodes: degree 6, diameter 3 floor(side/2), the
/// average shortest-path hops, and the bisection in links (two planes of
/// side^2 links because of the wraparound).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TorusFigures {
    /// All-to-all floods dimension by dimension (x, then y, then z), so the
    /// farthest node is reached after the diameter's hops.
    pub all_to_all_hops: u64,
    pub side: u64,
    pub nodes: u64,
    pub degree: u64,
    pub diameter: u64,
    pub avg_hops: f64,
    pub bisection_links: u64,
}

pub fn torus(side: u64) -> Result<TorusFigures, ClexError> {
    if side < 2 {
        return Err(ClexError::TorusTooSmall(side));
    }
    let ring_avg = (0..side).map(|d| d.min(side - d) as f64).sum::<f64>() / side as f64;
    Ok(TorusFigures {
        all_to_all_hops: 3 * (side / 2),
        side,
        nodes: side.pow(3),
        degree: if side == 2 { 3 } else { 6 },
        diameter: 3 * (side / 2),
        avg_hops: 3.0 * ring_avg,
        bisection_links: 2 * side * side,
    })
}

/// The torus closest in size to `nodes` (side = round(cbrt)).
pub fn torus_for(nodes: u64) -> Result<TorusFigures, ClexError> {
    torus(((nodes as f64).cbrt().round() as u64).max(2))
}
