//! Figures of merit of a wiring (the KLAT2 paper §6.1, the FNN compiler paper "Performance"):
//! pairwise links and their tight upper bound, bisection estimates, latency
//! in switch hops, cost, and whether the wiring obeys the spec's limits.

use crate::design::bounds::pairwise_upper_bound;
use crate::design::{Design, bits};
use crate::spec::{Cluster, Coverage, UplinkMode};
use serde::Serialize;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Bisection {
    /// Every NIC busy at once: NICs x link speed (the FNN compiler paper: 4 x 64 x 100 Mb/s).
    pub best_case_mbps: f64,
    /// A random permutation: average pairwise links x 2 directions x speed x P/2.
    pub random_permutation_mbps: f64,
    /// What the uplink switch adds: one bidirectional uplink per FNN switch.
    pub uplink_mbps: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Latency {
    /// Pairs that share a switch: one switch hop.
    pub single_switch_pairs: u64,
    /// Pairs that need the uplink switch: three switch hops.
    pub via_uplink_pairs: u64,
    /// Pairs that need a PC to forward (no uplink): two switches, one software hop.
    pub via_pc_pairs: u64,
    pub unreachable_pairs: u64,
    pub avg_switch_hops: f64,
    pub max_switch_hops: u32,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Cost {
    pub switches: f64,
    pub uplink_switch: f64,
    pub nics: f64,
    pub cables: f64,
    pub total: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Metrics {
    pub pcs: usize,
    pub coverage: Coverage,
    pub valid: bool,
    /// Spec limits the wiring breaks (NICs, ports, pins); empty when it obeys them.
    pub violations: Vec<String>,
    pub required_pairs: u64,
    pub uncovered_pairs: u64,
    /// The first uncovered required pairs (at most 1000 listed).
    pub uncovered: Vec<(usize, usize)>,
    pub switches_used: usize,
    pub nics_used: u64,
    pub cables: u64,
    pub ports_used: Vec<u32>,
    pub avg_pairwise_links: f64,
    /// Over the required pairs.
    pub min_pairwise_links: u32,
    pub max_pairwise_links: u32,
    /// histogram[k] = PC pairs sharing exactly k switches.
    pub link_histogram: Vec<u64>,
    pub pairwise_upper_bound: f64,
    /// Weighted average links over the pattern pairs, when there are any.
    pub pattern_avg_links: Option<f64>,
    pub pattern_min_links: Option<u32>,
    /// Required pairs that keep a shared switch if any one switch fails.
    pub redundant_pairs: u64,
    pub bisection: Bisection,
    pub latency: Latency,
    pub cost: Cost,
}

/// At most this many uncovered pairs are listed in a report.
pub(crate) const LISTED_UNCOVERED: usize = 1000;

impl Metrics {
    pub fn compute(design: &Design, c: &Cluster) -> Metrics {
        let p = design.pcs();
        let violations = violations(design, c);
        let ports_used = design.ports_used();
        let max_links = design.switches().min(64 * 64);
        let PairStats {
            mut hist,
            required,
            uncovered,
            uncovered_count,
            redundant,
            min_req,
            latency,
        } = pair_stats(design, c, max_links);
        while hist.len() > 1 && hist[hist.len() - 1] == 0 {
            hist.pop();
        }
        let pairs = (p * p.saturating_sub(1) / 2) as u64;
        let total_links: u64 = hist.iter().enumerate().map(|(k, n)| k as u64 * n).sum();
        let avg = if pairs > 0 {
            total_links as f64 / pairs as f64
        } else {
            0.0
        };
        let nics_used: u64 = ports_used.iter().map(|&u| u as u64).sum();
        let switches_used = ports_used.iter().filter(|&&u| u > 0).count();
        let cluster_ports: Vec<u32> = c.switches.iter().map(|s| s.ports).collect();
        let (pattern_avg, pattern_min) = pattern_links(design, c);
        let speed = c.nic.speed_mbps;
        let uplinks = match c.uplink.mode {
            UplinkMode::None => 0,
            UplinkMode::Separate => switches_used,
            UplinkMode::Folded => switches_used.saturating_sub(1),
        };
        Metrics {
            pcs: p,
            coverage: c.coverage,
            valid: violations.is_empty() && uncovered_count == 0,
            violations,
            required_pairs: required,
            uncovered_pairs: uncovered_count,
            uncovered,
            switches_used,
            nics_used,
            cables: nics_used + uplinks as u64 + c.hot_spares as u64,
            ports_used,
            avg_pairwise_links: avg,
            min_pairwise_links: if required == 0 { 0 } else { min_req },
            max_pairwise_links: (hist.len() - 1) as u32,
            link_histogram: hist,
            pairwise_upper_bound: pairwise_upper_bound(&cluster_ports, c.total_nics(), p),
            pattern_avg_links: pattern_avg,
            pattern_min_links: pattern_min,
            redundant_pairs: redundant,
            bisection: Bisection {
                best_case_mbps: nics_used as f64 * speed,
                random_permutation_mbps: avg * 2.0 * speed * p as f64 / 2.0,
                uplink_mbps: uplinks as f64 * 2.0 * c.uplink.speed_mbps,
            },
            latency: latency.summary(),
            cost: cost(design, c, nics_used, uplinks as u64),
        }
    }
}

fn violations(design: &Design, c: &Cluster) -> Vec<String> {
    let mut v = Vec::new();
    if design.pcs() != c.pcs() {
        v.push(format!(
            "the table has {} PCs but the spec has {}",
            design.pcs(),
            c.pcs()
        ));
    }
    if design.switches() > c.switch_count() {
        v.push(format!(
            "the table uses switch {} but the spec has FNN switches 0 to {}",
            design.switches() - 1,
            c.switch_count().saturating_sub(1)
        ));
    }
    for pc in 0..design.pcs().min(c.pcs()) {
        let used = design.nics_used(pc);
        if used > c.nics[pc] {
            v.push(format!(
                "{} is on {used} switches but has {}",
                c.pc_name(pc),
                crate::words::count(c.nics[pc] as usize, "NIC")
            ));
        }
        for s in bits::ones(c.pins.must(pc)) {
            if s >= design.switches() || !design.has(pc, s) {
                v.push(format!(
                    "{} is pinned to switch {s} but not cabled to it",
                    c.pc_name(pc)
                ));
            }
        }
        for s in bits::ones(c.pins.forbid(pc)) {
            if s < design.switches() && design.has(pc, s) {
                v.push(format!(
                    "{} is cabled to switch {s}, which is forbidden for it",
                    c.pc_name(pc)
                ));
            }
        }
    }
    for (s, &u) in design.ports_used().iter().enumerate() {
        if s < c.switch_count() && u > c.ports(s) {
            v.push(format!("switch {s} has {u} PCs but {} usable ports", c.ports(s)));
        }
    }
    v
}

fn pattern_links(design: &Design, c: &Cluster) -> (Option<f64>, Option<u32>) {
    let pat = &c.pattern;
    if pat.pair_count() == 0 {
        return (None, None);
    }
    let (mut sum, mut weight, mut min) = (0i128, 0i128, u32::MAX);
    for (a, b, w) in pat.pairs() {
        if a >= design.pcs() || b >= design.pcs() {
            continue;
        }
        let l = design.links(a, b);
        sum += w as i128 * l as i128;
        weight += w as i128;
        min = min.min(l);
    }
    if weight == 0 {
        return (None, None);
    }
    (Some(sum as f64 / weight as f64), Some(min))
}

/// What one pass over every pair of PCs counts.
struct PairStats {
    hist: Vec<u64>,
    required: u64,
    uncovered: Vec<(usize, usize)>,
    uncovered_count: u64,
    redundant: u64,
    min_req: u32,
    latency: Hops,
}

/// Pairs by how many switch hops join them.
#[derive(Clone, Copy, Default)]
struct Hops {
    single: u64,
    up: u64,
    via_pc: u64,
    none: u64,
}

impl PairStats {
    fn new(max_links: usize) -> PairStats {
        PairStats {
            hist: vec![0; max_links + 1],
            required: 0,
            uncovered: Vec::new(),
            uncovered_count: 0,
            redundant: 0,
            min_req: u32::MAX,
            latency: Hops::default(),
        }
    }

    /// Both counts together; `later` holds pairs after this one's, so the
    /// listed uncovered pairs stay the first ones in order.
    fn merge(mut self, later: PairStats) -> PairStats {
        for (h, l) in self.hist.iter_mut().zip(&later.hist) {
            *h += l;
        }
        self.required += later.required;
        let room = LISTED_UNCOVERED.saturating_sub(self.uncovered.len());
        self.uncovered.extend(later.uncovered.into_iter().take(room));
        self.uncovered_count += later.uncovered_count;
        self.redundant += later.redundant;
        self.min_req = self.min_req.min(later.min_req);
        let (a, b) = (&mut self.latency, later.latency);
        (a.single, a.up, a.via_pc, a.none) = (a.single + b.single, a.up + b.up, a.via_pc + b.via_pc, a.none + b.none);
        self
    }
}

/// Every pair of PCs once, rows spread over the cores (two full passes
/// over 134M pairs took a second at 16384 PCs, after the time limit).
fn pair_stats(design: &Design, c: &Cluster, max_links: usize) -> PairStats {
    use rayon::prelude::*;
    let p = design.pcs();
    let adj = reach_through_a_pc(design);
    // A pair without a shared switch goes through the uplink when there
    // is one and both PCs are cabled.
    let cabled: Vec<bool> = (0..p).map(|pc| design.nics_used(pc) > 0).collect();
    let uplinked = (c.uplink.mode != UplinkMode::None).then_some(cabled.as_slice());
    (0..p)
        .into_par_iter()
        .fold(
            || PairStats::new(max_links),
            |mut st, a| {
                row_stats(design, c, &adj, uplinked, a, &mut st);
                st
            },
        )
        .reduce(|| PairStats::new(max_links), PairStats::merge)
}

/// The pairs `(a, b)`, `b > a`, added to `st`.
fn row_stats(design: &Design, c: &Cluster, adj: &[u64], uplinked: Option<&[bool]>, a: usize, st: &mut PairStats) {
    let w = design.words();
    let max_links = st.hist.len() - 1;
    // The switches `a` reaches through one PC, made only if some pair
    // in its row needs them.
    let mut reach: Option<Vec<u64>> = None;
    let mut links = Vec::with_capacity(design.pcs() - a);
    bits::and_counts(design.mask(a), &design.masks()[(a + 1) * w..], w, &mut links);
    // A sparse pattern's partners of `a` above it, in order: walked beside
    // `b` instead of searched for every pair.
    let universal = c.coverage == Coverage::Universal;
    let (partners, _) = c.pattern.row(a);
    let mut next = partners.partition_point(|&q| q as usize <= a);
    for (b, &l) in (a + 1..design.pcs()).zip(&links) {
        st.hist[(l as usize).min(max_links)] += 1;
        let partner = next < partners.len() && partners[next] as usize == b;
        next += usize::from(partner);
        if universal || partner {
            st.required += 1;
            st.min_req = st.min_req.min(l);
            if l == 0 {
                st.uncovered_count += 1;
                if st.uncovered.len() < LISTED_UNCOVERED {
                    st.uncovered.push((a, b));
                }
            } else if l >= 2 {
                st.redundant += 1;
            }
        }
        let hops = &mut st.latency;
        if l > 0 {
            hops.single += 1;
        } else if uplinked.is_some_and(|cabled| cabled[a] && cabled[b]) {
            hops.up += 1;
        } else {
            let reach = reach.get_or_insert_with(|| {
                let mut r = vec![0u64; w];
                for s in bits::ones(design.mask(a)) {
                    for k in 0..w {
                        r[k] |= adj[s * w + k];
                    }
                }
                r
            });
            if bits::meet(reach, design.mask(b)) {
                hops.via_pc += 1;
            } else {
                hops.none += 1;
            }
        }
    }
}

/// For each switch, the switches reachable from it through one PC on
/// both (`words` per switch).
fn reach_through_a_pc(design: &Design) -> Vec<u64> {
    let w = design.words();
    let mut adj = vec![0u64; design.switches() * w];
    for pc in 0..design.pcs() {
        let m = design.mask(pc);
        for s in bits::ones(m) {
            for (k, word) in m.iter().enumerate() {
                adj[s * w + k] |= word;
            }
        }
    }
    adj
}

impl Hops {
    /// Hops between every pair: one switch when they share one; otherwise
    /// the uplink switch (three switches) when there is one, or a
    /// forwarding PC.
    fn summary(self) -> Latency {
        let Hops {
            single,
            up,
            via_pc,
            none,
        } = self;
        let reachable = single + up + via_pc;
        let hops = single + 3 * up + 2 * via_pc;
        Latency {
            single_switch_pairs: single,
            via_uplink_pairs: up,
            via_pc_pairs: via_pc,
            unreachable_pairs: none,
            avg_switch_hops: if reachable > 0 {
                hops as f64 / reachable as f64
            } else {
                0.0
            },
            max_switch_hops: if up > 0 {
                3
            } else if via_pc > 0 {
                2
            } else {
                u32::from(single > 0)
            },
        }
    }
}

fn cost(design: &Design, c: &Cluster, nics_used: u64, uplinks: u64) -> Cost {
    let used = design.ports_used();
    let switches: f64 = (0..design.switches().min(c.switch_count()))
        .filter(|&s| used[s] > 0)
        .map(|s| c.switch_price(s))
        .sum();
    let uplink_switch = c.uplink.model.map_or(0.0, |m| c.models[m].price);
    let nics = nics_used as f64 * c.nic.price;
    let cables = (nics_used + uplinks + c.hot_spares as u64) as f64 * c.cable_price;
    Cost {
        switches,
        uplink_switch,
        nics,
        cables,
        total: switches + uplink_switch + nics + cables,
    }
}
