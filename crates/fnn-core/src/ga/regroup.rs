//! A wiring read as partitions: each switch width a kind of switch, each
//! switch the PCs on it, every required pair an edge, as the partition
//! walk ([`super::residual`]) works on them, so that a generation walks
//! on from the best member rather than from a fresh greedy fill: a design
//! a few pairs short needs moves for those, not for every required pair
//! again (a fresh fill left ~1,900 of 7,241 pairs open, which a
//! generation's time slice never brought back to the few the best member
//! leaves).
//!
//! Only where every PC is cabled on every NIC, nothing is pinned, and
//! every PC has as many NICs on each width as the first.

use super::Rng;
use super::genome::Genome;
use super::local::Required;
use super::problem::Problem;
use super::residual::{Kind, Walk};
use super::strategy::Budget;
use crate::design::bits;

pub(super) struct Regroup {
    kinds: Vec<Kind>,
    /// Each kind's switches, in the order its blocks are numbered.
    switches: Vec<Vec<usize>>,
    /// `blocks[kind][switch]`: the PCs on each switch.
    blocks: Vec<Vec<Vec<usize>>>,
    edges: Vec<(u32, u32)>,
}

impl Regroup {
    /// `g` as partitions, if it reads as them.
    pub(super) fn read(problem: &Problem, req: &Required<'_>, g: &Genome) -> Option<Regroup> {
        let c = &problem.cluster;
        if !c.pins.is_empty() {
            return None;
        }
        let g = g.with_masks(problem);
        let ws = super::blocks::widths(problem);
        let switches: Vec<Vec<usize>> = ws
            .iter()
            .map(|&w| (0..problem.switches()).filter(|&s| c.ports(s) == w).collect())
            .collect();
        let mut at = vec![(0, 0); problem.switches()];
        for (k, ss) in switches.iter().enumerate() {
            for (j, &s) in ss.iter().enumerate() {
                at[s] = (k, j);
            }
        }
        let mut blocks: Vec<Vec<Vec<usize>>> = switches.iter().map(|ss| vec![Vec::new(); ss.len()]).collect();
        let mut per_pc: Option<Vec<usize>> = None;
        for pc in 0..problem.pcs() {
            if g.uncabled(problem, pc) > 0 {
                return None;
            }
            let mut counts = vec![0; ws.len()];
            for s in bits::ones(g.mask(problem, pc)) {
                let (k, j) = at[s];
                counts[k] += 1;
                blocks[k][j].push(pc);
            }
            match &per_pc {
                Some(first) if *first != counts => return None,
                Some(_) => {}
                None => per_pc = Some(counts),
            }
        }
        let kinds = ws
            .iter()
            .zip(&switches)
            .zip(per_pc?)
            .map(|((&w, ss), per_pc)| Kind {
                width: w as usize,
                per_pc,
                switches: ss.len(),
            })
            .collect();
        let mut edges = Vec::new();
        for a in 0..problem.pcs() {
            req.each(a, |b, _| {
                if a < b {
                    edges.push((a as u32, b as u32));
                }
            });
        }
        Some(Regroup {
            kinds,
            switches,
            blocks,
            edges,
        })
    }

    /// The partition walk from the wiring read, `None` where the wiring
    /// puts a PC on a switch twice.
    pub(super) fn walk(&self, problem: &Problem) -> Option<Walk> {
        Walk::from(problem.pcs(), &self.kinds, &self.edges, &self.blocks)
    }

    /// Whether `walk` works on this wiring's problem (the same kinds of
    /// switch, the same pairs), so it may go on instead of a new one.
    pub(super) fn is_walked_by(&self, walk: &Walk) -> bool {
        walk.covers(&self.kinds, &self.edges)
    }

    /// `walk` on within `budget`: the design it found best (never worse
    /// than where it started) and the moves it made.
    pub(super) fn walk_on(
        &self,
        problem: &Problem,
        walk: &mut Walk,
        budget: Budget<'_>,
        rng: &mut Rng,
    ) -> (Genome, u64) {
        let (found, moves) = walk.go(budget, rng);
        (self.design(problem, &found), moves)
    }

    /// The genome whose switches hold `found`'s blocks.
    fn design(&self, problem: &Problem, found: &[Vec<Vec<usize>>]) -> Genome {
        let mut preferred = vec![Vec::new(); problem.pcs()];
        for (blocks, ss) in found.iter().zip(&self.switches) {
            for (block, &s) in blocks.iter().zip(ss) {
                block.iter().for_each(|&pc| preferred[pc].push(s));
            }
        }
        let pcs: Vec<usize> = (0..problem.pcs()).collect();
        Genome::construct(problem, &pcs, &|pc| preferred[pc].clone())
    }
}
