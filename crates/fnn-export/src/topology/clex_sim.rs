//! A simulation of CLEX point-to-point routing (the CLEX paper §II-D, §III), as
//! reconstructed: algorithm A_l routes a message whose destination lies in
//! another level-(l-1) copy by (1) A_(l-1) to a node of its own copy whose
//! level-l edges lead to the destination's copy, (2) one level-l hop, the
//! node spreading its messages evenly over its k level-l links, (3)
//! A_(l-1) inside the destination's copy. A_1 works on a clique: in the
//! first round every node sends one message along each link straight to
//! its destination; the rest go through relays chosen evenly at random, in
//! phases of two rounds (to the relay, from the relay), a message trying
//! twice as many relays in each phase (the paper's growing number of
//! copies) and waiting for the next phase when none has both links free; in the bandwidth-saving
//! variant each relay phase after the first also costs a request and an
//! acknowledgement (two more rounds).
//!
//! Per level it reports what Tables I-IV report: the most rounds any
//! instance took, the average rounds a message spent on the level, the
//! highest average load per node of any instance, and the average hops.

use fnn_core::ga::Rng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use super::clex::Clex;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LevelStats {
    pub level: u32,
    pub max_rounds: u64,
    pub avg_rounds: f64,
    pub max_avg_load: f64,
    pub avg_hops: f64,
}

#[derive(Default)]
struct Acc {
    max_rounds: u64,
    rounds: u64,
    max_load: f64,
    hops: u64,
}

struct Sim {
    c: Clex,
    rng: Rng,
    acc: Vec<Acc>,
    request_ack: bool,
}

/// Simulates `load` messages per node to uniformly random destinations.
pub fn simulate(c: Clex, load: usize, request_ack: bool, seed: u64) -> Vec<LevelStats> {
    let mut sim = Sim {
        c,
        rng: Rng::seed_from_u64(seed),
        acc: (0..c.levels).map(|_| Acc::default()).collect(),
        request_ack,
    };
    let n = c.nodes();
    // Each node sends and receives `load` messages: a random permutation of
    // the multiset of destinations.
    let mut dst: Vec<u64> = (0..n).flat_map(|v| std::iter::repeat_n(v, load)).collect();
    for i in (1..dst.len()).rev() {
        let j = sim.rng.random_range(0..=i);
        dst.swap(i, j);
    }
    let mut msgs: Vec<(u64, u64)> = dst
        .into_iter()
        .enumerate()
        .map(|(i, d)| ((i / load.max(1)) as u64, d))
        .collect();
    let total = msgs.len() as f64;
    sim.stage(c.levels, &mut msgs);
    sim.acc
        .iter()
        .enumerate()
        .map(|(i, a)| LevelStats {
            level: i as u32 + 1,
            max_rounds: a.max_rounds,
            avg_rounds: a.rounds as f64 / total,
            max_avg_load: a.max_load,
            avg_hops: a.hops as f64 / total,
        })
        .collect()
}

