//! A wiring read as partitions: each switch width a kind of switch, each
//! switch the PCs on it, every required pair an edge, as the partition
//! walk ([`super::residual`]) works on them, so that a generation walks
//! on from the best member rather than from a fresh greedy fill: a design
//! a few pairs short needs moves for those, not for every required pair
//! again (a fresh fill left ~1,900 of 7,241 pairs open, which a
//! generation's time slice never brought back to the few the best member
//! leaves).
//!
//! Only where nothing is pinned and every PC has as many NICs.

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
    /// `g` as partitions: each kind of switch takes as many NICs of each
    /// PC as most PCs have on it, a PC with more leaving its last ones
    /// out and a PC with fewer (or an uncabled NIC) leaving NICs in the
    /// walk's pool, for the walk to place. A grown design on PCs cut from
    /// a torus left a few PCs with three NICs on one width and one on the
    /// other, and walking none of it left the run 165 pairs short.
    /// `None` where PCs differ in NICs or a cable is pinned.
    pub(super) fn read(problem: &Problem, req: &Required<'_>, g: &Genome) -> Option<Regroup> {
        let c = &problem.cluster;
        if !c.pins.is_empty() || c.nics.iter().any(|&n| n != c.nics[0]) {
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
        // Each PC's switches, kind by kind.
        let on: Vec<Vec<Vec<usize>>> = (0..problem.pcs())
            .map(|pc| {
                let mut by = vec![Vec::new(); ws.len()];
                bits::ones(g.mask(problem, pc)).for_each(|s| by[at[s].0].push(at[s].1));
                by
            })
            .collect();
        let per_pc: Vec<usize> = most_common(on.iter().map(|by| by.iter().map(Vec::len).collect()))?;
        let mut blocks: Vec<Vec<Vec<usize>>> = switches.iter().map(|ss| vec![Vec::new(); ss.len()]).collect();
        for (pc, by) in on.iter().enumerate() {
            for (k, js) in by.iter().enumerate() {
                js.iter().take(per_pc[k]).for_each(|&j| blocks[k][j].push(pc));
            }
        }
        let kinds = ws
            .iter()
            .zip(&switches)
            .zip(per_pc)
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

    /// The required pairs the walk covers.
    pub(super) fn pairs(&self) -> usize {
        self.edges.len()
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
    pub(super) fn design(&self, problem: &Problem, found: &[Vec<Vec<usize>>]) -> Genome {
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

/// The value most of `items` have (the first of those tied), `None`
/// where there are none.
fn most_common<T: Ord + Clone>(items: impl Iterator<Item = T>) -> Option<T> {
    let mut all: Vec<T> = items.collect();
    all.sort();
    all.chunk_by(|a, b| a == b)
        .rev()
        .max_by_key(|run| run.len())
        .map(|run| run[0].clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::Design;
    use crate::ga::Eval;
    use crate::spec::{PatternSpec, sparse_spec};
    use rand::SeedableRng;

    /// 64 PCs, one NIC on 8-port switches (8 blocks of 8 PCs in a row, a
    /// ninth switch spare) and one on 4-port (16 blocks of 4 PCs 16
    /// apart), every pair of a block required; PC 0 wired with both NICs
    /// on 8-port switches (its own block's and the spare), none on its
    /// 4-port block.
    fn one_pc_off_its_split() -> (Problem, Genome) {
        let pcs = 64;
        let eights: Vec<Vec<usize>> = (0..8).map(|b| (b * 8..b * 8 + 8).collect()).collect();
        let fours: Vec<Vec<usize>> = (0..16).map(|b| (0..4).map(|k| b + 16 * k).collect()).collect();
        let pairs = eights
            .iter()
            .chain(&fours)
            .flat_map(|b| {
                b.iter()
                    .flat_map(move |&x| b.iter().filter(move |&&y| x < y).map(move |&y| (x, y)))
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .map(|(a, b)| vec![a as f64, b as f64])
            .collect();
        let pattern = PatternSpec::Pairs { pairs, weight: 1.0 };
        let spec = sparse_spec("split", pcs, 2, &[(8, 9), (4, 16)], vec![pattern]);
        let p = Problem::new(spec.resolve().unwrap());
        let mut blocks = eights;
        blocks.push(vec![0]);
        blocks.extend(fours.into_iter().map(|b| b.into_iter().filter(|&pc| pc != 0).collect()));
        let g = Genome::from_design(&p, &Design::from_blocks(pcs, &blocks));
        (p, g)
    }

    /// A PC whose NICs are split between the widths unlike the others'
    /// leaves its extra NIC out and the walk places the one it lacks:
    /// reading such a wiring not at all left a grown design's walk
    /// undone and the run 165 pairs short.
    #[test]
    fn a_pc_split_unlike_the_others_is_walked_back_into_line() {
        let (p, g) = one_pc_off_its_split();
        assert_eq!(Eval::full(&p, &g).terms.uncovered, 3);
        let req = Required::new(&p);
        let read = Regroup::read(&p, &req, &g).expect("read as partitions");
        assert_eq!(read.kinds.iter().map(|k| k.per_pc).collect::<Vec<_>>(), [1, 1]);
        let mut walk = read.walk(&p).expect("a walk from the wiring");
        let budget = Budget {
            patience: 1_000,
            max: 1_000,
            ..Budget::NONE
        };
        let (found, _) = read.walk_on(&p, &mut walk, budget, &mut Rng::seed_from_u64(1));
        assert_eq!(Eval::full(&p, &found).terms.uncovered, 0);
    }

    #[test]
    fn the_most_common_value_is_the_first_of_those_tied() {
        assert_eq!(most_common([3, 1, 3, 1, 2].into_iter()), Some(1));
        assert_eq!(most_common([2, 5, 5].into_iter()), Some(5));
        assert_eq!(most_common(std::iter::empty::<u8>()), None);
    }
}