impl Sim {
    /// Moves every message (position, target) to its target with A_level.
    fn stage(&mut self, level: u32, msgs: &mut [(u64, u64)]) {
        if level == 1 {
            self.cliques(msgs);
            return;
        }
        let k = self.c.k;
        let place = k.pow(level - 1);
        // Step 1: to a relay in the own copy whose level-l edges reach the target's copy.
        let mut legs: Vec<(u64, u64)> = msgs
            .iter()
            .map(|&(cur, target)| {
                if cur / (place * k) == target / (place * k) && cur / place % k != target / place % k {
                    let want = target / place % k;
                    // Same digits from l up, random digits 2..l-1, d_1 = want.
                    let copy_base = cur - cur % place;
                    let clique = self.rng.random_range(0..place / k);
                    (cur, copy_base + clique * k + want)
                } else {
                    (cur, cur)
                }
            })
            .collect();
        self.stage(level - 1, &mut legs);
        // Step 2: one level-l hop, each node spreading its messages over its k links.
        let mut per_node: std::collections::HashMap<u64, u64> = std::collections::HashMap::new();
        let acc = &mut self.acc[level as usize - 1];
        let mut crossing = 0u64;
        for (m, &(relay, _)) in msgs.iter_mut().zip(&legs) {
            let (_, target) = *m;
            if relay / place % k == target / place % k {
                m.0 = relay;
                continue;
            }
            let sent = per_node.entry(relay).or_insert(0);
            let link = *sent % k;
            let round = *sent / k + 1;
            *sent += 1;
            let want = target / place % k;
            let landed = relay - (relay / place % k) * place + want * place - relay % k + link;
            m.0 = landed;
            crossing += 1;
            acc.hops += 1;
            acc.rounds += round;
            acc.max_rounds = acc.max_rounds.max(round);
        }
        if crossing > 0 {
            let busiest = per_node.values().copied().max().unwrap_or(0);
            acc.max_rounds = acc.max_rounds.max(busiest.div_ceil(k));
            // Average load per node over the nodes of the level (an instance is the whole level here).
            acc.max_load = acc.max_load.max(crossing as f64 / self.c.nodes() as f64);
        }
        // Step 3: within the target's copy.
        self.stage(level - 1, msgs);
    }

    /// A_1 on every clique at once.
    fn cliques(&mut self, msgs: &mut [(u64, u64)]) {
        let k = self.c.k as usize;
        let mut by_clique: std::collections::BTreeMap<u64, Vec<usize>> = std::collections::BTreeMap::new();
        for (i, &(cur, target)) in msgs.iter().enumerate() {
            if cur != target {
                by_clique.entry(cur / k as u64).or_default().push(i);
            }
        }
        for (_, ids) in by_clique {
            let (rounds, loads, hops, max_rounds) = self.clique(msgs, &ids, k);
            let acc = &mut self.acc[0];
            acc.rounds += rounds;
            acc.hops += hops;
            acc.max_rounds = acc.max_rounds.max(max_rounds);
            acc.max_load = acc.max_load.max(loads);
            for &i in &ids {
                msgs[i].0 = msgs[i].1;
            }
        }
    }

    /// One clique: returns (message-rounds, average load per node, hops, rounds).
    fn clique(&mut self, msgs: &[(u64, u64)], ids: &[usize], k: usize) -> (u64, f64, u64, u64) {
        let local = |v: u64| (v % k as u64) as usize;
        let mut used = vec![false; k * k];
        let mut waiting = Vec::new();
        let (mut rounds, mut hops) = (0u64, 0u64);
        // Round 1: one message per link straight to its destination.
        for &i in ids {
            let (s, d) = (local(msgs[i].0), local(msgs[i].1));
            if !used[s * k + d] {
                used[s * k + d] = true;
                rounds += 1;
                hops += 1;
            } else {
                waiting.push((s, d));
            }
        }
        let mut phase = 0u64;
        let mut elapsed = 1u64;
        while !waiting.is_empty() {
            phase += 1;
            elapsed += 2 + if self.request_ack && phase > 1 { 2 } else { 0 };
            used.iter_mut().for_each(|u| *u = false);
            // Each waiting message tries 2^phase relays ("copies"),
            // spread evenly by a random rotation; the first with both
            // links free carries it.
            let copies = 1usize << phase.min(16);
            let offset = self.rng.random_range(0..k);
            let mut next = Vec::new();
            for (n, &(s, d)) in waiting.iter().enumerate() {
                let found = (0..copies.min(k))
                    .map(|c| (offset + n + c * (k / copies.min(k)).max(1)) % k)
                    .find(|&r| r != s && r != d && !used[s * k + r] && !used[r * k + d]);
                match found {
                    Some(r) => {
                        used[s * k + r] = true;
                        used[r * k + d] = true;
                        rounds += elapsed;
                        hops += 2;
                    }
                    None => next.push((s, d)),
                }
            }
            waiting = next;
            if phase > 64 {
                break;
            }
        }
        (rounds, ids.len() as f64 / k as f64, hops, elapsed)
    }
}
